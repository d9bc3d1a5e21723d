// A kind of model of the test build only (CMake's ATTENTION_TEST_KINDS), as toy_session.hpp is,
// that only loads and runs (Abilities none: no create, no training, no saving), as a pretrained
// model read from someone else's files does: a PyTorch state_dict of two tensors,
// frozen.embedding.weight (the reviews task's vocabulary by E) and frozen.query (E), whose
// attention over a sentence's words is softmax_j(x_j · q).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/classification_tasks.hpp"
#include "attention/model_kind.hpp"
#include "attention/parameters.hpp"
#include "attention/sentences.hpp"

namespace attention {

struct FrozenConfig {
  std::string task = "reviews", language = "en";
  std::size_t embedding = 1;
};

template <class T> class FrozenModel {
public:
  FrozenModel(std::size_t vocab, std::size_t embedding);
  ParameterSet<T> &parameters() { return parameters_; }
  const ParameterSet<T> &parameters() const { return parameters_; }
  // softmax_j(x_j · q) over the sentence's words
  std::vector<T> weights(const std::vector<TokenId> &tokens) const;

private:
  std::size_t embedding_;
  ParameterSet<T> parameters_;
};

struct FrozenEvaluation {};

template <class T> class FrozenSession {
public:
  // A session of the configuration a file gave, its parameters zero until the file's are set.
  FrozenSession(const FrozenConfig &config, std::shared_ptr<const tasks::ClassificationTask> task);
  const FrozenConfig &config() const { return config_; }
  const tasks::ClassificationTask &task() const { return *task_; }
  FrozenModel<T> &model() { return model_; }
  const FrozenModel<T> &model() const { return model_; }
  void set_parameters(const std::vector<NamedValues<T>> &named) {
    assign_all(model_.parameters(), named);
  }
  bool prepare_test_evaluation() { return true; } // nothing to measure
  // The sentence's words (tasks::tokenize's errors) and their weights.
  std::pair<std::vector<TokenId>, std::vector<T>> read(const std::string &sentence) const;

private:
  FrozenConfig config_;
  std::shared_ptr<const tasks::ClassificationTask> task_;
  FrozenModel<T> model_;
};

template <> struct ModelKind<FrozenSession> {
  static constexpr const char *name = "frozen";
  static constexpr Abilities abilities{false, false, false};
  using Config = FrozenConfig;
  static const std::vector<ConfigField<Config>> &fields();
  using Task = tasks::ClassificationTask;
  template <class T> using Model = FrozenModel<T>;
  using Evaluation = FrozenEvaluation;
  static constexpr const char *state_dict_tensor = "frozen.query";
  // The configuration its tensors imply (InputError blames "bytes"): E from the shapes, the
  // language from the vocabulary's size, the precision from the dtype.
  static SavedModel<Config> read_saved(const std::uint8_t *bytes, std::size_t size);
  template <class T> static FrozenSession<T> load(const std::uint8_t *bytes, std::size_t size);
  static std::vector<WalkthroughEntry> walkthroughs();
};

} // namespace attention
