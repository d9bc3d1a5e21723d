#include "toy_session.hpp"

#include "attention/walkthrough.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"
#include "models/checks.hpp"
#include "models/session_parts.hpp"
#include "walkthroughs/given_inputs.hpp"
#include "walkthroughs/trace_parts.hpp"

namespace attention {

namespace {

using namespace models;

ClassifierConfig model_config(const ToyConfig &config, const tasks::ClassificationTask &task) {
  ClassifierConfig c;
  c.vocab = task.vocabulary.tokens.size();
  c.labels = task.labels.size();
  c.encoder = ClassifierEncoder::none;
  c.embedding = config.embedding;
  c.seed = config.seed;
  return c;
}

ClassifierSample sample_of(const tasks::ClassificationExample &example) {
  ClassifierSample sample{to_token_ids(example.tokens), example.label, {}};
  for (std::size_t j = 0; j < example.rationale.size(); ++j)
    if (example.rationale[j])
      sample.rationale.push_back(j);
  return sample;
}

struct Tally {
  std::size_t correct = 0, examples = 0;
};

} // namespace

template <class T>
ToySession<T>::ToySession(const ToyConfig &config,
                          std::shared_ptr<const tasks::ClassificationTask> task)
    : Base(config, task ? std::move(task) : ModelKind<ToySession>::make_task(config), model_config,
           0, "sentences") {}

template <class T>
TrainResult<T> ToySession<T>::train(std::size_t steps, std::size_t batch, double learning_rate,
                                    double max_norm, double rationale) {
  std::vector<ClassifierSample> minibatch;
  return trainer_.train(model_.parameters(), steps, batch, learning_rate, max_norm,
                        [&](const std::vector<std::size_t> &examples, ParameterSet<T> &gradients) {
                          minibatch.clear();
                          for (std::size_t index : examples)
                            minibatch.push_back(sample_of(task_->train[index]));
                          return model_.loss_and_gradients(minibatch, gradients,
                                                           static_cast<T>(rationale));
                        });
}

template <class T>
ToyEvaluation ToySession<T>::evaluate(const std::vector<tasks::ClassificationExample> &examples) {
  std::vector<std::vector<TokenId>> sentences;
  for (const auto &example : examples)
    sentences.push_back(to_token_ids(example.tokens));
  const auto outputs = model_.classify(sentences);
  std::size_t correct = 0;
  for (std::size_t k = 0; k < examples.size(); ++k)
    correct += argmax(&outputs.probabilities(k, 0), task_->labels.size()) == examples[k].label;
  return {examples.empty() ? 0.0 : double(correct) / double(examples.size())};
}

// The whole test split as one part: the toy's is small.
template <class T> bool ToySession<T>::prepare_test_evaluation() {
  return test_evaluation_.template advance<Tally>(
      model_.parameters(), task_->test.size(),
      [&](Tally &tally, std::size_t) {
        tally.examples = task_->test.size();
        tally.correct = std::size_t(evaluate(task_->test).accuracy * double(tally.examples) + 0.5);
        return tally.examples;
      },
      [](const Tally &tally) {
        return ToyEvaluation{tally.examples ? double(tally.correct) / double(tally.examples) : 0};
      });
}

template <class T> ClassifierTrace<T> ToySession<T>::read(const std::string &sentence) {
  return model_.trace(to_token_ids(tasks::tokenize(*task_, sentence)));
}

const std::vector<ConfigField<ToyConfig>> &ModelKind<ToySession>::fields() {
  using C = ToyConfig;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      config_field("task", &C::task, R::identity | R::required),
      config_field("language", &C::language, R::identity | R::named),
      config_field("embedding", &C::embedding), config_field("seed", &C::seed, R::plain, max_seed)};
  return fields;
}

SavedModel<ToyConfig> ModelKind<ToySession>::read_saved(const std::uint8_t *bytes,
                                                        std::size_t size) {
  return read_session_file<ToySession>(
      bytes, size,
      [](const safetensors::File &) -> SavedModel<ToyConfig> {
        detail::fail(detail::Argument("bytes"), "a toy model loads from its own files only");
      },
      "a saved toy model");
}

template <class T>
ToySession<T> ModelKind<ToySession>::load(const std::uint8_t *bytes, std::size_t size) {
  return load_session_file<T, ToySession>(bytes, size, "toy model");
}

ATTENTION_INSTANTIATE_SESSION(ToySession);

// ---------------------------------------------------------------------------------------------
// The toy walkthrough: a toy model's reading of one sentence (its words' embeddings, their
// attention weights).

namespace {

using namespace inputs;
using namespace trace_parts;

std::vector<InputField> toy_inputs() {
  const auto &languages = tasks::classification_languages();
  return {texts_field("task", InputKind::choice, Labels(1, "reviews"), Labels(1, "reviews")),
          texts_field("language", InputKind::choice, Labels(1, languages.front()), languages),
          texts_field("sentence", InputKind::text, {"the food was good"}),
          model_field("model", InputKind::model)};
}

template <class T> Trace toy_trace(ToySession<T> &session, const std::string &sentence) {
  const ClassifierTrace<T> t = session.read(sentence);
  Labels words;
  for (auto id : t.tokens)
    words.push_back(session.task().vocabulary.tokens[static_cast<std::size_t>(id)]);
  auto weights = Matrix<double>::from_shape({1, t.weights.size()});
  std::copy(t.weights.begin(), t.weights.end(), weights.data());
  Trace trace;
  trace.walkthrough = "toy";
  trace.labels = {{"tokens", words}};
  trace.models.push_back(
      model_label(session.config(), ModelKind<ToySession>::fields(), {"language"}));
  add_stage(trace, "embeddings",
            {panel("embeddings", "annotation", rows_of(t.embeddings, 0, words.size()), words,
                   numbered("", t.embeddings.shape()[1], 1))});
  add_stage(trace, "weights",
            {panel("weights", "weights", weights, std::vector<Label>{trace.models.front()},
                   plain(words))});
  trace.output = std::move(weights);
  return trace;
}

Trace toy_from(const GivenInputs &given) {
  const auto fields = toy_inputs();
  return stored_model(one_model(given, "one toy model")).as<ToySession>().visit([&](auto &session) {
    require_models_own(given, session);
    return toy_trace(session, sentence(given, fields));
  });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<ToySession>::walkthroughs() {
  return {{"toy", toy_inputs, toy_from}};
}

} // namespace attention
