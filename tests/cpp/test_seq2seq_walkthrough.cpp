#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/seq2seq_walkthrough.hpp"
#include "check_close.hpp"
#include "trace_checks.hpp"

using namespace attention;

namespace {

Seq2seqSession<float> trained(ScoreFunction scoring, Encoder encoder = Encoder::forward,
                              std::size_t layers = 1, double guide = 0) {
  Seq2seqSessionConfig config;
  config.scoring = scoring;
  config.encoder = encoder;
  config.layers = layers;
  config.embedding = 8;
  config.hidden = 16;
  config.seed = 3;
  Seq2seqSession<float> session(config);
  session.train(30, 16, default_learning_rate, default_max_norm, guide);
  return session;
}

// A model per scoring function (each trained a little), and pointers to them.
struct EveryScoring {
  std::vector<Seq2seqSession<float>> models;
  std::vector<Seq2seqSession<float> *> pointers;
  EveryScoring() {
    for (auto scoring : score_functions)
      models.push_back(trained(scoring));
    for (auto &model : models)
      pointers.push_back(&model);
  }
};

} // namespace

TEST_CASE("seq2seq walkthrough: the model's translation stage by stage, as translate computes it") {
  for (auto scoring : {ScoreFunction::additive, ScoreFunction::general}) {
    INFO("scoring ", score_function_name(scoring));
    auto session = trained(scoring);
    const std::string sentence = "the red car is small";
    const Trace trace = seq2seq_walkthrough(session, sentence);
    const auto translation =
        session.translate(session.tokenize(sentence, tasks::Side::source)).trace;
    const std::size_t n = 6, m = translation.output.size(); // five words and <eos>
    REQUIRE(trace.stages.size() == m + 3);
    CHECK(trace.walkthrough == "seq2seq");
    CHECK(trace.stages[0].id == "source");
    CHECK(trace.stages[1].id == "encoder");
    CHECK(trace.stages[2].id == "step-1");
    CHECK(trace.stages[2].kind == "step");
    CHECK(trace.stages.back().id == "alignment");
    CHECK(trace.labels[0].second ==
          Labels{"the", "red", "car", "is", "small", "<eos>"}); // source, as encoded
    CHECK(trace.labels[1].second.size() == m);

    CHECK(panel_of(trace.stages[0], "embeddings").values.shape()[0] == n);
    CHECK(panel_of(trace.stages[1], "encoder_states").values.shape()[1] == 16);
    for (std::size_t t = 1; t <= m; ++t) {
      const Stage &step = trace.stages[1 + t];
      CHECK(step.step == t);
      const auto &weights = panel_of(step, "weights").values;
      for (std::size_t j = 0; j < n; ++j)
        CHECK(weights(0, j) == doctest::Approx(translation.weights(t - 1, j)));
      CHECK(panel_of(step, "alignment").values.shape()[0] == t);
      CHECK(panel_of(step, "top").row_labels[0] == trace.labels[1].second[t - 1]);
      const bool luong = scoring != ScoreFunction::additive;
      CHECK(std::any_of(step.panels.begin(), step.panels.end(),
                        [](const Panel &p) { return p.name == "attentional"; }) == luong);
    }
    const Stage &last = trace.stages.back();
    CHECK(panel_of(last, "alignment").values.shape()[0] == m);
    // the grammar makes this sentence: its gold alignment, as far as the output follows it
    const auto &gold = panel_of(last, "gold").values;
    const auto example = tasks::gold_example(session.task(), sentence);
    REQUIRE(example);
    for (std::size_t t = 0; t < m && example->target[t] == std::size_t(translation.output[t]);
         ++t) {
      for (auto j : example->alignment[t])
        CHECK(gold(t, j) == 1);
      for (auto j : example->possible[t]) // the noun, for an article or adjective: lighter
        CHECK(gold(t, j) == 0.5);
    }
  }
}

