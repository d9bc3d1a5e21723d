#include "attention/seq2seq.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention/detail/kernels.hpp"
#include "attention/numpy_random.hpp"
#include "attention/softmax.hpp"

namespace attention {

namespace {

constexpr std::size_t max_width = 1024;                 // embedding and hidden sizes
constexpr std::size_t max_vocab = std::size_t(1) << 20; // either vocabulary
constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

// ---------------------------------------------------------------------------------------------
// Products over row-major buffers (lda, ldb, ldc: row strides), on the packed kernels.

// C (m x n) (+)= A (m x k) B^T for B (n x k): a layer's outputs X W^T.
template <class T>
void times_transposed(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda,
                      const T *b, std::size_t ldb, T *c, std::size_t ldc, bool accumulate = false) {
  kernels::gemm<T>(m, n, k, {a, lda}, {b, ldb, true}, c, ldc, accumulate);
}

// C (m x n) (+)= A (m x k) B (k x n): a layer's input gradients dY W.
template <class T>
void times(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda, const T *b,
           std::size_t ldb, T *c, std::size_t ldc, bool accumulate = false) {
  kernels::gemm<T>(m, n, k, {a, lda}, {b, ldb}, c, ldc, accumulate);
}

// C (m x n) (+)= A^T B for A (k x m), B (k x n): a weight's gradient dY^T X over k time steps.
template <class T>
void transposed_times(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda,
                      const T *b, std::size_t ldb, T *c, std::size_t ldc, bool accumulate = true) {
  kernels::gemm<T>(m, n, k, {a, lda, true}, {b, ldb}, c, ldc, accumulate);
}

// y = W x + bias for W (rows x cols, row stride ldw), bias optional. Four rows at a time with
// vector accumulators: the compiler does not vectorise a floating-point sum itself (that would
// reorder it), and one recurrent step is too small for the packed GEMM to pay off.
template <class T>
void matvec(const T *w, std::size_t rows, std::size_t cols, std::size_t ldw, const T *x,
            const T *bias, T *y) {
  using V = typename kernels::Simd<T>::Vector;
  constexpr std::size_t lanes = kernels::Simd<T>::lanes, block = 4;
  const std::size_t vector_end = cols - cols % lanes;
  const auto finish = [&](std::size_t row, const V &acc) {
    T sum = 0;
    for (std::size_t l = 0; l < lanes; ++l)
      sum += acc[l];
    for (std::size_t k = vector_end; k < cols; ++k)
      sum += w[row * ldw + k] * x[k];
    y[row] = bias ? bias[row] + sum : sum;
  };
  std::size_t i = 0;
  for (; i + block <= rows; i += block) {
    V acc[block] = {};
    for (std::size_t k = 0; k < vector_end; k += lanes) {
      V xv;
      std::memcpy(&xv, x + k, sizeof xv);
      for (std::size_t r = 0; r < block; ++r) {
        V wv;
        std::memcpy(&wv, w + (i + r) * ldw + k, sizeof wv);
        acc[r] += wv * xv;
      }
    }
    for (std::size_t r = 0; r < block; ++r)
      finish(i + r, acc[r]);
  }
  for (; i < rows; ++i) {
    V acc = {};
    for (std::size_t k = 0; k < vector_end; k += lanes) {
      V xv, wv;
      std::memcpy(&xv, x + k, sizeof xv);
      std::memcpy(&wv, w + i * ldw + k, sizeof wv);
      acc += wv * xv;
    }
    finish(i, acc);
  }
}

// y += W^T g for W (rows x cols, row stride ldw): a sum of scaled rows, which vectorises.
template <class T>
void add_transposed_matvec(const T *w, std::size_t rows, std::size_t cols, std::size_t ldw,
                           const T *g, T *y) {
  for (std::size_t i = 0; i < rows; ++i) {
    const T gi = g[i];
    const T *row = w + i * ldw;
    for (std::size_t k = 0; k < cols; ++k)
      y[k] += row[k] * gi;
  }
}

template <class T> T dot(const T *a, const T *b, std::size_t n) {
  using V = typename kernels::Simd<T>::Vector;
  constexpr std::size_t lanes = kernels::Simd<T>::lanes;
  const std::size_t vector_end = n - n % lanes;
  V acc = {};
  for (std::size_t k = 0; k < vector_end; k += lanes) {
    V av, bv;
    std::memcpy(&av, a + k, sizeof av);
    std::memcpy(&bv, b + k, sizeof bv);
    acc += av * bv;
  }
  T sum = 0;
  for (std::size_t l = 0; l < lanes; ++l)
    sum += acc[l];
  for (std::size_t k = vector_end; k < n; ++k)
    sum += a[k] * b[k];
  return sum;
}

// Each of `rows` rows (stride ld) += bias.
template <class T>
void add_bias(T *x, std::size_t rows, std::size_t cols, std::size_t ld, const T *bias) {
  for (std::size_t t = 0; t < rows; ++t)
    for (std::size_t i = 0; i < cols; ++i)
      x[t * ld + i] += bias[i];
}

// bias_gradient += the sum of the rows of dy: a bias's gradient over the time steps.
template <class T>
void add_row_sums(const T *dy, std::size_t rows, std::size_t cols, std::size_t ld,
                  T *bias_gradient) {
  for (std::size_t t = 0; t < rows; ++t)
    for (std::size_t i = 0; i < cols; ++i)
      bias_gradient[i] += dy[t * ld + i];
}

// Rows of an embedding table, picked by token, side by side into out (row stride ld).
template <class T>
void gather_rows(const T *table, std::size_t width, const TokenId *tokens, std::size_t count,
                 T *out, std::size_t ld) {
  for (std::size_t t = 0; t < count; ++t)
    std::memcpy(out + t * ld, table + static_cast<std::size_t>(tokens[t]) * width,
                width * sizeof(T));
}

// The gradient of an embedding lookup: row t of d_rows goes to the row of token t.
template <class T>
void scatter_add_rows(const T *d_rows, std::size_t width, const TokenId *tokens, std::size_t count,
                      T *table_gradient) {
  for (std::size_t t = 0; t < count; ++t) {
    T *row = table_gradient + static_cast<std::size_t>(tokens[t]) * width;
    for (std::size_t i = 0; i < width; ++i)
      row[i] += d_rows[t * width + i];
  }
}

// One GRU step as PyTorch computes it, given gi = W_ih x + b_ih: gh = W_hh h + b_hh,
// r = σ(gi_r + gh_r), z = σ(gi_z + gh_z), n = tanh(gi_n + r ⊙ gh_n), h' = (h - n) ⊙ z + n.
// Keeps gh and the gates (r, z, n side by side) for the backward pass.
template <class T>
void gru_step(std::size_t hidden, const T *gi, const T *h, const T *w_hh, const T *b_hh, T *gh,
              T *gates, T *h_next) {
  matvec(w_hh, 3 * hidden, hidden, hidden, h, b_hh, gh);
  for (std::size_t i = 0; i < 2 * hidden; ++i)
    gates[i] = gi[i] + gh[i];
  kernels::sigmoid_in_place(gates, 2 * hidden); // r, z
  T *n = gates + 2 * hidden;
  for (std::size_t i = 0; i < hidden; ++i)
    n[i] = gi[2 * hidden + i] + gates[i] * gh[2 * hidden + i];
  kernels::tanh_in_place(n, hidden);
  for (std::size_t i = 0; i < hidden; ++i)
    h_next[i] = (h[i] - n[i]) * gates[hidden + i] + n[i];
}

// Backward through one GRU step: from dh (the gradient at h') writes the gradients at gi and
// gh (each 3H: r, z, n) and the gradient at h, dh ⊙ z + W_hh^T dgh, into dh_prev.
template <class T>
void gru_step_backward(std::size_t hidden, const T *dh, const T *h, const T *gates, const T *gh,
                       const T *w_hh, T *dgi, T *dgh, T *dh_prev) {
  for (std::size_t i = 0; i < hidden; ++i) {
    const T r = gates[i], z = gates[hidden + i], n = gates[2 * hidden + i];
    const T dn = dh[i] * (T(1) - z) * (T(1) - n * n);
    const T dz = dh[i] * (h[i] - n) * z * (T(1) - z);
    const T dr = dn * gh[2 * hidden + i] * r * (T(1) - r);
    dgi[i] = dgh[i] = dr;
    dgi[hidden + i] = dgh[hidden + i] = dz;
    dgi[2 * hidden + i] = dn;
    dgh[2 * hidden + i] = dn * r;
    dh_prev[i] = dh[i] * z;
  }
  add_transposed_matvec(w_hh, 3 * hidden, hidden, hidden, dgh, dh_prev);
}

// In place, a row of attention weights' gradient becomes the scores' gradient:
// de_j = α_j (dα_j - Σ_k α_k dα_k).
template <class T> void softmax_backward(const T *alpha, std::size_t n, T *d) {
  const T weighted = dot(alpha, d, n);
  for (std::size_t j = 0; j < n; ++j)
    d[j] = alpha[j] * (d[j] - weighted);
}

template <class T> std::size_t argmax(const T *x, std::size_t n) {
  return static_cast<std::size_t>(std::max_element(x, x + n) - x);
}

template <class T>
Matrix<T> matrix_of(const T *data, std::size_t rows, std::size_t cols, std::size_t ld) {
  auto m = Matrix<T>::from_shape({rows, cols});
  for (std::size_t r = 0; r < rows; ++r)
    std::copy(data + r * ld, data + r * ld + cols, m.data() + r * cols);
  return m;
}

template <class T> T *grown(std::vector<T> &buffer, std::size_t size) {
  if (buffer.size() < size)
    buffer.resize(size);
  return buffer.data();
}

// ---------------------------------------------------------------------------------------------
// The parameters: names, shapes and initial distributions, in state_dict order.

struct ParameterSpec {
  std::string name;
  std::vector<std::size_t> shape;
  double bound; // U(-bound, bound); 0 for N(0, 1)
};

std::vector<ParameterSpec> parameter_specs(const Seq2seqConfig &c) {
  const std::size_t e = c.embedding, h = c.hidden, g = 3 * h;
  // nn.GRU draws every tensor from U(-1/√H, 1/√H); nn.Linear its weight and bias from
  // U(-1/√in_features, 1/√in_features); nn.Embedding from N(0, 1).
  const auto linear = [](std::size_t in_features) { return 1 / std::sqrt(double(in_features)); };
  const double gru = 1 / std::sqrt(double(h));
  const bool additive = c.scoring == ScoreFunction::additive;
  const std::size_t decoder_input = additive ? e + h : e;
  std::vector<ParameterSpec> specs = {{"encoder.embedding.weight", {c.source_vocab, e}, 0},
                                      {"encoder.gru.weight_ih_l0", {g, e}, gru},
                                      {"encoder.gru.weight_hh_l0", {g, h}, gru},
                                      {"encoder.gru.bias_ih_l0", {g}, gru},
                                      {"encoder.gru.bias_hh_l0", {g}, gru},
                                      {"decoder.embedding.weight", {c.target_vocab, e}, 0}};
  switch (c.scoring) {
  case ScoreFunction::additive:
    specs.insert(specs.end(), {{"decoder.attention.Wa.weight", {h, h}, linear(h)},
                               {"decoder.attention.Wa.bias", {h}, linear(h)},
                               {"decoder.attention.Ua.weight", {h, h}, linear(h)},
                               {"decoder.attention.Ua.bias", {h}, linear(h)},
                               {"decoder.attention.va.weight", {1, h}, linear(h)},
                               {"decoder.attention.va.bias", {1}, linear(h)}});
    break;
  case ScoreFunction::dot:
    break;
  case ScoreFunction::general:
    specs.push_back({"decoder.attention.Wa.weight", {h, h}, linear(h)});
    break;
  case ScoreFunction::concat:
    specs.insert(specs.end(), {{"decoder.attention.Wa.weight", {h, 2 * h}, linear(2 * h)},
                               {"decoder.attention.va.weight", {1, h}, linear(h)}});
    break;
  }
  specs.insert(specs.end(), {{"decoder.gru.weight_ih_l0", {g, decoder_input}, gru},
                             {"decoder.gru.weight_hh_l0", {g, h}, gru},
                             {"decoder.gru.bias_ih_l0", {g}, gru},
                             {"decoder.gru.bias_hh_l0", {g}, gru}});
  if (!additive)
    specs.insert(specs.end(), {{"decoder.combine.weight", {h, 2 * h}, linear(2 * h)},
                               {"decoder.combine.bias", {h}, linear(2 * h)}});
  specs.insert(specs.end(), {{"decoder.out.weight", {c.target_vocab, h}, linear(h)},
                             {"decoder.out.bias", {c.target_vocab}, linear(h)}});
  return specs;
}

std::shared_ptr<const std::vector<ParameterInfo>> make_layout(const Seq2seqConfig &config) {
  auto layout = std::make_shared<std::vector<ParameterInfo>>();
  std::size_t offset = 0;
  for (const auto &spec : parameter_specs(config)) {
    std::size_t size = 1;
    for (std::size_t extent : spec.shape)
      size *= extent;
    layout->push_back({spec.name, spec.shape, offset, size});
    offset += size;
  }
  return layout;
}

// Where each tensor starts in the flat buffer (none: not in this model).
struct Offsets {
  std::size_t encoder_embedding, encoder_w_ih, encoder_w_hh, encoder_b_ih, encoder_b_hh;
  std::size_t decoder_embedding, decoder_w_ih, decoder_w_hh, decoder_b_ih, decoder_b_hh;
  std::size_t wa, wa_bias, ua, ua_bias, va, va_bias, combine, combine_bias, out, out_bias;

