#include "attention/classifier_session.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "files/model_file.hpp"
#include "files/safetensors.hpp"
#include "models/checks.hpp"
#include "models/session_parts.hpp"

namespace attention {

namespace {

using namespace models;

// Sentences classified at once by evaluate.
constexpr std::size_t evaluation_chunk = 256;

ClassifierConfig model_config(const ClassifierSessionConfig &config,
                              const tasks::ClassificationTask &task) {
  ClassifierConfig c;
  c.vocab = task.vocabulary.tokens.size();
  c.labels = task.labels.size();
  c.encoder = config.encoder;
  c.attention = config.attention;
  c.embedding = config.embedding;
  c.hidden = config.hidden;
  c.seed = config.seed;
  return c;
}

std::shared_ptr<const tasks::ClassificationTask>
task_for(const ClassifierSessionConfig &config,
         std::shared_ptr<const tasks::ClassificationTask> task) {
  if (!task)
    return ModelKind<ClassifierSession>::make_task(config);
  if (task->id != config.task || (!task->text && task->language != config.language))
    fail(Argument("task"), "the task given (", task->id, " ", task->language,
         ") is not the configuration's (", config.task, " ", config.language, ")");
  return task;
}

// The positions of a rationale's words (its 1s).
std::vector<std::size_t> positions_of(const std::vector<std::uint8_t> &rationale) {
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < rationale.size(); ++j)
    if (rationale[j])
      out.push_back(j);
  return out;
}

ClassifierSample sample_of(const tasks::ClassificationExample &example, bool rationale) {
  return {to_token_ids(example.tokens), example.label,
          rationale ? positions_of(example.rationale) : std::vector<std::size_t>{}};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

// Test sentences explained at once by test_explanations' parts.
constexpr std::size_t explanation_chunk = 32;

// The explanations of test_explanations so far.
struct ExplanationTally {
  std::vector<double> permutations, tau_leave_one_out, tau_gradients;

  void add(const Explanation &explanation) {
    permutations.push_back(explanation.permutation);
    for (auto [tau, into] : {std::pair{explanation.tau_leave_one_out, &tau_leave_one_out},
                             std::pair{explanation.tau_gradients, &tau_gradients}})
      if (!std::isnan(tau))
        into->push_back(tau);
  }
  static ExplanationSummary::Tau summary_of(const std::vector<double> &taus) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (taus.empty())
      return {nan, nan, 0};
    double mean = 0, variance = 0;
    for (double tau : taus)
      mean += tau / double(taus.size());
    for (double tau : taus)
      variance += (tau - mean) * (tau - mean) / double(taus.size());
    return {mean, std::sqrt(variance), taus.size()};
  }
  ExplanationSummary summary() const {
    ExplanationSummary out;
    out.sentences = permutations.size();
    out.permutation =
        permutations.empty() ? std::numeric_limits<double>::quiet_NaN() : median(permutations);
    out.tau_leave_one_out = summary_of(tau_leave_one_out);
    out.tau_gradients = summary_of(tau_gradients);
    return out;
  }
};

} // namespace

double kendall_tau(const std::vector<double> &x, const std::vector<double> &y) {
  if (x.size() != y.size())
    fail(Argument("values"), "the rankings have ", x.size(), " and ", y.size(), " values");
  const auto sign = [](double d) { return (d > 0) - (d < 0); };
  double concordant = 0, discordant = 0, x_ties = 0, y_ties = 0; // ties in one of the two only
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      const int dx = sign(x[i] - x[j]), dy = sign(y[i] - y[j]);
      if (dx == 0 && dy == 0)
        continue;
      if (dx == 0)
        ++x_ties;
      else if (dy == 0)
        ++y_ties;
      else
        (dx == dy ? concordant : discordant) += 1;
    }
  const double untied = concordant + discordant;
  const double denominator = std::sqrt((untied + x_ties) * (untied + y_ties));
  if (untied + x_ties == 0 || untied + y_ties == 0)
    return std::numeric_limits<double>::quiet_NaN();
  return (concordant - discordant) / denominator;
}

