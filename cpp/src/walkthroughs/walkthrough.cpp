#include "attention/walkthrough.hpp"

#include "trace_parts.hpp"

#include <cfloat>
#include <cmath>
#include <cstdlib>

#include "attention/instances.hpp"
#include "attention/numpy_random.hpp"
#include "core/decimal.hpp"

namespace attention {

namespace {

using namespace trace_parts;

// Plain loops rather than xtensor expressions: each expression type instantiates its own
// assignment machinery, and this file is compiled for size.
Matrix<double> as_column(const Vector<double> &v) { return shaped(v.size(), 1, v.data()); }
Matrix<double> as_row(const Vector<double> &v) { return shaped(1, v.size(), v.data()); }
Vector<double> row_of(const Matrix<double> &m, std::size_t i) {
  const std::size_t cols = m.shape()[1];
  auto out = Vector<double>::from_shape({cols});
  std::copy(m.data() + i * cols, m.data() + (i + 1) * cols, out.data());
  return out;
}
Matrix<double> transposed(const Matrix<double> &m) {
  const std::size_t rows = m.shape()[0], cols = m.shape()[1];
  auto out = Matrix<double>::from_shape({cols, rows});
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      out.data()[j * rows + i] = m.data()[i * cols + j];
  return out;
}
template <class Container> Container scaled(Container values, double factor) {
  for (std::size_t i = 0; i < values.size(); ++i)
    values.data()[i] *= factor;
  return values;
}

// A one-label axis, made here rather than at every call.
Labels one(const std::string &label) { return Labels(1, label); }
Labels one(const char *label) { return Labels(1, label); }

// ---------------------------------------------------------------------------------------------
// Attention Basics

// Marks the cells of value = weight_j * annotations[i][j] that a double cannot hold, with their
// decimal text computed from the log-weight.
std::vector<std::string> exact_products(const Matrix<double> &values,
                                        const Vector<double> &log_weights,
                                        const Matrix<double> &factors) {
  std::vector<std::string> exact(values.size());
  bool any = false;
  for (std::size_t i = 0; i < values.shape()[0]; ++i)
    for (std::size_t j = 0; j < values.shape()[1]; ++j) {
      const double factor = factors(i, j);
      if (factor == 0 || std::fabs(values(i, j)) >= DBL_MIN)
        continue;
      exact[i * values.shape()[1] + j] =
          decimal_from_log(log_weights(j) + std::log(std::fabs(factor)), factor < 0);
      any = true;
    }
  return any ? exact : std::vector<std::string>{};
}

Trace basics_trace(const BasicsInputs &in) {
  const Vector<double> &s = in.decoder_state;
  const Matrix<double> &h = in.annotations; // one annotation per row
  detail::require_values(s, "decoderState");
  detail::require_values(h, "annotations");
  detail::require_equal_length(detail::Argument("annotations"), h.shape()[1], "annotation length",
                               h, s.size(), "decoderState length", s);
  require_integer(in.seed, "seed", 0, max_seed);
  const std::size_t d = s.size(), n = h.shape()[0];
  const Labels dims = numbered("", d), annotation_names = numbered("h", n, 1);

  Trace trace{"basics", {}, {}, {}};
  add_stage(trace, "decoder-state",
            {panel("dec_hidden_state", "decoder", as_column(s), dims, one("s"))});
  const Vector<double> first = row_of(h, 0);
  add_stage(trace, "annotation",
            {panel("annotation", "annotation", as_column(first), dims, one("h1"))});
  add_stage(trace, "single-score",
            {panel("score", "scores", filled(1, 1, dot_score(s, first)), one("s"), one("h1"))});
  add_stage(trace, "annotations",
            {panel("annotations", "annotation", transposed(h), dims, annotation_names)});

  const Vector<double> scores = dot_scores(s, h);
  add_stage(trace, "scores",
            {panel("attention_weights_raw", "scores", as_row(scores), one("s"), annotation_names)});

  const Vector<double> weights = softmax(scores);
  const Vector<double> log_weights = log_softmax(scores);
  Panel weights_panel =
      panel("attention_weights", "weights", as_row(weights), one("s"), annotation_names);
  weights_panel.exact = exact_products(weights_panel.values, log_weights, filled(1, n, 1.0));
  add_stage(trace, "softmax", {weights_panel});

  const Matrix<double> applied = transposed(apply_weights(weights, h));
  Panel applied_panel = panel("applied_attention", "annotation", applied, dims, annotation_names);
  applied_panel.exact = exact_products(applied, log_weights, transposed(h));
  add_stage(trace, "applied", {applied_panel});

  const Vector<double> context = context_vector(apply_weights(weights, h));
  add_stage(trace, "context",
            {panel("attention_vector", "context", as_column(context), dims, one("c"))});

  NumpyRandomState random(in.seed);
  const Matrix<double> wc = scaled(random.randn(d, 2 * d), 0.1);
  const Vector<double> attentional = attentional_hidden_state(context, s, wc);
  add_stage(trace, "attentional-state",
            {panel("W_c", "neutral", wc, dims, numbered("", 2 * d)),
             panel("h_tilde", "decoder", as_column(attentional), dims, one("h~"))});

  trace.output = as_column(context);
  return trace;
}

// ---------------------------------------------------------------------------------------------
// Self-attention from scratch

Trace self_attention_trace(const SelfAttentionInputs &in) {
  const Matrix<double> &x = in.embeddings;
  detail::require_values(x, "embeddings");
  const std::size_t n = x.shape()[0], d = x.shape()[1];
  require_size(n, "number of words", max_words, "embeddings");
  require_size(d, "embedding width", max_words, "embeddings");
  require_integer(in.seed, "seed", 0, max_seed);
  require_integer(in.high, "high", 1, max_high);
  if (in.word >= n)
    detail::fail(detail::Argument("word"), "word (", in.word,
                 ") must be below the number of words (", n, ")");

  NumpyRandomState random(in.seed);
  const auto weight_matrix = [&](const std::optional<Matrix<double>> &given, const char *name) {
    Matrix<double> drawn = random.randint(in.high, d, d); // drawn either way: W_K stays W_K
    if (!given)
      return drawn;
    detail::require_values(*given, name);
    if (given->shape()[0] != d || given->shape()[1] != d)
      detail::fail(detail::Argument(name), name, " ", detail::shape(*given), " must be ", d, "x", d,
                   ": the embedding width by itself");
    return *given;
  };
  const Matrix<double> wq = weight_matrix(in.wq, "W_Q");
  const Matrix<double> wk = weight_matrix(in.wk, "W_K");
  const Matrix<double> wv = weight_matrix(in.wv, "W_V");
  const auto all = self_attention(x, wq, wk, wv);

  const Labels words = numbered("word_", n, 1), dims = numbered("", d);
  const Labels word = one(words[in.word]);
  Trace trace{"self-attention", {{"words", words}}, {}, {}};

  add_stage(trace, "embeddings", {panel("words", "annotation", x, words, dims)});
  add_stage(trace, "weight-matrices",
            {panel("W_Q", "neutral", wq, dims, dims), panel("W_K", "neutral", wk, dims, dims),
             panel("W_V", "neutral", wv, dims, dims)});
  add_stage(trace, "projections",
            {panel("queries", "decoder", all.queries, words, dims),
             panel("keys", "annotation", all.keys, words, dims),
             panel("values", "context", all.values, words, dims)});

  const Vector<double> scores = row_of(all.scores, in.word);
  add_stage(trace, "word-scores", {panel("scores", "scores", as_row(scores), word, words)});
  const double scale = 1 / std::sqrt(static_cast<double>(d));
  add_stage(trace, "word-scaled",
            {panel("scaled scores", "scores", as_row(scaled(scores, scale)), word, words)});
  const Vector<double> weights = row_of(all.weights, in.word);
  add_stage(trace, "word-weights", {panel("weights", "weights", as_row(weights), word, words)});
  add_stage(trace, "word-output",
            {panel("weighted values", "context", apply_weights(weights, all.values), words, dims),
             panel("attention", "context", as_row(row_of(all.output, in.word)), word, dims)});

  add_stage(trace, "all-scores", {panel("scores", "scores", all.scores, words, words)});
  add_stage(trace, "all-weights", {panel("weights", "weights", all.weights, words, words)});
  add_stage(trace, "all-output", {panel("attention", "context", all.output, words, dims)});

  trace.output = all.output;
  return trace;
}

} // namespace

std::string decimal_from_log(double log_magnitude, bool negative, int digits) {
  if (digits < 1 || digits > 17)
    detail::fail(detail::Argument("digits"), "digits (", digits, ") must be between 1 and 17");
  if (!std::isfinite(log_magnitude))
    return negative ? "-0" : "0";
  const double decimal_exponent = log_magnitude / std::log(10.0);
  int exponent = static_cast<int>(std::floor(decimal_exponent));
  const double mantissa = std::pow(10.0, decimal_exponent - exponent);
  std::string out = detail::format_fixed(mantissa, digits - 1);
  if (out[0] == '1' && out[1] == '0') { // rounding carried into a new digit: 9.99... -> 10.0
    ++exponent;
    out = detail::format_fixed(mantissa / 10, digits - 1);
  }
  if (out.find('.') != std::string::npos) {
    out.erase(out.find_last_not_of('0') + 1);
    if (out.back() == '.')
      out.pop_back();
  }
  const std::string suffix = std::string(exponent < 0 ? "e-" : "e+") +
                             (std::abs(exponent) < 10 ? "0" : "") +
                             std::to_string(std::abs(exponent));
  return (negative ? "-" : "") + out + suffix;
}

Trace basics_walkthrough(const BasicsInputs &inputs) {
  return blaming_inputs([&] { return basics_trace(inputs); }, "decoderState", "annotations",
                        {"decoderState", "annotations", "seed"});
}

Trace self_attention_walkthrough(const SelfAttentionInputs &inputs) {
  return blaming_inputs([&] { return self_attention_trace(inputs); }, "embeddings", "embeddings",
                        {"embeddings", "seed", "high", "word", "W_Q", "W_K", "W_V"});
}

} // namespace attention