  explicit Offsets(const std::vector<ParameterInfo> &layout) {
    const auto at = [&](const char *name) {
      for (const auto &info : layout)
        if (info.name == name)
          return info.offset;
      return none;
    };
    encoder_embedding = at("encoder.embedding.weight");
    encoder_w_ih = at("encoder.gru.weight_ih_l0");
    encoder_w_hh = at("encoder.gru.weight_hh_l0");
    encoder_b_ih = at("encoder.gru.bias_ih_l0");
    encoder_b_hh = at("encoder.gru.bias_hh_l0");
    decoder_embedding = at("decoder.embedding.weight");
    decoder_w_ih = at("decoder.gru.weight_ih_l0");
    decoder_w_hh = at("decoder.gru.weight_hh_l0");
    decoder_b_ih = at("decoder.gru.bias_ih_l0");
    decoder_b_hh = at("decoder.gru.bias_hh_l0");
    wa = at("decoder.attention.Wa.weight");
    wa_bias = at("decoder.attention.Wa.bias");
    ua = at("decoder.attention.Ua.weight");
    ua_bias = at("decoder.attention.Ua.bias");
    va = at("decoder.attention.va.weight");
    va_bias = at("decoder.attention.va.bias");
    combine = at("decoder.combine.weight");
    combine_bias = at("decoder.combine.bias");
    out = at("decoder.out.weight");
    out_bias = at("decoder.out.bias");
  }
};

// ---------------------------------------------------------------------------------------------
// Input checks

void check_sentence(const std::vector<TokenId> &tokens, std::size_t vocab, const char *argument,
                    const std::string &what, const char *vocabulary) {
  if (tokens.empty())
    detail::fail(detail::Argument(argument), what, " is empty");
  if (tokens.size() > max_sentence_length)
    detail::fail(detail::Argument(argument), what, " has ", tokens.size(),
                 " tokens, more than the ", max_sentence_length, " the model takes");
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= vocab)
      detail::fail(detail::Argument(argument), what, " holds token ", tokens[i], " at index ", i,
                   ", outside the ", vocabulary, " vocabulary [0, ", vocab, ")");
}

void check_target(const std::vector<TokenId> &target, const Seq2seqConfig &config,
                  const std::string &what) {
  check_sentence(target, config.target_vocab, "target", what, "target");
  if (target.back() != config.eos)
    detail::fail(detail::Argument("target"), what, " must end with <eos> (", config.eos, "), not ",
                 target.back());
}

template <class T> void require_finite_loss(double loss) {
  if (!std::isfinite(static_cast<T>(loss)))
    detail::fail(detail::Argument("parameters"), "the loss (", loss, ") overflows ",
                 sizeof(T) == 4 ? "float32" : "float64", ": the parameters are too large");
}

} // namespace

