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

#include "linalg.hpp"
#include "softmax.hpp"

namespace attention {

// Row j of the annotations scaled by weight j (Attention Basics, apply_attention_scores).
template <class T> Matrix<T> apply_weights(const Vector<T> &weights, const Matrix<T> &annotations) {
  detail::require_values(weights, "weights");
  detail::require_values(annotations, "annotations");
  detail::require_equal_length(weights.size(), "weights length", weights, annotations.shape()[0],
                               "annotations rows", annotations);
  Matrix<T> weighted = annotations * xt::view(weights, xt::all(), xt::newaxis());
  detail::require_finite_result(weighted, "weighted annotations");
  return weighted;
}

// The sum of the weighted annotations (Attention Basics, calculate_attention_vector).
template <class T> Vector<T> context_vector(const Matrix<T> &weighted) {
  detail::require_values(weighted, "weighted");
  Vector<T> context = xt::sum(weighted, {0});
  detail::require_finite_result(context, "context vector");
  return context;
}

// Luong's attentional hidden state tanh(W_c [c; s]), W_c of shape (d_out x (|c| + |s|)).
template <class T>
Vector<T> attentional_hidden_state(const Vector<T> &context, const Vector<T> &state,
                                   const Matrix<T> &wc) {
  detail::require_values(context, "context");
  detail::require_values(state, "state");
  detail::require_values(wc, "Wc");
  Vector<T> attentional = xt::tanh(matvec(wc, concatenate(context, state), "Wc", "[c; s]"));
  detail::require_finite_result(attentional, "attentional hidden state");
  return attentional;
}

using MaskMatrix = xt::xtensor<std::uint8_t, 2>;

template <class T> struct AttentionOptions {
  std::optional<T> scale; // default 1 / sqrt(d_k)
  bool causal = false;    // query i sees keys 0..i only
  MaskMatrix mask;        // empty, 1 x N_k (key padding) or N_q x N_k; 1 keeps, 0 masks
  bool weights = true;    // false: the fused path, which never forms the N_q x N_k weights
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
    fail("mask ", shape_of(mask), " must be 1x", keys, " (one entry per key) or ", queries, "x",
         keys, " (queries x keys)");
}

// softmax(scale * Q K^T, masked) V, for already validated inputs.
template <class T>
AttentionResult<T> attend(const Matrix<T> &q, const Matrix<T> &k, const Matrix<T> &v, T scale,
                          bool causal, const MaskMatrix &mask) {
  const std::size_t nq = q.shape()[0], nk = k.shape()[0];
  require_fits(nq, nk, "the attention weights (queries x keys)");
  Matrix<T> weights = matmul_transposed(q, k, "Q columns", "K columns");
  if (!std::isfinite(scale * kernels::max_magnitude(weights.data(), weights.size())))
    require_finite_result(Matrix<T>(scale * weights), "the scaled scores Q K^T");
  std::vector<std::uint8_t> keep(nk, 1);
  for (std::size_t i = 0; i < nq; ++i) {
    T *row = weights.data() + i * nk;
    for (std::size_t j = 0; j < nk; ++j) {
      const std::uint8_t from_mask =
          mask.size() == 0 ? 1 : mask.data()[(mask.shape()[0] == 1 ? 0 : i) * nk + j];
      keep[j] = from_mask && !(causal && j > i);
    }
    softmax_into(row, nk, scale, keep.data(), row);
  }
  // Weights sum to 1, but rounding can still carry values near the type's maximum past it.
  Matrix<T> output = matmul(weights, v, "weights columns", "V rows");
  require_finite_result(output, "the attention output (weights V)");
  return {std::move(output), std::move(weights)};
}

// softmax(scale * Q K^T) V in tiles of keys with an online softmax (a running maximum and sum per
// query, as in FlashAttention): memory grows as O(N d), never O(N^2). Same results as attend().
template <class T>
Matrix<T> attend_fused(const Matrix<T> &q, const Matrix<T> &k, const Matrix<T> &v, T scale,
                       bool causal, const MaskMatrix &mask) {
  constexpr std::size_t query_tile = 256, key_tile = 128;
  constexpr T none = -std::numeric_limits<T>::infinity();
  const std::size_t nq = q.shape()[0], nk = k.shape()[0], d = q.shape()[1], dv = v.shape()[1];
  require_fits(nq, dv, "the attention output");
  Matrix<T> out = xt::zeros<T>({nq, dv});
  std::vector<T> running_max(nq, none), running_sum(nq, T(0));
  std::vector<T> tile(query_tile * key_tile);
  for (std::size_t q0 = 0; q0 < nq; q0 += query_tile) {
    const std::size_t rows = std::min(query_tile, nq - q0);
    // causal: no query of this tile sees a key beyond the tile's last query
    const std::size_t key_end = causal ? std::min(nk, q0 + rows) : nk;
    for (std::size_t k0 = 0; k0 < key_end; k0 += key_tile) {
      const std::size_t cols = std::min(key_tile, key_end - k0);
      kernels::gemm<T>(rows, cols, d, {q.data() + q0 * d, d}, {k.data() + k0 * d, d, true},
                       tile.data(), cols);
      for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t i = q0 + r;
        T *s = tile.data() + r * cols;
        for (std::size_t c = 0; c < cols; ++c)
          s[c] *= scale;
        if (!std::isfinite(kernels::max_magnitude(s, cols)))
          require_finite_result(Vector<T>(xt::adapt(s, cols, xt::no_ownership(), std::array{cols})),
                                "the scaled scores Q K^T");
        if (causal || mask.size() != 0)
          for (std::size_t c = 0; c < cols; ++c) {
            const std::size_t j = k0 + c;
            const bool keep =
                !(causal && j > i) &&
                (mask.size() == 0 || mask.data()[(mask.shape()[0] == 1 ? 0 : i) * nk + j]);
            if (!keep)
              s[c] = none;
          }
        const T tile_max = kernels::max_of(s, cols);
        const T new_max = std::max(running_max[i], tile_max);
        if (new_max == none) { // nothing kept in this row yet: add nothing
          std::fill(s, s + cols, T(0));
          continue;
        }
        const T rescale = std::exp(running_max[i] - new_max); // 0 while the row was empty
        const T sum = kernels::exp_in_place(s, cols, new_max);
        running_sum[i] = running_sum[i] * rescale + sum;
        running_max[i] = new_max;
        if (rescale != T(1))
          for (std::size_t x = 0; x < dv; ++x)
            out(i, x) *= rescale;
      }
      kernels::gemm<T>(rows, dv, cols, {tile.data(), cols}, {v.data() + k0 * dv, dv},
                       out.data() + q0 * dv, dv, true);
    }
  }
  for (std::size_t i = 0; i < nq; ++i)
    for (std::size_t x = 0; x < dv; ++x)
      out(i, x) = running_sum[i] > 0 ? out(i, x) / running_sum[i] : T(0);
  require_finite_result(out, "the attention output (weights V)");
  return out;
}

