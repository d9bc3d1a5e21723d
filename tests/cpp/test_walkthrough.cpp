#include <doctest/doctest.h>

#include <tuple>

#include <algorithm>
#include <cmath>
#include <set>

#include <xtensor/xmanipulation.hpp>
#include <xtensor/xview.hpp>

#include "attention/model_store.hpp"
#include "attention/seq2seq.hpp"
#include "attention/walkthrough.hpp"
#include "check_close.hpp"
#include "reference.hpp"
#include "trace_checks.hpp"

using namespace attention;
namespace f = fixtures;

namespace {
const Stage &stage(const Trace &trace, const std::string &id) {
  for (const auto &s : trace.stages)
    if (s.id == id)
      return s;
  FAIL("no stage " << id);
  throw;
}

void check_well_formed(const Trace &trace) {
  std::set<std::string> ids;
  for (const auto &s : trace.stages) {
    CAPTURE(s.id);
    CHECK(ids.insert(s.id).second);
    // a stage repeated per time step is its kind and its step; any other is its own kind
    CHECK(s.id == (s.step ? s.kind + "-" + std::to_string(s.step) : s.kind));
    REQUIRE(!s.panels.empty());
    std::set<std::string> names;
    for (const auto &p : s.panels) {
      CAPTURE(p.name);
      CHECK(names.insert(p.name).second); // the spec finds a panel by its name
      CHECK(p.row_labels.size() == p.values.shape()[0]);
      CHECK(p.col_labels.size() == p.values.shape()[1]);
      CHECK((p.exact.empty() || p.exact.size() == p.values.size()));
    }
  }
}
} // namespace

TEST_CASE("decimal_from_log prints values below the double range as numpy's float128 does") {
  CHECK(decimal_from_log(f::basics_log_weights(2)) == "5.7661442e-340");
  CHECK(decimal_from_log(f::basics_log_weights(1)) == "7.9471515e-232");
  CHECK(decimal_from_log(std::log(43.0) + f::basics_log_weights(2)) == "2.479442e-338");
  CHECK(decimal_from_log(std::log(9.999999999)) == "1e+01"); // rounding carries
  CHECK(decimal_from_log(std::log(2.5), true, 3) == "-2.5e+00");
}

TEST_CASE("basics walkthrough: every stage of the notebook, with its numbers") {
  const Trace trace = basics_walkthrough();
  check_well_formed(trace);
  std::vector<std::string> ids;
  for (const auto &s : trace.stages)
    ids.push_back(s.id);
  CHECK(ids == std::vector<std::string>{"decoder-state", "annotation", "single-score",
                                        "annotations", "scores", "softmax", "applied", "context",
                                        "attentional-state"});
  CHECK(trace.labels.empty());
  CHECK(stage(trace, "single-score").panels[0].values(0, 0) == 927);
  // the notebook's orientation: each annotation a column
  const Panel &annotations = stage(trace, "annotations").panels[0];
  CHECK(annotations.values.shape()[0] == 3);
  CHECK(annotations.values(2, 3) == 45.3);
  CHECK(annotations.col_labels == std::vector<Label>{"h1", "h2", "h3", "h4"});
  check_close(xt::view(stage(trace, "scores").panels[0].values, 0, xt::all()), f::basics_scores);

  const Panel &weights = stage(trace, "softmax").panels[0];
  CHECK(weights.values(0, 2) == 0);
  CHECK(weights.exact == std::vector<std::string>{"", "", "5.7661442e-340", ""});
  const Panel &applied = stage(trace, "applied").panels[0];
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(applied.exact[i * 4 + 2] == f::basics_applied_text[i][2]);
  CHECK(applied.exact[0].empty());

  check_close(xt::view(trace.output, xt::all(), 0), f::basics_context, 1e-14);
  check_close(xt::view(stage(trace, "attentional-state").panels[1].values, xt::all(), 0),
              f::basics_attentional_state);
}

TEST_CASE("basics walkthrough recomputes from edited inputs and names bad ones") {
  BasicsInputs in;
  in.decoder_state = {1, 0, 0};
  const Trace trace = basics_walkthrough(in);
  CHECK(stage(trace, "scores").panels[0].values == Matrix<double>{{3, 59, 1, 4}});
  CHECK(stage(trace, "softmax").panels[0].exact.empty());
  in.decoder_state = {1, 0};
  check_input_error([&] { basics_walkthrough(in); },
                    "annotation length (3, from [4x3]) must equal decoderState length (2",
                    "annotations");
  // an error inside the core's functions blames the walkthrough's input, not "query"
  in.decoder_state = {1e308, 1e308, 1e308};
  check_input_error([&] { basics_walkthrough(in); }, "overflows float64", "decoderState");
}

