// A classification task and a classifier that learns it: what the JavaScript API's
// createClassifier model holds. It owns the task (reviews, labels, rationales), a Classifier<T>
// and a Trainer<T>, and trains, evaluates, classifies, explains, saves and loads. The model knows
// nothing of words; this is where they meet.
//
// Training: the trainer's loop (trainer.hpp) over the training split's sentences, shuffled from
// the model's seed, one Adam step with global-norm clipping a minibatch; with a rationale weight
// λ > 0, each sentence's attention is also pulled toward its rationale's words (classifier.hpp).
//
// Explanations (Jain & Wallace 2019), of the predicted label c's probability p_c:
//   leave-one-out[j]  p_c minus p_c of the sentence without word j
//   gradients[j]      the L2 norm of ∂p_c / ∂x_j, x_j word j's embedding
//   permutation       the median, over 100 shuffles of α across the words (numpy's
//                     RandomState(seed) shuffles, as NumpyRandomState::shuffled; the states kept),
//                     of |p_c with the shuffled weights - p_c|
//   tau               Kendall's τ-b (scipy.stats.kendalltau's) of α against leave-one-out and
//                     against the gradients; NaN when either is constant (uniform attention)
//
// Files: safetensors, the parameters under PyTorch's names in state_dict order (F32 or F64 by
// precision, or F16 on request), and the metadata "format": "attention-stepper/classifier",
// "task", "language", "encoder", "attention", "embedding", "hidden", "seed", "precision"; a model
// of a task from text also keeps what it needs to read sentences alone (models/session_parts.hpp,
// task_metadata): "taskName", "taskHash", "unit", "lowercase", "maxLength", "vocabulary",
// "labels". A PyTorch state_dict of the reference model loads too
// (ModelKind<ClassifierSession>::read_saved).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "classification_tasks.hpp"
#include "classifier.hpp"
#include "model_kind.hpp"
#include "model_session.hpp"
#include "trainer.hpp"