template <class T>
ClassifierSession<T>::ClassifierSession(const ClassifierSessionConfig &config,
                                        std::shared_ptr<const tasks::ClassificationTask> task)
    : Base(config, task_for(config, std::move(task)), model_config, 0, "sentences") {}

template <class T>
std::vector<TokenId> ClassifierSession<T>::tokenize(const std::string &sentence) const {
  return to_token_ids(tasks::tokenize(*task_, sentence));
}

template <class T>
T ClassifierSession<T>::gradients(const std::vector<LabelledSentence> &examples,
                                  ParameterSet<T> &gradients, double rationale) {
  if (examples.empty())
    fail(Argument("examples"), "examples is empty: give at least one [sentence, label] pair");
  std::vector<ClassifierSample> batch;
  for (std::size_t k = 0; k < examples.size(); ++k) {
    const LabelledSentence &example = examples[k];
    batch.push_back({tokenize(example.sentence), example.label, positions_of(example.rationale)});
    if (!example.rationale.empty() && example.rationale.size() != batch.back().tokens.size())
      fail(Argument("rationale"), "examples[", k, "]'s rationale has ", example.rationale.size(),
           " entries but its sentence ", batch.back().tokens.size(), " words");
  }
  return model_.loss_and_gradients(batch, gradients, static_cast<T>(rationale));
}

template <class T>
TrainResult<T> ClassifierSession<T>::train(std::size_t steps, std::size_t batch,
                                           double learning_rate, double max_norm,
                                           double rationale) {
  check_weight(rationale, "rationale");
  if (rationale > 0 && !task_->rationales)
    fail(Argument("rationale"), "the ", task_->id,
         " task marks no rationales: train it with rationale 0");
  std::vector<ClassifierSample> minibatch;
  return trainer_.train(model_.parameters(), steps, batch, learning_rate, max_norm,
                        [&](const std::vector<std::size_t> &examples, ParameterSet<T> &gradients) {
                          minibatch.clear();
                          for (std::size_t index : examples)
                            minibatch.push_back(sample_of(task_->train[index], rationale > 0));
                          return model_.loss_and_gradients(minibatch, gradients,
                                                           static_cast<T>(rationale));
                        });
}

namespace {

// What an evaluation adds up over its examples, a part at a time.
struct EvaluationTally {
  std::vector<std::vector<std::size_t>> confusion; // [gold][predicted]
  std::vector<ClassifierEvaluation::Category> categories =
      std::vector<ClassifierEvaluation::Category>(3);
  double rationale_share = 0;
  std::size_t correct = 0, examples = 0;
};

// The examples [first, first + evaluation_chunk) into `tally`; returns where the next part starts.
template <class T>
std::size_t tally_evaluation(Classifier<T> &model, const tasks::ClassificationTask &task,
                             const std::vector<tasks::ClassificationExample> &examples,
                             std::size_t first, EvaluationTally &tally) {
  const std::size_t labels = task.labels.size();
  if (tally.confusion.empty())
    tally.confusion.assign(labels, std::vector<std::size_t>(labels, 0));
  const std::size_t count = std::min(evaluation_chunk, examples.size() - first);
  std::vector<std::vector<TokenId>> sentences;
  for (std::size_t k = 0; k < count; ++k)
    sentences.push_back(to_token_ids(examples[first + k].tokens));
  const auto outputs = model.classify(sentences);
  for (std::size_t k = 0; k < count; ++k) {
    const auto &example = examples[first + k];
    const std::size_t predicted = argmax(&outputs.probabilities(k, 0), labels);
    ++tally.confusion[example.label][predicted];
    tally.correct += predicted == example.label;
    auto &category = tally.categories[static_cast<std::size_t>(example.category)];
    category.category = example.category;
    ++category.count;
    category.correct += predicted == example.label;
    for (std::size_t j = 0; j < example.rationale.size(); ++j)
      tally.rationale_share += example.rationale[j] ? double(outputs.weights[k][j]) : 0.0;
  }
  tally.examples += count;
  return first + count;
}

ClassifierEvaluation evaluation_of(const EvaluationTally &tally,
                                   const tasks::ClassificationTask &task) {
  const std::size_t labels = task.labels.size();
  ClassifierEvaluation result;
  result.confusion = tally.confusion;
  if (result.confusion.empty())
    result.confusion.assign(labels, std::vector<std::size_t>(labels, 0));
  result.accuracy = share(tally.correct, tally.examples);
  if (task.rationales)
    result.rationale_share = tally.examples ? tally.rationale_share / double(tally.examples) : 0.0;
  std::vector<std::size_t> train_labels(labels, 0);
  for (const auto &example : task.train)
    ++train_labels[example.label];
  const std::size_t majority = result.majority_label = argmax(train_labels.data(), labels);
  std::size_t majority_examples = 0;
  for (std::size_t predicted = 0; predicted < labels; ++predicted)
    majority_examples += result.confusion[majority][predicted];
  result.majority = share(majority_examples, tally.examples);
  for (const auto &category : tally.categories)
    if (category.count)
      result.categories.push_back(category);
  const auto &plain = tally.categories[static_cast<std::size_t>(tasks::ReviewCategory::plain)];
  if (!task.text)
    result.negation_contrast_accuracy =
        share(tally.correct - plain.correct, tally.examples - plain.count);
  return result;
}

} // namespace