TEST_CASE("self-attention walkthrough: seed 42 and the output for word 1") {
  const Trace trace = self_attention_walkthrough();
  check_well_formed(trace);
  CHECK(trace.stages.size() == 10);
  const Stage &weights = stage(trace, "weight-matrices");
  CHECK(weights.panels[0].values == f::self_attention_W_Q);
  CHECK(weights.panels[1].values == f::self_attention_W_K);
  CHECK(weights.panels[2].values == f::self_attention_W_V);
  CHECK(trace.labels ==
        decltype(trace.labels){{"words", {"word_1", "word_2", "word_3", "word_4"}}});
  const Panel &word = stage(trace, "word-output").panels[1];
  check_close(xt::view(word.values, 0, xt::all()),
              xt::view(f::self_attention_output, 0, xt::all()));
  CHECK(word.values(0, 0) == doctest::Approx(0.98522025).epsilon(1e-8));
  check_close(trace.output, f::self_attention_output);

  SelfAttentionInputs other;
  other.seed = 7;
  CHECK(stage(self_attention_walkthrough(other), "weight-matrices").panels[0].values !=
        f::self_attention_W_Q);
  other.word = 4;
  check_input_error([&] { self_attention_walkthrough(other); },
                    "word (4) must be below the number of words (4)", "word");
  other.word = 0;
  other.high = 0;
  check_input_error([&] { self_attention_walkthrough(other); }, "high (0) must be between 1",
                    "high");
}