TEST_CASE("seq2seq walkthrough: a beam adds its hypotheses; bad input blames its argument") {
  auto session = trained(ScoreFunction::dot);
  const Trace trace = seq2seq_walkthrough(session, "the red car is small", 3);
  const auto &beams = panel_of(trace.stages.back(), "beams");
  CHECK(beams.values.shape()[0] >= 1);
  CHECK(beams.values.shape()[0] <= 3);
  CHECK(beams.values(0, 0) <= 0);
  check_input_error([&] { seq2seq_walkthrough(session, "the red car is small", 0); },
                    "beam (0) must be between 1 and 5", "beam");
  check_input_error([&] { seq2seq_walkthrough(session, "the red car is small", 6); }, "beam (6)",
                    "beam");
  check_input_error([&] { seq2seq_walkthrough(session, "the red car is blu"); }, "blu", "sentence");
  // a sentence the grammar does not make still translates, without a gold alignment
  const Trace odd = seq2seq_walkthrough(session, "the car car");
  CHECK(std::none_of(odd.stages.back().panels.begin(), odd.stages.back().panels.end(),
                     [](const Panel &p) { return p.name == "gold"; }));
}

TEST_CASE("seq2seq walkthrough: the alignment stage measures the model: AER, and the aligned "
          "share of each kind of word and where the others look") {
  auto session = trained(ScoreFunction::additive);
  const Trace trace = seq2seq_walkthrough(session, "the red car is small");
  const Stage &stage = trace.stages.back();
  CHECK(stage.id == "alignment");
  const auto measured = session.evaluate(session.task().test);
  const Panel &own = panel_of(stage, "measures");
  REQUIRE(own.col_labels.size() == 3);
  CHECK(own.col_labels[2].metric == "aer");
  CHECK(field_of(own.row_labels[0], "scoring") == FieldValue(std::string("additive")));
  CHECK(own.values(0, 0) == measured.exact_match);
  CHECK(own.values(0, 2) == measured.aer);
  const Panel &kinds = panel_of(stage, "by_category");
  REQUIRE(kinds.row_labels.size() == measured.categories.size());
  CHECK(kinds.col_labels[0].metric == "alignedShare");
  CHECK(kinds.col_labels[1].metric == "insteadShare");
  std::size_t missed = 0;
  for (std::size_t i = 0; i < measured.categories.size(); ++i) {
    const auto &category = measured.categories[i];
    CHECK(kinds.values(i, 1) == double(category.instead_count) / double(category.count));
    CHECK(kinds.values(i, 0) + kinds.values(i, 1) <= 1);
    CHECK(kinds.row_labels[i].instead ==
          (category.instead ? session.task().source.tokens[*category.instead] : ""));
    missed += category.count - category.aligned;
    CHECK(kinds.row_labels[i].category ==
          tasks::word_category_name(measured.categories[i].category));
    CHECK(kinds.row_labels[i].structured());
    CHECK(kinds.row_labels[i].count == measured.categories[i].count);
    CHECK(kinds.values(i, 0) ==
          double(measured.categories[i].aligned) / double(measured.categories[i].count));
  }
  REQUIRE(missed > 0); // the briefly trained model misses somewhere: a word it looks at instead
  // en-fr's kinds of word, as its grammar names them
  std::vector<std::string> names;
  for (const Label &label : kinds.row_labels)
    names.push_back(label.category);
  CHECK(names == std::vector<std::string>{"article", "noun", "adjective", "verb", "conjunction"});
}

TEST_CASE("seq2seq walkthrough: compared models add their alignments and test-split measures") {
  auto main = trained(ScoreFunction::additive);
  EveryScoring every;
  auto &others = every.models;
  const auto &compared = every.pointers;
  const Trace trace = seq2seq_walkthrough(main, "the red car is small", 1, compared);
  const Stage &stage = trace.stages.back();
  CHECK(stage.id == "compare");
  REQUIRE(stage.panels.size() == 5);
  // the measures' rows are the models by scoring function, their columns the measures: names the
  // page words
  const Panel &metrics = panel_of(stage, "metrics");
  REQUIRE(metrics.col_labels.size() == 3);
  CHECK(metrics.col_labels[0].metric == "exactMatch");
  CHECK(metrics.col_labels[1].metric == "alignmentAccuracy");
  CHECK(metrics.col_labels[2].metric == "aer");
  for (const Label &label : metrics.col_labels)
    CHECK(label.text.empty());
  REQUIRE(metrics.row_labels.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(field_of(metrics.row_labels[k], "scoring") ==
          FieldValue(std::string(score_function_name(score_functions[k]))));
    CHECK(metrics.row_labels[k].structured());
    CHECK(stage.panels[k].name == score_function_name(score_functions[k]));
    CHECK(stage.panels[k].col_labels.size() == 6);
    const auto measured = others[k].evaluate(others[k].task().test);
    CHECK(panel_of(stage, "metrics").values(k, 0) == measured.exact_match);
    CHECK(panel_of(stage, "metrics").values(k, 1) == measured.alignment_accuracy);
    CHECK(panel_of(stage, "metrics").values(k, 2) == measured.aer);
  }
  // the measures follow the parameters: trained on, a model is measured again
  others[0].train(5, 16);
  const Trace again = seq2seq_walkthrough(main, "the red car is small", 1, compared);
  CHECK(panel_of(again.stages.back(), "metrics").values(0, 1) ==
        others[0].evaluate(others[0].task().test).alignment_accuracy);

  Seq2seqSessionConfig dates;
  dates.task = "dates";
  dates.embedding = 8;
  dates.hidden = 16;
  Seq2seqSession<float> other_task(dates);
  check_input_error([&] { seq2seq_walkthrough(main, "the red car is small", 1, {&other_task}); },
                    "compare[0] translates dates, not en-fr", "compare");
}

