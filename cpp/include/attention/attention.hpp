// From weights to context: weighting annotations, the context vector, Luong's attentional hidden
// state, and the matrix forms (scaled dot-product, self- and multi-head attention).
// Matrices multiply as in the notebooks (x @ W): a projection W has one row per input feature.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xview.hpp>

#include "detail/linalg.hpp"
#include "detail/parallel.hpp"
#include "softmax.hpp"

namespace attention {

// Row j of the annotations scaled by weight j (Attention Basics, apply_attention_scores).
template <class T> Matrix<T> apply_weights(const Vector<T> &weights, const Matrix<T> &annotations) {
  detail::require_values(weights, "weights");
  detail::require_values(annotations, "annotations");
  detail::require_equal_length(detail::Argument("weights"), weights.size(), "weights length",
                               weights, annotations.shape()[0], "annotations rows", annotations);
  Matrix<T> weighted = annotations * xt::view(weights, xt::all(), xt::newaxis());
  detail::require_finite_result(weighted, "weighted annotations", detail::Argument("annotations"));
  return weighted;
}

// The sum of the weighted annotations (Attention Basics, calculate_attention_vector).
template <class T> Vector<T> context_vector(const Matrix<T> &weighted) {
  detail::require_values(weighted, "weighted");
  Vector<T> context = xt::sum(weighted, {0});
  detail::require_finite_result(context, "context vector", detail::Argument("weighted"));
  return context;
}

// Luong's attentional hidden state tanh(W_c [c; s]), W_c of shape (d_out x (|c| + |s|)).
template <class T>
Vector<T> attentional_hidden_state(const Vector<T> &context, const Vector<T> &state,
                                   const Matrix<T> &wc) {
  detail::require_values(context, "context");
  detail::require_values(state, "state");
  detail::require_values(wc, "Wc");
  Vector<T> attentional =
      xt::tanh(matvec(wc, concatenate(context, state), "Wc", "[c; s]", detail::Argument("Wc")));
  detail::require_finite_result(attentional, "attentional hidden state", detail::Argument("Wc"));
  return attentional;
}

using MaskMatrix = xt::xtensor<std::uint8_t, 2>;

template <class T> struct AttentionOptions {
  std::optional<T> scale; // default 1 / sqrt(d_k)
  bool causal = false;    // query i sees keys 0..i only
  MaskMatrix mask;        // empty, 1 x N_k (key padding) or N_q x N_k; 1 keeps, 0 masks
  bool weights = true;    // false: the fused path, which never forms the N_q x N_k weights
};

template <class T> struct MultiHeadResult {
  Matrix<T> output;               // N x (heads d_v)
  std::vector<Matrix<T>> weights; // one N_q x N_k matrix per head; none from the fused path
};

template <class T> struct AttentionResult {
  Matrix<T> output;  // N_q x d_v
  Matrix<T> weights; // N_q x N_k; empty from the fused path
};

namespace detail {

template <class T> void check_mask(const MaskMatrix &mask, std::size_t queries, std::size_t keys) {
  if (mask.size() == 0)
    return;
  const bool per_key = mask.shape()[0] == 1 && mask.shape()[1] == keys;
  const bool per_pair = mask.shape()[0] == queries && mask.shape()[1] == keys;
  if (!per_key && !per_pair)
    fail(Argument("mask"), "mask ", shape(mask), " must be 1x", keys, " (one entry per key) or ",
         queries, "x", keys, " (queries x keys)");
}

// One head's operands: Q (n_q x d), K (n_k x d) and V (n_k x d_v) as columns of possibly wider
// row-major matrices (a head of a multi-head projection is read in place, not copied). Q may be
// a block of the head's queries: rows first_query.. of all_queries, for causal and mask rows and
// for error messages.
template <class T> struct Head {
  const T *q, *k, *v;
  std::size_t q_ld, k_ld, v_ld;
  std::size_t nq, nk, d, dv;
  std::size_t first_query, all_queries;
};

template <class T>
[[noreturn]] void overflow(const char *what, Argument argument, std::size_t rows, std::size_t cols,
                           std::size_t index) {
  fail(argument, what, " [", rows, "x", cols, "] overflows ",
       sizeof(T) == 4 ? "float32" : "float64", " at flat index ", index, ": scale the inputs down",
       sizeof(T) == 4 ? " or pass Float64Array" : "");
}

// Where a block sits in the whole matrix it belongs to: its first row and column, and the
// whole matrix's shape.
struct Place {
  std::size_t row, col, rows, cols;
};

// Refuses rows (stride ld) where scale * value is not finite, naming the first such value by its
// place in the whole matrix.
template <class T>
void require_finite_rows(const T *data, std::size_t rows, std::size_t cols, std::size_t ld,
                         const char *what, Argument argument, const Place &at, T scale = T(1)) {
  for (std::size_t i = 0; i < rows; ++i)
    if (!kernels::all_finite(data + i * ld, cols, scale))
      for (std::size_t j = 0; j < cols; ++j)
        if (!std::isfinite(scale * data[i * ld + j]))
          overflow<T>(what, argument, at.rows, at.cols, (at.row + i) * at.cols + at.col + j);
}

inline bool kept(const MaskMatrix &mask, bool causal, std::size_t i, std::size_t j,
                 std::size_t nk) {
  return !(causal && j > i) &&
         (mask.size() == 0 || mask.data()[(mask.shape()[0] == 1 ? 0 : i) * nk + j]);
}

// softmax(scale * Q K^T, masked) V for validated inputs: the weights (n_q x n_k, contiguous) and
// the output (row stride out_ld).
template <class T>
void attend(const Head<T> &h, T scale, bool causal, const MaskMatrix &mask, T *weights, T *out,
            std::size_t out_ld) {
  kernels::gemm<T>(h.nq, h.nk, h.d, {h.q, h.q_ld}, {h.k, h.k_ld, true}, weights, h.nk);
  std::uint8_t *keep = kernels::working_memory<std::uint8_t>(kernels::Slot::mask, h.nk);
  const bool masked = causal || mask.size() != 0;
  for (std::size_t i = 0; i < h.nq; ++i) {
    T *row = weights + i * h.nk;
    if (masked)
      for (std::size_t j = 0; j < h.nk; ++j)
        keep[j] = kept(mask, causal, h.first_query + i, j, h.nk);
    if (!softmax_into(row, h.nk, scale, masked ? keep : nullptr, row)) // row holds scale Q K^T
      require_finite_rows(row, 1, h.nk, h.nk, "the scaled scores Q K^T", Argument("Q"),
                          {h.first_query + i, 0, h.all_queries, h.nk});
  }
  kernels::gemm<T>(h.nq, h.dv, h.nk, {weights, h.nk}, {h.v, h.v_ld}, out, out_ld);
  // Weights sum to 1, but rounding can still carry values near the type's maximum past it.
  require_finite_rows(out, h.nq, h.dv, out_ld, "the attention output (weights V)", Argument("V"),
                      {h.first_query, 0, h.all_queries, h.dv});
}

// The same output without the weights matrix: K and V packed once per head, then MR queries at
// a time against every key (kernels::attend_rows): memory grows as O(N d), never O(N^2).
template <class T>
void attend_fused(const Head<T> &h, T scale, bool causal, const MaskMatrix &mask, T *out,
                  std::size_t out_ld) {
  constexpr std::size_t mr = kernels::Simd<T>::mr;
  const auto kv = kernels::pack_kv(h.k, h.k_ld, h.v, h.v_ld, h.nk, h.d, h.dv);
  const bool masked = causal || mask.size() != 0;
  for (std::size_t i0 = 0; i0 < h.nq; i0 += mr) {
    const std::size_t rows = std::min(mr, h.nq - i0), first = h.first_query + i0;
    const auto keep = [&](std::size_t i, std::size_t j) {
      return kept(mask, causal, first + i, j, h.nk);
    };
    // causal: no query here sees a key past the last of them
    const std::size_t keys = causal ? std::min(h.nk, first + rows) : h.nk;
    if (kernels::attend_rows(kv, keys, h.q + i0 * h.q_ld, h.q_ld, rows, scale,
                             masked ? &keep : nullptr, out + i0 * out_ld, out_ld))
      continue;
    // A scaled score is not finite: the same products again, to name it.
    T *scores = kernels::working_memory<T>(kernels::Slot::running_max, rows * h.nk);
    kernels::gemm<T>(rows, h.nk, h.d, {h.q + i0 * h.q_ld, h.q_ld}, {h.k, h.k_ld, true}, scores,
                     h.nk);
    require_finite_rows(scores, rows, h.nk, h.nk, "the scaled scores Q K^T", Argument("Q"),
                        {first, 0, h.all_queries, h.nk}, scale);
  }
  require_finite_rows(out, h.nq, h.dv, out_ld, "the attention output (weights V)", Argument("V"),
                      {h.first_query, 0, h.all_queries, h.dv});
}

// How many blocks of queries each head is cut into: one with a single thread, for small problems
// (handing them over costs more than it saves) and when heads alone keep the threads busy;
// otherwise about two tasks per thread (each block packs K and V again, so fewer is cheaper), or
// four under a causal mask, whose blocks are uneven.
inline std::size_t query_blocks(std::size_t heads, std::size_t nq, std::size_t nk,
                                std::size_t widths, bool causal) {
  constexpr std::size_t min_block_rows = 32;
  const std::size_t threads = parallel::threads(), tasks = (causal ? 4 : 2) * threads;
  if (threads == 1 || 2.0 * heads * nq * nk * widths < parallel::min_split_flops || heads >= tasks)
    return 1;
  const std::size_t wanted = (tasks + heads - 1) / heads;
  return std::max<std::size_t>(1, std::min<std::size_t>(wanted, nq / min_block_rows));
}

// Attention for `heads` heads side by side over row-major buffers: head j reads columns
// [j d, (j + 1) d) of Q and K (row stride qk_width) and [j d_v, (j + 1) d_v) of V (row stride
// v_width), and writes the same columns of the output. weights[j] receives head j's n_q x n_k
// weights; with no weights (empty list) the fused path runs.
template <class T>
void attend_heads(const T *q, const T *k, const T *v, std::size_t nq, std::size_t nk,
                  std::size_t qk_width, std::size_t v_width, std::size_t heads, T scale,
                  bool causal, const MaskMatrix &mask, T *out, const std::vector<T *> &weights) {
  const std::size_t d = qk_width / heads, dv = v_width / heads;
  const std::size_t blocks = query_blocks(heads, nq, nk, d + dv, causal);
  const std::size_t block_rows = (nq + blocks - 1) / blocks;
  // task t: head t / blocks, its queries [first, first + rows)
  parallel::for_each(heads * blocks, [&](std::size_t t) {
    const std::size_t j = t / blocks, first = (t % blocks) * block_rows;
    if (first >= nq)
      return;
    const std::size_t rows = std::min(block_rows, nq - first);
    const Head<T> head{q + first * qk_width + j * d,
                       k + j * d,
                       v + j * dv,
                       qk_width,
                       qk_width,
                       v_width,
                       rows,
                       nk,
                       d,
                       dv,
                       first,
                       nq};
    T *head_out = out + first * v_width + j * dv;
    if (weights.empty())
      attend_fused(head, scale, causal, mask, head_out, v_width);
    else
      attend(head, scale, causal, mask, weights[j] + first * nk, head_out, v_width);
  });
}

// The same into new containers: the output, and one weights matrix per head when asked for.
template <class T>
MultiHeadResult<T> attend_heads(const Matrix<T> &q, const Matrix<T> &k, const Matrix<T> &v,
                                std::size_t heads, T scale, bool causal, const MaskMatrix &mask,
                                bool with_weights) {
  const std::size_t nq = q.shape()[0], nk = k.shape()[0];
  MultiHeadResult<T> r;
  r.output = Matrix<T>::from_shape({nq, v.shape()[1]});
  std::vector<T *> weights;
  if (with_weights) {
    require_fits(nq, nk, "the attention weights (queries x keys)",
                 Argument("Q")); // one matrix per head
    r.weights.reserve(heads);
    for (std::size_t j = 0; j < heads; ++j)
      weights.push_back(r.weights.emplace_back(Matrix<T>::from_shape({nq, nk})).data());
  }
  attend_heads(q.data(), k.data(), v.data(), nq, nk, q.shape()[1], v.shape()[1], heads, scale,
               causal, mask, r.output.data(), weights);
  return r;
}

template <class T> T checked_scale(const std::optional<T> &scale, std::size_t key_width) {
  if (!scale)
    return T(1) / std::sqrt(static_cast<T>(key_width));
  require_finite_scalar(*scale, "scale");
  return *scale;
}

} // namespace detail

namespace detail {
template <class Q, class K, class V>
void check_attention_inputs(const Q &q, const K &k, const V &v, const MaskMatrix &mask) {
  require_values(q, "Q");
  require_values(k, "K");
  require_values(v, "V");
  require_equal_length(Argument("Q"), q.shape()[1], "Q columns", q, k.shape()[1], "K columns", k);
  require_equal_length(Argument("K"), k.shape()[0], "K rows", k, v.shape()[0], "V rows", v);
  check_mask<typename Q::value_type>(mask, q.shape()[0], k.shape()[0]);
}

template <class Q, class V> void check_heads(std::size_t heads, const Q &q, const V &v) {
  if (heads == 0 || q.shape()[1] % heads != 0 || v.shape()[1] % heads != 0)
    fail(Argument("heads"), "heads (", heads, ") must be a positive divisor of Q columns (",
         q.shape()[1], ", from ", shape(q), ") and of V columns (", v.shape()[1], ", from ",
         shape(v), ")");
}
} // namespace detail

// softmax(scale * Q K^T) V with optional causal and explicit masks.
template <class T>
AttentionResult<T> attention(const Matrix<T> &q, const Matrix<T> &k, const Matrix<T> &v,
                             const AttentionOptions<T> &options = {}) {
  detail::check_attention_inputs(q, k, v, options.mask);
  auto r = detail::attend_heads(q, k, v, 1, detail::checked_scale(options.scale, k.shape()[1]),
                                options.causal, options.mask, options.weights);
  return {std::move(r.output), r.weights.empty() ? Matrix<T>{} : std::move(r.weights[0])};
}

// The same for `heads` heads side by side in one call: head j uses columns [j d, (j + 1) d) of
// Q and K and [j d_v, (j + 1) d_v) of V; the output holds the heads' outputs side by side.
// The default scale is 1 / sqrt(d) of one head.
template <class T>
MultiHeadResult<T> attention_heads(const Matrix<T> &q, const Matrix<T> &k, const Matrix<T> &v,
                                   std::size_t heads, const AttentionOptions<T> &options = {}) {
  detail::check_attention_inputs(q, k, v, options.mask);
  detail::check_heads(heads, q, v);
  return detail::attend_heads(q, k, v, heads,
                              detail::checked_scale(options.scale, k.shape()[1] / heads),
                              options.causal, options.mask, options.weights);
}

// attention_heads over caller-owned row-major buffers, allocating nothing for inputs or outputs
// (the WebAssembly wrapper passes memory it reuses across calls): Q (q_rows x q_cols), K and V
// as given, checked as attention_heads checks them -> out (q_rows x v_cols) and, when
// options.weights, weights (heads x q_rows x k_rows, head after head).
template <class T>
void attention_into(const T *q, std::size_t q_rows, std::size_t q_cols, const T *k,
                    std::size_t k_rows, std::size_t k_cols, const T *v, std::size_t v_rows,
                    std::size_t v_cols, std::size_t heads, const AttentionOptions<T> &options,
                    T *out, T *weights) {
  const auto qv = detail::view(q, q_rows, q_cols), kv = detail::view(k, k_rows, k_cols),
             vv = detail::view(v, v_rows, v_cols);
  detail::check_attention_inputs(qv, kv, vv, options.mask);
  detail::check_heads(heads, qv, vv);
  const T scale = detail::checked_scale(options.scale, q_cols / heads);
  std::vector<T *> per_head;
  if (options.weights) {
    detail::require_fits(q_rows, k_rows, "the attention weights (queries x keys)",
                         detail::Argument("Q"));
    if (!weights)
      detail::fail(detail::Argument("weights"), "the weights buffer is missing");
    for (std::size_t j = 0; j < heads; ++j)
      per_head.push_back(weights + j * q_rows * k_rows);
  }
  detail::attend_heads(q, k, v, q_rows, k_rows, q_cols, v_cols, heads, scale, options.causal,
                       options.mask, out, per_head);
}

template <class T> struct SelfAttentionResult {
  Matrix<T> queries, keys, values; // X W_Q, X W_K, X W_V
  Matrix<T> scores;                // Q K^T, before scaling
  Matrix<T> weights;               // row softmax of the scaled, masked scores
  Matrix<T> output;                // weights V
};

// Self-attention with projections, as in the self-attention notebook, for all words at once.
template <class T>
SelfAttentionResult<T> self_attention(const Matrix<T> &x, const Matrix<T> &wq, const Matrix<T> &wk,
                                      const Matrix<T> &wv,
                                      const AttentionOptions<T> &options = {}) {
  detail::require_values(x, "X");
  detail::require_values(wq, "Wq");
  detail::require_values(wk, "Wk");
  detail::require_values(wv, "Wv");
  detail::require_equal_length(detail::Argument("Wq"), wq.shape()[1], "Wq columns", wq,
                               wk.shape()[1], "Wk columns", wk);
  SelfAttentionResult<T> r;
  r.queries = matmul(x, wq, "X columns", "Wq rows", detail::Argument("X"));
  r.keys = matmul(x, wk, "X columns", "Wk rows", detail::Argument("X"));
  r.values = matmul(x, wv, "X columns", "Wv rows", detail::Argument("X"));
  detail::require_finite_result(r.queries, "queries X Wq", detail::Argument("Wq"));
  detail::require_finite_result(r.keys, "keys X Wk", detail::Argument("Wk"));
  detail::require_finite_result(r.values, "values X Wv", detail::Argument("Wv"));
  detail::check_mask<T>(options.mask, x.shape()[0], x.shape()[0]);
  detail::require_fits(x.shape()[0], x.shape()[0], "the scores (words x words)",
                       detail::Argument("X"));
  r.scores = matmul_transposed(r.queries, r.keys, "Q columns", "K columns", detail::Argument("Wq"));
  auto attended = detail::attend_heads(r.queries, r.keys, r.values, 1,
                                       detail::checked_scale(options.scale, wk.shape()[1]),
                                       options.causal, options.mask, true);
  r.weights = std::move(attended.weights[0]);
  r.output = std::move(attended.output);
  return r;
}

// Weights of multi-head attention in the x @ W convention: W_Q, W_K, W_V are (E x E) and W_O is
// (E x E_out). torch.nn.MultiheadAttention stores their transposes (in_proj_weight rows, then
// out_proj.weight). Empty biases mean none.
template <class T> struct MultiHeadParams {
  std::size_t heads = 1;
  Matrix<T> wq, wk, wv, wo;
  Vector<T> bq, bk, bv, bo;
  bool causal = false;
  MaskMatrix mask;
};

namespace detail {
template <class T>
Matrix<T> project(const Matrix<T> &x, const char *x_columns, const Matrix<T> &w,
                  const Vector<T> &bias, const char *w_rows, const char *bias_name,
                  Argument argument, Argument bias_argument) {
  Matrix<T> out = matmul(x, w, x_columns, w_rows, argument);
  if (bias.size() != 0) {
    require_finite(bias, bias_argument.name);
    require_equal_length(bias_argument, bias.size(), bias_name, bias, out.shape()[1],
                         "projection width", w);
    out += xt::view(bias, xt::newaxis(), xt::all());
  }
  require_finite_result(out, "a projection", argument);
  return out;
}
} // namespace detail

template <class T>
MultiHeadResult<T> multi_head_attention(const Matrix<T> &x, const MultiHeadParams<T> &p) {
  detail::require_values(x, "X");
  for (auto [w, name] : {std::pair{&p.wq, "Wq"}, {&p.wk, "Wk"}, {&p.wv, "Wv"}, {&p.wo, "Wo"}})
    detail::require_values(*w, name);
  const std::size_t width = p.wq.shape()[1];
  if (p.heads == 0 || width % p.heads != 0)
    detail::fail(detail::Argument("heads"), "heads (", p.heads,
                 ") must be a positive divisor of the projection width (", width, ", from Wq ",
                 detail::shape(p.wq), ")");
  detail::require_equal_length(detail::Argument("Wk"), p.wk.shape()[1], "Wk columns", p.wk, width,
                               "Wq columns", p.wq);
  detail::require_equal_length(detail::Argument("Wv"), p.wv.shape()[1], "Wv columns", p.wv, width,
                               "Wq columns", p.wq);
  detail::require_equal_length(detail::Argument("Wo"), p.wo.shape()[0], "Wo rows", p.wo, width,
                               "Wq columns", p.wq);
  detail::check_mask<T>(p.mask, x.shape()[0], x.shape()[0]);

  detail::require_fits(x.shape()[0], x.shape()[0] * p.heads, "the weights of all heads",
                       detail::Argument("X"));
  const Matrix<T> q = detail::project(x, "X columns", p.wq, p.bq, "Wq rows", "bq length",
                                      detail::Argument("X"), detail::Argument("bq"));
  const Matrix<T> k = detail::project(x, "X columns", p.wk, p.bk, "Wk rows", "bk length",
                                      detail::Argument("X"), detail::Argument("bk"));
  const Matrix<T> v = detail::project(x, "X columns", p.wv, p.bv, "Wv rows", "bv length",
                                      detail::Argument("X"), detail::Argument("bv"));
  const std::size_t head_width = width / p.heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(head_width));

  auto r = detail::attend_heads(q, k, v, p.heads, scale, p.causal, p.mask, true);
  const Matrix<T> concatenated = std::move(r.output);
  r.output = detail::project(concatenated, "heads concatenated", p.wo, p.bo, "Wo rows", "bo length",
                             detail::Argument("Wo"), detail::Argument("bo"));
  return r;
}

} // namespace attention
