#include "attention/walkthrough.hpp"

#include "trace_parts.hpp"

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <initializer_list>

#include "attention/instances.hpp"
#include "attention/numerics.hpp"
#include "attention/numpy_random.hpp"
#include "core/decimal.hpp"

namespace attention {

namespace {

using trace_parts::numbered;
using trace_parts::panel;
using trace_parts::plain;
using trace_parts::rows_of;

// Plain loops rather than xtensor expressions: each expression type instantiates its own
// assignment machinery, and this file is compiled for size.
Matrix<double> shaped(std::size_t rows, std::size_t cols, const double *data) {
  auto out = Matrix<double>::from_shape({rows, cols});
  std::copy(data, data + rows * cols, out.data());
  return out;
}
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
Matrix<double> filled(std::size_t rows, std::size_t cols, double value) {
  auto out = Matrix<double>::from_shape({rows, cols});
  std::fill(out.data(), out.data() + rows * cols, value);
  return out;
}

// Appends a stage; a stage repeated per time step passes its kind and step.
void add_stage(Trace &trace, const char *id, std::vector<Panel> panels) {
  trace.stages.push_back({id, id, 0, std::move(panels)});
}

// A one-label axis, made here rather than at every call.
Labels one(const std::string &label) { return Labels(1, label); }
Labels one(const char *label) { return Labels(1, label); }

void require_size(std::size_t value, const char *what, std::size_t max, const char *argument) {
  if (value == 0 || value > max)
    detail::fail(detail::Argument(argument), what, " (", value, ") must be between 1 and ", max);
}

void require_integer(std::int64_t value, const char *name, std::int64_t min, std::int64_t max) {
  if (value < min || value > max)
    detail::fail(detail::Argument(name), name, " (", value, ") must be between ", min, " and ",
                 max);
}

// The core's functions name their own arguments ("query", "keys"); a walkthrough's caller knows
// only its inputs. Runs `build` and passes an error on as one about the walkthrough input it came
// from: `query_input` for the scored state, `other_input` for everything else.
template <class Build>
Trace blaming_inputs(Build &&build, const char *query_input, const char *other_input,
                     std::initializer_list<const char *> own_inputs) {
  try {
    return build();
  } catch (const InputError &error) {
    for (const char *input : own_inputs)
      if (error.argument() == input)
        throw;
    throw InputError(error.argument() == "query" ? query_input : other_input, error.what());
  }
}

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

// ---------------------------------------------------------------------------------------------
// The numerics lab

namespace nx = numerics;

using Rows = std::vector<std::pair<Label, nx::Values>>;

// A panel whose rows are rows of values of some precision each (all of one length), labelled.
Panel precision_rows(const char *name, const char *palette, const Rows &rows,
                     std::vector<Label> cols) {
  const std::size_t n = cols.size();
  Panel out = panel(name, palette, filled(rows.size(), n, 0.0), {}, std::move(cols));
  bool any_exact = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const nx::Values &row = rows[i].second;
    out.row_labels.push_back(rows[i].first);
    std::copy(row.values.begin(), row.values.end(), out.values.data() + i * n);
    out.bits.insert(out.bits.end(), row.bits.begin(), row.bits.end());
    any_exact = any_exact || !row.exact.empty();
  }
  if (any_exact)
    for (const auto &[label, row] : rows) {
      const auto &exact = row.exact.empty() ? std::vector<std::string>(n) : row.exact;
      out.exact.insert(out.exact.end(), exact.begin(), exact.end());
    }
  return out;
}

// The label of a row computed in precision `p`, which the other fields of a row label qualify.
Label precision_label(nx::Precision p) {
  Label label;
  label.precision = nx::precision_name(p);
  return label;
}

// One value row appended to another: the weights and their sum.
nx::Values joined(nx::Values a, const nx::Values &b) {
  if (!a.exact.empty() || !b.exact.empty()) {
    a.exact.resize(a.values.size());
    const auto exact = b.exact.empty() ? std::vector<std::string>(b.values.size()) : b.exact;
    a.exact.insert(a.exact.end(), exact.begin(), exact.end());
  }
  a.values.insert(a.values.end(), b.values.begin(), b.values.end());
  a.bits.insert(a.bits.end(), b.bits.begin(), b.bits.end());
  return a;
}

Trace numerics_trace(const NumericsInputs &in) {
  detail::require_values(in.scores, "scores");
  const std::size_t n = in.scores.size();
  require_size(n, "number of scores", max_scores, "scores");
  detail::require_equal_length(detail::Argument("mask"), in.mask.size(), "mask length", in.mask, n,
                               "scores length", in.scores);
  std::vector<std::uint8_t> keep;
  for (std::size_t j = 0; j < n; ++j) {
    if (in.mask(j) != 0 && in.mask(j) != 1)
      detail::fail(detail::Argument("mask"), "mask[", j, "] (", in.mask(j), ") must be 0 or 1");
    keep.push_back(static_cast<std::uint8_t>(in.mask(j)));
  }
  require_integer(in.seed, "seed", 0, max_seed);

  const std::vector<double> scores(in.scores.begin(), in.scores.end());
  const std::vector<Label> keys = plain(numbered("x", n, 1));
  const auto run = [&](nx::Form form, double scale = 1) {
    std::vector<nx::SoftmaxSteps> out;
    nx::SoftmaxOptions options;
    options.form = form;
    options.scale = scale;
    for (const nx::Precision p : nx::precisions)
      out.push_back(nx::softmax_steps(p, scores, options));
    return out;
  };
  // one row per precision of the rows `pick` chooses from each precision's steps
  const auto per_precision = [&](const std::vector<nx::SoftmaxSteps> &steps, auto pick) {
    Rows rows;
    for (std::size_t i = 0; i < steps.size(); ++i)
      rows.push_back({precision_label(nx::precisions[i]), pick(steps[i])});
    return rows;
  };

  Trace trace{"numerics", {}, {}, {}};
  const auto naive = run(nx::Form::naive);
  add_stage(
      trace, "naive",
      {precision_rows("x", "scores", per_precision(naive, [](auto &s) { return s.scores; }), keys),
       precision_rows("exp_x", "scores", per_precision(naive, [](auto &s) { return s.exps; }),
                      keys),
       precision_rows("weights", "weights", per_precision(naive, [](auto &s) { return s.weights; }),
                      keys)});

  const auto shifted = run(nx::Form::shifted);
  add_stage(trace, "shifted",
            {precision_rows("d", "scores",
                            per_precision(shifted, [](auto &s) { return s.shifted; }), keys),
             precision_rows("exp_d", "scores",
                            per_precision(shifted, [](auto &s) { return s.exps; }), keys),
             precision_rows("weights", "weights",
                            per_precision(shifted, [](auto &s) { return s.weights; }), keys)});

  const auto log = run(nx::Form::log);
  add_stage(trace, "underflow",
            {precision_rows("weights", "weights",
                            per_precision(shifted, [](auto &s) { return s.weights; }), keys),
             precision_rows("log_weights", "scores",
                            per_precision(log, [](auto &s) { return s.weights; }), keys)});

  std::vector<Label> with_sum = keys;
  with_sum.emplace_back().total = true;
  add_stage(trace, "rounding",
            {precision_rows(
                "weights", "weights",
                per_precision(shifted, [](auto &s) { return joined(s.weights, s.weights_sum); }),
                with_sum)});

  // each fill with the reader's mask, then with every score masked
  struct FillCase {
    const char *name;
    nx::Fill fill;
    double value;
  };
  const FillCase fills[] = {{"-inf", nx::Fill::negative_infinity, 0},
                            {"-1e9", nx::Fill::value, -1e9},
                            {"-1e4", nx::Fill::value, -1e4},
                            {"finfo.min", nx::Fill::lowest, 0}};
  std::vector<Panel> masked;
  for (const FillCase &fill : fills) {
    Rows rows;
    for (const bool all : {false, true})
      for (const nx::Precision p : nx::precisions) {
        nx::SoftmaxOptions options;
        options.keep = all ? std::vector<std::uint8_t>(n, 0) : keep;
        options.fill = fill.fill;
        options.fill_value = fill.value;
        Label label = precision_label(p);
        label.all_masked = all;
        rows.push_back({label, nx::softmax_steps(p, scores, options).weights});
      }
    masked.push_back(precision_rows(fill.name, "weights", rows, keys));
  }
  add_stage(trace, "masking", std::move(masked));

  // q·k of random q and k for growing d: its spread grows as sqrt(d), and the softmax saturates
  // unless the scores are divided by sqrt(d)
  NumpyRandomState random(in.seed);
  const std::size_t key_count = 4, widths[] = {4, 64, 1024};
  const std::vector<Label> dot_keys = plain(numbered("k", key_count, 1));
  Rows raw, unscaled, scaled_rows;
  for (const std::size_t d : widths) {
    const Matrix<double> q = random.randn(1, d), k = random.randn(key_count, d);
    std::vector<double> dots(key_count, 0.0);
    for (std::size_t j = 0; j < key_count; ++j)
      for (std::size_t i = 0; i < d; ++i)
        dots[j] += q(0, i) * k(j, i);
    Label width;
    width.width = d;
    raw.push_back({width, nx::softmax_steps(nx::Precision::float64, dots).scores});
    nx::SoftmaxOptions by_root;
    by_root.scale = 1 / std::sqrt(static_cast<double>(d));
    for (const nx::Precision p : nx::precisions) {
      Label label = precision_label(p);
      label.width = d;
      unscaled.push_back({label, nx::softmax_steps(p, dots).weights});
      scaled_rows.push_back({label, nx::softmax_steps(p, dots, by_root).weights});
    }
  }
  add_stage(trace, "scale",
            {precision_rows("scores", "scores", raw, dot_keys),
             precision_rows("weights", "weights", unscaled, dot_keys),
             precision_rows("scaled_weights", "weights", scaled_rows, dot_keys)});

  Rows tempered;
  for (const double t : {0.05, 0.5, 1.0, 5.0, 100.0}) {
    const auto steps = run(nx::Form::shifted, 1 / t);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      Label label = precision_label(nx::precisions[i]);
      label.temperature = t;
      tempered.push_back({label, steps[i].weights});
    }
  }
  add_stage(trace, "temperature", {precision_rows("weights", "weights", tempered, keys)});

  trace.output = shaped(1, n, shifted[3].weights.values.data()); // float64's weights
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

Trace numerics_walkthrough(const NumericsInputs &inputs) {
  return blaming_inputs([&] { return numerics_trace(inputs); }, "scores", "scores",
                        {"scores", "mask", "seed"});
}

} // namespace attention