TEST_CASE("scoring walkthrough: one step of every model, teacher forced with the same target") {
  EveryScoring every;
  auto &models = every.models;
  const auto &all = every.pointers;
  const std::string sentence = "the red car is small";
  const Trace trace = scoring_walkthrough(all, sentence, 2);
  CHECK(trace.walkthrough == "scoring");
  REQUIRE(trace.stages.size() == 4);
  CHECK(trace.stages[0].id == "encoder-states");
  CHECK(trace.stages[3].id == "compare-weights");
  // the grammar's translation is the target every model is fed: step 2 is about to write "voiture"
  CHECK(trace.labels[1].second == Labels{"la", "voiture", "rouge", "est", "petite", "<eos>"});
  const auto source = models[0].tokenize(sentence, tasks::Side::source);
  const auto target = models[0].tokenize("la voiture rouge est petite", tasks::Side::target);
  for (std::size_t k = 0; k < 4; ++k) {
    const std::string name = score_function_name(score_functions[k]);
    INFO("scoring ", name);
    const auto own = models[k].model().trace(source, target);
    const auto &scores = panel_of(trace.stages[2], name).values;
    const auto &weights = panel_of(trace.stages[3], name).values;
    CHECK(panel_of(trace.stages[3], name).row_labels == std::vector<Label>{"voiture"});
    double sum = 0;
    for (std::size_t j = 0; j < source.size(); ++j) {
      CHECK(scores(0, j) == doctest::Approx(own.scores(1, j)));
      CHECK(weights(0, j) == doctest::Approx(own.weights(1, j)));
      sum += weights(0, j);
    }
    CHECK(sum == doctest::Approx(1));
    CHECK(panel_of(trace.stages[0], name).values(5, 3) ==
          doctest::Approx(own.encoder_states(5, 3)));
    // the state that scores: Bahdanau's s_1, before step 2; Luong's s_2
    const std::size_t row = score_functions[k] == ScoreFunction::additive ? 0 : 1;
    CHECK(panel_of(trace.stages[1], name).values(0, 7) ==
          doctest::Approx(own.decoder_states(row, 7)));
    for (std::size_t j = 0; j < source.size(); ++j)
      CHECK(trace.output(k, j) == weights(0, j));
  }
  // "voiture" translates "car", the third source word
  CHECK(panel_of(trace.stages[3], "gold").values(0, 2) == 1);
  CHECK(panel_of(trace.stages[3], "gold").values(0, 1) == 0);
  // at step 1 Bahdanau's state is the decoder's start: a forward encoder's last state
  const Trace first = scoring_walkthrough(all, sentence, 1);
  CHECK(panel_of(first.stages[1], "additive").values(0, 4) ==
        doctest::Approx(panel_of(first.stages[0], "additive").values(5, 4)));
  // the models, as the page describes them
  REQUIRE(trace.models.size() == 4);
  CHECK(field_of(trace.models[1], "scoring") == FieldValue(std::string("dot")));
  CHECK(field_of(trace.models[1], "encoder") == FieldValue(std::string("forward")));
  CHECK(field_of(trace.models[1], "layers") == FieldValue(double(1u)));
  CHECK(field_of(trace.models[1], "guide") == FieldValue(double(0.0)));
}