void validate(const Seq2seqConfig &c) {
  using detail::Argument;
  using detail::fail;
  const auto check_size = [](std::size_t value, std::size_t low, std::size_t high,
                             const char *argument) {
    if (value < low || value > high)
      fail(Argument(argument), argument, " (", value, ") must be between ", low, " and ", high);
  };
  check_size(c.source_vocab, 1, max_vocab, "sourceVocab");
  check_size(c.target_vocab, 2, max_vocab, "targetVocab");
  check_size(c.embedding, 1, max_width, "embedding");
  check_size(c.hidden, 1, max_width, "hidden");
  const std::size_t width = std::max(c.embedding, c.hidden);
  detail::require_fits(c.source_vocab, width, "a source-vocabulary table", Argument("sourceVocab"));
  detail::require_fits(c.target_vocab, width, "a target-vocabulary table", Argument("targetVocab"));
  if (c.seed < 0 || c.seed > 0xFFFFFFFFLL)
    fail(Argument("seed"), "seed (", c.seed, ") must be between 0 and 2**32 - 1, as numpy's");
  for (auto [token, argument] : {std::pair{c.sos, "sos"}, {c.eos, "eos"}})
    if (token < 0 || static_cast<std::size_t>(token) >= c.target_vocab)
      fail(Argument(argument), argument, " (", token, ") must be a target token, in [0, ",
           c.target_vocab, ")");
  if (c.sos == c.eos)
    fail(Argument("eos"), "eos (", c.eos, ") must differ from sos (", c.sos, ")");
}

// ---------------------------------------------------------------------------------------------
// ParameterSet

template <class T>
ParameterSet<T>::ParameterSet(std::shared_ptr<const std::vector<ParameterInfo>> layout)
    : layout_(std::move(layout)) {
  flat_.assign(layout_->empty() ? 0 : layout_->back().offset + layout_->back().size, T(0));
}

template <class T> std::vector<std::string> ParameterSet<T>::names() const {
  std::vector<std::string> names;
  for (const auto &info : *layout_)
    names.push_back(info.name);
  return names;
}

template <class T> const ParameterInfo &ParameterSet<T>::info(const std::string &name) const {
  for (const auto &info : *layout_)
    if (info.name == name)
      return info;
  detail::fail(detail::Argument("parameter"), "the model has no parameter \"", name, "\"");
}

template <class T>
void ParameterSet<T>::assign(const std::string &name, const std::vector<std::size_t> &shape,
                             const T *values) {
  const ParameterInfo &target = info(name);
  if (shape != target.shape)
    detail::fail(detail::Argument("shape"), name, " has shape ",
                 detail::Shape{target.shape.data(), target.shape.size()}, ", not ",
                 detail::Shape{shape.data(), shape.size()});
  for (std::size_t i = 0; i < target.size; ++i)
    if (!std::isfinite(values[i]))
      detail::fail(detail::Argument("values"), "the values for ", name,
                   " hold a non-finite value (", values[i], ") at flat index ", i);
  std::copy(values, values + target.size, flat_.data() + target.offset);
}