TEST_CASE("self-attention walkthrough: given weights replace the seeded ones, each on its own") {
  SelfAttentionInputs in;
  in.wk = Matrix<double>{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Trace given = self_attention_walkthrough(in);
  const Trace seeded = self_attention_walkthrough();
  const auto &weights = given.stages.at(1).panels, &drawn = seeded.stages.at(1).panels;
  CHECK(weights.at(0).values == drawn.at(0).values); // W_Q: still np.random.seed(42)'s first
  CHECK(weights.at(1).values == *in.wk);
  CHECK(weights.at(2).values == drawn.at(2).values); // W_V: the third draw, as before
  in.wv = Matrix<double>{{1, 2}, {3, 4}};
  check_input_error([&] { self_attention_walkthrough(in); }, "W_V [2x2] must be 3x3", "W_V");
  in.wv = Matrix<double>{{1, 2, 3}, {3, 4, 5}, {0, 0, NAN}};
  check_input_error([&] { self_attention_walkthrough(in); }, "non-finite", "W_V");
}

TEST_CASE("numerics walkthrough: a row per precision, overflow, the float128 weight, masks") {
  const Trace trace = numerics_walkthrough();
  check_well_formed(trace);
  std::vector<std::string> ids;
  for (const auto &s : trace.stages)
    ids.push_back(s.id);
  CHECK(ids == std::vector<std::string>{"naive", "shifted", "underflow", "rounding", "masking",
                                        "scale", "temperature"});
  const Panel &naive = stage(trace, "naive").panels.at(2); // softmax: NaN below float128
  for (std::size_t row = 0; row < 4; ++row)
    CHECK(std::isnan(naive.values(row, 0)));
  CHECK(naive.values(4, 3) == doctest::Approx(0.8807970779778823));
  CHECK(naive.bits.at(0) == "1 11111 1000000000");
  const Panel &x = stage(trace, "naive").panels.at(0);
  CHECK(x.values(1, 0) == 928); // bfloat16 holds 927 and 929 both as 928
  CHECK(x.values(1, 3) == 928);
  const Panel &underflow = stage(trace, "underflow").panels.at(0);
  CHECK(underflow.values(3, 2) == 0);
  CHECK(underflow.exact.at(4 * 4 + 2) == "5.7661442e-340");
  CHECK(stage(trace, "underflow").panels.at(1).values(0, 2) == -781); // float16's log-softmax
  // masking with -1e9: the mask's row is finite everywhere; a row masked whole is uniform, but
  // float16 holds -1e9 as -inf and gives NaN
  const Panel &minus_1e9 = stage(trace, "masking").panels.at(1);
  CHECK(minus_1e9.name == "-1e9");
  CHECK(minus_1e9.values(3, 2) == 0);
  CHECK(std::isnan(minus_1e9.values(5, 0)));                            // float16, all masked
  CHECK(minus_1e9.values(8, 0) == 0.25);                                // float64, all masked
  CHECK(std::isnan(stage(trace, "masking").panels.at(0).values(8, 0))); // -inf, all masked

  NumericsInputs bad;
  bad.mask = {1, 1};
  CHECK_THROWS_WITH_AS(numerics_walkthrough(bad), doctest::Contains("mask length"), InputError);
  bad.mask = {1, 2, 0, 1};
  try {
    numerics_walkthrough(bad);
    FAIL("no error");
  } catch (const InputError &error) {
    CHECK(error.argument() == "mask");
  }
}

TEST_CASE("numerics walkthrough: labels are names and numbers, which the page words") {
  const Trace trace = numerics_walkthrough();
  const char *const names[] = {"float16", "bfloat16", "float32", "float64", "float128"};
  const auto of = [](const char *precision) {
    Label label;
    label.precision = precision;
    return label;
  };
  std::vector<Label> precisions;
  for (const char *name : names)
    precisions.push_back(of(name));
  const std::vector<Label> keys{"x1", "x2", "x3", "x4"};

  for (const Panel &panel : stage(trace, "naive").panels) {
    CHECK(panel.row_labels == precisions);
    CHECK(panel.col_labels == keys);
  }
  CHECK(!keys[0].structured());
  CHECK(precisions[0].structured());

  // the weights and their sum
  const Panel &rounding = stage(trace, "rounding").panels.at(0);
  REQUIRE(rounding.col_labels.size() == 5);
  CHECK(std::equal(keys.begin(), keys.end(), rounding.col_labels.begin()));
  CHECK(rounding.col_labels[4].total);
  CHECK(rounding.col_labels[4].text.empty());

  // each fill: the reader's mask in every precision, then every score masked
  const Stage &masking = stage(trace, "masking");
  std::vector<std::string> fills;
  for (const Panel &panel : masking.panels) {
    fills.push_back(panel.name);
    REQUIRE(panel.row_labels.size() == 10);
    for (std::size_t row = 0; row < 10; ++row) {
      Label expected = of(names[row % 5]);
      expected.all_masked = row >= 5;
      CHECK(panel.row_labels[row] == expected);
    }
  }
  CHECK(fills == std::vector<std::string>{"-inf", "-1e9", "-1e4", "finfo.min"}); // numpy's code

  // the scores' rows are widths d; the weights', a precision at each width
  const Stage &scale = stage(trace, "scale");
  const std::size_t widths[] = {4, 64, 1024};
  REQUIRE(scale.panels.at(0).row_labels.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    Label width;
    width.width = widths[i];
    CHECK(scale.panels[0].row_labels[i] == width);
    for (std::size_t p = 0; p < 5; ++p) {
      Label expected = of(names[p]);
      expected.width = widths[i];
      CHECK(scale.panels.at(1).row_labels.at(i * 5 + p) == expected);
      CHECK(scale.panels.at(2).row_labels.at(i * 5 + p) == expected);
    }
  }
  CHECK(scale.panels[0].col_labels == std::vector<Label>{"k1", "k2", "k3", "k4"});

  const Panel &tempered = stage(trace, "temperature").panels.at(0);
  const double temperatures[] = {0.05, 0.5, 1.0, 5.0, 100.0};
  REQUIRE(tempered.row_labels.size() == 25);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t p = 0; p < 5; ++p) {
      Label expected = of(names[p]);
      expected.temperature = temperatures[i];
      CHECK(tempered.row_labels[i * 5 + p] == expected);
    }
}

