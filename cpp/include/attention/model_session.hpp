// What every kind's session is besides its own computations: its configuration, the task it is
// made over (read-only, so models of one task can share it), its model, the trainer that trains it
// and the test split's evaluation kept until the parameters change; the accessors on them, setting
// every parameter at once, that evaluation, and the session as a file. Each kind's session derives
// from ModelSession<Session, T>, which reads the Config, Task, Model and Evaluation its
// ModelKind<Session> names (model_kind.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "model_kind.hpp"
#include "parameters.hpp"
#include "trainer.hpp"

namespace attention {

template <template <class> class Session, class T> class ModelSession {
  using Kind = ModelKind<Session>;

public:
  using Config = typename Kind::Config;
  using Task = typename Kind::Task;
  using Model = typename Kind::template Model<T>;
  using Evaluation = typename Kind::Evaluation;

  const Config &config() const { return config_; }
  const Task &task() const { return *task_; }
  const std::shared_ptr<const Task> &shared_task() const { return task_; }
  Model &model() { return model_; }
  const Model &model() const { return model_; }
  std::size_t steps() const { return trainer_.steps(); }

  // Sets every parameter at once: `named` must hold exactly the model's names, each with its
  // shape, or InputError blames "parameters" and nothing changes.
  using NamedValues = attention::NamedValues<T>;
  void set_parameters(const std::vector<NamedValues> &named) {
    assign_all(model_.parameters(), named);
  }

  // evaluate(task().test), computed again only when the parameters changed (a walkthrough that
  // compares models asks for it at every edit). The session's prepare_test_evaluation() computes
  // one part of it (a batch of examples), for a caller that keeps each of its tasks short, and is
  // true once it is ready.
  Evaluation test_evaluation() {
    while (!static_cast<Session<T> &>(*this).prepare_test_evaluation()) {
    }
    return test_evaluation_.result();
  }

  // The parameters as stored: in the model's own precision, or rounded to float16 (numpy's
  // rounding) for a file half the size, as the page's shipped models are.
  enum class Storage { model, float16 };
  // Safetensors: the parameters under PyTorch's names in state_dict order, and the kind's format,
  // configuration and what it keeps of its task as metadata (models/session_parts.hpp). InputError
  // blames "dtype" when a parameter is beyond float16's range.
  std::vector<std::uint8_t> save(Storage storage = Storage::model) const;

protected:
  // A session of `config` on `task` (the kind's checks passed), its model of model_config(config,
  // task), trained on the task's training examples but their last `held_out`, which `examples`
  // names in the trainer's errors.
  template <class ModelConfigOf>
  ModelSession(const Config &config, std::shared_ptr<const Task> task, ModelConfigOf model_config,
               std::size_t held_out, const char *examples)
      : config_(config), task_(std::move(task)), model_(model_config(config_, *task_)),
        trainer_(model_.parameters().shared_layout(), task_->train.size() - held_out, config.seed,
                 examples) {}

  Config config_;
  std::shared_ptr<const Task> task_;
  Model model_;
  Trainer<T> trainer_;
  EvaluationCache<Evaluation> test_evaluation_;
};

} // namespace attention

// A kind's session, its ModelSession and its loader (ModelKind<Session>::load) in float and
// double: declared instantiated elsewhere in the kind's header (ATTENTION_EXTERN_SESSION),
// instantiated in its source (ATTENTION_INSTANTIATE_SESSION).
#define ATTENTION_SESSION_INSTANCES(declared, Session)                                             \
  declared template class ModelSession<Session, float>;                                            \
  declared template class ModelSession<Session, double>;                                           \
  declared template class Session<float>;                                                          \
  declared template class Session<double>;                                                         \
  declared template Session<float> ModelKind<Session>::load<float>(const std::uint8_t *,           \
                                                                   std::size_t);                   \
  declared template Session<double> ModelKind<Session>::load<double>(const std::uint8_t *,         \
                                                                     std::size_t)
#define ATTENTION_EXTERN_SESSION(Session) ATTENTION_SESSION_INSTANCES(extern, Session)
#define ATTENTION_INSTANTIATE_SESSION(Session) ATTENTION_SESSION_INSTANCES(, Session)