template <class T> bool ParameterSet<T>::same_layout(const ParameterSet &other) const {
  if (layout_ == other.layout_)
    return true;
  if (layout_->size() != other.layout_->size())
    return false;
  for (std::size_t i = 0; i < layout_->size(); ++i)
    if ((*layout_)[i].name != (*other.layout_)[i].name ||
        (*layout_)[i].shape != (*other.layout_)[i].shape)
      return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// The forward and backward passes of one sentence pair, over buffers that only grow.

template <class T> struct Seq2seq<T>::Workspace {
  Workspace(const Seq2seqConfig &config, const std::vector<ParameterInfo> &layout)
      : scoring(config.scoring), e(config.embedding), h(config.hidden), g(3 * config.hidden),
        v(config.target_vocab), input(config.scoring == ScoreFunction::additive ? e + h : e),
        at(layout) {}

  const ScoreFunction scoring;
  const std::size_t e, h, g, v, input; // input: the decoder GRU's input width
  const Offsets at;
  const T *p = nullptr;     // the parameters' flat buffer
  std::size_t n = 0, m = 0; // source and target lengths

  // Encoder: embedded inputs (n x E), input projections W_ih x + b_ih (n x 3H), recurrent ones
  // W_hh h + b_hh (n x 3H), gates r|z|n (n x 3H), states h_0 = 0, h_1 … h_n ((n + 1) x H).
  std::vector<TokenId> source;
  std::vector<T> encoder_x, encoder_gi, encoder_gh, encoder_gates, encoder_h;
  // Decoder: inputs y_0 … y_{m-1}, their GRU inputs (m x input: the embedding, then the context
  // for additive), the same GRU buffers, states s_0 = h_n, s_1 … s_m ((m + 1) x H).
  std::vector<TokenId> inputs, targets;
  std::vector<T> decoder_x, decoder_gi, decoder_gh, decoder_gates, decoder_s;
  // Attention: the annotations' projections (n x H: Ua h_j + b, Wa h_j, or Wa's h half), the
  // states' (m x H: Wa s_{t-1} + b, or Wa's s half), tanh of their sums (m x n x H), scores
  // and weights (m x n), contexts (m x H); Luong's [c_t; s_t] (m x 2H) and h̃_t (m x H).
  std::vector<T> keys, queries, activations, scores, alpha, context, combined, attentional;
  std::vector<T> logits; // m x V
  // Gradients at the same places.
  std::vector<T> d_logits, d_top, d_combined, d_states, d_alpha, d_keys, d_queries, d_annotations;
  std::vector<T> d_gi, d_gh, d_x, dh, carry, d_context;

  bool additive() const { return scoring == ScoreFunction::additive; }
  bool has_activations() const {
    return scoring == ScoreFunction::additive || scoring == ScoreFunction::concat;
  }
  const T *annotations() const { return encoder_h.data() + h; }
  const T *states() const { return decoder_s.data() + h; } // s_1 … s_m

  // Sizes every buffer for a source of n tokens and up to m decoder steps.
  void reserve(std::size_t source_length, std::size_t steps) {
    const std::size_t longest = std::max(source_length, steps);
    if (has_activations())
      detail::require_fits(source_length * steps, h, "the attention's tanh activations",
                           detail::Argument("target"));
    grown(encoder_x, source_length * e);
    for (auto *buffer : {&encoder_gi, &encoder_gh, &encoder_gates})
      grown(*buffer, source_length * g);
    grown(encoder_h, (source_length + 1) * h);
    grown(decoder_x, steps * input);
    for (auto *buffer : {&decoder_gi, &decoder_gh, &decoder_gates, &d_gi, &d_gh})
      grown(*buffer, longest * g);
    grown(decoder_s, (steps + 1) * h);
    for (auto *buffer : {&keys, &d_keys, &d_annotations, &queries, &d_queries, &context,
                         &attentional, &d_top, &d_states})
      grown(*buffer, longest * h);
    if (has_activations())
      grown(activations, source_length * steps * h);
    for (auto *buffer : {&scores, &alpha, &d_alpha})
      grown(*buffer, source_length * steps);
    grown(combined, steps * 2 * h);
    grown(d_combined, steps * 2 * h);
    grown(logits, steps * v);
    grown(d_logits, steps * v);
    grown(d_x, longest * std::max(e, input));
    for (auto *buffer : {&dh, &carry, &d_context})
      grown(*buffer, h);
  }

  // Runs the encoder over the source, and projects the annotations for the attention.
  void encode(const std::vector<TokenId> &sentence) {
    n = sentence.size();
    source = sentence;
    gather_rows(p + at.encoder_embedding, e, source.data(), n, encoder_x.data(), e);
    times_transposed(n, g, e, encoder_x.data(), e, p + at.encoder_w_ih, e, encoder_gi.data(), g);
    add_bias(encoder_gi.data(), n, g, g, p + at.encoder_b_ih);
    std::fill(encoder_h.begin(), encoder_h.begin() + h, T(0));
    for (std::size_t t = 0; t < n; ++t)
      gru_step(h, encoder_gi.data() + t * g, encoder_h.data() + t * h, p + at.encoder_w_hh,
               p + at.encoder_b_hh, encoder_gh.data() + t * g, encoder_gates.data() + t * g,
               encoder_h.data() + (t + 1) * h);
    switch (scoring) {
    case ScoreFunction::additive:
      times_transposed(n, h, h, annotations(), h, p + at.ua, h, keys.data(), h);
      add_bias(keys.data(), n, h, h, p + at.ua_bias);
      break;
    case ScoreFunction::general:
      times_transposed(n, h, h, annotations(), h, p + at.wa, h, keys.data(), h);
      break;
    case ScoreFunction::concat: // Wa [s; h_j] = Wa[:, :H] s + Wa[:, H:] h_j
      times_transposed(n, h, h, annotations(), h, p + at.wa + h, 2 * h, keys.data(), h);
      break;
    case ScoreFunction::dot:
      break;
    }
    std::copy(encoder_h.begin() + n * h, encoder_h.begin() + (n + 1) * h, decoder_s.begin());
  }

  // Row t of the weights from row t of the scores, and the context c_t = Σ_j α_tj h_j.
  void attend(std::size_t t) {
    detail::softmax_into(scores.data() + t * n, n, T(1), nullptr, alpha.data() + t * n);
    T *c = context.data() + t * h;
    std::fill(c, c + h, T(0));
    for (std::size_t j = 0; j < n; ++j) {
      const T weight = alpha[t * n + j];
      const T *annotation = annotations() + j * h;
      for (std::size_t i = 0; i < h; ++i)
        c[i] += weight * annotation[i];
    }
  }

  // Scores of step t: va · tanh(query_t + key_j) (+ va's bias for additive), keeping the tanh.
  void tanh_scores(std::size_t t) {
    const T *query = queries.data() + t * h, *va = p + at.va;
    const T bias = additive() ? p[at.va_bias] : T(0);
    for (std::size_t j = 0; j < n; ++j) {
      T *a = activations.data() + (t * n + j) * h;
      const T *key = keys.data() + j * h;
      for (std::size_t i = 0; i < h; ++i)
        a[i] = query[i] + key[i];
      kernels::tanh_in_place(a, h);
      scores[t * n + j] = bias + dot(va, a, h);
    }
  }

  // Decoder steps [t0, t1), their inputs inputs[t0 … t1) set: states, attention and logits.
  void decode(std::size_t t0, std::size_t t1) {
    const std::size_t rows = t1 - t0;
    if (additive()) {
      // The attention needs s_{t-1} and feeds the GRU: one step at a time.
      for (std::size_t t = t0; t < t1; ++t) {
        const T *state = decoder_s.data() + t * h;
        matvec(p + at.wa, h, h, h, state, p + at.wa_bias, queries.data() + t * h);
        tanh_scores(t);
        attend(t);
        T *x = decoder_x.data() + t * input;
        gather_rows(p + at.decoder_embedding, e, inputs.data() + t, 1, x, input);
        std::copy(context.data() + t * h, context.data() + (t + 1) * h, x + e);
        matvec(p + at.decoder_w_ih, g, input, input, x, p + at.decoder_b_ih,
               decoder_gi.data() + t * g);
        gru_step(h, decoder_gi.data() + t * g, state, p + at.decoder_w_hh, p + at.decoder_b_hh,
                 decoder_gh.data() + t * g, decoder_gates.data() + t * g,
                 decoder_s.data() + (t + 1) * h);
      }
      times_transposed(rows, v, h, states() + t0 * h, h, p + at.out, h, logits.data() + t0 * v, v);
      add_bias(logits.data() + t0 * v, rows, v, v, p + at.out_bias);
      return;
    }
    // Luong: the GRU runs first, so each product covers all the rows at once.
    T *x = decoder_x.data() + t0 * e;
    gather_rows(p + at.decoder_embedding, e, inputs.data() + t0, rows, x, e);
    times_transposed(rows, g, e, x, e, p + at.decoder_w_ih, e, decoder_gi.data() + t0 * g, g);
    add_bias(decoder_gi.data() + t0 * g, rows, g, g, p + at.decoder_b_ih);
    for (std::size_t t = t0; t < t1; ++t)
      gru_step(h, decoder_gi.data() + t * g, decoder_s.data() + t * h, p + at.decoder_w_hh,
               p + at.decoder_b_hh, decoder_gh.data() + t * g, decoder_gates.data() + t * g,
               decoder_s.data() + (t + 1) * h);
    const T *s = states() + t0 * h;
    T *row_scores = scores.data() + t0 * n;
    switch (scoring) {
    case ScoreFunction::dot:
      times_transposed(rows, n, h, s, h, annotations(), h, row_scores, n);
      break;
    case ScoreFunction::general:
      times_transposed(rows, n, h, s, h, keys.data(), h, row_scores, n);
      break;
    case ScoreFunction::concat:
      times_transposed(rows, h, h, s, h, p + at.wa, 2 * h, queries.data() + t0 * h, h);
      for (std::size_t t = t0; t < t1; ++t)
        tanh_scores(t);
      break;
    case ScoreFunction::additive:
      break;
    }
    for (std::size_t t = t0; t < t1; ++t) {
      attend(t);
      T *both = combined.data() + t * 2 * h;
      std::copy(context.data() + t * h, context.data() + (t + 1) * h, both);
      std::copy(states() + t * h, states() + (t + 1) * h, both + h);
    }
    T *tilde = attentional.data() + t0 * h;
    times_transposed(rows, h, 2 * h, combined.data() + t0 * 2 * h, 2 * h, p + at.combine, 2 * h,
                     tilde, h);
    add_bias(tilde, rows, h, h, p + at.combine_bias);
    kernels::tanh_in_place(tilde, rows * h);
    times_transposed(rows, v, h, tilde, h, p + at.out, h, logits.data() + t0 * v, v);
    add_bias(logits.data() + t0 * v, rows, v, v, p + at.out_bias);
  }

  // Teacher forcing: inputs <sos>, y_1 … y_{m-1}.
  void forward(const std::vector<TokenId> &sentence, const std::vector<TokenId> &target,
               TokenId sos) {
    reserve(sentence.size(), target.size());
    encode(sentence);
    m = target.size();
    targets = target;
    inputs.assign(1, sos);
    inputs.insert(inputs.end(), target.begin(), target.end() - 1);
    decode(0, m);
  }

  // The summed cross-entropy of the targets; with `scale`, d_logits = scale (softmax - onehot).
  double cross_entropy(std::optional<T> scale) {
    double total = 0;
    for (std::size_t t = 0; t < m; ++t) {
      const T *row = logits.data() + t * v;
      T *d = d_logits.data() + t * v;
      const T max = *std::max_element(row, row + v);
      std::copy(row, row + v, d);
      const T sum = kernels::exp_in_place(d, v, max); // d: exp(logit - max)
      const std::size_t gold = static_cast<std::size_t>(targets[t]);
      total -= double((row[gold] - max) - std::log(sum));
      if (scale) {
        const T factor = *scale / sum;
        for (std::size_t k = 0; k < v; ++k)
          d[k] *= factor;
        d[gold] -= *scale;
      }
    }
    return total;
  }

  // Adds this pair's gradients (its d_logits already scaled) into the flat gradient buffer.
  void backward(T *grad) {
    // out: logits_t = W top_t + b, top_t being h̃_t (Luong) or s_t (additive)
    const T *top = additive() ? states() : attentional.data();
    transposed_times(v, h, m, d_logits.data(), v, top, h, grad + at.out, h);
    add_row_sums(d_logits.data(), m, v, v, grad + at.out_bias);
    times(m, h, v, d_logits.data(), v, p + at.out, h, d_top.data(), h);
    if (additive())
      backward_additive(grad);
    else
      backward_luong(grad);
    backward_encoder(grad);
  }

  // The GRU weights' gradients from d_gi and d_gh of `steps` steps with inputs x (row stride
  // width) and previous states h_prev.
  void add_gru_weight_gradients(T *grad, std::size_t steps, const T *x, std::size_t width,
                                const T *h_prev, std::size_t w_ih, std::size_t w_hh,
                                std::size_t b_ih, std::size_t b_hh) {
    transposed_times(g, width, steps, d_gi.data(), g, x, width, grad + w_ih, width);
    add_row_sums(d_gi.data(), steps, g, g, grad + b_ih);
    transposed_times(g, h, steps, d_gh.data(), g, h_prev, h, grad + w_hh, h);
    add_row_sums(d_gh.data(), steps, g, g, grad + b_hh);
  }

  // Scores' gradients of row t (in d_alpha) into va's, the query's and the keys' gradients,
  // through the kept tanh activations.
  void backward_tanh_scores(T *grad, std::size_t t) {
    const T *va = p + at.va;
    T *d_query = d_queries.data() + t * h, *d_va = grad + at.va;
    for (std::size_t j = 0; j < n; ++j) {
      const T d_score = d_alpha[t * n + j];
      const T *a = activations.data() + (t * n + j) * h;
      T *d_key = d_keys.data() + j * h;
      for (std::size_t i = 0; i < h; ++i) {
        d_va[i] += d_score * a[i];
        const T d_pre = d_score * va[i] * (T(1) - a[i] * a[i]);
        d_query[i] += d_pre;
        d_key[i] += d_pre;
      }
    }
  }

  void backward_additive(T *grad) {
    // d_top holds each s_t's gradient through its logits; the steps run backwards, each adding
    // what flows from the next step (through its GRU and its attention query) into `carry`.
    std::fill(d_annotations.begin(), d_annotations.begin() + n * h, T(0));
    std::fill(d_keys.begin(), d_keys.begin() + n * h, T(0));
    std::fill(d_queries.begin(), d_queries.begin() + m * h, T(0));
    std::fill(carry.begin(), carry.end(), T(0));
    const T *w_ih = p + at.decoder_w_ih;
    for (std::size_t t = m; t-- > 0;) {
      for (std::size_t i = 0; i < h; ++i)
        dh[i] = d_top[t * h + i] + carry[i];
      gru_step_backward(h, dh.data(), decoder_s.data() + t * h, decoder_gates.data() + t * g,
                        decoder_gh.data() + t * g, p + at.decoder_w_hh, d_gi.data() + t * g,
                        d_gh.data() + t * g, carry.data());
      // The context is the GRU input's tail: its gradient is W_ih[:, E:]^T dgi.
      std::fill(d_context.begin(), d_context.end(), T(0));
      add_transposed_matvec(w_ih + e, g, h, input, d_gi.data() + t * g, d_context.data());
      for (std::size_t j = 0; j < n; ++j) {
        const T *annotation = annotations() + j * h;
        T *d_annotation = d_annotations.data() + j * h;
        const T weight = alpha[t * n + j];
        d_alpha[t * n + j] = dot(d_context.data(), annotation, h);
        for (std::size_t i = 0; i < h; ++i)
          d_annotation[i] += weight * d_context[i];
      }
      softmax_backward(alpha.data() + t * n, n, d_alpha.data() + t * n);
      backward_tanh_scores(grad, t);
      add_transposed_matvec(p + at.wa, h, h, h, d_queries.data() + t * h, carry.data());
    }
    // va's bias shifts every score of a step alike, which the softmax cancels: its gradient is
    // exactly 0, left as it is rather than summed from rounding noise.
    transposed_times(h, h, m, d_queries.data(), h, decoder_s.data(), h, grad + at.wa, h);
    add_row_sums(d_queries.data(), m, h, h, grad + at.wa_bias);
    transposed_times(h, h, n, d_keys.data(), h, annotations(), h, grad + at.ua, h);
    add_row_sums(d_keys.data(), n, h, h, grad + at.ua_bias);
    times(n, h, h, d_keys.data(), h, p + at.ua, h, d_annotations.data(), h, true);
    add_gru_weight_gradients(grad, m, decoder_x.data(), input, decoder_s.data(), at.decoder_w_ih,
                             at.decoder_w_hh, at.decoder_b_ih, at.decoder_b_hh);
    times(m, e, g, d_gi.data(), g, w_ih, input, d_x.data(), e);
    scatter_add_rows(d_x.data(), e, inputs.data(), m, grad + at.decoder_embedding);
  }

  void backward_luong(T *grad) {
    // h̃ = tanh(combine [c; s]): d_top becomes the pre-activation's gradient.
    T *d_pre = d_top.data();
    for (std::size_t i = 0; i < m * h; ++i)
      d_pre[i] *= T(1) - attentional[i] * attentional[i];
    transposed_times(h, 2 * h, m, d_pre, h, combined.data(), 2 * h, grad + at.combine, 2 * h);
    add_row_sums(d_pre, m, h, h, grad + at.combine_bias);
    times(m, 2 * h, h, d_pre, h, p + at.combine, 2 * h, d_combined.data(), 2 * h);
    // d_combined holds [dc_t; ds_t]. Through c_t = Σ_j α_tj h_j: dα_tj = dc_t · h_j, and h_j
    // gets Σ_t α_tj dc_t.
    const T *d_c = d_combined.data(), *s = states();
    for (std::size_t t = 0; t < m; ++t)
      std::copy(d_c + t * 2 * h + h, d_c + (t + 1) * 2 * h, d_states.data() + t * h);
    times_transposed(m, n, h, d_c, 2 * h, annotations(), h, d_alpha.data(), n);
    transposed_times(n, h, m, alpha.data(), n, d_c, 2 * h, d_annotations.data(), h, false);
    for (std::size_t t = 0; t < m; ++t)
      softmax_backward(alpha.data() + t * n, n, d_alpha.data() + t * n);
    const T *d_scores = d_alpha.data();
    switch (scoring) {
    case ScoreFunction::dot: // e_tj = s_t · h_j
      times(m, h, n, d_scores, n, annotations(), h, d_states.data(), h, true);
      transposed_times(n, h, m, d_scores, n, s, h, d_annotations.data(), h);
      break;
    case ScoreFunction::general: // e_tj = s_t · k_j, k_j = Wa h_j
      times(m, h, n, d_scores, n, keys.data(), h, d_states.data(), h, true);
      transposed_times(n, h, m, d_scores, n, s, h, d_keys.data(), h, false);
      transposed_times(h, h, n, d_keys.data(), h, annotations(), h, grad + at.wa, h);
      times(n, h, h, d_keys.data(), h, p + at.wa, h, d_annotations.data(), h, true);
      break;
    case ScoreFunction::concat: // e_tj = va · tanh(Wa[:, :H] s_t + Wa[:, H:] h_j)
      std::fill(d_queries.begin(), d_queries.begin() + m * h, T(0));
      std::fill(d_keys.begin(), d_keys.begin() + n * h, T(0));
      for (std::size_t t = 0; t < m; ++t)
        backward_tanh_scores(grad, t);
      transposed_times(h, h, m, d_queries.data(), h, s, h, grad + at.wa, 2 * h);
      times(m, h, h, d_queries.data(), h, p + at.wa, 2 * h, d_states.data(), h, true);
      transposed_times(h, h, n, d_keys.data(), h, annotations(), h, grad + at.wa + h, 2 * h);
      times(n, h, h, d_keys.data(), h, p + at.wa + h, 2 * h, d_annotations.data(), h, true);
      break;
    case ScoreFunction::additive:
      break;
    }
    // Back through the decoder GRU, whose states feed nothing else.
    std::fill(carry.begin(), carry.end(), T(0));
    backward_embedded_gru(grad, m, d_states.data(), decoder_x, decoder_s, decoder_gates, decoder_gh,
                          inputs, at.decoder_embedding, at.decoder_w_ih, at.decoder_w_hh,
                          at.decoder_b_ih, at.decoder_b_hh);
  }

  // d_annotations holds the gradient at h_1 … h_n through the attention, carry the one at
  // h_n = s_0 through the decoder.
  void backward_encoder(T *grad) {
    backward_embedded_gru(grad, n, d_annotations.data(), encoder_x, encoder_h, encoder_gates,
                          encoder_gh, source, at.encoder_embedding, at.encoder_w_ih,
                          at.encoder_w_hh, at.encoder_b_ih, at.encoder_b_hh);
  }

  // Back through `steps` steps of a GRU whose inputs x are the embeddings of `tokens` (the
  // encoder's, and Luong's decoder's): d_out is the gradient at each of its states from outside
  // it, carry the one flowing in after its last state (left at its first). Adds the gradients of
  // its weights and of its embedding rows to grad.
  template <class Buffer, class Tokens>
  void backward_embedded_gru(T *grad, std::size_t steps, const T *d_out, const Buffer &x,
                             const Buffer &states, const Buffer &gates, const Buffer &gh,
                             const Tokens &tokens, std::size_t embedding, std::size_t w_ih,
                             std::size_t w_hh, std::size_t b_ih, std::size_t b_hh) {
    for (std::size_t t = steps; t-- > 0;) {
      for (std::size_t i = 0; i < h; ++i)
        dh[i] = d_out[t * h + i] + carry[i];
      gru_step_backward(h, dh.data(), states.data() + t * h, gates.data() + t * g,
                        gh.data() + t * g, p + w_hh, d_gi.data() + t * g, d_gh.data() + t * g,
                        carry.data());
    }
    add_gru_weight_gradients(grad, steps, x.data(), e, states.data(), w_ih, w_hh, b_ih, b_hh);
    times(steps, e, g, d_gi.data(), g, p + w_ih, e, d_x.data(), e);
    scatter_add_rows(d_x.data(), e, tokens.data(), steps, grad + embedding);
  }

  Seq2seqTrace<T> trace() const {
    Seq2seqTrace<T> r;
    r.source = source;
    r.source_embeddings = matrix_of(encoder_x.data(), n, e, e);
    r.encoder_states = matrix_of(annotations(), n, h, h);
    r.decoder_states = matrix_of(states(), m, h, h);
    r.scores = matrix_of(scores.data(), m, n, n);
    r.weights = matrix_of(alpha.data(), m, n, n);
    r.contexts = matrix_of(context.data(), m, h, h);
    if (!additive())
      r.attentional = matrix_of(attentional.data(), m, h, h);
    r.logits = matrix_of(logits.data(), m, v, v);
    return r;
  }
};

// ---------------------------------------------------------------------------------------------
// Seq2seq

template <class T> Seq2seq<T>::Seq2seq(const Seq2seqConfig &config) : config_(config) {
  validate(config);
  layout_ = make_layout(config);
  parameters_ = ParameterSet<T>(layout_);
  first_moment_ = ParameterSet<T>(layout_);
  second_moment_ = ParameterSet<T>(layout_);
  // PyTorch's default distributions, drawn in state_dict order from numpy's RandomState(seed)
  // (randn for N(0, 1), -b + 2b rand for U(-b, b), as numpy's uniform): the same values on
  // every platform and in numpy, though not the values of PyTorch's own generator.
  NumpyRandomState random(config.seed);
  const auto specs = parameter_specs(config);
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const ParameterInfo &info = (*layout_)[k];
    const double bound = specs[k].bound;
    const std::size_t rows = info.shape[0], cols = info.size / rows;
    const Matrix<double> drawn = bound == 0 ? random.randn(rows, cols) : random.rand(rows, cols);
    T *out = parameters_.data() + info.offset;
    for (std::size_t i = 0; i < info.size; ++i)
      out[i] = static_cast<T>(bound == 0 ? drawn.data()[i] : -bound + 2 * bound * drawn.data()[i]);
  }
  work_ = std::make_unique<Workspace>(config, *layout_);
}