TEST_CASE("scoring walkthrough: a sentence the grammar does not make; bad input blames its "
          "argument") {
  auto additive = trained(ScoreFunction::additive);
  auto dot = trained(ScoreFunction::dot);
  // no grammar translation: the first model's own, without a gold panel
  const Trace odd = scoring_walkthrough<float>({&dot, &additive}, "the car car", 1);
  const auto own = dot.translate(dot.tokenize("the car car", tasks::Side::source)).trace.output;
  CHECK(odd.labels[1].second.size() >= own.size());
  CHECK(odd.labels[1].second.back() == "<eos>");
  CHECK(odd.stages[3].panels.size() == 2);
  CHECK(odd.stages[3].panels[0].name == "dot");

  check_input_error([] { scoring_walkthrough<float>({}, "the car is red", 1); },
                    "models must hold at least one model", "models");
  auto other_dot = trained(ScoreFunction::dot);
  check_input_error(
      [&] {
        scoring_walkthrough<float>({&dot, &other_dot}, "the car is red", 1);
      },
      "models[0] and models[1] are both dot: comparing by scoring takes models that differ in it",
      "models");
  Seq2seqSessionConfig dates;
  dates.task = "dates";
  dates.embedding = 8;
  dates.hidden = 16;
  Seq2seqSession<float> other_task(dates);
  check_input_error(
      [&] {
        scoring_walkthrough<float>({&dot, &other_task}, "the car is red", 1);
      },
      "models[1] translates dates, not en-fr", "models");
  check_input_error([&] { scoring_walkthrough<float>({&dot}, "the car is red", 0); },
                    "step (0) must be between 1 and 5, the length of the translation \"la "
                    "voiture est rouge\" with <eos>",
                    "step");
  check_input_error([&] { scoring_walkthrough<float>({&dot}, "the car is red", 6); }, "step (6)",
                    "step");
  check_input_error([&] { scoring_walkthrough<float>({&dot}, "the car is rde", 1); }, "rde",
                    "sentence");
  check_input_error([] { parse_score_function("cosine"); },
                    "score (\"cosine\") must be one of additive, dot, general, concat", "score");
}

TEST_CASE("seq2seq walkthrough: a bidirectional encoder's stage shows each direction's states, "
          "the annotations they make and the decoder's start") {
  for (std::size_t layers : {1, 2}) {
    INFO("layers ", layers);
    auto session = trained(ScoreFunction::additive, Encoder::bidirectional, layers);
    const Trace trace = seq2seq_walkthrough(session, "the red car is small");
    REQUIRE(trace.models.size() == 1);
    CHECK(field_of(trace.models[0], "scoring") == FieldValue(std::string("additive")));
    CHECK(field_of(trace.models[0], "encoder") == FieldValue(std::string("bidirectional")));
    CHECK(field_of(trace.models[0], "layers") == FieldValue(double(layers)));
    CHECK(field_of(trace.models[0], "guide") == FieldValue(double(0.0)));
    const Stage &encoder = trace.stages[1];
    REQUIRE(encoder.panels.size() == 4);
    CHECK(encoder.panels[0].name == "forward_states");
    CHECK(encoder.panels[1].name == "backward_states");
    const auto &forward = encoder.panels[0].values, &backward = encoder.panels[1].values;
    const auto &annotations = panel_of(encoder, "encoder_states").values;
    REQUIRE(forward.shape()[1] == 8);
    CHECK(encoder.panels[0].col_labels.size() == 8);
    CHECK(encoder.panels[0].row_labels == encoder.panels[2].row_labels);
    for (std::size_t j = 0; j < 6; ++j)
      for (std::size_t i = 0; i < 8; ++i) {
        CHECK(forward(j, i) == annotations(j, i));
        CHECK(backward(j, i) == annotations(j, 8 + i));
      }
    // s_0 = tanh(bridge(←h_1)), the top layer's backward state at the first token
    const Panel &start = panel_of(encoder, "decoder_start");
    CHECK(start.row_labels == std::vector<Label>{"s0"});
    const auto weight = session.model().parameter("encoder.bridge.weight");
    const auto bias = session.model().parameter("encoder.bridge.bias");
    for (std::size_t i = 0; i < 16; ++i) {
      double sum = bias.values[i];
      for (std::size_t k = 0; k < 8; ++k)
        sum += weight.values[i * 8 + k] * backward(0, k);
      CHECK(start.values(0, i) == doctest::Approx(std::tanh(sum)).epsilon(1e-5));
    }
  }
  // one way: the annotations and s_0 = h_n, the last of them
  auto forward = trained(ScoreFunction::dot);
  const Stage encoder = seq2seq_walkthrough(forward, "the red car is small").stages[1];
  REQUIRE(encoder.panels.size() == 2);
  CHECK(encoder.panels[0].name == "encoder_states");
  for (std::size_t i = 0; i < 16; ++i)
    CHECK(encoder.panels[1].values(0, i) == encoder.panels[0].values(5, i));
}

