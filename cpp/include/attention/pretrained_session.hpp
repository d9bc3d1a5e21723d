// The kind of a pretrained checkpoint's models (pretrained.hpp): loaded from the files Hugging Face
// writes and run, never made from options, trained or saved. A model enters the store as its plan
// says (its weights zero) and takes its weights a slice at a time, as a page reads them from the
// reader's files; it runs once every byte is in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model_kind.hpp"
#include "pretrained.hpp"

namespace attention {

template <class T> class PretrainedSession {
public:
  explicit PretrainedSession(const pretrained::Plan &plan) : model_(plan) {}
  const pretrained::Config &config() const { return model_.config(); }
  pretrained::Model<T> &model() { return model_; }
  const pretrained::Model<T> &model() const { return model_; }
  void set_parameters(const std::vector<NamedValues<T>> &named) {
    assign_all(model_.parameters(), named);
  }
  bool prepare_test_evaluation() { return true; } // nothing to measure
  // The model's one generation at a time: its key/value cache and the random state it samples
  // with, both begun again by restart(seed).
  void restart(std::int64_t seed) {
    cache_ = {};
    random_ = NumpyRandomState(seed);
  }
  typename pretrained::Model<T>::Cache &cache() { return cache_; }
  NumpyRandomState &random() { return random_; }
  // Each id's token as its tokenizer shows it (the caller's: the tokenizer is not the core's), for
  // the labels of a walkthrough; empty for a model loaded without one.
  void set_token_texts(std::vector<std::string> texts) { token_texts_ = std::move(texts); }
  // id's text, or "#id" for an id the texts lack
  std::string token_text(TokenId id) const {
    const auto i = static_cast<std::size_t>(id);
    return i < token_texts_.size() ? token_texts_[i] : "#" + std::to_string(id);
  }

private:
  std::vector<std::string> token_texts_;
  pretrained::Model<T> model_;
  typename pretrained::Model<T>::Cache cache_;
  NumpyRandomState random_{0};
};

struct PretrainedEvaluation {};

template <> struct ModelKind<PretrainedSession> {
  static constexpr const char *name = "pretrained";
  static constexpr Abilities abilities{false, false, false};
  using Config = pretrained::Config;
  // family, name (config.json's _name_or_path) and the sizes, as model.config says them
  static const std::vector<ConfigField<Config>> &fields();
  template <class T> using Model = pretrained::Model<T>;
  using Evaluation = PretrainedEvaluation;
  // a file of a Hugging Face causal LM with its own head: loadModel says where it loads instead
  static constexpr const char *state_dict_tensor = "lm_head.weight";
  // A checkpoint is its config.json and weights, not one file: both refuse, naming
  // loadPretrained (InputError blames "bytes").
  static SavedModel<Config> read_saved(const std::uint8_t *bytes, std::size_t size);
  template <class T> static PretrainedSession<T> load(const std::uint8_t *bytes, std::size_t size);
  static std::vector<WalkthroughEntry> walkthroughs();
};

// A model of `plan` in `precision` ("float32" or "float64") in the store, its weights to come.
int create_pretrained(const pretrained::Plan &plan, const std::string &precision);

} // namespace attention