template <class T>
ClassifierEvaluation
ClassifierSession<T>::evaluate(const std::vector<tasks::ClassificationExample> &examples) {
  return evaluate_parts(model_, *task_, examples, tally_evaluation<T>,
                        [&](const EvaluationTally &tally) { return evaluation_of(tally, *task_); });
}

template <class T> bool ClassifierSession<T>::advance_test_evaluation() {
  return advance_evaluation(
      test_evaluation_, model_, *task_, tally_evaluation<T>,
      [&](const EvaluationTally &tally) { return evaluation_of(tally, *task_); });
}

template <class T> bool ClassifierSession<T>::advance_test_explanations() {
  const auto &test = task_->test;
  return test_explanations_.template advance<ExplanationTally>(
      model_.parameters(), test.size(),
      [&](ExplanationTally &tally, std::size_t first) {
        const std::size_t end = std::min(first + explanation_chunk, test.size());
        for (std::size_t k = first; k < end; ++k)
          if (test[k].tokens.size() > 1)
            tally.add(explain(to_token_ids(test[k].tokens)));
        return end;
      },
      [&](const ExplanationTally &tally) { return tally.summary(); });
}

template <class T> bool ClassifierSession<T>::prepare_test_evaluation() {
  return advance_test_evaluation() && advance_test_explanations();
}

template <class T> ClassifierEvaluation ClassifierSession<T>::test_evaluation() {
  while (!advance_test_evaluation()) {
  }
  return test_evaluation_.result();
}

template <class T> ExplanationSummary ClassifierSession<T>::test_explanations() {
  while (!advance_test_explanations()) {
  }
  return test_explanations_.result();
}

template <class T>
ClassificationResult<T> ClassifierSession<T>::classify(const std::string &sentence) {
  ClassificationResult<T> result;
  result.trace = model_.trace(tokenize(sentence));
  result.label = argmax(result.trace.probabilities.data(), task_->labels.size());
  return result;
}

template <class T> Explanation ClassifierSession<T>::explain(const std::string &sentence) {
  const std::vector<TokenId> tokens = tokenize(sentence);
  if (tokens.size() < 2)
    fail(Argument("sentence"),
         "explain needs a sentence of two words or more: leaving out the "
         "one word of \"",
         sentence.substr(0, 40), "\" leaves nothing to classify");
  return explain(tokens);
}

