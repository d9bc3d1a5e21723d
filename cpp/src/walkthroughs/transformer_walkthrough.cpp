#include "attention/transformer_walkthrough.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/detail/kernels.hpp"
#include "attention/seq2seq_walkthrough.hpp" // max_walkthrough_beam
#include "given_inputs.hpp"
#include "models/transformer/positional_encoding.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/linear.hpp"
#include "nn/multihead_attention.hpp"
#include "trace_parts.hpp"

namespace attention {

namespace {

using namespace trace_parts;

// `cols` columns from `first` of `rows` rows `stride` apart, as doubles.
template <class T>
Matrix<double> block(const T *values, std::size_t rows, std::size_t cols, std::size_t stride,
                     std::size_t first = 0) {
  auto out = Matrix<double>::from_shape({rows, cols});
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      out(r, c) = static_cast<double>(values[r * stride + first + c]);
  return out;
}
template <class T> Matrix<double> block(const std::vector<T> &values, std::size_t cols) {
  return block(values.data(), values.size() / cols, cols, cols);
}

// x + y, and LayerNorm of it (`norm`: its weight, then its bias), as the model's add & norm.
template <class T> struct AddNorm { std::vector<T> sum, normalised; };
template <class T>
AddNorm<T> add_and_norm(const T *x, const T *y, std::size_t rows, std::size_t d, const T *norm) {
  AddNorm<T> r{std::vector<T>(rows * d), std::vector<T>(rows * d)};
  std::vector<T> centred(rows * d), inverse_std(rows);
  for (std::size_t i = 0; i < rows * d; ++i)
    r.sum[i] = x[i] + y[i];
  nn::layer_norm_forward(rows, d, r.sum.data(), norm, norm + d, centred.data(), inverse_std.data(),
                         r.normalised.data());
  return r;
}

// One multi-head attention sublayer and the add & norm after it, run by the model's own module on
// a batch of one, with what the walkthrough shows of head `head` (from 0).
template <class T> struct AttentionDetail {
  std::size_t keys = 0;
  std::vector<T> q, kv;     // queries x d (every head's columns), keys x 2d ([K V])
  std::vector<T> raw;       // queries x keys: the head's Q K^T
  std::vector<T> scaled;    // the module's: Q K^T / sqrt(d_k), -inf where masked
  std::vector<T> weights;   // the module's, every head: queries x heads x keys
  std::vector<T> concat;    // queries x d: every head's weights V, side by side
  std::vector<T> projected; // queries x d: out_proj of concat, the module's output
  AddNorm<T> add;           // x + projected, and the norm after it
};
template <class T>
AttentionDetail<T> attend(const T *p, std::size_t d, std::size_t heads, std::size_t head,
                          const T *x, std::size_t queries, const T *memory, std::size_t keys,
                          bool causal, const T *norm) {
  const std::size_t dk = d / heads;
  AttentionDetail<T> a;
  a.keys = keys;
  nn::MultiheadAttention<T> attention(d, heads);
  attention.begin(1, queries, keys, &a.keys, causal);
  attention.project_keys(p, 0, keys, memory);
  a.projected.resize(queries * d);
  attention.forward(p, 0, queries, x, a.projected.data());
  // Q and [K V] as the module projects them, from in_proj_weight's row blocks W_Q and [W_K; W_V]
  a.q.resize(queries * d);
  a.kv.resize(keys * 2 * d);
  nn::linear_forward(queries, d, d, x, d, p, d, p + 3 * d * d, a.q.data(), d);
  nn::linear_forward(keys, d, 2 * d, memory, d, p + d * d, d, p + 3 * d * d + d, a.kv.data(),
                     2 * d);
  a.raw.resize(queries * keys);
  kernels::gemm_abt(queries, keys, dk, a.q.data() + head * dk, d, a.kv.data() + head * dk, 2 * d,
                    a.raw.data(), keys);
  a.weights.assign(attention.weights(), attention.weights() + queries * heads * keys);
  a.scaled.resize(queries * keys);
  for (std::size_t t = 0; t < queries; ++t)
    std::copy_n(attention.scores() + (t * heads + head) * keys, keys, a.scaled.data() + t * keys);
  a.concat.resize(queries * d);
  for (std::size_t h = 0; h < heads; ++h)
    kernels::gemm_ab(queries, dk, keys, a.weights.data() + h * keys, heads * keys,
                     a.kv.data() + d + h * dk, 2 * d, a.concat.data() + h * dk, d);
  a.add = add_and_norm(x, a.projected.data(), queries, d, norm);
  return a;
}

// The feed-forward block over `rows` rows of x, and the add & norm after it.
template <class T> struct FeedForwardDetail {
  std::vector<T> hidden, output; // rows x dim_feedforward: relu(linear1(x)); rows x d
  AddNorm<T> add;
};
template <class T>
FeedForwardDetail<T> feed_forward(const T *p, std::size_t d, std::size_t f, const T *x,
                                  std::size_t rows, const T *norm) {
  FeedForwardDetail<T> r{std::vector<T>(rows * f), std::vector<T>(rows * d), {}};
  nn::feed_forward_forward(nn::FeedForwardWeights<const T>(p, d, f), rows, x, r.hidden.data(),
                           r.output.data());
  r.add = add_and_norm(x, r.output.data(), rows, d, norm);
  return r;
}

// The model over one source and its decoder's inputs (teacher forced), as Transformer's network
// runs it, keeping what the chosen layer (from 0) shows.
template <class T> struct Replica {
  std::vector<T> source_embedded, target_embedded; // embeddings * sqrt(d): n x d, m x d
  std::vector<T> encoding;                         // the positional encoding, n x d
  std::vector<T> encoder_input;                    // n x d
  AttentionDetail<T> encoder_attention, decoder_self, cross;
  FeedForwardDetail<T> encoder_feed_forward;
};
template <class T>
Replica<T> replicate(const Transformer<T> &model, const std::vector<TokenId> &source,
                     const std::vector<TokenId> &inputs, std::size_t layer, std::size_t head) {
  const TransformerConfig &c = model.config();
  const ParameterSet<T> &parameters = model.parameters();
  const auto at = [&](const std::string &name) { return parameters.values(name); };
  const std::size_t d = c.model, n = source.size(), m = inputs.size();
  Replica<T> r;
  std::vector<T> position(d);
  // embeddings * sqrt(d) into `scaled`; plus the encoding: the stack's input
  const auto embed = [&](const T *table, const std::vector<TokenId> &tokens,
                         std::vector<T> &scaled) {
    const T scale = std::sqrt(static_cast<T>(d));
    scaled.resize(tokens.size() * d);
    std::vector<T> x(tokens.size() * d);
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      positional_encoding(t, d, position.data());
      for (std::size_t i = 0; i < d; ++i) {
        scaled[t * d + i] = table[static_cast<std::size_t>(tokens[t]) * d + i] * scale;
        x[t * d + i] = scaled[t * d + i] + position[i];
      }
    }
    return x;
  };
  r.encoding.resize(n * d);
  for (std::size_t t = 0; t < n; ++t)
    positional_encoding(t, d, r.encoding.data() + t * d);