template <class T> Seq2seq<T>::~Seq2seq() = default;
template <class T> Seq2seq<T>::Seq2seq(Seq2seq &&) noexcept = default;
template <class T> Seq2seq<T> &Seq2seq<T>::operator=(Seq2seq &&) noexcept = default;

namespace {
// Checks every pair before any work; returns the number of target tokens.
std::size_t check_batch(const std::vector<SentencePair> &batch, const Seq2seqConfig &config) {
  if (batch.empty())
    detail::fail(detail::Argument("batch"), "batch is empty");
  std::size_t tokens = 0;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const std::string pair = "batch[" + std::to_string(k) + "]";
    check_sentence(batch[k].source, config.source_vocab, "source", pair + ".source", "source");
    check_target(batch[k].target, config, pair + ".target");
    tokens += batch[k].target.size();
  }
  return tokens;
}
} // namespace

template <class T> T Seq2seq<T>::loss(const std::vector<SentencePair> &batch) {
  const std::size_t tokens = check_batch(batch, config_);
  work_->p = parameters_.data();
  double total = 0;
  for (const auto &pair : batch) {
    work_->forward(pair.source, pair.target, config_.sos);
    total += work_->cross_entropy(std::nullopt);
  }
  require_finite_loss<T>(total);
  return static_cast<T>(total / double(tokens));
}

