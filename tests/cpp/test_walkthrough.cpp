#include <doctest/doctest.h>

#include <set>

#include <xtensor/xmanipulation.hpp>
#include <xtensor/xview.hpp>

#include "attention/walkthrough.hpp"
#include "check_close.hpp"
#include "reference.hpp"

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
    CHECK(!s.title.empty());
    CHECK(!s.formula.empty());
    CHECK(!s.code.empty());
    REQUIRE(!s.panels.empty());
    for (const auto &p : s.panels) {
      CAPTURE(p.name);
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
  CHECK(stage(trace, "decoder-state").code == "dec_hidden_state = [5,1,20]");
  CHECK(stage(trace, "single-score").panels[0].values(0, 0) == 927);
  // the notebook's orientation: each annotation a column
  const Panel &annotations = stage(trace, "annotations").panels[0];
  CHECK(annotations.values.shape()[0] == 3);
  CHECK(annotations.values(2, 3) == 45.3);
  CHECK(annotations.col_labels == std::vector<std::string>{"h1", "h2", "h3", "h4"});
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
                    "annotation length (3, from [4x3]) must equal decoderState length (2");
}

TEST_CASE("self-attention walkthrough: seed 42 and the output for word 1") {
  const Trace trace = self_attention_walkthrough();
  check_well_formed(trace);
  CHECK(trace.stages.size() == 10);
  const Stage &weights = stage(trace, "weight-matrices");
  CHECK(weights.panels[0].values == f::self_attention_W_Q);
  CHECK(weights.panels[1].values == f::self_attention_W_K);
  CHECK(weights.panels[2].values == f::self_attention_W_V);
  CHECK(weights.code.find("np.random.seed(42)\nW_Q = np.random.randint(3, size=(3, 3))") == 0);
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
                    "word (4) must be below the number of words (4)");
}

TEST_CASE("scoring walkthrough: four functions side by side and a decoding step by step") {
  const Trace trace = scoring_walkthrough();
  check_well_formed(trace);
  CHECK(stage(trace, "compare-scores").panels.size() == 4);
  check_close(xt::transpose(stage(trace, "encoder-states").panels[0].values),
              f::scoring_walkthrough_H);
  check_close(xt::transpose(stage(trace, "decoder-states").panels[0].values),
              f::scoring_walkthrough_S);
  check_close(trace.output, f::scoring_walkthrough_alignment);
  const Panel &so_far = stage(trace, "step-2").panels.back();
  CHECK(so_far.values.shape()[0] == 2);
  CHECK(so_far.row_labels == std::vector<std::string>{"Comment", "allez"});
  CHECK(stage(trace, "alignment").panels[0].col_labels ==
        std::vector<std::string>{"How", "are", "you", "?"});

  ScoringInputs in;
  in.length = 6;
  in.score = parse_score_function("additive");
  const Trace longer = scoring_walkthrough(in);
  CHECK(longer.output.shape()[0] == 6);
  CHECK(stage(longer, "alignment").panels[0].col_labels[5] == "x6");
  check_input_error([] { parse_score_function("cosine"); },
                    "score (\"cosine\") must be one of additive, dot, general, concat");
  in.source_tokens = {"a"};
  check_input_error([&] { scoring_walkthrough(in); }, "sourceTokens has 1 tokens but there are 6");
}
