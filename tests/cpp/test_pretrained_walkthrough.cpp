// The pretrained walkthrough over the tiny checkpoints of tests/fixtures/pretrained/: its stages
// hold the model's numbers as PyTorch computed them (the fixtures' reference outputs), and what it
// derives from them (the first token's shares, rollout, the likeliest next tokens) follows from
// those references by the definitions.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "attention/errors.hpp"
#include "attention/model_store.hpp"
#include "attention/pretrained_session.hpp"
#include "attention/walkthrough.hpp"
#include "pretrained_fixtures.hpp"

using namespace attention;
using namespace pretrained_fixtures;

namespace {

// A case's checkpoint in the store at float64, every weight in, with token texts "t<id>" when
// `texts` (as a page gives its tokenizer's).
int stored(const std::string &name, bool texts) {
  const Checkpoint files = checkpoint(name);
  const int handle = create_pretrained(files.plan, "float64");
  auto *session = stored_model(handle).as<PretrainedSession>().get<double>();
  write_weights(session->model(), files);
  if (texts) {
    std::vector<std::string> all;
    for (std::size_t id = 0; id < files.plan.config.vocabulary; ++id)
      all.push_back("t" + std::to_string(id));
    session->set_token_texts(all);
  }
  return handle;
}

Matrix<double> row(const std::vector<double> &values) {
  auto out = Matrix<double>::from_shape({1, values.size()});
  std::copy(values.begin(), values.end(), out.data());
  return out;
}

GivenInputs inputs(int handle, const std::vector<TokenId> &ids, double layer, double head) {
  GivenInputs given;
  given.numbers.emplace_back("model", Matrix<double>{{double(handle)}});
  given.numbers.emplace_back("ids", row(std::vector<double>(ids.begin(), ids.end())));
  given.numbers.emplace_back("layer", Matrix<double>{{layer}});
  given.numbers.emplace_back("head", Matrix<double>{{head}});
  return given;
}

const Panel &panel_of(const Trace &trace, const std::string &stage, const std::string &name) {
  for (const auto &s : trace.stages)
    if (s.id == stage)
      for (const auto &p : s.panels)
        if (p.name == name)
          return p;
  FAIL("no panel " << name << " in stage " << stage);
  throw;
}

double worst(const Panel &panel, const std::vector<double> &expected) {
  return relative_error(panel.values.data(), panel.values.size(), expected);
}

} // namespace