template <class T>
T Seq2seq<T>::loss_and_gradients(const std::vector<SentencePair> &batch,
                                 ParameterSet<T> &gradients) {
  const std::size_t tokens = check_batch(batch, config_);
  if (!gradients.same_layout(parameters_))
    detail::fail(detail::Argument("gradients"),
                 "gradients must have the model's parameters' names and shapes");
  work_->p = parameters_.data();
  std::fill(gradients.data(), gradients.data() + gradients.size(), T(0));
  double total = 0;
  for (const auto &pair : batch) {
    work_->forward(pair.source, pair.target, config_.sos);
    total += work_->cross_entropy(T(1) / static_cast<T>(tokens));
    require_finite_loss<T>(total);
    work_->backward(gradients.data());
  }
  return static_cast<T>(total / double(tokens));
}

template <class T> T clip_gradient_norm(ParameterSet<T> &gradients, T max_norm) {
  if (!std::isfinite(max_norm) || max_norm <= 0)
    detail::fail(detail::Argument("maxNorm"), "maxNorm (", max_norm,
                 ") must be a positive finite number");
  // As clip_grad_norm_: the norm of the tensors' norms, each summed in double here.
  double squares = 0;
  for (const auto &info : gradients.layout()) {
    const T *g = gradients.data() + info.offset;
    double sum = 0;
    for (std::size_t i = 0; i < info.size; ++i) {
      if (!std::isfinite(g[i]))
        detail::fail(detail::Argument("gradients"), "the gradient of ", info.name,
                     " holds a non-finite value (", g[i], ") at flat index ", i);
      sum += double(g[i]) * double(g[i]);
    }
    const double norm = static_cast<T>(std::sqrt(sum));
    squares += norm * norm;
  }
  const T total = static_cast<T>(std::sqrt(squares));
  const T coefficient = max_norm / (total + T(1e-6));
  if (coefficient < 1)
    for (std::size_t i = 0; i < gradients.size(); ++i)
      gradients.data()[i] *= coefficient;
  return total;
}

