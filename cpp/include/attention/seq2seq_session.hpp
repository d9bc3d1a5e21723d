// A translation task and an encoder–decoder that learns it: what the JavaScript API's
// createSeq2seq model holds. It owns the task (vocabularies, splits, gold alignments), a
// Seq2seq<T> and a Trainer<T>, and trains, evaluates, translates, saves and loads. The model itself
// knows nothing of tasks; this is the one place where the two meet.
//
// Training: the trainer's loop (trainer.hpp) over the training split's pairs, shuffled from the
// model's seed in an order numpy reproduces (trainer.hpp says how), one Adam step with
// global-norm clipping a minibatch.
//
// Files: safetensors, the parameters under PyTorch's names in state_dict order (F32 or F64 by
// precision, or F16 on request; a load accepts F16 for either precision), and the metadata
// (strings) "format": "attention-stepper/seq2seq", "task", "scoring", "encoder", "layers",
// "embedding", "hidden", "seed", "validation", "precision" ("float32" or "float64"), and "guide"
// (λ) for a model trained with guided alignment. A file without "encoder" and "layers" (saved
// before they existed) holds a forward encoder of one layer; one without "validation" held none
// out; one without "guide", a model that learnt freely.
// A model of a task from text also keeps what it needs to read and write sentences alone
// (models/session_parts.hpp, task_metadata): "taskName", "taskHash", "sourceUnit", "targetUnit",
// "lowercase", "maxSourceLength", "maxTargetLength", "sourceVocabulary", "targetVocabulary".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model_kind.hpp"
#include "seq2seq.hpp"
#include "trainer.hpp"
#include "translation_session.hpp"
#include "translation_tasks.hpp"

namespace attention {

struct Seq2seqSessionConfig {
  std::string task = "en-fr";
  ScoreFunction scoring = ScoreFunction::additive;
  // The model's; the JavaScript API, when not told, picks default_encoder(scoring).
  Encoder encoder = Encoder::forward;
  std::size_t layers = 1;
  std::size_t embedding = 32, hidden = 64;
  std::int64_t seed = 0; // the task's split, the initial parameters and the shuffling
  // Not the model's make but its training's: the largest weight λ of guided alignment train() has
  // used (0: the model learnt freely). A file keeps it.
  double guide = 0;
  // How many of the task's training pairs (its last ones) are held out as the "validation" split,
  // never trained on: what choosing among trained models may look at, the test split left unseen.
  std::size_t validation = 0;
};

// At most half the training split is held out.
constexpr std::size_t max_validation = tasks::train_size / 2;

// Training's limits and defaults (the JavaScript API's too). Learning rate 0.005, batch 32,
// measured in Node with the default sizes (additive, embedding 32, hidden 64), exact match on the
// test split after 100 / 200 / 300 steps:
//   rate    en-fr              en-zh              dates
//   0.002   0.00 0.03 0.21     0.03 0.93 1.00     0.01 0.80 0.92
//   0.005   0.05 0.83 0.99     0.96 1.00 1.00     0.70 0.91 0.93
//   0.01    0.39 0.96 0.98     0.99 1.00 1.00     0.85 0.95 0.97
//   0.02    0.77 0.98 0.87     1.00 1.00 1.00     0.88 0.88 0.95
// 0.01 learns faster at first, and 0.02 already goes back and forth; 0.005 is close by step 300
// (dates 0.93 against 0.97), a factor of four below that, and holds: en-fr stays at 1.00 from step
// 350 to 1200, the longest run measured. A step of 32 pairs takes about 8.5 ms in WebAssembly (one
// thread).
// (max_train_steps, max_learning_rate and default_max_norm are every trainer's: trainer.hpp.)
constexpr std::size_t default_batch = 32, max_batch = tasks::train_size;
constexpr double default_learning_rate = 0.005;

// The alignment measures read the teacher-forced attention: a target word's predicted link is the
// source position of its largest weight (the first of equal ones).
struct Seq2seqEvaluation {
  double exact_match = 0;    // share of sentences translated exactly, <eos> included
  double token_accuracy = 0; // share of gold target tokens (<eos> included) the greedy
                             // translation has at the same position
  double bleu = 0;           // corpus BLEU-4 of the greedy translations, 0 … 100 (tasks::Bleu)
  double loss = 0;           // the mean cross-entropy of the target tokens, teacher forced
  double alignment_accuracy = 0; // share of gold target words (not <eos>) with sure links whose
                                 // predicted link is one of them (the walkthroughs' measure)
  double aer = 0;                // the alignment error rate (tasks::AlignmentScore)
  double aligned_share = 0;      // share of words whose predicted link is sure or possible
  std::vector<tasks::AlignmentScore::Category> categories; // the same, per word category
};

template <class T> struct Seq2seqTranslation {
  Seq2seqTrace<T> trace; // greedy decoding
  // For each step, the translation_top_k most likely tokens and their probabilities (the
  // softmax of the step's logits), most likely first.
  std::vector<std::vector<std::pair<TokenId, T>>> top;
  // The hypotheses the search ended with, best first (greedy decoding: its one).
  std::vector<TranslationHypothesis> beams;
};

template <class T>
class Seq2seqSession : public TranslationSession<Seq2seqSession, T, Seq2seqTranslation<T>> {
  using Base = TranslationSession<Seq2seqSession, T, Seq2seqTranslation<T>>;
  using Base::config_, Base::task_, Base::model_, Base::trainer_, Base::test_evaluation_;

public:
  // InputError blames "task", "scoring" (from the caller's parse), "embedding", "hidden", "seed",
  // "validation".
  // `task`, when given, must be what tasks::make_task(config.task, config.seed) makes: models of
  // one task and seed can share it (it is read-only), which spares making it again (some 50 ms in
  // WebAssembly). Without it, the session makes its own.
  explicit Seq2seqSession(const Seq2seqSessionConfig &config,
                          std::shared_ptr<const tasks::Task> task = nullptr);

