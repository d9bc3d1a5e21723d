#include "attention/sentiment_walkthrough.hpp"

#include <algorithm>
#include <iterator>

#include "given_inputs.hpp"
#include "trace_parts.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;
using namespace trace_parts;

Label model_label(const ClassifierSessionConfig &config) {
  return trace_parts::model_label(config, ModelKind<ClassifierSession>::fields(),
                                  {"encoder", "attention"});
}
// A model beside another of its encoder, in a panel: by its attention alone.
Label attention_label(const Label &model) { return trace_parts::only_fields(model, {"attention"}); }
double share_of(std::size_t part, std::size_t whole) {
  return whole ? double(part) / double(whole) : 0.0;
}
Label metric(const char *name) {
  Label label;
  label.metric = name;
  return label;
}

// Values (an xtensor vector or a std::vector) as one row.
template <class Values> Matrix<double> row_of(const Values &values) {
  auto out = Matrix<double>::from_shape({1, std::size(values)});
  std::copy(std::begin(values), std::end(values), out.data());
  return out;
}

// A bigru's state columns: the forward direction's then the backward's.
Labels state_columns(const ClassifierSessionConfig &config, std::size_t width) {
  if (config.encoder == ClassifierEncoder::none)
    return numbered("", width, 1);
  Labels columns = numbered("→", width / 2, 1);
  for (const auto &label : numbered("←", width / 2, 1))
    columns.push_back(label);
  return columns;
}

// The test split's accuracy of each model and of always answering the training split's
// commonest label, overall and on each category of review; and the first model's confusion.
std::vector<Panel>
accuracy_panels(const std::vector<std::pair<Label, ClassifierEvaluation>> &models,
                const tasks::ClassificationTask &task) {
  const ClassifierEvaluation &first = models.front().second;
  // a grammar's reviews by kind; the reader's sentences are of no kind
  const auto &categories =
      task.rationales ? first.categories : std::vector<ClassifierEvaluation::Category>{};
  std::vector<Label> columns{metric("accuracy")};
  for (const auto &category : categories) {
    Label label;
    label.category = tasks::review_category_name(category.category);
    label.count = category.count;
    columns.push_back(label);
  }
  auto values = Matrix<double>::from_shape({models.size() + 1, columns.size()});
  std::vector<Label> rows;
  for (std::size_t k = 0; k < models.size(); ++k) {
    const ClassifierEvaluation &evaluation = models[k].second;
    rows.push_back(attention_label(models[k].first));
    values(k, 0) = evaluation.accuracy;
    for (std::size_t c = 0; c < categories.size(); ++c)
      values(k, c + 1) = share_of(evaluation.categories[c].correct, evaluation.categories[c].count);
  }
  const std::size_t labels = task.labels.size();
  rows.push_back(metric("majority"));
  values(models.size(), 0) = first.majority;
  for (std::size_t c = 0; c < categories.size(); ++c) {
    std::size_t right = 0;
    for (const auto &example : task.test)
      right += example.category == categories[c].category && example.label == first.majority_label;
    values(models.size(), c + 1) = share_of(right, categories[c].count);
  }
  // each true label's reviews by what the model answered, as shares of them
  auto confusion = Matrix<double>::from_shape({labels, labels});
  Labels gold;
  for (std::size_t label = 0; label < labels; ++label) {
    std::size_t count = 0;
    for (std::size_t predicted = 0; predicted < labels; ++predicted)
      count += first.confusion[label][predicted];
    for (std::size_t predicted = 0; predicted < labels; ++predicted)
      confusion(label, predicted) = share_of(first.confusion[label][predicted], count);
    gold.push_back(task.labels[label] + " (" + std::to_string(count) + ")");
  }
  return {panel("accuracy", "weights", std::move(values), rows, std::move(columns)),
          panel("confusion", "neutral", std::move(confusion), gold, task.labels)};
}

} // namespace

