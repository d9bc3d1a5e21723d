#include "frozen_session.hpp"

#include <algorithm>
#include <cmath>

#include "attention/walkthrough.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"
#include "models/session_parts.hpp"
#include "walkthroughs/given_inputs.hpp"
#include "walkthroughs/trace_parts.hpp"

namespace attention {

namespace {

ParameterLayout frozen_layout(std::size_t vocab, std::size_t embedding) {
  return std::make_shared<const std::vector<ParameterInfo>>(std::vector<ParameterInfo>{
      {"frozen.embedding.weight", {vocab, embedding}, 0, vocab * embedding},
      {"frozen.query", {embedding}, vocab * embedding, embedding}});
}

} // namespace

template <class T>
FrozenModel<T>::FrozenModel(std::size_t vocab, std::size_t embedding)
    : embedding_(embedding), parameters_(frozen_layout(vocab, embedding)) {}

template <class T>
std::vector<T> FrozenModel<T>::weights(const std::vector<TokenId> &tokens) const {
  const T *table = parameters_.values("frozen.embedding.weight");
  const T *query = parameters_.values("frozen.query");
  std::vector<T> scores;
  for (const TokenId token : tokens) {
    T score = 0;
    for (std::size_t k = 0; k < embedding_; ++k)
      score += table[static_cast<std::size_t>(token) * embedding_ + k] * query[k];
    scores.push_back(score);
  }
  const T most = *std::max_element(scores.begin(), scores.end());
  T total = 0;
  for (T &score : scores)
    total += score = std::exp(score - most);
  for (T &score : scores)
    score /= total;
  return scores;
}

template <class T>
FrozenSession<T>::FrozenSession(const FrozenConfig &config,
                                std::shared_ptr<const tasks::ClassificationTask> task)
    : config_(config), task_(std::move(task)),
      model_(task_->vocabulary.tokens.size(), config.embedding) {}

template <class T>
std::pair<std::vector<TokenId>, std::vector<T>>
FrozenSession<T>::read(const std::string &sentence) const {
  std::vector<TokenId> tokens = models::to_token_ids(tasks::tokenize(*task_, sentence));
  std::vector<T> weights = model_.weights(tokens);
  return {std::move(tokens), std::move(weights)};
}

template class FrozenModel<float>;
template class FrozenModel<double>;
template class FrozenSession<float>;
template class FrozenSession<double>;

const std::vector<ConfigField<FrozenConfig>> &ModelKind<FrozenSession>::fields() {
  using C = FrozenConfig;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      config_field("task", &C::task, R::identity | R::required),
      config_field("language", &C::language, R::identity | R::named),
      config_field("embedding", &C::embedding)};
  return fields;
}

SavedModel<FrozenConfig> ModelKind<FrozenSession>::read_saved(const std::uint8_t *bytes,
                                                              std::size_t size) {
  const safetensors::File file = safetensors::parse(bytes, size);
  const safetensors::TensorInfo *table = file.find("frozen.embedding.weight");
  if (!table || table->shape.size() != 2 || !file.find("frozen.query"))
    detail::fail(detail::Argument("bytes"),
                 "a frozen model's file holds frozen.embedding.weight (V x E) and frozen.query");
  SavedModel<FrozenConfig> saved;
  saved.config.embedding = table->shape[1];
  saved.precision = table->dtype == "F64" ? "float64" : "float32";
  for (const auto &language : tasks::classification_languages())
    if (tasks::empty_classification_task("reviews", language).vocabulary.tokens.size() ==
        table->shape[0]) {
      saved.config.language = language;
      return saved;
    }
  detail::fail(detail::Argument("bytes"), "no task has a vocabulary of ", table->shape[0],
               " words, as the file's embedding has");
}

template <class T>
FrozenSession<T> ModelKind<FrozenSession>::load(const std::uint8_t *bytes, std::size_t size) {
  const SavedModel<FrozenConfig> saved = read_saved(bytes, size);
  FrozenSession<T> session(
      saved.config, tasks::find_classification_task(saved.config.task, saved.config.language, 0));
  load_model_file(safetensors::parse(bytes, size), session.model().parameters());
  return session;
}

template FrozenSession<float> ModelKind<FrozenSession>::load<float>(const std::uint8_t *,
                                                                    std::size_t);
template FrozenSession<double> ModelKind<FrozenSession>::load<double>(const std::uint8_t *,
                                                                      std::size_t);

// ---------------------------------------------------------------------------------------------
// The frozen walkthrough: a frozen model's attention over one sentence.

namespace {

using namespace inputs;
using namespace trace_parts;

std::vector<InputField> frozen_inputs() {
  const auto &languages = tasks::classification_languages();
  // the identity's fields (task, language), as the page asks for the model of them
  return {texts_field("task", InputKind::choice, Labels(1, "reviews"), Labels(1, "reviews")),
          texts_field("language", InputKind::choice, Labels(1, languages.front()), languages),
          texts_field("sentence", InputKind::text, {"the food was good"}),
          model_field("model", InputKind::model)};
}

Trace frozen_from(const GivenInputs &given) {
  const auto fields = frozen_inputs();
  return stored_model(one_model(given, "one frozen model"))
      .as<FrozenSession>()
      .visit([&](auto &session) {
        require_models_own(given, session);
        const auto [tokens, weights] = session.read(sentence(given, fields));
        auto row = Matrix<double>::from_shape({1, weights.size()});
        std::copy(weights.begin(), weights.end(), row.data());
        Trace trace;
        trace.walkthrough = "frozen";
        trace.labels = {{"tokens", tokens_of(session.task().vocabulary, tokens)}};
        trace.models.push_back(
            model_label(session.config(), ModelKind<FrozenSession>::fields(), {"language"}));
        add_stage(trace, "weights",
                  {panel("weights", "weights", row, std::vector<Label>{trace.models.front()},
                         plain(trace.labels.front().second))});
        trace.output = std::move(row);
        return trace;
      });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<FrozenSession>::walkthroughs() {
  return {{"frozen", frozen_inputs, frozen_from}};
}

} // namespace attention