  std::vector<T> x = embed(at("src_tok_emb.embedding.weight"), source, r.source_embedded);
  r.encoder_input = x;
  for (std::size_t l = 0; l < c.encoder_layers; ++l) {
    const std::string prefix = "transformer.encoder.layers." + std::to_string(l);
    auto attention = attend(at(prefix + ".self_attn.in_proj_weight"), d, c.heads, head, x.data(), n,
                            x.data(), n, false, at(prefix + ".norm1.weight"));
    auto ff = feed_forward(at(prefix + ".linear1.weight"), d, c.feedforward,
                           attention.add.normalised.data(), n, at(prefix + ".norm2.weight"));
    x = ff.add.normalised;
    if (l == layer) {
      r.encoder_attention = std::move(attention);
      r.encoder_feed_forward = std::move(ff);
    }
  }
  std::vector<T> memory(n * d), centred(n * d), inverse_std(n);
  const T *norm = at("transformer.encoder.norm.weight");
  nn::layer_norm_forward(n, d, x.data(), norm, norm + d, centred.data(), inverse_std.data(),
                         memory.data());

  std::vector<T> y = embed(at("tgt_tok_emb.embedding.weight"), inputs, r.target_embedded);
  for (std::size_t l = 0; l < c.decoder_layers; ++l) {
    const std::string prefix = "transformer.decoder.layers." + std::to_string(l);
    auto self = attend(at(prefix + ".self_attn.in_proj_weight"), d, c.heads, head, y.data(), m,
                       y.data(), m, true, at(prefix + ".norm1.weight"));
    auto cross = attend(at(prefix + ".multihead_attn.in_proj_weight"), d, c.heads, head,
                        self.add.normalised.data(), m, memory.data(), n, false,
                        at(prefix + ".norm2.weight"));
    y = feed_forward(at(prefix + ".linear1.weight"), d, c.feedforward, cross.add.normalised.data(),
                     m, at(prefix + ".norm3.weight"))
            .add.normalised;
    if (l == layer) {
      r.decoder_self = std::move(self);
      r.cross = std::move(cross);
    }
  }
  return r;
}

// Head h (from 0) of a layer's attention (heads x queries x keys), as a panel.
template <class T>
Panel head_panel(const char *name, const LayerAttention<T> &attention, std::size_t h,
                 const Labels &rows, const Labels &cols) {
  const std::size_t queries = attention.shape()[1], keys = attention.shape()[2];
  Panel out = panel("", "weights", block(&attention(h, 0, 0), queries, keys, keys), rows, cols);
  out.name = name;
  return out;
}

// Every head of one layer's attention: "head-1", …
template <class T>
std::vector<Panel> heads_of(const LayerAttention<T> &attention, const Labels &rows,
                            const Labels &cols) {
  std::vector<Panel> panels;
  for (std::size_t h = 0; h < attention.shape()[0]; ++h)
    panels.push_back(
        head_panel(("head-" + std::to_string(h + 1)).c_str(), attention, h, rows, cols));
  return panels;
}

// The causal mask over m steps: 0 where a step may look (itself and the steps before), -inf after.
Matrix<double> causal_mask(std::size_t m) {
  auto mask = Matrix<double>::from_shape({m, m});
  for (std::size_t t = 0; t < m; ++t)
    for (std::size_t j = 0; j < m; ++j)
      mask(t, j) = j <= t ? 0.0 : -std::numeric_limits<double>::infinity();
  return mask;
}

// The compare stage: the cross-attention head with the lowest AER on the test split (the first of
// equal ones) over the sentence, the GRU model's alignment, the gold links, and their AER. A task
// without gold links has no AER to pick a head by: every cross-attention head ("cross-1-2": layer
// 1, head 2) then, and the GRU model's alignment.
template <class T>
std::vector<Panel> compare_panels(TransformerSession<T> &session, const TransformerTrace<T> &t,
                                  const std::string &sentence, const CompareAlignment &compare,
                                  const Labels &target, const Labels &source, Trace &trace) {
  const bool scored = session.task().gold_links;
  std::vector<Panel> panels;
  std::vector<Label> models{Label("Transformer")}; // a name, the same in every language
  std::vector<double> aer;
  if (scored) {
    const TransformerEvaluation evaluation = session.test_evaluation();
    const auto best = *std::min_element(evaluation.heads.begin(), evaluation.heads.end(),
                                        [](const auto &a, const auto &b) { return a.aer < b.aer; });
    trace.labels.push_back(
        {"best", {std::to_string(best.layer + 1), std::to_string(best.head + 1)}});
    panels.push_back(
        head_panel("transformer", t.cross_attention[best.layer], best.head, target, source));
    aer.push_back(best.aer);
  } else
    for (std::size_t l = 0; l < t.cross_attention.size(); ++l)
      for (std::size_t h = 0; h < t.cross_attention[l].shape()[0]; ++h) {
        const std::string name = "cross-" + std::to_string(l + 1) + "-" + std::to_string(h + 1);
        panels.push_back(head_panel(name.c_str(), t.cross_attention[l], h, target, source));
      }
  if (compare) {
    ComparedAlignment other = compare(t.source, t.output);
    panels.push_back(panel("gru", "weights", std::move(other.weights), target, source));
    models.push_back(other.model);
    aer.push_back(other.aer);
  }
  if (const auto gold = tasks::gold_example(session.task(), sentence))
    panels.push_back(
        panel("gold", "neutral", gold_links(*gold, t.output, source.size()), target, source));
  if (!scored)
    return panels;
  auto metrics = Matrix<double>::from_shape({aer.size(), 1});
  std::copy(aer.begin(), aer.end(), metrics.data());
  std::vector<Label> columns(1);
  columns[0].metric = "aer";
  panels.push_back(panel("metrics", "weights", std::move(metrics), models, columns));
  return panels;
}

} // namespace