template <class T> T checked_scale(const std::optional<T> &scale, std::size_t key_width) {
  if (!scale)
    return T(1) / std::sqrt(static_cast<T>(key_width));
  require_finite_scalar(*scale, "scale");
  return *scale;
}

} // namespace detail

// softmax(scale * Q K^T) V with optional causal and explicit masks.
template <class T>
AttentionResult<T> attention(const Matrix<T> &q, const Matrix<T> &k, const Matrix<T> &v,
                             const AttentionOptions<T> &options = {}) {
  detail::require_values(q, "Q");
  detail::require_values(k, "K");
  detail::require_values(v, "V");
  detail::require_equal_length(q.shape()[1], "Q columns", q, k.shape()[1], "K columns", k);
  detail::require_equal_length(k.shape()[0], "K rows", k, v.shape()[0], "V rows", v);
  detail::check_mask<T>(options.mask, q.shape()[0], k.shape()[0]);
  const T scale = detail::checked_scale(options.scale, k.shape()[1]);
  if (!options.weights)
    return {detail::attend_fused(q, k, v, scale, options.causal, options.mask), {}};
  return detail::attend(q, k, v, scale, options.causal, options.mask);
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
  detail::require_equal_length(wq.shape()[1], "Wq columns", wq, wk.shape()[1], "Wk columns", wk);
  SelfAttentionResult<T> r;
  r.queries = matmul(x, wq, "X columns", "Wq rows");
  r.keys = matmul(x, wk, "X columns", "Wk rows");
  r.values = matmul(x, wv, "X columns", "Wv rows");
  detail::require_finite_result(r.queries, "queries X Wq");
  detail::require_finite_result(r.keys, "keys X Wk");
  detail::require_finite_result(r.values, "values X Wv");
  detail::check_mask<T>(options.mask, x.shape()[0], x.shape()[0]);
  detail::require_fits(x.shape()[0], x.shape()[0], "the scores (words x words)");
  r.scores = matmul_transposed(r.queries, r.keys, "Q columns", "K columns");
  auto attended = detail::attend(r.queries, r.keys, r.values,
                                 detail::checked_scale(options.scale, wk.shape()[1]),
                                 options.causal, options.mask);
  r.weights = std::move(attended.weights);
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

template <class T> struct MultiHeadResult {
  Matrix<T> output;               // N x E_out
  std::vector<Matrix<T>> weights; // one N x N matrix per head
};

namespace detail {
template <class T>
Matrix<T> project(const Matrix<T> &x, const char *x_columns, const Matrix<T> &w,
                  const Vector<T> &bias, const char *w_rows, const char *bias_name) {
  Matrix<T> out = matmul(x, w, x_columns, w_rows);
  if (bias.size() != 0) {
    require_finite(bias, bias_name);
    require_equal_length(bias.size(), bias_name, bias, out.shape()[1], "projection width", w);
    out += xt::view(bias, xt::newaxis(), xt::all());
  }
  require_finite_result(out, "a projection");
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
    detail::fail("heads (", p.heads, ") must be a positive divisor of the projection width (",
                 width, ", from Wq ", shape_of(p.wq), ")");
  detail::require_equal_length(p.wk.shape()[1], "Wk columns", p.wk, width, "Wq columns", p.wq);
  detail::require_equal_length(p.wv.shape()[1], "Wv columns", p.wv, width, "Wq columns", p.wq);
  detail::require_equal_length(p.wo.shape()[0], "Wo rows", p.wo, width, "Wq columns", p.wq);
  detail::check_mask<T>(p.mask, x.shape()[0], x.shape()[0]);

  detail::require_fits(x.shape()[0], x.shape()[0] * p.heads, "the weights of all heads");
  const Matrix<T> q = detail::project(x, "X columns", p.wq, p.bq, "Wq rows", "bq length");
  const Matrix<T> k = detail::project(x, "X columns", p.wk, p.bk, "Wk rows", "bk length");
  const Matrix<T> v = detail::project(x, "X columns", p.wv, p.bv, "Wv rows", "bv length");
  const std::size_t head_width = width / p.heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(head_width));

  MultiHeadResult<T> r;
  auto concatenated = Matrix<T>::from_shape({x.shape()[0], width});
  for (std::size_t h = 0; h < p.heads; ++h) {
    auto columns = xt::range(h * head_width, (h + 1) * head_width);
    auto attended =
        detail::attend<T>(xt::view(q, xt::all(), columns), xt::view(k, xt::all(), columns),
                          xt::view(v, xt::all(), columns), scale, p.causal, p.mask);
    xt::view(concatenated, xt::all(), columns) = attended.output;
    r.weights.push_back(std::move(attended.weights));
  }
  r.output =
      detail::project(concatenated, "heads concatenated", p.wo, p.bo, "Wo rows", "bo length");
  return r;
}

} // namespace attention
