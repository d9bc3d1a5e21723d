// The pretrained walkthrough: a checkpoint's reading of a text, layer by layer and head by head.
// The tokens and their embeddings, one head's every step, every head of the model (the model
// view) and of a layer (the head view), each head's attention to the first token with and without
// the values' norms, attention rollout, and the next tokens the LM head predicts. The text is
// tokenized by the model's own tokenizer, which is the caller's: the trace reads its ids.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/pretrained_session.hpp"
#include "attention/walkthrough.hpp"
#include "given_inputs.hpp"
#include "trace_parts.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;
using namespace trace_parts;
namespace pt = pretrained;

// The next tokens the prediction stage shows.
constexpr std::size_t shown_choices = 10;
// The form's bounds of a layer and a head (from 0); a model's own are checked with its trace.
constexpr std::int64_t max_index = 1023;
// The generation stage's bounds: its new tokens (a step each, drawn on screen) and the top-k
// choices (0: every token; past the largest vocabularies is all of them too).
constexpr std::int64_t max_new_tokens = 64, max_top_k = 1 << 20;

template <class T> Matrix<double> doubles(const Matrix<T> &m) {
  return rows_of(m, 0, m.shape()[0]);
}

// Rows `ids` of an embedding table (vocabulary or positions x hidden) as doubles.
template <class T>
Matrix<double> table_rows(const ParameterSet<T> &parameters, const std::string &name,
                          const std::vector<std::size_t> &rows) {
  for (const auto &info : parameters.layout())
    if (info.name == name) {
      const std::size_t width = info.shape.back();
      auto out = Matrix<double>::from_shape({rows.size(), width});
      for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t d = 0; d < width; ++d)
          out(r, d) = static_cast<double>(parameters.data()[info.offset + rows[r] * width + d]);
      return out;
    }
  fail(Argument("model"), "the model has no tensor ", name);
}

// Each head's share of its queries' attention on the first token (the queries after it: the first
// has only it), weighing each key j by the norm of its value, ‖v_j‖, when `norms` is given
// (Kobayashi et al. 2020): a head that attends to the first token but reads little from it is told
// apart.
template <class T>
Matrix<double> first_token_shares(const pt::RunOutput<T> &run, std::size_t group, bool norms) {
  const std::size_t layers = run.attentions.size(), heads = run.attentions[0].size();
  auto out = Matrix<double>::from_shape({layers, heads});
  for (std::size_t l = 0; l < layers; ++l)
    for (std::size_t h = 0; h < heads; ++h) {
      const Matrix<T> &a = run.attentions[l][h];
      const std::size_t n = a.shape()[0];
      double sum = 0;
      for (std::size_t i = 1; i < n; ++i) {
        double first = a(i, 0), row = 1;
        if (norms) {
          const Matrix<T> &v = run.value_norms[l];
          row = 0;
          for (std::size_t j = 0; j < n; ++j)
            row += double(a(i, j)) * double(v(h / group, j));
          first *= double(v(h / group, 0));
        }
        sum += row > 0 ? first / row : 0;
      }
      out(l, h) = n > 1 ? sum / double(n - 1) : 1;
    }
  return out;
}

