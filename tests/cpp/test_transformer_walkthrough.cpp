#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "attention/model_store.hpp"
#include "attention/transformer_walkthrough.hpp"
#include "trace_checks.hpp"

using namespace attention;

namespace {

TransformerSession<double> trained_transformer() {
  TransformerSessionConfig config;
  config.model = 16;
  config.feedforward = 32;
  config.seed = 3;
  TransformerSession<double> session(config);
  session.train(30, 16);
  return session;
}

} // namespace

TEST_CASE("transformer walkthrough: every stage, its numbers the model's own") {
  auto session = trained_transformer();
  const std::string sentence = "the red car is small";
  const Trace trace = transformer_walkthrough(session, sentence, 2, 2);
  const auto translation = session.translate(session.tokenize(sentence, tasks::Side::source));
  const auto &t = translation.trace;
  const std::size_t n = 6, m = t.output.size(), d = 16, dk = 8, heads = 2;
  CHECK(trace.walkthrough == "transformer");
  std::vector<std::string> ids;
  for (const auto &stage : trace.stages)
    ids.push_back(stage.id);
  std::vector<std::string> expected{
      "tokens",          "positions",    "encoder-qkv",   "encoder-scores", "encoder-mask",
      "encoder-softmax", "encoder-head", "encoder-heads", "encoder-norm",   "encoder-feed-forward",
      "decoder-self",    "cross"};
  for (std::size_t step = 1; step <= m; ++step)
    expected.push_back("step-" + std::to_string(step));
  for (const char *id :
       {"head-view-encoder", "head-view-decoder", "head-view-cross", "model-view", "compare"})
    expected.push_back(id);
  CHECK(ids == expected);

  // the final cross-attention is translate's (layer 2, head 2), as are the encoder's weights
  const Panel &cross = panel_of(trace, "cross", "weights");
  REQUIRE(cross.values.shape()[0] == m);
  REQUIRE(cross.values.shape()[1] == n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      CHECK(cross.values(i, j) == t.cross_attention[1](1, i, j));
      CHECK(trace.output(i, j) == t.cross_attention[1](1, i, j));
    }
  CHECK(panel_of(trace, "step-1", "top").row_labels[0].text ==
        session.task().target.tokens[t.output[0]]);

  // Q, K and V reproduce the model's weights and, through out_proj, the attention's output
  const Panel &q = panel_of(trace, "encoder-qkv", "Q"), &k = panel_of(trace, "encoder-qkv", "K"),
              &v = panel_of(trace, "encoder-qkv", "V");
  const Panel &scores = panel_of(trace, "encoder-scores", "scores"),
              &scaled = panel_of(trace, "encoder-scores", "scaled"),
              &weights = panel_of(trace, "encoder-softmax", "weights"),
              &output = panel_of(trace, "encoder-head", "output"),
              &concat = panel_of(trace, "encoder-heads", "concat"),
              &projected = panel_of(trace, "encoder-heads", "projected");
  for (std::size_t i = 0; i < n; ++i) {
    double total = 0;
    std::vector<double> e(n);
    for (std::size_t j = 0; j < n; ++j) {
      double dot = 0;
      for (std::size_t c = 0; c < dk; ++c)
        dot += q.values(i, c) * k.values(j, c);
      CHECK(scores.values(i, j) == doctest::Approx(dot).epsilon(1e-12));
      CHECK(scaled.values(i, j) == doctest::Approx(dot / std::sqrt(double(dk))).epsilon(1e-12));
      e[j] = std::exp(scaled.values(i, j));
      total += e[j];
    }
    for (std::size_t j = 0; j < n; ++j) {
      CHECK(weights.values(i, j) == t.encoder_attention[1](1, i, j));
      CHECK(weights.values(i, j) == doctest::Approx(e[j] / total).epsilon(1e-12));
    }
    for (std::size_t c = 0; c < dk; ++c) {
      double sum = 0;
      for (std::size_t j = 0; j < n; ++j)
        sum += weights.values(i, j) * v.values(j, c);
      CHECK(output.values(i, c) == doctest::Approx(sum).epsilon(1e-12));
      CHECK(concat.values(i, dk + c) == output.values(i, c));
    }
  }
  const auto &p = session.model().parameters();
  const double *w = p.values("transformer.encoder.layers.1.self_attn.out_proj.weight"),
               *b = p.values("transformer.encoder.layers.1.self_attn.out_proj.bias");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t r = 0; r < d; ++r) {
      double sum = b[r];
      for (std::size_t c = 0; c < d; ++c)
        sum += concat.values(i, c) * w[r * d + c];
      CHECK(projected.values(i, r) == doctest::Approx(sum).epsilon(1e-12));
    }

  // the recomputed scores of the decoder's layer give translate's weights: cross-attention's and,
  // through the causal mask, the masked self-attention's
  const auto softmax_rows = [](const Panel &scores, const Panel &weights) {
    for (std::size_t i = 0; i < scores.values.shape()[0]; ++i) {
      double total = 0;
      for (std::size_t j = 0; j < scores.values.shape()[1]; ++j)
        total += std::exp(scores.values(i, j));
      for (std::size_t j = 0; j < scores.values.shape()[1]; ++j)
        CHECK(weights.values(i, j) ==
              doctest::Approx(std::exp(scores.values(i, j)) / total).epsilon(1e-12));
    }
  };
  softmax_rows(panel_of(trace, "cross", "scaled"), cross);
  softmax_rows(panel_of(trace, "decoder-self", "masked"),
               panel_of(trace, "decoder-self", "weights"));

  // the causal mask: -inf above the diagonal, in the mask and in the masked scores
  const Panel &mask = panel_of(trace, "decoder-self", "mask"),
              &masked = panel_of(trace, "decoder-self", "masked"),
              &self = panel_of(trace, "decoder-self", "weights");
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) {
      CHECK(std::isinf(mask.values(i, j)) == (j > i));
      CHECK(std::isinf(masked.values(i, j)) == (j > i));
      CHECK((self.values(i, j) == 0) == (j > i));
    }
  CHECK(panel_of(trace, "encoder-mask", "mask").values == xt::zeros<double>({n, n}));

  // the model view: every layer x head of each attention
  const auto &model_view = trace.stages[ids.size() - 2];
  CHECK(model_view.panels.size() == 3 * 2 * heads);
  CHECK(panel_of(trace, "model-view", "cross-2-2").values == cross.values);
  CHECK(panel_of(trace, "head-view-cross", "head-2").values == cross.values);
  // cross-attention's rows are labelled one way everywhere: by the word each step writes
  const auto texts = [](const std::vector<Label> &labels) {
    std::vector<std::string> out;
    for (const Label &label : labels)
      out.push_back(label.text);
    return out;
  };
  const auto written = texts(panel_of(trace, "compare", "transformer").row_labels);
  for (const auto &panel :
       std::vector<std::pair<std::string, std::string>>{{"cross", "weights"},
                                                        {"cross", "Q"},
                                                        {"head-view-cross", "head-1"},
                                                        {"model-view", "cross-1-1"},
                                                        {"step-" + std::to_string(m), "alignment"}})
    CHECK_MESSAGE(texts(panel_of(trace, panel.first, panel.second).row_labels) == written,
                  panel.first, " ", panel.second);
  // the comparison: the best head by the test split's AER
  const auto evaluation = session.test_evaluation();
  const auto best = std::min_element(evaluation.heads.begin(), evaluation.heads.end(),
                                     [](auto &a, auto &b) { return a.aer < b.aer; });
  CHECK(panel_of(trace, "compare", "metrics").values(0, 0) == best->aer);
  CHECK(trace.labels.back().first == "best");
  CHECK(trace.labels.back().second ==
        Labels{std::to_string(best->layer + 1), std::to_string(best->head + 1)});
}

