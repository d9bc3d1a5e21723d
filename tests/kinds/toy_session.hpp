// A kind of model of the test build only (CMake's ATTENTION_TEST_KINDS): added by the recipe of
// docs/architecture.md alone ("How to add a trained model"), so that the tests hold the recipe
// true. Its model is a classifier of the reviews without an encoder (the words' embeddings pooled
// by attention, classifier.hpp); its session, kind, walkthrough (toy), binding, JavaScript entry,
// spec and texts are its own, in tests/kinds/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/classification_tasks.hpp"
#include "attention/classifier.hpp"
#include "attention/model_kind.hpp"
#include "attention/model_session.hpp"

namespace attention {

struct ToyConfig {
  std::string task = "reviews", language = "en";
  std::size_t embedding = 8;
  std::int64_t seed = 0;
};

struct ToyEvaluation {
  double accuracy = 0;
};

template <class T> class ToySession : public ModelSession<ToySession, T> {
  using Base = ModelSession<ToySession, T>;
  using Base::config_, Base::task_, Base::model_, Base::trainer_, Base::test_evaluation_;

public:
  explicit ToySession(const ToyConfig &config,
                      std::shared_ptr<const tasks::ClassificationTask> task = nullptr);

  // The trainer's steps over the training split, λ the rationale term's weight (classifier.hpp).
  TrainResult<T> train(std::size_t steps, std::size_t batch, double learning_rate, double max_norm,
                       double rationale);
  ToyEvaluation evaluate(const std::vector<tasks::ClassificationExample> &examples);
  bool prepare_test_evaluation();
  // What the model computes for one sentence (tasks::tokenize's errors).
  ClassifierTrace<T> read(const std::string &sentence);
};

template <> struct ModelKind<ToySession> {
  static constexpr const char *name = "toy";
  using Config = ToyConfig;
  static const std::vector<ConfigField<Config>> &fields();
  using Task = tasks::ClassificationTask;
  template <class T> using Model = Classifier<T>;
  using Evaluation = ToyEvaluation;
  static std::string task_key(const Config &config) {
    return config.task + " " + config.language + " " + std::to_string(config.seed);
  }
  static std::shared_ptr<const Task> make_task(const Config &config) {
    return tasks::find_classification_task(config.task, config.language, config.seed);
  }
  static constexpr const char *state_dict_tensor = "toy.embedding.weight";
  static constexpr std::size_t default_batch = 16;
  static constexpr double default_learning_rate = 0.05;
  static constexpr const char *loss_weight = "rationale";
  static constexpr double default_loss_weight = 0;
  static SavedModel<Config> read_saved(const std::uint8_t *bytes, std::size_t size);
  template <class T> static ToySession<T> load(const std::uint8_t *bytes, std::size_t size);
  static std::vector<WalkthroughEntry> walkthroughs();
};

ATTENTION_EXTERN_SESSION(ToySession);

} // namespace attention