template <class T>
T Seq2seq<T>::adam_step(ParameterSet<T> &gradients, T learning_rate, std::optional<T> max_norm) {
  if (!gradients.same_layout(parameters_))
    detail::fail(detail::Argument("gradients"),
                 "gradients must have the model's parameters' names and shapes");
  if (!std::isfinite(learning_rate) || learning_rate < 0)
    detail::fail(detail::Argument("learningRate"), "learningRate (", learning_rate,
                 ") must be a finite number >= 0");
  // Without clipping, the norm is still measured (and the gradients checked for NaN), so that a
  // diverged step never reaches the parameters.
  const T norm = clip_gradient_norm(gradients, max_norm.value_or(std::numeric_limits<T>::max()));
  // torch.optim.Adam's single-tensor update, operation for operation.
  constexpr double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  ++adam_steps_;
  const double step = static_cast<double>(adam_steps_);
  const T step_size = static_cast<T>(double(learning_rate) / (1 - std::pow(beta1, step)));
  const T correction2_sqrt = static_cast<T>(std::sqrt(1 - std::pow(beta2, step)));
  const T b1 = T(beta1), b2 = T(beta2), one_minus_b1 = T(1 - beta1), one_minus_b2 = T(1 - beta2),
          eps = T(epsilon);
  T *param = parameters_.data(), *m = first_moment_.data(), *v = second_moment_.data();
  const T *g = gradients.data();
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    m[i] = m[i] * b1 + one_minus_b1 * g[i];
    v[i] = v[i] * b2 + one_minus_b2 * g[i] * g[i];
    const T denominator = std::sqrt(v[i]) / correction2_sqrt + eps;
    param[i] += -step_size * (m[i] / denominator);
  }
  return norm;
}