TEST_CASE("transformer walkthrough: the GRU model compared, and bad inputs named") {
  auto session = trained_transformer();
  Seq2seqSessionConfig config;
  config.embedding = 8;
  config.hidden = 16;
  Seq2seqSession<float> gru(config);
  gru.train(10, 16);
  const Trace trace =
      transformer_walkthrough(session, "the red car is small", 1, 1, 2, seq2seq_alignment(gru));
  const Panel &metrics = panel_of(trace, "compare", "metrics");
  REQUIRE(metrics.values.shape()[0] == 2);
  CHECK(metrics.values(1, 0) == gru.test_evaluation().aer);
  CHECK(field_of(metrics.row_labels[1], "scoring") == FieldValue(std::string("additive")));
  CHECK(panel_of(trace, "compare", "gru").values.shape() ==
        panel_of(trace, "compare", "transformer").values.shape());

  const auto blame = [&](std::size_t layer, std::size_t head, std::size_t beam,
                         const std::string &sentence = "the red car is small") {
    return argument_of([&] { transformer_walkthrough(session, sentence, layer, head, beam); });
  };
  CHECK(blame(0, 1, 1) == "layer");
  CHECK(blame(3, 1, 1) == "layer");
  CHECK(blame(1, 0, 1) == "head");
  CHECK(blame(1, 3, 1) == "head");
  CHECK(blame(1, 1, 6) == "beam");
  CHECK(blame(1, 1, 1, "the red zebra") == "sentence");
}

TEST_CASE(
    "transformer walkthrough from the table: models by handle, the task and compare checked") {
  TransformerSessionConfig config;
  config.model = 8;
  config.feedforward = 16;
  const int handle = create_model(config, "float32");
  Seq2seqSessionConfig small;
  small.embedding = 4;
  small.hidden = 8;
  const int gru = create_model(small, "float64"), other = create_model(small, "float32");
  small.task = "en-zh";
  const int chinese = create_model(small, "float32");
  GivenInputs given;
  given.numbers = {{"model", Matrix<double>{{double(handle)}}}, {"head", Matrix<double>{{2}}}};
  const Trace trace = walkthrough("transformer", given);
  CHECK(trace.walkthrough == "transformer");
  CHECK(trace.labels.front().second == Labels{"the", "red", "car", "is", "small", "<eos>"});
  // a GRU model of another precision compares too
  given.numbers.emplace_back("compare", Matrix<double>{{double(gru)}});
  CHECK(panel_of(walkthrough("transformer", given), "compare", "metrics").values.shape()[0] == 2);
  given.numbers.back().second = Matrix<double>{{double(gru), double(other)}};
  CHECK(argument_of([&] { walkthrough("transformer", given); }) == "compare");
  given.numbers.back().second = Matrix<double>{{double(chinese)}};
  CHECK(argument_of([&] { walkthrough("transformer", given); }) == "compare");
  given.numbers.back().second = Matrix<double>{{double(handle)}};
  CHECK(argument_of([&] { walkthrough("transformer", given); }) == "compare");
  given.numbers.pop_back();
  given.numbers.emplace_back("layer", Matrix<double>{{3}});
  CHECK(argument_of([&] { walkthrough("transformer", given); }) == "layer");
  given.numbers.pop_back();
  given.texts.emplace_back("task", Labels{"en-zh"});
  CHECK(argument_of([&] { walkthrough("transformer", given); }) == "task");
  given.texts.clear();
  given.numbers.front().second(0, 0) = gru;
  CHECK(argument_of([&] { walkthrough("transformer", given); }) == "model");
  for (int h : {handle, gru, other, chinese})
    dispose_model(h);
}