TEST_CASE("seq2seq and scoring walkthroughs compare encoders, or guided and free training") {
  auto one_way = trained(ScoreFunction::additive);
  auto both_ways = trained(ScoreFunction::additive, Encoder::bidirectional);
  auto guided = trained(ScoreFunction::additive, Encoder::forward, 1, 1);
  CHECK(guided.config().guide == 1);
  const std::string sentence = "the red car is small";

  const Stage by_encoder =
      seq2seq_walkthrough(both_ways, sentence, 1, {&one_way, &both_ways}, Comparison::encoder)
          .stages.back();
  CHECK(by_encoder.panels[0].name == "forward");
  CHECK(by_encoder.panels[1].name == "bidirectional");
  const Panel &metrics = panel_of(by_encoder, "metrics");
  // rows say what tells the models apart, and nothing they share
  Label forward_row, bidirectional_row;
  forward_row.model = {{"encoder", std::string("forward")}};
  bidirectional_row.model = {{"encoder", std::string("bidirectional")}};
  CHECK(metrics.row_labels == std::vector<Label>{forward_row, bidirectional_row});
  CHECK(metrics.values(1, 2) == both_ways.evaluate(both_ways.task().test).aer);

  const Stage by_guide =
      seq2seq_walkthrough(one_way, sentence, 1, {&one_way, &guided}, Comparison::guide)
          .stages.back();
  CHECK(by_guide.panels[0].name == "guide=0");
  CHECK(by_guide.panels[1].name == "guide=1");
  CHECK(field_of(panel_of(by_guide, "metrics").row_labels[1], "guide") == FieldValue(double(1.0)));
  CHECK(!panel_of(by_guide, "metrics").row_labels[1].field("encoder"));

  // comparing scoring functions, an encoder that differs is said too
  auto dot = trained(ScoreFunction::dot);
  const auto rows =
      panel_of(seq2seq_walkthrough(both_ways, sentence, 1, {&both_ways, &dot}).stages.back(),
               "metrics")
          .row_labels;
  CHECK(field_of(rows[0], "scoring") == FieldValue(std::string("additive")));
  CHECK(field_of(rows[0], "encoder") == FieldValue(std::string("bidirectional")));
  CHECK(field_of(rows[1], "encoder") == FieldValue(std::string("forward")));
  CHECK(!rows[1].field("guide"));

  check_input_error(
      [&] {
        seq2seq_walkthrough(one_way, sentence, 1, {&one_way, &guided}, Comparison::encoder);
      },
      "compare[0] and compare[1] are both forward: comparing by encoder takes models that "
      "differ in it",
      "compare");

  // the scoring walkthrough: one scoring function, two encoders; Bahdanau's first state is the
  // bidirectional model's bridge, not its last annotation
  const Trace step =
      scoring_walkthrough<float>({&one_way, &both_ways}, sentence, 1, Comparison::encoder);
  CHECK(step.stages[0].panels[1].name == "bidirectional");
  CHECK(field_of(step.models[1], "encoder") == FieldValue(std::string("bidirectional")));
  const auto source = both_ways.tokenize(sentence, tasks::Side::source);
  const auto own = both_ways.model().trace(
      source, both_ways.tokenize("la voiture rouge est petite", tasks::Side::target));
  for (std::size_t i = 0; i < 16; ++i)
    CHECK(panel_of(step.stages[1], "bidirectional").values(0, i) ==
          doctest::Approx(own.initial_state(0, i)));
  CHECK(scoring_walkthrough<float>({&one_way, &guided}, sentence, 1, Comparison::guide)
            .stages[3]
            .panels[1]
            .name == "guide=1");
}