TEST_CASE("walkthrough inputs: names, limits and defaults as the walkthroughs use them") {
  // (the test build's kinds, tests/kinds/, add their walkthroughs after the packaged kinds')
  CHECK(walkthrough_names() == Labels{"basics", "self-attention", "scoring", "seq2seq",
                                      "captioning", "transformer", "sentiment", "pretrained", "toy",
                                      "frozen", "numerics"});
  for (const auto &name : walkthrough_names()) {
    CAPTURE(name);
    for (const auto &field : walkthrough_inputs(name)) {
      CAPTURE(field.name);
      if (field.kind == InputKind::integer) {
        CHECK(field.min <= field.numbers(0, 0));
        CHECK(field.numbers(0, 0) <= field.max);
      }
      if (field.kind == InputKind::choice)
        CHECK(std::count(field.choices.begin(), field.choices.end(), field.texts.at(0)) == 1);
      if (field.kind == InputKind::text) // a sentence as typed, one string
        CHECK(field.texts.size() == 1);
      // the caller's: models, and the ids a model's tokenizer made
      const bool model = field.kind == InputKind::model || field.kind == InputKind::models ||
                         field.kind == InputKind::ids;
      CHECK((field.optional || model || field.kind == InputKind::tokens ||
             field.numbers.size() > 0 || !field.texts.empty()));
    }
  }
  const auto basics = walkthrough_inputs("basics");
  CHECK(basics[0].name == "decoderState");
  CHECK(basics[0].numbers == Matrix<double>{{5, 1, 20}});
  CHECK(basics[1].numbers == BasicsInputs{}.annotations);
  const auto scoring = walkthrough_inputs("scoring");
  const auto named = [&](const char *name) {
    return *std::find_if(scoring.begin(), scoring.end(),
                         [&](const InputField &field) { return field.name == name; });
  };
  CHECK(named("step").max == std::int64_t(max_sentence_length));
  CHECK(named("layers").max == std::int64_t(max_layers));
  CHECK(named("encoder").texts == Labels{"default"});
  CHECK(named("encoder").choices == Labels{"default", "forward", "bidirectional"});
  CHECK(named("guide").texts == Labels{"0"});
  CHECK(named("comparison").choices == Labels{"scoring", "encoder", "guide"});
  check_input_error([] { walkthrough_inputs("captions"); },
                    "walkthrough name (\"captions\") must be one of basics, self-attention, "
                    "scoring, seq2seq, captioning, transformer, sentiment, pretrained, toy, "
                    "frozen, numerics",
                    "walkthrough");
}

TEST_CASE("the walkthrough table: a trace from given inputs, defaults for the rest, models by "
          "handle") {
  CHECK(walkthrough("basics", {}).output == basics_walkthrough().output);
  GivenInputs seeded;
  seeded.numbers.emplace_back("seed", Matrix<double>{{3}});
  BasicsInputs three;
  three.seed = 3;
  CHECK(walkthrough("basics", seeded).stages.back().panels.back().values ==
        basics_walkthrough(three).stages.back().panels.back().values);

  Seq2seqSessionConfig config;
  config.embedding = 4;
  config.hidden = 8;
  const int handle = create_model(config, "float64");
  GivenInputs given;
  given.numbers.emplace_back("model", Matrix<double>{{double(handle)}});
  const Trace trace = walkthrough("seq2seq", given);
  CHECK(trace.walkthrough == "seq2seq");
  CHECK(trace.labels.front().second == Labels{"the", "red", "car", "is", "small", "<eos>"});
  given.texts.emplace_back("task", Labels{"en-zh"});
  check_input_error([&] { walkthrough("seq2seq", given); },
                    "inputs.task (en-zh) is not the model's (en-fr)", "task");
  // the model's encoder, layers and guide, as given with it ("default" says nothing of it)
  for (const auto &[name, value, message] :
       {std::tuple<const char *, const char *, const char *>{
            "encoder", "bidirectional", "inputs.encoder (bidirectional) is not the model's"},
        {"encoder", "sideways", "encoder must be"},
        {"guide", "1", "inputs.guide (1) is not the model's (0)"}}) {
    GivenInputs own;
    own.numbers = given.numbers;
    own.texts.emplace_back(name, Labels{value});
    check_input_error([&] { walkthrough("seq2seq", own); }, message, name);
  }
  GivenInputs matching;
  matching.numbers = given.numbers;
  matching.numbers.emplace_back("layers", Matrix<double>{{1}});
  matching.texts = {{"encoder", {"forward"}}, {"guide", {"0"}}, {"comparison", {"encoder"}}};
  CHECK(field_of(walkthrough("seq2seq", matching).models.front(), "encoder") ==
        FieldValue(std::string("forward")));
  matching.texts.front().second = {"default"};
  CHECK(field_of(walkthrough("seq2seq", matching).models.front(), "encoder") ==
        FieldValue(std::string("forward")));
  matching.numbers.back().second(0, 0) = 2;
  check_input_error([&] { walkthrough("seq2seq", matching); },
                    "inputs.layers (2) is not the model's (1)", "layers");
  matching.numbers.pop_back();
  matching.texts.back().second = {"sideways"};
  check_input_error([&] { walkthrough("seq2seq", matching); },
                    "comparison must be scoring, encoder or guide", "comparison");
  check_input_error([] { walkthrough("scoring", {}); },
                    "inputs.models must hold at least one seq2seq model", "models");
  dispose_model(handle);
  given.texts.clear();
  check_input_error([&] { walkthrough("seq2seq", given); }, "this model was disposed", "model");
  check_input_error([] { create_model(Seq2seqSessionConfig{}, "float16"); },
                    "precision must be float32 or float64, got \"float16\"", "precision");
}