TEST_CASE("pretrained walkthrough: every stage of GPT-2 and Llama checkpoints equals PyTorch's") {
  for (const char *name : {"gpt2", "llama"}) {
    CAPTURE(name);
    const Reference ref(name);
    REQUIRE(!ref.has("attention_mask"));
    const std::vector<TokenId> ids = ref.ids("input_ids");
    const int handle = stored(name, true);
    const auto &config = stored_model(handle).as<PretrainedSession>().get<double>()->config();
    const std::size_t n = ids.size(), L = config.layers, H = config.heads;
    const std::size_t layer = 1, head = 1;
    const Trace trace = walkthrough("pretrained", inputs(handle, ids, layer, head));

    std::vector<std::string> stages;
    for (const auto &stage : trace.stages)
      stages.push_back(stage.id);
    const std::vector<std::string> expected_stages{
        "tokens",     "embeddings", "qkv",   "scores",  "mask",       "softmax",   "output",
        "model-view", "head-view",  "sinks", "rollout", "prediction", "generation"};
    CHECK(stages == expected_stages);

    // the tokens are the texts given for their ids
    REQUIRE(trace.labels.at(0).first == "tokens");
    for (std::size_t i = 0; i < n; ++i)
      CHECK(trace.labels.at(0).second[i] == "t" + std::to_string(ids[i]));
    CHECK(panel_of(trace, "tokens", "input_ids").values(0, n - 1) == ids.back());

    // learned positions (GPT-2) or rotary ones (Llama: q and k after rotation)
    const bool rotary = config.family == pretrained::Family::llama;
    const auto &embedding_stage = trace.stages[1].panels;
    CHECK(embedding_stage.size() == (rotary ? 1u : 3u));
    if (!rotary)
      CHECK(worst(panel_of(trace, "embeddings", "hidden_states"), ref.values("hidden_states.0")) <
            1e-12);

    for (const char *step : {"q", "k", "v"})
      CHECK(worst(panel_of(trace, "qkv", step), ref.values(std::string("trace.") + step)) < 1e-12);
    if (rotary)
      CHECK(worst(panel_of(trace, "qkv", "q_rotated"), ref.values("trace.q_rotated")) < 1e-12);
    CHECK(worst(panel_of(trace, "scores", "scaled"), ref.values("trace.scaled")) < 1e-12);
    CHECK(worst(panel_of(trace, "mask", "masked"), ref.values("trace.masked")) < 1e-12);
    CHECK(worst(panel_of(trace, "softmax", "weights"), ref.values("trace.weights")) < 1e-12);
    CHECK(worst(panel_of(trace, "output", "output"), ref.values("trace.output")) < 1e-12);
    const Panel &mask = panel_of(trace, "mask", "mask");
    CHECK(mask.values(0, 1) == -INFINITY);
    CHECK(mask.values(1, 0) == 0);

    // every head of every layer, and the chosen layer's heads
    std::vector<std::vector<double>> attentions;
    for (std::size_t l = 0; l < L; ++l)
      attentions.push_back(ref.values("attentions." + std::to_string(l)));
    const auto weight = [&](std::size_t l, std::size_t h, std::size_t i, std::size_t j) {
      return attentions[l][(h * n + i) * n + j];
    };
    REQUIRE(trace.stages[7].panels.size() == L * H);
    for (std::size_t l = 0; l < L; ++l)
      for (std::size_t h = 0; h < H; ++h) {
        const std::string id = std::to_string(l) + "-" + std::to_string(h);
        const Panel &each = panel_of(trace, "model-view", "attention-" + id);
        CHECK(worst(each, std::vector<double>(attentions[l].begin() + h * n * n,
                                              attentions[l].begin() + (h + 1) * n * n)) < 1e-12);
      }
    REQUIRE(trace.stages[8].panels.size() == H);
    CHECK(panel_of(trace, "head-view", "head-1").values ==
          panel_of(trace, "model-view", "attention-1-1").values);

    // the first token's share of each head's queries after it; with the values' norms for the
    // traced head, whose v the reference holds
    const Panel &first = panel_of(trace, "sinks", "first_token");
    for (std::size_t l = 0; l < L; ++l)
      for (std::size_t h = 0; h < H; ++h) {
        double sum = 0;
        for (std::size_t i = 1; i < n; ++i)
          sum += weight(l, h, i, 0);
        CHECK(first.values(l, h) == doctest::Approx(sum / double(n - 1)).epsilon(1e-12));
      }
    const std::vector<double> v = ref.values("trace.v");
    const std::size_t d = v.size() / n;
    std::vector<double> norms(n);
    for (std::size_t j = 0; j < n; ++j)
      norms[j] = std::sqrt(
          std::inner_product(v.begin() + j * d, v.begin() + (j + 1) * d, v.begin() + j * d, 0.0));
    double weighed = 0;
    for (std::size_t i = 1; i < n; ++i) {
      double whole = 0;
      for (std::size_t j = 0; j < n; ++j)
        whole += weight(layer, head, i, j) * norms[j];
      weighed += weight(layer, head, i, 0) * norms[0] / whole;
    }
    CHECK(panel_of(trace, "sinks", "first_token_values").values(layer, head) ==
          doctest::Approx(weighed / double(n - 1)).epsilon(1e-12));

    // rollout: (I + mean of the heads) / 2 a layer, multiplied from the first layer
    std::vector<double> rolled(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      rolled[i * n + i] = 1;
    for (std::size_t l = 0; l < L; ++l) {
      std::vector<double> next(n * n, 0.0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k) {
          double a = i == k ? 0.5 : 0.0;
          for (std::size_t h = 0; h < H; ++h)
            a += 0.5 * weight(l, h, i, k) / double(H);
          for (std::size_t j = 0; j < n; ++j)
            next[i * n + j] += a * rolled[k * n + j];
        }
      rolled = next;
    }
    const Panel &rollout = panel_of(trace, "rollout", "rollout");
    CHECK(worst(rollout, rolled) < 1e-12);
    for (std::size_t i = 0; i < n; ++i) // each row a distribution over the input tokens
      CHECK(std::accumulate(&rollout.values(i, 0), &rollout.values(i, 0) + n, 0.0) ==
            doctest::Approx(1).epsilon(1e-12));

    // the ten likeliest next tokens: softmax of the last row of the reference's logits
    const std::vector<double> logits = ref.values("logits");
    const std::size_t V = config.vocabulary;
    std::vector<double> last(logits.end() - static_cast<std::ptrdiff_t>(V), logits.end());
    const double most = *std::max_element(last.begin(), last.end());
    double total = 0;
    for (double &x : last)
      total += x = std::exp(x - most);
    std::vector<std::size_t> order(V);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return last[a] > last[b]; });
    const Panel &top = panel_of(trace, "prediction", "top");
    REQUIRE(top.values.shape()[0] == 10);
    for (std::size_t k = 0; k < 10; ++k) {
      CHECK(top.row_labels[k].text == "t" + std::to_string(order[k]));
      CHECK(top.values(k, 0) == doctest::Approx(last[order[k]] / total).epsilon(1e-12));
    }
    dispose_model(handle);
  }
}