template <class T>
Trace transformer_walkthrough(TransformerSession<T> &session, const std::string &sentence,
                              std::size_t layer, std::size_t head, std::size_t beam,
                              const CompareAlignment &compare) {
  const TransformerConfig &config = session.model().config();
  const std::size_t layers = std::min(config.encoder_layers, config.decoder_layers);
  check_from_one(layer, layers, "layer", ", the model's layers in each stack");
  check_from_one(head, config.heads, "head", ", the model's heads");
  check_from_one(beam, max_walkthrough_beam, "beam");
  const tasks::Task &task = session.task();
  const auto source = session.tokenize(sentence, tasks::Side::source);
  const auto translation = session.translate(source, beam);
  const TransformerTrace<T> &t = translation.trace;
  std::vector<TokenId> inputs{config.sos};
  inputs.insert(inputs.end(), t.output.begin(), t.output.end() - 1);
  const std::size_t l = layer - 1, h = head - 1, d = config.model, dk = d / config.heads;
  const std::size_t n = source.size(), m = t.output.size();
  const Replica<T> r = replicate(session.model(), source, inputs, l, h);

  const Labels source_tokens = tokens_of(task.source, source);
  const Labels target_tokens = tokens_of(task.target, t.output);
  const Labels input_tokens = tokens_of(task.target, inputs);
  const Labels width = numbered("", d, 1), head_width = numbered("", dk, 1);
  Trace trace;
  trace.walkthrough = "transformer";
  trace.labels = {{"source", source_tokens}, {"target", target_tokens}, {"input", input_tokens}};
  const auto stage = [&](const char *id, std::vector<Panel> panels) {
    trace.stages.push_back({id, id, 0, std::move(panels)});
  };
  // one head's columns of Q, K or V
  const auto head_of = [&](const std::vector<T> &values, std::size_t stride, std::size_t first) {
    return block(values.data(), values.size() / stride, dk, stride, first + h * dk);
  };

  stage("tokens", {panel("source", "annotation", block(r.source_embedded, d), source_tokens, width),
                   panel("target", "decoder", block(r.target_embedded, d), input_tokens, width)});
  stage("positions",
        {panel("encoding", "neutral", block(r.encoding, d), numbered("", n), width),
         panel("input", "annotation", block(r.encoder_input, d), source_tokens, width)});

  const AttentionDetail<T> &e = r.encoder_attention;
  stage("encoder-qkv",
        {panel("Q", "decoder", head_of(e.q, d, 0), source_tokens, head_width),
         panel("K", "annotation", head_of(e.kv, 2 * d, 0), source_tokens, head_width),
         panel("V", "context", head_of(e.kv, 2 * d, d), source_tokens, head_width)});
  stage("encoder-scores",
        {panel("scores", "scores", block(e.raw, n), source_tokens, source_tokens),
         panel("scaled", "scores", block(e.scaled, n), source_tokens, source_tokens)});
  auto no_mask = Matrix<double>::from_shape({n, n});
  std::fill(no_mask.data(), no_mask.data() + n * n, 0.0);
  stage("encoder-mask",
        {panel("mask", "neutral", std::move(no_mask), source_tokens, source_tokens),
         panel("masked", "scores", block(e.scaled, n), source_tokens, source_tokens)});
  stage("encoder-softmax",
        {head_panel("weights", t.encoder_attention[l], h, source_tokens, source_tokens)});
  stage("encoder-head",
        {panel("output", "context", head_of(e.concat, d, 0), source_tokens, head_width)});
  stage("encoder-heads",
        {panel("concat", "context", block(e.concat, d), source_tokens, width),
         panel("projected", "context", block(e.projected, d), source_tokens, width)});
  stage("encoder-norm",
        {panel("residual", "annotation", block(e.add.sum, d), source_tokens, width),
         panel("normalised", "annotation", block(e.add.normalised, d), source_tokens, width)});
  const FeedForwardDetail<T> &ff = r.encoder_feed_forward;
  stage("encoder-feed-forward",
        {panel("hidden", "annotation", block(ff.hidden, config.feedforward), source_tokens,
               numbered("", config.feedforward, 1)),
         panel("output", "annotation", block(ff.output, d), source_tokens, width),
         panel("normalised", "annotation", block(ff.add.normalised, d), source_tokens, width)});

  const AttentionDetail<T> &s = r.decoder_self;
  stage("decoder-self",
        {panel("scores", "scores", block(s.raw, m), input_tokens, input_tokens),
         panel("mask", "neutral", causal_mask(m), input_tokens, input_tokens),
         panel("masked", "scores", block(s.scaled, m), input_tokens, input_tokens),
         head_panel("weights", t.decoder_attention[l], h, input_tokens, input_tokens)});
  // Cross-attention's rows are labelled by the word each step writes, as the step and compare
  // stages and the lesson's alignment figures label them (a step's query is read from the word
  // before it).
  const AttentionDetail<T> &x = r.cross;
  std::vector<Panel> cross{
      panel("Q", "decoder", head_of(x.q, d, 0), target_tokens, head_width),
      panel("K", "annotation", head_of(x.kv, 2 * d, 0), source_tokens, head_width),
      panel("scaled", "scores", block(x.scaled, n), target_tokens, source_tokens),
      head_panel("weights", t.cross_attention[l], h, target_tokens, source_tokens)};
  for (Panel &each : heads_of(t.cross_attention[l], target_tokens, source_tokens))
    cross.push_back(std::move(each));
  stage("cross", std::move(cross));

  const LayerAttention<T> &chosen = t.cross_attention[l];
  for (std::size_t step = 1; step <= m; ++step) {
    const std::size_t row = step - 1;
    std::vector<Panel> panels{panel("weights", "weights", block(&chosen(h, row, 0), 1, n, n),
                                    Labels(1, target_tokens[row]), source_tokens),
                              top_panel(translation.top[row], task.target),
                              panel("alignment", "weights", block(&chosen(h, 0, 0), step, n, n),
                                    Labels(target_tokens.begin(), target_tokens.begin() + step),
                                    source_tokens)};
    trace.stages.push_back({"step-" + std::to_string(step), "step", step, std::move(panels)});
  }

  const auto head_view = [&](const char *id, const LayerAttention<T> &attention, const Labels &rows,
                             const Labels &cols) {
    trace.stages.push_back({id, id, 0, heads_of(attention, rows, cols)});
  };
  head_view("head-view-encoder", t.encoder_attention[l], source_tokens, source_tokens);
  head_view("head-view-decoder", t.decoder_attention[l], input_tokens, input_tokens);
  head_view("head-view-cross", t.cross_attention[l], target_tokens, source_tokens);

  std::vector<Panel> every;
  const auto add_all = [&](const std::string &kind, const std::vector<LayerAttention<T>> &stack,
                           const Labels &rows, const Labels &cols) {
    for (std::size_t i = 0; i < stack.size(); ++i)
      for (std::size_t j = 0; j < config.heads; ++j) {
        const std::string name = kind + "-" + std::to_string(i + 1) + "-" + std::to_string(j + 1);
        every.push_back(head_panel(name.c_str(), stack[i], j, rows, cols));
      }
  };
  add_all("encoder", t.encoder_attention, source_tokens, source_tokens);
  add_all("decoder", t.decoder_attention, input_tokens, input_tokens);
  add_all("cross", t.cross_attention, target_tokens, source_tokens);
  stage("model-view", std::move(every));

  trace.stages.push_back(
      {"compare", "compare", 0,
       compare_panels(session, t, sentence, compare, target_tokens, source_tokens, trace)});
  trace.output = block(&chosen(h, 0, 0), m, n, n);
  return trace;
}