  // TranslationSession::train, guided alignment over the GRU's attention (seq2seq.hpp); a guided
  // run raises config().guide to its λ.
  TrainResult<T> train(std::size_t steps, std::size_t batch = default_batch,
                       double learning_rate = default_learning_rate,
                       double max_norm = default_max_norm, double guide = 0);

  // The examples of a split: "train" (the pairs training draws from), "validation" (the pairs held
  // out of them) or "test". InputError blames "split" for another name, or for "validation" when
  // the model holds none out.
  std::vector<tasks::Example> split(const std::string &name) const;

  Seq2seqEvaluation evaluate(const std::vector<tasks::Example> &examples);
  bool prepare_test_evaluation(); // ModelSession::test_evaluation's parts
};

// The seq2seq kind (model_kind.hpp): its identity is its task, scoring function, encoder, layers
// and the largest guided-alignment weight it trained with; a PyTorch state_dict of it is recognised
// by elimination (its loader names what a foreign one lacks).
template <> struct ModelKind<Seq2seqSession> : TranslationKind {
  static constexpr const char *name = "seq2seq";
  using Config = Seq2seqSessionConfig;
  static const std::vector<ConfigField<Config>> &fields();
  template <class T> using Model = Seq2seq<T>;
  using Evaluation = Seq2seqEvaluation;
  static constexpr const char *state_dict_tensor = nullptr;
  static constexpr std::size_t default_batch = attention::default_batch;
  static constexpr double default_learning_rate = attention::default_learning_rate;
  // Its metadata's; or, for a PyTorch state_dict of the reference model saved with safetensors
  // (metadata none or {"format": "pt"}), inferred from its tensors: sizes from the shapes, the
  // scoring function from the attention's parameters, the encoder from its *_reverse tensors, the
  // layers from its *_l1 ones, the task from the vocabularies' sizes, seed 0.
  static SavedModel<Config> read_saved(const std::uint8_t *bytes, std::size_t size);
  // The same task, sizes and parameters (not the optimizer's state; float16 values widened
  // exactly). InputError blames "bytes" for a truncated or corrupt file, a precision other than
  // T's, or tensors whose names, dtypes or shapes are not the model's its metadata describes.
  template <class T> static Seq2seqSession<T> load(const std::uint8_t *bytes, std::size_t size);
  static std::vector<WalkthroughEntry> walkthroughs();
};

ATTENTION_EXTERN_SESSION(Seq2seqSession);

} // namespace attention