TEST_CASE("pretrained walkthrough: generation over the key/value cache is the full pass's") {
  for (const char *name : {"gpt2", "llama"}) {
    CAPTURE(name);
    const Reference ref(name);
    const std::vector<TokenId> prompt = ref.ids("input_ids"), greedy = ref.ids("generate.ids");
    const int handle = stored(name, true);
    const std::size_t layer = 1, head = 1, n = prompt.size(), m = greedy.size();
    GivenInputs given = inputs(handle, prompt, layer, head);
    given.numbers.emplace_back("maxTokens", Matrix<double>{{double(m)}});
    const Trace trace = walkthrough("pretrained", given);

    // greedy by default: the tokens PyTorch's greedy decoding appends, each with its probability
    const Panel &chosen = panel_of(trace, "generation", "chosen");
    REQUIRE(chosen.values.shape()[0] == m);
    for (std::size_t s = 0; s < m; ++s)
      CHECK(chosen.row_labels[s].text == "t" + std::to_string(greedy[s]));
    CHECK(chosen.values(0, 0) == panel_of(trace, "prediction", "top").values(0, 0));
    CHECK(trace.labels.back().second.front() == "tokens");

    // each step's row, and the cache when it ends, are those of one pass over the whole text:
    // the rows of its last m queries, and its keys and values (the last token chosen is not read)
    std::vector<TokenId> read = prompt;
    read.insert(read.end(), greedy.begin(), greedy.end() - 1);
    const Trace whole = walkthrough("pretrained", inputs(handle, read, layer, head));
    const Panel &full = panel_of(whole, "softmax", "weights");
    const Panel &steps = panel_of(trace, "generation", "step_attention");
    REQUIRE(steps.values.shape()[0] == m);
    REQUIRE(steps.values.shape()[1] == read.size());
    for (std::size_t s = 0; s < m; ++s) {
      CHECK(steps.row_labels[s].text == "t" + std::to_string(read[n - 1 + s]));
      for (std::size_t j = 0; j < read.size(); ++j)
        CHECK(steps.values(s, j) == doctest::Approx(full.values(n - 1 + s, j)).epsilon(1e-12));
    }
    const bool rotary = std::string(name) == "llama";
    const Panel &keys = panel_of(whole, "qkv", rotary ? "k_rotated" : "k");
    const Panel &values = panel_of(whole, "qkv", "v");
    CHECK(worst(panel_of(trace, "generation", "key_cache"),
                std::vector<double>(keys.values.begin(), keys.values.end())) < 1e-12);
    CHECK(worst(panel_of(trace, "generation", "value_cache"),
                std::vector<double>(values.values.begin(), values.values.end())) < 1e-12);

    // a draw: the same seed draws the same tokens, each among the top k of its step
    given.texts.emplace_back("temperature", Labels{"1"});
    given.numbers.emplace_back("topK", Matrix<double>{{3}});
    given.numbers.emplace_back("seed", Matrix<double>{{7}});
    const Trace drawn = walkthrough("pretrained", given), again = walkthrough("pretrained", given);
    const Panel &first = panel_of(drawn, "generation", "chosen");
    CHECK(first.row_labels == panel_of(again, "generation", "chosen").row_labels);
    const Panel &top = panel_of(drawn, "prediction", "top");
    CHECK(std::any_of(top.row_labels.begin(), top.row_labels.begin() + 3,
                      [&](const Label &label) { return label == first.row_labels[0]; }));

    // it stops at the model's last position
    GivenInputs long_prompt = inputs(handle, std::vector<TokenId>(30, prompt[0]), 0, 0);
    const Trace last = walkthrough("pretrained", long_prompt);
    CHECK(panel_of(last, "generation", "chosen").values.shape()[0] == 2); // 32 positions
    CHECK(last.labels.back().second.front() == "positions");

    given.texts.back().second = {"2"};
    try {
      walkthrough("pretrained", given);
      FAIL("a temperature not among the choices was taken");
    } catch (const InputError &error) {
      CHECK(error.argument() == "temperature");
    }
    dispose_model(handle);
  }
}

TEST_CASE("pretrained walkthrough: a model without token texts, no head, and bad inputs") {
  // without its tokenizer's texts, a token is its id
  const int gpt2 = stored("gpt2", false);
  const std::vector<TokenId> ids = Reference("gpt2").ids("input_ids");
  const Trace trace = walkthrough("pretrained", inputs(gpt2, ids, 0, 0));
  CHECK(trace.labels.at(0).second.front() == "#" + std::to_string(ids.front()));

  // a base model (no LM head) has no prediction stage
  const int base = stored("bert-base", true);
  const Trace bert =
      walkthrough("pretrained", inputs(base, Reference("bert-base").ids("input_ids"), 0, 0));
  CHECK(bert.stages.back().id == "rollout");

  const auto blamed = [&](const GivenInputs &given) {
    try {
      walkthrough("pretrained", given);
    } catch (const InputError &error) {
      return error.argument();
    }
    return std::string("nothing");
  };
  CHECK(blamed(inputs(gpt2, ids, 2, 0)) == "layer"); // 2 layers
  CHECK(blamed(inputs(gpt2, ids, 0, 9)) == "head");
  CHECK(blamed(inputs(gpt2, {}, 0, 0)) == "ids");
  CHECK(blamed(inputs(gpt2, {1000000}, 0, 0)) == "ids");
  CHECK(blamed(inputs(gpt2, std::vector<TokenId>(33, 1), 0, 0)) == "sentence"); // 32 positions
  GivenInputs none = inputs(gpt2, ids, 0, 0);
  none.numbers.erase(none.numbers.begin());
  CHECK(blamed(none) == "model");
  dispose_model(gpt2);
  dispose_model(base);
}
