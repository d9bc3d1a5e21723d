// The sentiment walkthrough: a classifier's reading of a review, stage by stage, with the model's
// own numbers (classify, explain, the test split's evaluation and explanations), the grammar's
// reading of a typed review, and the errors' arguments, directly and through the walkthroughs'
// table.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>

#include "attention/model_store.hpp"
#include "attention/sentiment_walkthrough.hpp"
#include "trace_checks.hpp"

using namespace attention;

namespace {

ClassifierSession<double> trained(ClassifierAttention attention = ClassifierAttention::learned,
                                  const std::string &language = "en") {
  ClassifierSessionConfig config;
  config.language = language;
  config.attention = attention;
  config.embedding = 8;
  config.hidden = 16;
  config.seed = 3;
  ClassifierSession<double> session(config);
  session.train(30, 32);
  return session;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

} // namespace

TEST_CASE("read_review: the grammar's own label, rationale and category of every review it "
          "wrote, en and zh; none for a sentence it would not write") {
  for (const char *language : {"en", "zh"}) {
    const tasks::ClassificationTask task = tasks::make_classification_task("reviews", language, 4);
    for (const auto *split : {&task.train, &task.test})
      for (const auto &example : *split) {
        const auto review = tasks::read_review(task, example.tokens);
        REQUIRE(review);
        CHECK(review->label == example.label);
        CHECK(review->rationale == example.rationale);
        CHECK(review->category == example.category);
      }
  }
  const tasks::ClassificationTask task = tasks::make_classification_task("reviews", "en", 0);
  const auto read = [&](const std::string &sentence) {
    return tasks::read_review(task, tasks::tokenize(task, sentence));
  };
  CHECK_FALSE(read("the food was"));                            // no adjective
  CHECK_FALSE(read("the food was good and bad"));               // two in one clause
  CHECK_FALSE(read("the food was good and the staff was bad")); // "and" of two polarities
  CHECK_FALSE(read("the food was good but the staff was bad but lovely")); // three clauses
  const auto typed = read("honestly the wine was not very good but the view was lovely");
  REQUIRE(typed);
  CHECK(typed->label == 1);
  CHECK(typed->category == tasks::ReviewCategory::contrast);
  CHECK(typed->rationale == std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
}

TEST_CASE("classifier session: the test split's explanations, summed up a part at a time, are "
          "explain()'s of each test sentence") {
  auto session = trained();
  std::vector<double> permutations, loo, gradients;
  for (const auto &example : session.task().test) {
    const Explanation e =
        session.explain(std::vector<TokenId>(example.tokens.begin(), example.tokens.end()));
    permutations.push_back(e.permutation);
    if (!std::isnan(e.tau_leave_one_out))
      loo.push_back(e.tau_leave_one_out);
    if (!std::isnan(e.tau_gradients))
      gradients.push_back(e.tau_gradients);
  }
  std::size_t parts = 1;
  while (!session.prepare_test_evaluation())
    ++parts;
  CHECK(parts > 2); // the evaluation, then the explanations a batch at a time
  const ExplanationSummary summary = session.test_explanations();
  CHECK(summary.sentences == session.task().test.size());
  CHECK(summary.permutation == median(permutations));
  const auto mean = [](const std::vector<double> &v) {
    return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  };
  CHECK(summary.tau_leave_one_out.defined == loo.size());
  CHECK(summary.tau_leave_one_out.mean == doctest::Approx(mean(loo)).epsilon(1e-12));
  CHECK(summary.tau_gradients.mean == doctest::Approx(mean(gradients)).epsilon(1e-12));
  double variance = 0;
  for (double tau : loo)
    variance += (tau - mean(loo)) * (tau - mean(loo)) / double(loo.size());
  CHECK(summary.tau_leave_one_out.sd == doctest::Approx(std::sqrt(variance)).epsilon(1e-9));

  // uniform attention ranks nothing: every τ undefined
  auto uniform = trained(ClassifierAttention::uniform);
  const ExplanationSummary none = uniform.test_explanations();
  CHECK(none.tau_leave_one_out.defined == 0);
  CHECK(std::isnan(none.tau_gradients.mean));
  CHECK(none.permutation == 0);
}

TEST_CASE("sentiment walkthrough: every stage with the model's own numbers") {
  auto session = trained();
  auto uniform = trained(ClassifierAttention::uniform);
  const std::string sentence = "the food was not good but the staff was lovely";
  const Trace trace = sentiment_walkthrough(session, sentence, &uniform);
  std::vector<std::string> ids;
  for (const auto &stage : trace.stages)
    ids.push_back(stage.id);
  CHECK(ids == std::vector<std::string>{"tokens", "encoder", "scores", "weights", "prediction",
                                        "accuracy", "permutation", "attribution"});
  const auto result = session.classify(sentence);
  const std::size_t n = result.trace.tokens.size();
  REQUIRE(n == 10);
  CHECK(trace.labels[0].second.front() == "the");
  CHECK(trace.labels[2].second.front() == session.task().labels[result.label]);
  REQUIRE(trace.models.size() == 2);
  CHECK(field_of(trace.models[0], "encoder") == FieldValue(std::string("bigru")));
  CHECK(field_of(trace.models[0], "attention") == FieldValue(std::string("learned")));
  CHECK(field_of(trace.models[1], "attention") == FieldValue(std::string("uniform")));

  const Panel &states = panel_of(stage_of(trace, "encoder"), "states");
  CHECK(states.values.shape()[1] == 16);
  CHECK(states.col_labels[0].text == "→1");
  CHECK(states.col_labels[8].text == "←1");
  CHECK(states.values(3, 5) == result.trace.states(3, 5));

  const Stage &weights = stage_of(trace, "weights");
  const Panel &alpha = panel_of(weights, "weights");
  CHECK(panel_of(weights, "highlight").values == alpha.values);
  CHECK(panel_of(weights, "highlight").palette == "highlight");
  double sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    CHECK(alpha.values(0, j) == result.trace.weights(j));
    sum += alpha.values(0, j);
  }
  CHECK(sum == doctest::Approx(1).epsilon(1e-12));
  const Panel &rationale = panel_of(weights, "rationale");
  CHECK(rationale.row_labels[0].text == "positive");
  CHECK(rationale.values(0, 9) == 1);
  CHECK(rationale.values(0, 4) == 0);

  const Panel &probabilities = panel_of(stage_of(trace, "prediction"), "probabilities");
  REQUIRE(probabilities.values.shape()[1] == 2);
  CHECK(probabilities.values(1, 0) == result.trace.probabilities(1));
  CHECK(probabilities.values(1, 1) == uniform.classify(sentence).trace.probabilities(1));

  const Stage &accuracy = stage_of(trace, "accuracy");
  const Panel &measures = panel_of(accuracy, "accuracy");
  CHECK(measures.values(0, 0) == session.test_evaluation().accuracy);
  CHECK(measures.values(1, 0) == uniform.test_evaluation().accuracy);
  CHECK(measures.row_labels[2].metric == "majority");
  CHECK(measures.values(2, 0) == session.test_evaluation().majority);
  const auto &categories = session.test_evaluation().categories;
  REQUIRE(measures.values.shape()[1] == categories.size() + 1);
  CHECK(measures.col_labels[1].category == "plain");
  CHECK(measures.values(0, 1) == double(categories[0].correct) / double(categories[0].count));
  // the majority's share of each category: reviews are about half positive in each
  for (std::size_t c = 1; c <= categories.size(); ++c)
    CHECK(std::abs(measures.values(2, c) - 0.5) < 0.1);
  const Panel &share = panel_of(weights, "rationale_share");
  CHECK(share.values(0, 0) == *session.test_evaluation().rationale_share);
  CHECK(share.values(1, 0) == *uniform.test_evaluation().rationale_share);
  CHECK(share.values(0, 0) > share.values(1, 0)); // learned attention looks at the deciding words
  CHECK(field_of(measures.row_labels[1], "attention") == FieldValue(std::string("uniform")));
  CHECK(!measures.row_labels[1].field("encoder"));
  const Panel &confusion = panel_of(accuracy, "confusion");
  const auto &counts = session.test_evaluation().confusion;
  CHECK(confusion.values(0, 0) + confusion.values(0, 1) == doctest::Approx(1));
  CHECK(confusion.values(1, 1) == double(counts[1][1]) / double(counts[1][0] + counts[1][1]));
  CHECK(confusion.row_labels[0].text ==
        "negative (" + std::to_string(counts[0][0] + counts[0][1]) + ")");

  const Explanation explanation = session.explain(sentence);
  const ExplanationSummary summary = session.test_explanations();
  const Panel &permutation = panel_of(stage_of(trace, "permutation"), "permutation");
  CHECK(permutation.values(0, 0) == explanation.permutation);
  CHECK(permutation.values(1, 0) == summary.permutation);
  const Stage &attribution = stage_of(trace, "attribution");
  CHECK(panel_of(attribution, "leave_one_out").values(0, 4) == explanation.leave_one_out[4]);
  CHECK(panel_of(attribution, "gradients").values(0, 2) == explanation.gradients[2]);
  const Panel &tau = panel_of(attribution, "tau");
  CHECK(tau.values(0, 0) == explanation.tau_leave_one_out);
  CHECK(tau.values(1, 1) == summary.tau_gradients.mean);
  CHECK(tau.values(2, 0) == summary.tau_leave_one_out.sd);

  // alone, one column of probabilities and one row of accuracy; a sentence the grammar would not
  // write has no rationale
  const Trace alone = sentiment_walkthrough(session, "the food was");
  CHECK(panel_of(stage_of(alone, "prediction"), "probabilities").values.shape()[1] == 1);
  CHECK(panel_of(stage_of(alone, "accuracy"), "accuracy").values.shape()[0] == 2); // and majority
  CHECK_FALSE(has_panel(stage_of(alone, "weights"), "rationale"));
}

TEST_CASE("sentiment walkthrough: through the table, with its errors' arguments") {
  auto session = trained();
  auto uniform = trained(ClassifierAttention::uniform);
  auto zh = trained(ClassifierAttention::uniform, "zh");
  const auto handle_of = [](const ClassifierSession<double> &s) {
    const auto bytes = s.save();
    return load_model(bytes.data(), bytes.size());
  };
  const int model = handle_of(session), other = handle_of(uniform), chinese = handle_of(zh);
  const auto given = [&](const std::string &sentence, std::vector<int> uniforms = {},
                         const std::string &encoder = "bigru") {
    GivenInputs in;
    auto h = Matrix<double>::from_shape({1, 1});
    h(0, 0) = model;
    in.numbers = {{"model", h}};
    if (!uniforms.empty()) {
      auto u = Matrix<double>::from_shape({1, uniforms.size()});
      std::copy(uniforms.begin(), uniforms.end(), u.data());
      in.numbers.push_back({"uniform", u});
    }
    in.texts = {{"sentence", Labels(1, sentence)}, {"encoder", Labels(1, encoder)}};
    return in;
  };
  const std::string sentence = "the room was very bad";
  const Trace table = walkthrough("sentiment", given(sentence, {other}));
  CHECK(table.output == sentiment_walkthrough(session, sentence, &uniform).output);
  CHECK(table.models.size() == 2);
  CHECK(argument_of([&] { walkthrough("sentiment", given(sentence, {}, "none")); }) == "encoder");
  CHECK(argument_of([&] { walkthrough("sentiment", given("the food was purple")); }) == "sentence");
  CHECK(argument_of([&] { walkthrough("sentiment", given("good")); }) == "sentence");
  CHECK(argument_of([&] { walkthrough("sentiment", given(sentence, {model})); }) == "uniform");
  CHECK(argument_of([&] { walkthrough("sentiment", given(sentence, {chinese})); }) == "uniform");
  CHECK(argument_of([&] {
          walkthrough("sentiment", given(sentence, {other, other}));
        }) == "uniform");
  CHECK(argument_of([&] { walkthrough("sentiment", GivenInputs{}); }) == "model");
  for (int handle : {model, other, chinese})
    dispose_model(handle);
}

TEST_CASE("sentiment walkthrough: a classifier of the reader's sentences: unknown words as <unk>, "
          "no rationale, no kinds of review") {
  std::string text;
  for (int i = 0; i < 60; ++i)
    text += std::string(i % 2 ? "a dull film " : "a great film ") + std::to_string(i / 2) +
            (i % 2 ? "\tneg\n" : "\tpos\n");
  tasks::ClassificationTextOptions options;
  options.validation = 0;
  options.test = 0.2;
  const auto task =
      tasks::keep_classification_task(tasks::make_classification_text_task(text, options));
  ClassifierSessionConfig config;
  config.task = task->id;
  config.embedding = 8;
  config.hidden = 8;
  ClassifierSession<double> session(config);
  session.train(40, 16, 0.02);
  const Trace trace = sentiment_walkthrough(session, "a dull film tonight");
  CHECK(trace.labels[0].second.back() == "<unk>");
  CHECK(trace.labels[1].second == Labels{"neg", "pos"});
  CHECK_FALSE(has_panel(stage_of(trace, "weights"), "rationale"));
  CHECK_FALSE(has_panel(stage_of(trace, "weights"), "rationale_share"));
  const Panel &accuracy = panel_of(stage_of(trace, "accuracy"), "accuracy");
  CHECK(accuracy.col_labels.size() == 1); // accuracy alone
  CHECK(accuracy.values(0, 0) == session.test_evaluation().accuracy);
  tasks::forget_classification_task(task->id);
}