template <class T> void Seq2seq<T>::reset_optimizer() {
  std::fill(first_moment_.data(), first_moment_.data() + first_moment_.size(), T(0));
  std::fill(second_moment_.data(), second_moment_.data() + second_moment_.size(), T(0));
  adam_steps_ = 0;
}

template <class T>
Seq2seqTrace<T> Seq2seq<T>::trace(const std::vector<TokenId> &source,
                                  const std::vector<TokenId> &target) {
  check_sentence(source, config_.source_vocab, "source", "source", "source");
  check_target(target, config_, "target");
  work_->p = parameters_.data();
  work_->forward(source, target, config_.sos);
  Seq2seqTrace<T> r = work_->trace();
  r.output = target;
  return r;
}

template <class T>
Seq2seqTrace<T> Seq2seq<T>::translate(const std::vector<TokenId> &source, std::size_t max_length) {
  check_sentence(source, config_.source_vocab, "source", "source", "source");
  if (max_length < 1 || max_length > max_sentence_length)
    detail::fail(detail::Argument("maxLength"), "maxLength (", max_length,
                 ") must be between 1 and ", max_sentence_length);
  Workspace &w = *work_;
  w.p = parameters_.data();
  w.reserve(source.size(), max_length);
  w.encode(source);
  std::vector<TokenId> output;
  w.inputs.assign(max_length, config_.sos);
  for (std::size_t t = 0; t < max_length; ++t) {
    if (t > 0)
      w.inputs[t] = output.back();
    w.decode(t, t + 1);
    output.push_back(static_cast<TokenId>(argmax(w.logits.data() + t * w.v, w.v)));
    if (output.back() == config_.eos)
      break;
  }
  w.m = output.size();
  Seq2seqTrace<T> r = w.trace();
  r.output = std::move(output);
  return r;
}

template <class T>
Seq2seqBeamSearch<T> Seq2seq<T>::beam_search(const std::vector<TokenId> &source,
                                             std::size_t max_length, std::size_t width) {
  check_sentence(source, config_.source_vocab, "source", "source", "source");
  if (max_length < 1 || max_length > max_sentence_length)
    detail::fail(detail::Argument("maxLength"), "maxLength (", max_length,
                 ") must be between 1 and ", max_sentence_length);
  if (width < 1 || width > max_beam_width)
    detail::fail(detail::Argument("beam"), "beam (", width, ") must be between 1 and ",
                 max_beam_width);
  Workspace &w = *work_;
  w.p = parameters_.data();
  w.reserve(source.size(), max_length);
  w.encode(source);
  const std::size_t h = config_.hidden, v = w.v;
  struct Beam {
    Seq2seqHypothesis hypothesis;
    std::vector<T> state; // the decoder's state after its last token
  };
  const auto ended = [&](const Beam &beam) {
    return !beam.hypothesis.output.empty() && beam.hypothesis.output.back() == config_.eos;
  };
  std::vector<Beam> beams(1); // the empty hypothesis, from s_0
  beams[0].state.assign(w.decoder_s.begin(), w.decoder_s.begin() + h);
  std::vector<double> row(v), log_probabilities(v); // a step's logits, in double
  for (std::size_t t = 0; t < max_length; ++t) {
    if (std::all_of(beams.begin(), beams.end(), ended))
      break;
    // (beam, token or -1 for an ended beam kept as it is, total log-probability)
    struct Candidate {
      std::size_t beam;
      TokenId token;
      double score;
    };
    std::vector<Candidate> candidates;
    std::vector<std::vector<T>> next_states(beams.size());
    for (std::size_t b = 0; b < beams.size(); ++b) {
      const Beam &beam = beams[b];
      if (ended(beam)) {
        candidates.push_back({b, -1, beam.hypothesis.log_probability});
        continue;
      }
      // decode() reads s_{t-1} from row t of decoder_s and the input token from inputs[t]
      std::copy(beam.state.begin(), beam.state.end(), w.decoder_s.begin() + t * h);
      w.inputs.assign(t + 1, config_.sos);
      if (t > 0)
        w.inputs[t] = beam.hypothesis.output.back();
      w.decode(t, t + 1);
      next_states[b].assign(w.decoder_s.begin() + (t + 1) * h, w.decoder_s.begin() + (t + 2) * h);
      std::copy(w.logits.begin() + t * v, w.logits.begin() + (t + 1) * v, row.begin());
      detail::log_softmax_into(row.data(), v, 1.0, nullptr, log_probabilities.data());
      for (std::size_t i = 0; i < v; ++i)
        candidates.push_back(
            {b, static_cast<TokenId>(i), beam.hypothesis.log_probability + log_probabilities[i]});
    }
    const std::size_t kept = std::min(width, candidates.size());
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
    std::vector<Beam> next;
    for (std::size_t i = 0; i < kept; ++i) {
      const Candidate &c = candidates[i];
      if (c.token < 0) {
        next.push_back(beams[c.beam]);
        continue;
      }
      Beam grown = beams[c.beam];
      grown.hypothesis.output.push_back(c.token);
      grown.hypothesis.log_probability = c.score;
      grown.state = next_states[c.beam];
      next.push_back(std::move(grown));
    }
    beams = std::move(next);
  }
  Seq2seqBeamSearch<T> result;
  for (auto &beam : beams)
    result.beams.push_back(std::move(beam.hypothesis));
  // The best hypothesis again, teacher forced, for its trace (the same numbers it was found with).
  w.forward(source, result.beams.front().output, config_.sos);
  result.trace = w.trace();
  result.trace.output = result.beams.front().output;
  return result;
}

template class ParameterSet<float>;
template class ParameterSet<double>;
template class Seq2seq<float>;
template class Seq2seq<double>;
template float clip_gradient_norm<float>(ParameterSet<float> &, float);
template double clip_gradient_norm<double>(ParameterSet<double> &, double);

} // namespace attention