template Trace transformer_walkthrough<float>(TransformerSession<float> &, const std::string &,
                                              std::size_t, std::size_t, std::size_t,
                                              const CompareAlignment &);
template Trace transformer_walkthrough<double>(TransformerSession<double> &, const std::string &,
                                               std::size_t, std::size_t, std::size_t,
                                               const CompareAlignment &);

// ---------------------------------------------------------------------------------------------
// The transformer walkthrough's entry in the walkthroughs' table

namespace {

using namespace inputs;

// The Transformer (the caller's, of the task given) and, to compare its best cross-attention
// head with, a GRU model of the same task; `layer` and `head` (from 1) pick what the detailed
// stages show.
std::vector<InputField> transformer_inputs() {
  return {task_field(),
          sample_sentence(),
          integer_field("layer", 1, 1, std::int64_t(max_transformer_layers)),
          integer_field("head", 1, 1, std::int64_t(max_transformer_width)),
          integer_field("beam", 1, 1, std::int64_t(max_walkthrough_beam)),
          model_field("model", InputKind::model),
          model_field("compare", InputKind::models, true)};
}

Trace transformer_from(const GivenInputs &given) {
  const int model = one_model(given, "one transformer model");
  const std::vector<int> compared = handles(given, "compare");
  if (compared.size() > 1)
    detail::fail(detail::Argument("compare"), "inputs.compare must be at most one seq2seq model");
  const auto fields = transformer_inputs();
  return stored_model(model).as<TransformerSession>().visit([&](auto &session) {
    if (const auto *task = find(given.texts, "task");
        task && !task->empty() && task->front() != session.config().task)
      detail::fail(detail::Argument("task"), "inputs.task (", task->front(),
                   ") is not the model's (", session.config().task, ")");
    const auto trace = [&](const CompareAlignment &compare) {
      return transformer_walkthrough(session, sentence(given, fields), size(given, "layer", fields),
                                     size(given, "head", fields), size(given, "beam", fields),
                                     compare);
    };
    if (compared.empty())
      return trace(nullptr);
    return stored_model(compared[0], "compare")
        .as<Seq2seqSession>("compare")
        .visit([&](auto &other) {
          if (other.task().id != session.task().id)
            detail::fail(detail::Argument("compare"), "compare[0] translates ", other.task().id,
                         ", not ", session.task().id);
          return trace(seq2seq_alignment(other));
        });
  });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<TransformerSession>::walkthroughs() {
  return {{"transformer", transformer_inputs, transformer_from}};
}

} // namespace attention