// Attention rollout (Abnar & Zuidema 2020): each layer's heads averaged, the residual stream added
// as the identity, rows renormalised, and the layers multiplied from the first: how much of each
// token's last layer could trace back to each input token, if attention were all that mixed them.
template <class T> Matrix<double> rollout(const pt::RunOutput<T> &run) {
  const std::size_t n = run.attentions[0][0].shape()[0];
  Matrix<double> total = filled(n, n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    total(i, i) = 1;
  for (const auto &layer : run.attentions) {
    Matrix<double> mixed = filled(n, n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      mixed(i, i) = 0.5;
    for (const Matrix<T> &head : layer)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          mixed(i, j) += 0.5 * double(head(i, j)) / double(layer.size());
    Matrix<double> next = filled(n, n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j)
          next(i, j) += mixed(i, k) * total(k, j);
    total = std::move(next);
  }
  return total;
}

// What the generation stage asks for: at most `tokens` new tokens, each the likeliest at
// temperature 0, else drawn at `temperature` among the `top_k` likeliest (0: all) with numpy's
// random state of `seed`.
struct Generation {
  std::size_t tokens = 0, top_k = 0;
  double temperature = 0;
  std::int64_t seed = 0;
};

// Generation a token at a time over a key/value cache, as model.generate does: the prompt read
// once, then each chosen token alone, its keys and values appended to the cache. The stage: each
// step's attention row of the layer's head (the query whose logits chose the next token, over
// every token so far; 0 on those still to come), each chosen token's probability under the
// model's softmax, and the head's keys and values cached when it ends. It stops at `asked.tokens`,
// at an end token of the config, or at the model's last position; labels "generated" (the new
// tokens) and "generationEnd" ("tokens", "end" or "positions") say what it made and why it
// stopped.
template <class T>
void add_generation(Trace &trace, const PretrainedSession<T> &session,
                    const std::vector<TokenId> &prompt, std::size_t layer, std::size_t head,
                    std::size_t kv_head, const Generation &asked) {
  const pt::Config &c = session.config();
  const pt::Model<T> &model = session.model();
  typename pt::Model<T>::Cache cache;
  NumpyRandomState random(asked.seed);
  std::vector<TokenId> all = prompt, read = prompt;
  std::vector<std::vector<T>> rows; // each step's row over the tokens read so far
  Labels queries, chosen;
  std::vector<double> probabilities;
  std::string end = "tokens";
  while (chosen.size() < asked.tokens) {
    if (all.size() >= c.positions) {
      end = "positions";
      break;
    }
    const pt::RunOutput<T> step = model.extend(cache, read, true);
    const Matrix<T> &weights = step.attentions[layer][head];
    const std::size_t last = weights.shape()[0] - 1;
    rows.emplace_back(&weights(last, 0), &weights(last, 0) + weights.shape()[1]);
    queries.push_back(session.token_text(all.back()));
    const pt::TokenChoice next =
        pt::next_token(step.logits.data(), c.vocabulary, asked.temperature, asked.top_k, random);
    chosen.push_back(session.token_text(next.id));
    probabilities.push_back(next.probability);
    all.push_back(next.id);
    read = {next.id};
    if (std::find(c.end_tokens.begin(), c.end_tokens.end(), next.id) != c.end_tokens.end()) {
      end = "end";
      break;
    }
  }
  const std::size_t keys = cache.length();
  Labels columns;
  for (std::size_t j = 0; j < keys; ++j)
    columns.push_back(session.token_text(all[j]));
  Matrix<double> attention = filled(rows.size(), keys, 0.0);
  for (std::size_t s = 0; s < rows.size(); ++s)
    for (std::size_t j = 0; j < rows[s].size(); ++j)
      attention(s, j) = static_cast<double>(rows[s][j]);
  auto p = Matrix<double>::from_shape({probabilities.size(), 1});
  std::copy(probabilities.begin(), probabilities.end(), p.data());
  // the traced head's key/value head: its slice of each cached row
  const std::size_t width = c.head_dim, stride = c.kv_heads * width, offset = kv_head * width;
  const auto cached = [&](const std::vector<T> &values) {
    Matrix<double> out = filled(keys, width, 0.0);
    for (std::size_t j = 0; j < keys; ++j)
      for (std::size_t d = 0; d < width; ++d)
        out(j, d) = static_cast<double>(values[j * stride + offset + d]);
    return out;
  };
  const Labels head_width = numbered("", width);
  trace.labels.push_back({"generated", chosen});
  trace.labels.push_back({"generationEnd", Labels(1, end)});
  add_stage(trace, "generation",
            {panel("step_attention", "weights", std::move(attention), queries, columns),
             panel("chosen", "weights", std::move(p), chosen, Labels(1, "p")),
             panel("key_cache", "annotation", cached(cache.keys_of(layer)), columns, head_width),
             panel("value_cache", "context", cached(cache.values_of(layer)), columns, head_width)});
}

template <class T>
Trace pretrained_walkthrough(PretrainedSession<T> &session, const std::vector<TokenId> &ids,
                             std::size_t layer, std::size_t head, const Generation &generation) {
  const pt::Config &c = session.config();
  const pt::Model<T> &model = session.model();
  if (ids.empty())
    fail(Argument("ids"), "inputs.ids must hold at least one token: the text has none");
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || static_cast<std::size_t>(ids[i]) >= c.vocabulary)
      fail(Argument("ids"), "inputs.ids[", i, "] (", ids[i], ") is not a token of the model's ",
           c.vocabulary);
  if (layer >= c.layers)
    fail(Argument("layer"), "layer (", layer, ") must be below ", c.layers, ", the model's layers");
  if (head >= c.heads)
    fail(Argument("head"), "head (", head, ") must be below ", c.heads,
         ", the model's heads in a layer");
  pt::RunInput input;
  input.ids = ids;
  const pt::Logits logits =
      session.model().head() == pt::Head::lm ? pt::Logits::last : pt::Logits::none;
  const pt::RunOutput<T> run = model.run(input, true, true, logits);
  const pt::HeadTrace<T> steps = model.trace(input, layer, head);
  const std::size_t n = ids.size();

  Labels tokens;
  std::vector<std::size_t> rows, positions;
  for (std::size_t i = 0; i < n; ++i) {
    tokens.push_back(session.token_text(ids[i]));
    rows.push_back(static_cast<std::size_t>(ids[i]));
    positions.push_back(i);
  }
  const Labels width = numbered("", c.hidden), head_width = numbered("", c.head_dim);
  Trace trace;
  trace.walkthrough = "pretrained";
  // the family, which the spec names the model's modules by, how it sees positions and which keys
  // a token may see, and the key/value head the traced head reads (its own, but under grouped
  // attention)
  const bool rotary = c.family == pt::Family::llama || c.family == pt::Family::qwen2;
  trace.labels = {{"tokens", tokens},
                  {"family", Labels(1, pt::family_name(c.family))},
                  {"positions", Labels(1, rotary ? "rotary" : "learned")},
                  {"mask", Labels(1, c.causal ? "causal" : "padding")},
                  {"kvHead", Labels(1, std::to_string(steps.kv_head))}};
  const auto stage = [&](const char *id, std::vector<Panel> panels) {
    add_stage(trace, id, std::move(panels));
  };

  auto id_row = Matrix<double>::from_shape({1, n});
  for (std::size_t i = 0; i < n; ++i)
    id_row(0, i) = ids[i];
  stage("tokens", {panel("input_ids", "neutral", std::move(id_row), Labels(1, "id"), tokens)});

  const bool gpt2 = c.family == pt::Family::gpt2;
  const ParameterSet<T> &parameters = model.parameters();
  std::vector<Panel> embeddings{panel("inputs_embeds", "annotation",
                                      table_rows(parameters,
                                                 gpt2     ? "wte.weight"
                                                 : rotary ? "embed_tokens.weight"
                                                          : "embeddings.word_embeddings.weight",
                                                 rows),
                                      tokens, width)};
  if (!rotary) {
    embeddings.push_back(
        panel("position_embeds", "neutral",
              table_rows(parameters, gpt2 ? "wpe.weight" : "embeddings.position_embeddings.weight",
                         positions),
              numbered("", n), width));
    embeddings.push_back(
        panel("hidden_states", "annotation", doubles(run.hidden_states[0]), tokens, width));
  }
  stage("embeddings", std::move(embeddings));

  std::vector<Panel> qkv{panel("q", "decoder", doubles(steps.q), tokens, head_width),
                         panel("k", "annotation", doubles(steps.k), tokens, head_width),
                         panel("v", "context", doubles(steps.v), tokens, head_width)};
  if (rotary) {
    qkv.push_back(panel("q_rotated", "decoder", doubles(steps.q_rotated), tokens, head_width));
    qkv.push_back(panel("k_rotated", "annotation", doubles(steps.k_rotated), tokens, head_width));
  }
  stage("qkv", std::move(qkv));
  stage("scores", {panel("scores", "scores", doubles(steps.scores), tokens, tokens),
                   panel("scaled", "scores", doubles(steps.scaled), tokens, tokens)});
  auto mask = filled(n, n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (std::isinf(static_cast<double>(steps.masked(i, j))))
        mask(i, j) = -std::numeric_limits<double>::infinity();
  stage("mask", {panel("mask", "neutral", std::move(mask), tokens, tokens),
                 panel("masked", "scores", doubles(steps.masked), tokens, tokens)});
  stage("softmax", {panel("weights", "weights", doubles(steps.weights), tokens, tokens)});
  stage("output", {panel("output", "context", doubles(steps.output), tokens, head_width)});

  std::vector<Panel> every, layer_heads;
  for (std::size_t l = 0; l < c.layers; ++l)
    for (std::size_t h = 0; h < c.heads; ++h) {
      const std::string name = "attention-" + std::to_string(l) + "-" + std::to_string(h);
      Panel each = panel("", "weights", doubles(run.attentions[l][h]), tokens, tokens);
      each.name = name;
      if (l == layer) {
        Panel copy = each;
        copy.name = "head-" + std::to_string(h);
        layer_heads.push_back(std::move(copy));
      }
      every.push_back(std::move(each));
    }
  stage("model-view", std::move(every));
  stage("head-view", std::move(layer_heads));

  const Labels layer_names = numbered("L", c.layers), head_names = numbered("H", c.heads);
  const std::size_t group = c.heads / c.kv_heads;
  stage("sinks", {panel("first_token", "weights", first_token_shares(run, group, false),
                        layer_names, head_names),
                  panel("first_token_values", "weights", first_token_shares(run, group, true),
                        layer_names, head_names)});
  stage("rollout", {panel("rollout", "weights", rollout(run), tokens, tokens)});

  if (logits != pt::Logits::none) {
    const auto top = pt::likeliest(run.logits.data(), c.vocabulary, shown_choices);
    auto probabilities = Matrix<double>::from_shape({top.size(), 1});
    Labels next;
    for (std::size_t i = 0; i < top.size(); ++i) {
      probabilities(i, 0) = top[i].probability;
      next.push_back(session.token_text(top[i].id));
    }
    trace.labels.push_back({"predicted", Labels(1, next.front())});
    stage("prediction", {panel("top", "weights", std::move(probabilities), next, Labels(1, "p"))});
    if (c.causal)
      add_generation(trace, session, ids, layer, head, steps.kv_head, generation);
  }
  trace.output = doubles(run.attentions[layer][head]);
  return trace;
}

// ---------------------------------------------------------------------------------------------
// The walkthrough's entry in the walkthroughs' table: the model (the caller's), the text as typed
// and the ids its tokenizer made of it (the caller's: the tokenizer is not the core's), and the
// layer and head (from 0, as transformers counts them) that the detailed stages show.

using namespace inputs;

std::vector<InputField> pretrained_inputs() {
  return {texts_field("sentence", InputKind::text,
                      {"In the beginning, God created the heavens and the earth."}),
          integer_field("layer", 0, 0, max_index),
          integer_field("head", 0, 0, max_index),
          integer_field("maxTokens", 8, 1, max_new_tokens),
          texts_field("temperature", InputKind::choice, {"0"}, {"0", "0.5", "0.8", "1", "1.5"}),
          integer_field("topK", 0, 0, max_top_k),
          integer_field("seed", 0, 0, max_seed),
          model_field("model", InputKind::model),
          model_field("ids", InputKind::ids)};
}

Trace pretrained_from(const GivenInputs &given) {
  const int handle = one_model(given, "one pretrained model");
  const auto fields = pretrained_inputs();
  std::vector<TokenId> ids;
  if (const auto *numbers = find(given.numbers, "ids"))
    for (std::size_t i = 0; i < numbers->size(); ++i)
      ids.push_back(static_cast<TokenId>(numbers->data()[i]));
  return stored_model(handle).as<PretrainedSession>().visit([&](auto &session) {
    try {
      Generation generation;
      generation.tokens = size(given, "maxTokens", fields);
      generation.temperature = std::stod(choice(given, "temperature", fields));
      generation.top_k = size(given, "topK", fields);
      generation.seed = static_cast<std::int64_t>(size(given, "seed", fields));
      return pretrained_walkthrough(session, ids, size(given, "layer", fields),
                                    size(given, "head", fields), generation);
    } catch (const InputError &error) {
      // the ids the model cannot take (more than its positions) are the text's
      if (error.argument() == "input")
        throw InputError("sentence", std::string("the text's ") + error.what());
      throw;
    }
  });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<PretrainedSession>::walkthroughs() {
  return {{"pretrained", pretrained_inputs, pretrained_from}};
}

} // namespace attention