template <class T>
Trace sentiment_walkthrough(ClassifierSession<T> &session, const std::string &sentence,
                            ClassifierSession<T> *uniform) {
  const tasks::ClassificationTask &task = session.task();
  if (uniform && (uniform->config().task != session.config().task ||
                  uniform->config().language != session.config().language ||
                  uniform->config().attention != ClassifierAttention::uniform))
    fail(Argument("uniform"), "inputs.uniform must be a model of uniform attention on the task ",
         session.config().task, " ", session.config().language);
  const ClassificationResult<T> result = session.classify(sentence);
  const ClassifierTrace<T> &t = result.trace;
  const std::size_t n = t.tokens.size();
  const Explanation explanation = session.explain(sentence);
  Labels words;
  for (auto id : t.tokens)
    words.push_back(task.vocabulary.tokens[static_cast<std::size_t>(id)]);
  const std::size_t e = t.embeddings.shape()[1], h = t.states.shape()[1];

  Trace trace;
  trace.walkthrough = "sentiment";
  trace.labels = {{"tokens", words},
                  {"labels", task.labels},
                  {"predicted", Labels(1, task.labels[result.label])}};
  trace.models.push_back(model_label(session.config()));
  if (uniform)
    trace.models.push_back(model_label(uniform->config()));

  trace.stages.push_back({"tokens",
                          "tokens",
                          0,
                          {panel("embeddings", "annotation", rows_of(t.embeddings, 0, n), words,
                                 numbered("", e, 1))}});
  trace.stages.push_back({"encoder",
                          "encoder",
                          0,
                          {panel("states", "annotation", rows_of(t.states, 0, n), words,
                                 state_columns(session.config(), h))}});
  trace.stages.push_back({"scores",
                          "scores",
                          0,
                          {panel("scores", "scores", row_of(t.scores), Labels(1, "e"), words)}});

  std::vector<Panel> weights{
      panel("highlight", "highlight", row_of(t.weights), Labels(1, "α"), words),
      panel("weights", "weights", row_of(t.weights), Labels(1, "α"), words)};
  if (const auto review =
          tasks::read_review(task, std::vector<std::size_t>(t.tokens.begin(), t.tokens.end()))) {
    auto rationale = Matrix<double>::from_shape({1, n});
    std::copy(review->rationale.begin(), review->rationale.end(), rationale.data());
    weights.push_back(panel("rationale", "weights", std::move(rationale),
                            Labels(1, task.labels[review->label]), words));
  }
  std::vector<std::pair<Label, ClassifierEvaluation>> evaluations{
      {trace.models.front(), session.test_evaluation()}};
  if (uniform)
    evaluations.push_back({trace.models.back(), uniform->test_evaluation()});
  if (task.rationales) {
    auto shares = Matrix<double>::from_shape({evaluations.size(), 1});
    std::vector<Label> models;
    for (std::size_t k = 0; k < evaluations.size(); ++k) {
      shares(k, 0) = evaluations[k].second.rationale_share.value_or(0);
      models.push_back(attention_label(evaluations[k].first));
    }
    weights.push_back(
        panel("rationale_share", "weights", std::move(shares), models, {metric("rationaleShare")}));
  }
  trace.stages.push_back({"weights", "weights", 0, std::move(weights)});

  std::vector<Label> models{attention_label(trace.models.front())};
  auto probabilities = Matrix<double>::from_shape({task.labels.size(), uniform ? 2u : 1u});
  for (std::size_t label = 0; label < task.labels.size(); ++label)
    probabilities(label, 0) = double(t.probabilities(label));
  if (uniform) {
    const ClassificationResult<T> other = uniform->classify(sentence);
    for (std::size_t label = 0; label < task.labels.size(); ++label)
      probabilities(label, 1) = double(other.trace.probabilities(label));
    models.push_back(attention_label(trace.models.back()));
  }
  trace.stages.push_back(
      {"prediction",
       "prediction",
       0,
       {panel("context", "context", row_of(t.context), Labels(1, "c"),
              state_columns(session.config(), h)),
        panel("probabilities", "weights", std::move(probabilities), plain(task.labels), models)}});

  trace.stages.push_back({"accuracy", "accuracy", 0, accuracy_panels(evaluations, task)});

  const ExplanationSummary summary = session.test_explanations();
  auto permutation = Matrix<double>::from_shape({2, 1});
  permutation(0, 0) = explanation.permutation;
  permutation(1, 0) = summary.permutation;
  trace.stages.push_back(
      {"permutation",
       "permutation",
       0,
       {panel("permutation", "scores", std::move(permutation),
              {metric("thisSentence"), metric("testSplitMedian")}, plain(Labels(1, "|Δp|")))}});

  auto tau = Matrix<double>::from_shape({3, 2});
  tau(0, 0) = explanation.tau_leave_one_out;
  tau(0, 1) = explanation.tau_gradients;
  tau(1, 0) = summary.tau_leave_one_out.mean;
  tau(1, 1) = summary.tau_gradients.mean;
  tau(2, 0) = summary.tau_leave_one_out.sd;
  tau(2, 1) = summary.tau_gradients.sd;
  trace.stages.push_back(
      {"attribution",
       "attribution",
       0,
       {panel("weights", "weights", row_of(t.weights), Labels(1, "α"), words),
        panel("leave_one_out", "scores", row_of(explanation.leave_one_out), Labels(1, "Δp"), words),
        panel("gradients", "scores", row_of(explanation.gradients), Labels(1, "‖∇p‖"), words),
        panel("tau", "scores", std::move(tau),
              {metric("thisSentence"), metric("testSplitMean"), metric("testSplitSd")},
              plain({"τ(α, Δp)", "τ(α, ‖∇p‖)"}))}});
  trace.output = row_of(t.weights);
  return trace;
}

template Trace sentiment_walkthrough<float>(ClassifierSession<float> &, const std::string &,
                                            ClassifierSession<float> *);
template Trace sentiment_walkthrough<double>(ClassifierSession<double> &, const std::string &,
                                             ClassifierSession<double> *);

// ---------------------------------------------------------------------------------------------
// The sentiment walkthrough's entry in the walkthroughs' table: a classifier's reading of a
// sentence, with the uniform model beside it once there is one. The task, language and encoder
// pick the model (the caller's).

namespace {

using namespace inputs;

Labels encoder_names() { return names_of(classifier_encoders, classifier_encoder_name); }

std::vector<InputField> sentiment_inputs() {
  const auto &task_ids = tasks::classification_task_ids();
  const auto &languages = tasks::classification_languages();
  return {
      texts_field("task", InputKind::choice, Labels(1, task_ids.front()), task_ids),
      texts_field("language", InputKind::choice, Labels(1, languages.front()), languages),
      texts_field("encoder", InputKind::choice, Labels(1, encoder_names().front()),
                  encoder_names()),
      texts_field("sentence", InputKind::text, {"the food was not good but the staff was lovely"}),
      model_field("model", InputKind::model),
      model_field("uniform", InputKind::model, true)};
}

Trace sentiment_from(const GivenInputs &given) {
  const auto fields = sentiment_inputs();
  return trace_of_model<ClassifierSession>(
      given, "one classifier", "uniform", [&](auto &session, const auto &uniform) {
        if (uniform.size() > 1)
          fail(Argument("uniform"), "inputs.uniform must be one classifier");
        return sentiment_walkthrough(session, sentence(given, fields),
                                     uniform.empty() ? nullptr : uniform.front());
      });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<ClassifierSession>::walkthroughs() {
  return {{"sentiment", sentiment_inputs, sentiment_from}};
}

} // namespace attention