template <class T> Explanation ClassifierSession<T>::explain(const std::vector<TokenId> &tokens) {
  const std::size_t n = tokens.size();
  const ClassifierTrace<T> trace = model_.trace(tokens);
  Explanation out;
  out.label = argmax(trace.probabilities.data(), task_->labels.size());
  const double p = double(trace.probabilities(out.label));

  std::vector<std::vector<TokenId>> without(n, tokens);
  for (std::size_t j = 0; j < n; ++j)
    without[j].erase(without[j].begin() + static_cast<std::ptrdiff_t>(j));
  const auto left = model_.classify(without);
  for (std::size_t j = 0; j < n; ++j)
    out.leave_one_out.push_back(p - double(left.probabilities(j, out.label)));

  const Matrix<T> gradients = model_.input_gradients(tokens, out.label);
  for (std::size_t j = 0; j < n; ++j) {
    double sum = 0;
    for (std::size_t i = 0; i < gradients.shape()[1]; ++i)
      sum += double(gradients(j, i)) * double(gradients(j, i));
    out.gradients.push_back(std::sqrt(sum));
  }

  NumpyRandomState random(config_.seed);
  std::vector<double> changes;
  std::vector<T> shuffled(n);
  for (std::size_t k = 0; k < explanation_permutations; ++k) {
    const std::vector<std::size_t> order = random.shuffled(n);
    for (std::size_t j = 0; j < n; ++j)
      shuffled[j] = trace.weights(order[j]);
    changes.push_back(
        std::abs(double(model_.pooled_probabilities(trace, shuffled)(out.label)) - p));
  }
  out.permutation = median(changes);

  const std::vector<double> weights(trace.weights.begin(), trace.weights.end());
  out.tau_leave_one_out = kendall_tau(weights, out.leave_one_out);
  out.tau_gradients = kendall_tau(weights, out.gradients);
  return out;
}

const std::vector<ConfigField<ClassifierSessionConfig>> &ModelKind<ClassifierSession>::fields() {
  using C = Config;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      config_field("task", &C::task, R::identity | R::required),
      config_field("language", &C::language, R::identity),
      choice_field("encoder", &C::encoder, classifier_encoders, classifier_encoder_name,
                   parse_classifier_encoder, R::identity | R::named),
      // said only when uniform: the learned model is the one a page shows
      choice_field("attention", &C::attention, classifier_attentions, classifier_attention_name,
                   parse_classifier_attention, R::identity),
      config_field("embedding", &C::embedding), config_field("hidden", &C::hidden),
      config_field("seed", &C::seed, R::plain, max_seed)};
  return fields;
}

namespace {

// A PyTorch state_dict of the reference model (make_classifier_fixtures.py's Classifier): the
// configuration its tensors imply. A state_dict of any other layout then fails to load, its names
// or shapes not the model's.
SavedModel<ClassifierSessionConfig> infer_saved_classifier(const safetensors::File &file) {
  const auto shape = [&](const char *name) -> const std::vector<std::size_t> & {
    const safetensors::TensorInfo *tensor = file.find(name);
    if (!tensor || tensor->shape.size() != 2)
      fail(Argument("bytes"),
           "the file is neither a classifier saved here nor a PyTorch state_dict of the "
           "reference classifier: it lacks the matrix \"",
           name, "\"");
    return tensor->shape;
  };
  SavedModel<ClassifierSessionConfig> saved;
  const auto &embedding = shape("embedding.weight"); // V x E
  saved.config.embedding = embedding[1];
  const bool bigru = file.find("encoder.weight_hh_l0");
  saved.config.encoder = bigru ? ClassifierEncoder::bigru : ClassifierEncoder::none;
  if (bigru)
    saved.config.hidden = 2 * shape("encoder.weight_hh_l0")[1];
  saved.config.attention =
      file.find("attention.W.weight") ? ClassifierAttention::learned : ClassifierAttention::uniform;
  saved.precision = file.find("embedding.weight")->dtype == "F64" ? "float64" : "float32";
  for (const auto &language : tasks::classification_languages())
    if (tasks::empty_classification_task("reviews", language).vocabulary.tokens.size() ==
        embedding[0]) {
      saved.config.language = language;
      return saved;
    }
  fail(Argument("bytes"), "no classification task has a vocabulary of ", embedding[0],
       " words, as the file's embedding has");
}

} // namespace

SavedModel<ClassifierSessionConfig>
ModelKind<ClassifierSession>::read_saved(const std::uint8_t *bytes, std::size_t size) {
  return read_session_file<ClassifierSession>(bytes, size, infer_saved_classifier,
                                              "a saved classifier");
}

template <class T>
ClassifierSession<T> ModelKind<ClassifierSession>::load(const std::uint8_t *bytes,
                                                        std::size_t size) {
  return load_session_file<T, ClassifierSession>(bytes, size, "classifier");
}

ATTENTION_INSTANTIATE_SESSION(ClassifierSession);

} // namespace attention