namespace attention {

struct ClassifierSessionConfig {
  std::string task = "reviews", language = "en";
  ClassifierEncoder encoder = ClassifierEncoder::bigru;
  ClassifierAttention attention = ClassifierAttention::learned;
  // E and H (classifier.hpp): with the training defaults below the bigru learns the reviews task
  // within a hundred steps.
  std::size_t embedding = 32, hidden = 64;
  std::int64_t seed = 0; // the task's split, the initial parameters, the shuffling, permutations
};

// Training's defaults (the JavaScript API's too). Measured natively (float32, one thread, -O3,
// the default sizes, batch 32, Adam at 0.01), test accuracy checked every 25 steps: the bigru, with
// learned or uniform attention, first reaches 95% on the test split and on its negation and
// contrast reviews at step 50 or 75 for seeds 0-2, en and zh (0.05 to 0.16 s of CPU). Without an
// encoder the best of 1000 steps is 0.61 to 0.75 overall and 0.58 to 0.67 on those reviews (a bag
// of words: uniform attention; learned attention does no better, its states knowing no context).
constexpr std::size_t default_classifier_batch = 32, max_classifier_batch = tasks::train_size;
constexpr double default_classifier_learning_rate = 0.01;
constexpr double default_rationale = 0;
constexpr std::size_t explanation_permutations = 100;

struct ClassifierEvaluation {
  double accuracy = 0;
  // the mean share of α on the rationale's words; none when the task marks no rationales
  std::optional<double> rationale_share;
  // the training split's commonest label, and the accuracy of always answering it
  std::size_t majority_label = 0;
  double majority = 0;
  // confusion[gold][predicted]: sentences, labels x labels
  std::vector<std::vector<std::size_t>> confusion;
  struct Category {
    tasks::ReviewCategory category;
    std::size_t count = 0, correct = 0;
  };
  std::vector<Category> categories; // in ReviewCategory's order, those with sentences
  // the accuracy on the negation and contrast sentences (0 when there are none); none for a task
  // from text, whose sentences are all plain
  std::optional<double> negation_contrast_accuracy;
};

// A sentence to learn from: its label (an index into the task's labels) and, if any, its
// rationale (a 0 or 1 per word, as tasks::ClassificationExample's).
struct LabelledSentence {
  std::string sentence;
  std::size_t label = 0;
  std::vector<std::uint8_t> rationale;
};

template <class T> struct ClassificationResult {
  std::size_t label = 0;    // the likeliest (the first of equal ones)
  ClassifierTrace<T> trace; // probabilities, weights, states, scores…
};

struct Explanation {
  std::size_t label = 0; // the predicted label, whose probability is explained
  std::vector<double> leave_one_out, gradients;
  double permutation = 0, tau_leave_one_out = 0, tau_gradients = 0;
};

// The explanations of every test sentence of two words or more, summed up as Jain & Wallace
// report theirs: the median of the sentences' permutation effects, and each τ's mean and standard
// deviation (numpy's std, ddof 0) over the sentences where it is defined (none: NaN).
struct ExplanationSummary {
  std::size_t sentences = 0; // the sentences explained
  double permutation = 0;
  struct Tau {
    double mean = 0, sd = 0;
    std::size_t defined = 0;
  };
  Tau tau_leave_one_out, tau_gradients;
};

template <class T> class ClassifierSession : public ModelSession<ClassifierSession, T> {
  using Base = ModelSession<ClassifierSession, T>;
  using Base::config_, Base::task_, Base::model_, Base::trainer_, Base::test_evaluation_;

public:
  // InputError blames "task", "language", "seed" and the sizes' names (classifier.hpp). `task`,
  // when given, must be what tasks::find_classification_task(config.task, config.language,
  // config.seed) finds: models of one task can share it. A task from text (kept under its id)
  // reads any language: config.language is not checked against it.
  explicit ClassifierSession(const ClassifierSessionConfig &config,
                             std::shared_ptr<const tasks::ClassificationTask> task = nullptr);

  // A sentence's words as the model reads them (tasks::tokenize's errors).
  std::vector<TokenId> tokenize(const std::string &sentence) const;

  // The loss of sentences with their labels, plus `rationale` (λ, as train's) times the term of
  // those that mark a rationale, and its gradients written over `gradients`
  // (model().make_gradients()). InputError blames "examples" for none, "sentence", "label", and
  // "rationale" for a rationale whose length is not the sentence's or a λ < 0.
  T gradients(const std::vector<LabelledSentence> &examples, ParameterSet<T> &gradients,
              double rationale = default_rationale);

  // `steps` optimiser steps; returns the loss of the last minibatch. InputError blames "steps",
  // "batch", "learningRate", "rationale" when out of range (or above 0 on a task that marks no
  // rationales, as a task from text); a loss or parameters that stop being
  // finite stop training as the trainer says (blaming "learningRate").
  TrainResult<T> train(std::size_t steps, std::size_t batch = default_classifier_batch,
                       double learning_rate = default_classifier_learning_rate,
                       double max_norm = default_max_norm, double rationale = default_rationale);

  ClassifierEvaluation evaluate(const std::vector<tasks::ClassificationExample> &examples);
  // ModelSession's, without the explanations prepare_test_evaluation() also prepares.
  ClassifierEvaluation test_evaluation();
  // explain() of every test sentence, summed up; computed again only when the parameters changed.
  ExplanationSummary test_explanations();
  // One part of test_evaluation() or, once it is ready, of test_explanations() (a batch of
  // sentences), for a caller that keeps each of its tasks short; true once both are ready.
  bool prepare_test_evaluation();

  ClassificationResult<T> classify(const std::string &sentence);
  // InputError blames "sentence" for one of fewer than two words (leaving its word out leaves
  // nothing to classify).
  Explanation explain(const std::string &sentence);
  // The same of a sentence's ids (two or more).
  Explanation explain(const std::vector<TokenId> &tokens);

private:
  EvaluationCache<ExplanationSummary> test_explanations_;

  bool advance_test_evaluation();
  bool advance_test_explanations();
};

// Kendall's τ-b of two rankings, as scipy.stats.kendalltau: (concordant - discordant) /
// sqrt((pairs untied in x) (pairs untied in y)); NaN when either is constant. InputError blames
// "values" for lists of different sizes.
double kendall_tau(const std::vector<double> &x, const std::vector<double> &y);

// The classifier kind (model_kind.hpp): its identity is its task, language, encoder and attention.
template <> struct ModelKind<ClassifierSession> {
  static constexpr const char *name = "classifier";
  using Config = ClassifierSessionConfig;
  static const std::vector<ConfigField<Config>> &fields();
  using Task = tasks::ClassificationTask;
  template <class T> using Model = Classifier<T>;
  using Evaluation = ClassifierEvaluation;
  static std::string task_key(const Config &config) {
    return config.task + " " + config.language + " " + std::to_string(config.seed);
  }
  static std::shared_ptr<const Task> make_task(const Config &config) {
    return tasks::find_classification_task(config.task, config.language, config.seed);
  }
  static constexpr const char *state_dict_tensor = "classifier.weight";
  static constexpr std::size_t default_batch = default_classifier_batch;
  static constexpr double default_learning_rate = default_classifier_learning_rate;
  static constexpr const char *loss_weight = "rationale";
  static constexpr double default_loss_weight = default_rationale;
  // Its metadata's; or, for a PyTorch state_dict of the reference model (metadata none or
  // {"format": "pt"}), inferred from its tensors: the sizes from the shapes, the encoder from
  // encoder.*, the attention from attention.*, the language from the vocabulary's size, the task
  // reviews, seed 0, the precision from the dtype.
  static SavedModel<Config> read_saved(const std::uint8_t *bytes, std::size_t size);
  template <class T> static ClassifierSession<T> load(const std::uint8_t *bytes, std::size_t size);
  // sentiment (sentiment_walkthrough.cpp)
  static std::vector<WalkthroughEntry> walkthroughs();
};

ATTENTION_EXTERN_SESSION(ClassifierSession);

} // namespace attention
