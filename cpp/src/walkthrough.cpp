#include "attention/walkthrough.hpp"

#include <cfloat>
#include <cmath>
#include <cstdlib>

#include "attention/decimal.hpp"
#include "attention/instances.hpp"
#include "attention/numpy_random.hpp"

namespace attention {

namespace {

using Labels = std::vector<std::string>;

// The shortest decimal that reads back as the same double, as Python prints it ("45.3", "927").
std::string format_number(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    return detail::format_fixed(value, 0);
  return detail::format_shortest(value);
}

std::string python_list(const Vector<double> &values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + format_number(values(i));
  return out + "]";
}

Labels numbered(const std::string &prefix, std::size_t count, std::size_t first = 0) {
  Labels labels;
  for (std::size_t i = 0; i < count; ++i)
    labels.push_back(prefix + std::to_string(first + i));
  return labels;
}

// Plain loops rather than xtensor expressions: each expression type instantiates its own
// assignment machinery, and this file is compiled for size.
Matrix<double> shaped(std::size_t rows, std::size_t cols, const double *data) {
  auto out = Matrix<double>::from_shape({rows, cols});
  std::copy(data, data + rows * cols, out.data());
  return out;
}
Matrix<double> as_column(const Vector<double> &v) { return shaped(v.size(), 1, v.data()); }
Matrix<double> as_row(const Vector<double> &v) { return shaped(1, v.size(), v.data()); }
Matrix<double> first_rows(const Matrix<double> &m, std::size_t rows) {
  return shaped(rows, m.shape()[1], m.data());
}
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

// Appends a stage. Ids and titles are text made here, once, rather than at every call.
void add_stage(Trace &trace, const char *id, const char *title, std::string formula,
               std::string code, std::vector<Panel> panels) {
  trace.stages.push_back({id, title, std::move(formula), std::move(code), std::move(panels)});
}

// A one-label axis, made here rather than at every call.
Labels one(const std::string &label) { return Labels(1, label); }
Labels one(const char *label) { return Labels(1, label); }

// Names and palettes are literals: strings are made here, once, not at every call.
Panel panel(const char *name, const char *palette, Matrix<double> values, Labels rows,
            Labels cols) {
  return {name, palette, std::move(values), std::move(rows), std::move(cols), {}};
}

void require_size(std::size_t value, const char *name, std::size_t max) {
  if (value == 0 || value > max)
    detail::fail(name, " (", value, ") must be between 1 and ", max);
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

} // namespace

std::string decimal_from_log(double log_magnitude, bool negative, int digits) {
  if (digits < 1 || digits > 17)
    detail::fail("digits (", digits, ") must be between 1 and 17");
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

Trace basics_walkthrough(const BasicsInputs &in) {
  const Vector<double> &s = in.decoder_state;
  const Matrix<double> &h = in.annotations; // one annotation per row
  detail::require_values(s, "decoderState");
  detail::require_values(h, "annotations");
  detail::require_equal_length(h.shape()[1], "annotation length", h, s.size(),
                               "decoderState length", s);
  const std::size_t d = s.size(), n = h.shape()[0];
  const Labels dims = numbered("", d), annotation_names = numbered("h", n, 1);

  Trace trace{"basics", {}, {}};

  add_stage(trace, "decoder-state", "The decoder hidden state",
            "s \\in \\mathbb{R}^{" + std::to_string(d) + "}",
            "dec_hidden_state = " + python_list(s),
            {panel("dec_hidden_state", "decoder", as_column(s), dims, one("s"))});

  const Vector<double> first = row_of(h, 0);
  add_stage(trace, "annotation", "One annotation (encoder hidden state)",
            "h_1 \\in \\mathbb{R}^{" + std::to_string(d) + "}",
            "annotation = " + python_list(first) + " #e.g. Encoder hidden state",
            {panel("annotation", "annotation", as_column(first), dims, one("h1"))});

  const Matrix<double> single = filled(1, 1, dot_score(s, first));
  add_stage(trace, "single-score", "Scoring a single annotation",
            "\\operatorname{score}(s, h_1) = s^\\top h_1",
            "single_dot_attention_score(dec_hidden_state, annotation)",
            {panel("score", "scores", single, one("s"), one("h1"))});

  std::string annotation_lists;
  for (std::size_t j = 0; j < n; ++j)
    annotation_lists += (j ? ", " : "") + python_list(row_of(h, j));
  add_stage(trace, "annotations", "The annotations matrix (each column an annotation)",
            "H = [h_1, \\dots, h_{" + std::to_string(n) + "}]",
            "annotations = np.transpose([" + annotation_lists + "])",
            {panel("annotations", "annotation", transposed(h), dims, annotation_names)});

  const Vector<double> scores = dot_scores(s, h);
  add_stage(trace, "scores", "Scoring all annotations at once", "e_j = s^\\top h_j",
            "attention_weights_raw = dot_attention_score(dec_hidden_state, annotations)",
            {panel("attention_weights_raw", "scores", as_row(scores), one("s"), annotation_names)});

  const Vector<double> weights = softmax(scores);
  const Vector<double> log_weights = log_softmax(scores);
  Panel weights_panel =
      panel("attention_weights", "weights", as_row(weights), one("s"), annotation_names);
  weights_panel.exact = exact_products(weights_panel.values, log_weights, filled(1, n, 1.0));
  add_stage(trace, "softmax", "Softmax turns scores into weights",
            "\\alpha_j = \\frac{\\exp(e_j)}{\\sum_k \\exp(e_k)}",
            "attention_weights = softmax(attention_weights_raw)", {weights_panel});

  const Matrix<double> applied = transposed(apply_weights(weights, h));
  Panel applied_panel = panel("applied_attention", "annotation", applied, dims, annotation_names);
  applied_panel.exact = exact_products(applied, log_weights, transposed(h));
  add_stage(trace, "applied", "Annotations scaled by their weights", "\\alpha_j h_j",
            "applied_attention = apply_attention_scores(attention_weights, annotations)",
            {applied_panel});

  const Vector<double> context = context_vector(apply_weights(weights, h));
  add_stage(trace, "context", "The attention context vector", "c = \\sum_j \\alpha_j h_j",
            "attention_vector = calculate_attention_vector(applied_attention)",
            {panel("attention_vector", "context", as_column(context), dims, one("c"))});

  NumpyRandomState random(in.seed);
  const Matrix<double> wc = scaled(random.randn(d, 2 * d), 0.1);
  const Vector<double> attentional = attentional_hidden_state(context, s, wc);
  add_stage(
      trace, "attentional-state", "Beyond the notebook: the attentional hidden state",
      "\\tilde{h} = \\tanh\\left(W_c [c; s]\\right)",
      "np.random.seed(" + std::to_string(in.seed) + ")\nW_c = np.random.randn(" +
          std::to_string(d) + ", " + std::to_string(2 * d) +
          ") * 0.1\nh_tilde = np.tanh(W_c @ np.concatenate([attention_vector, dec_hidden_state]))",
      {panel("W_c", "neutral", wc, dims, numbered("", 2 * d)),
       panel("h_tilde", "decoder", as_column(attentional), dims, one("h~"))});

  trace.output = as_column(context);
  return trace;
}

// ---------------------------------------------------------------------------------------------
// Self-attention from scratch

Trace self_attention_walkthrough(const SelfAttentionInputs &in) {
  const Matrix<double> &x = in.embeddings;
  detail::require_values(x, "embeddings");
  const std::size_t n = x.shape()[0], d = x.shape()[1];
  require_size(n, "number of words", 512);
  require_size(d, "embedding width", 512);
  if (in.word >= n)
    detail::fail("word (", in.word, ") must be below the number of words (", n, ")");

  NumpyRandomState random(in.seed);
  const Matrix<double> wq = random.randint(in.high, d, d);
  const Matrix<double> wk = random.randint(in.high, d, d);
  const Matrix<double> wv = random.randint(in.high, d, d);
  const auto all = self_attention(x, wq, wk, wv);

  const Labels words = numbered("word_", n, 1), dims = numbered("", d);
  const std::string w = std::to_string(in.word + 1), size = std::to_string(d);
  const std::string query = "query_" + w, word_label = "word_" + w;
  Trace trace{"self-attention", {}, {}};

  std::string word_lines;
  for (std::size_t i = 0; i < n; ++i)
    word_lines += (i ? "\n" : "") + words[i] + " = np.array(" + python_list(row_of(x, i)) + ")";
  add_stage(trace, "embeddings", "Word embeddings", "x_i \\in \\mathbb{R}^{" + size + "}",
            word_lines, {panel("words", "annotation", x, words, dims)});

  const std::string randint =
      " = np.random.randint(" + std::to_string(in.high) + ", size=(" + size + ", " + size + "))";
  add_stage(trace, "weight-matrices", "Weight matrices from a seeded generator",
            "W^Q,\\ W^K,\\ W^V \\in \\{0, \\dots, " + std::to_string(in.high - 1) + "\\}^{" + size +
                " \\times " + size + "}",
            "np.random.seed(" + std::to_string(in.seed) + ")\nW_Q" + randint + "\nW_K" + randint +
                "\nW_V" + randint,
            {panel("W_Q", "neutral", wq, dims, dims), panel("W_K", "neutral", wk, dims, dims),
             panel("W_V", "neutral", wv, dims, dims)});

  add_stage(trace, "projections", "Queries, keys and values",
            "q_i = x_i W^Q,\\quad k_i = x_i W^K,\\quad v_i = x_i W^V",
            "query_1 = word_1 @ W_Q\nkey_1 = word_1 @ W_K\nvalue_1 = word_1 @ W_V",
            {panel("queries", "decoder", all.queries, words, dims),
             panel("keys", "annotation", all.keys, words, dims),
             panel("values", "context", all.values, words, dims)});

  const Vector<double> scores = row_of(all.scores, in.word);
  std::string score_terms;
  for (std::size_t j = 0; j < n; ++j)
    score_terms +=
        (j ? ", " : "") + std::string("np.dot(") + query + ", key_" + std::to_string(j + 1) + ")";
  add_stage(trace, "word-scores", ("Scores of " + word_label + " against every key").c_str(),
            "e_{" + w + "j} = q_{" + w + "} \\cdot k_j", "scores = np.array([" + score_terms + "])",
            {panel("scores", "scores", as_row(scores), one(word_label), words)});

  const double scale = 1 / std::sqrt(static_cast<double>(d));
  add_stage(
      trace, "word-scaled", "Scaled by the square root of the key width",
      "\\frac{e_{" + w + "j}}{\\sqrt{d_k}},\\quad d_k = " + size, "scores / key_1.shape[0] ** 0.5",
      {panel("scaled scores", "scores", as_row(scaled(scores, scale)), one(word_label), words)});

  const Vector<double> weights = row_of(all.weights, in.word);
  add_stage(trace, "word-weights", "Softmax turns scores into weights",
            "\\alpha_{" + w + "j} = \\operatorname{softmax}_j\\left(\\frac{e_{" + w +
                "j}}{\\sqrt{d_k}}\\right)",
            "weights = softmax(scores / key_1.shape[0] ** 0.5)",
            {panel("weights", "weights", as_row(weights), one(word_label), words)});

  std::string sum_terms;
  for (std::size_t j = 0; j < n; ++j)
    sum_terms += (j ? " + " : "") + std::string("(weights[") + std::to_string(j) + "] * value_" +
                 std::to_string(j + 1) + ")";
  const Matrix<double> weighted_values = apply_weights(weights, all.values);
  add_stage(
      trace, "word-output", "The weighted sum of the values",
      "z_{" + w + "} = \\sum_j \\alpha_{" + w + "j} v_j", "attention = " + sum_terms,
      {panel("weighted values", "context", weighted_values, words, dims),
       panel("attention", "context", as_row(row_of(all.output, in.word)), one(word_label), dims)});

  add_stage(trace, "all-scores", "All words at once: the score matrix", "Q K^\\top",
            "scores = Q @ K.T", {panel("scores", "scores", all.scores, words, words)});
  add_stage(trace, "all-weights", "All words at once: the weights",
            "A = \\operatorname{softmax}\\left(\\frac{Q K^\\top}{\\sqrt{d_k}}\\right)",
            "weights = softmax(scores / K.shape[1] ** 0.5, axis=1)",
            {panel("weights", "weights", all.weights, words, words)});
  add_stage(trace, "all-output", "All words at once: the attention output", "Z = A V",
            "attention = weights @ V", {panel("attention", "context", all.output, words, dims)});

  trace.output = all.output;
  return trace;
}

// ---------------------------------------------------------------------------------------------
// Scoring functions and a whole decoding

ScoreFunction parse_score_function(const std::string &name) {
  for (auto score :
       {ScoreFunction::additive, ScoreFunction::dot, ScoreFunction::general, ScoreFunction::concat})
    if (score_function_name(score) == name)
      return score;
  detail::fail("score (\"", name, "\") must be one of additive, dot, general, concat");
}

std::string score_function_name(ScoreFunction score) {
  switch (score) {
  case ScoreFunction::additive:
    return "additive";
  case ScoreFunction::dot:
    return "dot";
  case ScoreFunction::general:
    return "general";
  case ScoreFunction::concat:
    return "concat";
  }
  return "";
}

namespace {

struct ScoringParameters {
  Matrix<double> general_wa, concat_wa, additive_wa, additive_ua, wc;
  Vector<double> concat_va, additive_va;
};

const char *score_formula(ScoreFunction score) {
  switch (score) {
  case ScoreFunction::additive:
    return "v_a^\\top \\tanh(W_a s_t + U_a h_j)";
  case ScoreFunction::dot:
    return "s_t^\\top h_j";
  case ScoreFunction::general:
    return "s_t^\\top W_a h_j";
  case ScoreFunction::concat:
    return "v_a^\\top \\tanh(W_a [s_t; h_j])";
  }
  return "";
}

Vector<double> score_with(ScoreFunction score, const Vector<double> &s, const Matrix<double> &h,
                          const ScoringParameters &p) {
  switch (score) {
  case ScoreFunction::additive:
    return additive_scores(s, h, p.additive_wa, p.additive_ua, p.additive_va);
  case ScoreFunction::dot:
    return dot_scores(s, h);
  case ScoreFunction::general:
    return general_scores(s, h, p.general_wa);
  case ScoreFunction::concat:
    return concat_scores(s, h, p.concat_wa, p.concat_va);
  }
  return {};
}

Labels tokens_or_default(const Labels &given, Labels fallback, const std::string &prefix,
                         std::size_t count, const char *name) {
  if (!given.empty()) {
    if (given.size() != count)
      detail::fail(name, " has ", given.size(), " tokens but there are ", count, " states");
    return given;
  }
  return fallback.size() == count ? fallback : numbered(prefix, count, 1);
}

} // namespace

Trace scoring_walkthrough(const ScoringInputs &in) {
  require_size(in.length, "length", 256);
  require_size(in.width, "width", 256);
  require_size(in.attention_width, "attentionWidth", 256);
  NumpyRandomState random(in.seed);
  const std::string seed = std::to_string(in.seed);
  std::string code = "np.random.seed(" + seed + ")";
  auto shape = [](std::size_t r, std::size_t c) {
    return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
  };

  Matrix<double> h, s;
  if (in.encoder_states) {
    h = *in.encoder_states;
    detail::require_values(h, "encoderStates");
    code += "\nH = np.array(...)  # given";
  } else {
    h = random.randn(in.length, in.width);
    code += "\nH = np.random.randn" + shape(in.length, in.width) + "  # one encoder state per row";
  }
  if (in.decoder_states) {
    s = *in.decoder_states;
    detail::require_values(s, "decoderStates");
    code += "\nS = np.array(...)  # given";
  } else {
    s = random.randn(h.shape()[0], h.shape()[1]); // H + 0.5 * noise
    for (std::size_t i = 0; i < s.size(); ++i)
      s.data()[i] = h.data()[i] + 0.5 * s.data()[i];
    code += "\nS = H + 0.5 * np.random.randn" + shape(h.shape()[0], h.shape()[1]) +
            "  # decoder states near the encoder's";
  }
  const std::size_t n = h.shape()[0], t_count = s.shape()[0];
  const std::size_t dh = h.shape()[1], ds = s.shape()[1], da = in.attention_width;
  require_size(n, "source length", 256);
  require_size(t_count, "target length", 256);
  if (in.score == ScoreFunction::dot)
    detail::require_equal_length(ds, "decoderStates columns", s, dh, "encoderStates columns", h);

  ScoringParameters p;
  p.general_wa = scaled(random.randn(ds, dh), 0.5);
  p.concat_wa = scaled(random.randn(da, ds + dh), 0.5);
  p.concat_va = row_of(random.randn(1, da), 0);
  p.additive_wa = scaled(random.randn(da, ds), 0.5);
  p.additive_ua = scaled(random.randn(da, dh), 0.5);
  p.additive_va = row_of(random.randn(1, da), 0);
  p.wc = scaled(random.randn(ds, dh + ds), 0.5);
  const std::string parameter_code =
      "W_general = np.random.randn" + shape(ds, dh) + " * 0.5\nW_concat = np.random.randn" +
      shape(da, ds + dh) + " * 0.5\nv_concat = np.random.randn" + shape(1, da) +
      "[0]\nW_additive = np.random.randn" + shape(da, ds) + " * 0.5\nU_additive = np.random.randn" +
      shape(da, dh) + " * 0.5\nv_additive = np.random.randn" + shape(1, da) +
      "[0]\nW_c = np.random.randn" + shape(ds, dh + ds) + " * 0.5";

  const Labels source =
      tokens_or_default(in.source_tokens, {"How", "are", "you", "?"}, "x", n, "sourceTokens");
  const Labels target = tokens_or_default(in.target_tokens, {"Comment", "allez", "-vous", "?"}, "y",
                                          t_count, "targetTokens");
  const Labels hidden_dims = numbered("", dh), state_dims = numbered("", ds);

  Trace trace{"scoring", {}, {}};
  add_stage(trace, "encoder-states", "Encoder hidden states, one per source word",
            "h_j \\in \\mathbb{R}^{" + std::to_string(dh) + "},\\ j = 1..." + std::to_string(n),
            code, {panel("H", "annotation", transposed(h), hidden_dims, source)});
  add_stage(trace, "decoder-states", "Decoder hidden states, one per target word",
            "s_t \\in \\mathbb{R}^{" + std::to_string(ds) + "},\\ t = 1..." +
                std::to_string(t_count),
            code, {panel("S", "decoder", transposed(s), state_dims, target)});
  add_stage(trace, "parameters", "Learned weights of the scoring functions (random here)",
            "W_a,\\ U_a,\\ v_a,\\ W_c", parameter_code,
            {panel("W_general", "neutral", p.general_wa, state_dims, hidden_dims),
             panel("W_concat", "neutral", p.concat_wa, numbered("", da), numbered("", ds + dh)),
             panel("v_concat", "neutral", as_column(p.concat_va), numbered("", da), one("v")),
             panel("W_additive", "neutral", p.additive_wa, numbered("", da), state_dims),
             panel("U_additive", "neutral", p.additive_ua, numbered("", da), hidden_dims),
             panel("v_additive", "neutral", as_column(p.additive_va), numbered("", da), one("v"))});

  const Vector<double> s1 = row_of(s, 0);
  const auto functions = {ScoreFunction::additive, ScoreFunction::dot, ScoreFunction::general,
                          ScoreFunction::concat};
  Stage compare_scores{"compare-scores",
                       "Four scoring functions side by side",
                       "\\begin{aligned}\\text{additive} &: v_a^\\top \\tanh(W_a s + U_a h_j)\\\\"
                       "\\text{dot} &: s^\\top h_j\\\\ \\text{general} &: s^\\top W_a h_j\\\\"
                       "\\text{concat} &: v_a^\\top \\tanh(W_a [s; h_j])\\end{aligned}",
                       "",
                       {}};
  Stage compare_weights{"compare-weights",
                        "The weights each scoring function gives",
                        "\\alpha_j = \\operatorname{softmax}_j(e_j)",
                        "",
                        {}};
  for (auto score : functions) {
    if (score == ScoreFunction::dot && ds != dh)
      continue; // dot needs equal widths; the others project
    const Vector<double> e = score_with(score, s1, h, p);
    const std::string name = score_function_name(score);
    compare_scores.code += (compare_scores.code.empty() ? "" : "\n") + name + "_scores";
    compare_scores.panels.push_back(
        panel(name.c_str(), "scores", as_row(e), one(target[0]), source));
    compare_weights.panels.push_back(
        panel(name.c_str(), "weights", as_row(softmax(e)), one(target[0]), source));
  }
  compare_weights.code = "weights = softmax(scores)";
  trace.stages.push_back(std::move(compare_scores));
  trace.stages.push_back(std::move(compare_weights));

  Matrix<double> alignment = filled(t_count, n, 0.0);
  const std::string name = score_function_name(in.score);
  for (std::size_t t = 0; t < t_count; ++t) {
    const Vector<double> st = row_of(s, t);
    const Vector<double> e = score_with(in.score, st, h, p);
    const Vector<double> alpha = softmax(e);
    const Vector<double> c = context_vector(apply_weights(alpha, h));
    const Vector<double> attentional = attentional_hidden_state(c, st, p.wc);
    std::copy(alpha.data(), alpha.data() + n, alignment.data() + t * n);
    const std::string step = std::to_string(t + 1);
    const Matrix<double> so_far = first_rows(alignment, t + 1);
    add_stage(
        trace, ("step-" + step).c_str(), ("Decoding step " + step + ": " + target[t]).c_str(),
        std::string("e_{t,j} = ") + score_formula(in.score) +
            ",\\quad \\alpha_t = \\operatorname{softmax}(e_t),\\quad c_t = \\sum_j \\alpha_{t,j} "
            "h_j,\\quad \\tilde{h}_t = \\tanh(W_c [c_t; s_t])",
        "s_t = S[" + std::to_string(t) + "]\ne_t = " + name +
            "_scores(s_t, H)\nalpha_t = softmax(e_t)\nc_t = alpha_t @ H\nh_tilde_t = "
            "np.tanh(W_c @ np.concatenate([c_t, s_t]))",
        {panel("s_t", "decoder", as_column(st), state_dims, one(target[t])),
         panel("scores", "scores", as_row(e), one(target[t]), source),
         panel("weights", "weights", as_row(alpha), one(target[t]), source),
         panel("c_t", "context", as_column(c), hidden_dims, one("c")),
         panel("h_tilde_t", "decoder", as_column(attentional), state_dims, one("h~")),
         panel("alignment", "weights", so_far, Labels(target.begin(), target.begin() + t + 1),
               source)});
  }
  add_stage(trace, "alignment", "The alignment matrix (target by source)",
            "A_{t,j} = \\alpha_{t,j}", "alignment = np.stack([alpha_1, ..., alpha_T])",
            {panel("alignment", "weights", alignment, target, source)});
  trace.output = alignment;
  return trace;
}

} // namespace attention
