// nn.MultiheadAttention(width, heads, batch_first=True), dropout 0, over a padded batch, as
// F.multi_head_attention_forward computes it: Q = x_q W_q^T + b_q, [K V] = x_k [W_k; W_v]^T +
// [b_k; b_v] (W_q, W_k, W_v the three row blocks of in_proj_weight), per head h (its d_k = width /
// heads columns) the scores S = Q_h K_h^T / sqrt(d_k), masked to -inf, the weights softmax(S) and
// the head's output softmax(S) V_h; the heads' outputs side by side go through out_proj.
//
// Masks: a key-padding mask (item b's keys [0, key_lengths[b]) are real, as key_padding_mask marks
// the rest) and, for a decoder's self-attention, the causal mask (query step t sees key steps
// <= t: PyTorch's additive mask of -inf above the diagonal). Every length is at least 1 and the
// causal mask always allows key 0, so no row is masked whole: no softmax meets only -inf, and
// nothing is NaN where PyTorch's is finite. Padded query rows are computed as PyTorch computes them
// (over their item's real keys); a model leaves them out of its loss, so their gradients are 0.
// The weights of every head are kept (need_weights with average_attn_weights=False), for the
// backward pass and for display.
//
// Time-major, as the GRU's sequences: step t of item b is row t * batch + b, so that a decoder can
// run a block of steps at a time (greedy decoding: one), with the keys of the steps before kept.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention/detail/kernels.hpp"
#include "attention/detail/parallel.hpp"
#include "attention/softmax.hpp"
#include "nn/buffers.hpp"
#include "nn/linear.hpp"

namespace attention::nn {

// In state_dict order: in_proj_weight (xavier_uniform_), in_proj_bias (0), out_proj.weight
// (nn.Linear's default), out_proj.bias (0), as MultiheadAttention._reset_parameters sets them.
inline std::vector<ParameterSpec> multihead_attention_parameters(std::size_t width) {
  return {{"in_proj_weight", {3 * width, width}, xavier_bound(3 * width, width)},
          constant_parameter("in_proj_bias", {3 * width}, 0),
          {"out_proj.weight", {width, width}, uniform_bound(width)},
          constant_parameter("out_proj.bias", {width}, 0)};
}

inline std::size_t multihead_attention_size(std::size_t width) {
  return 4 * width * width + 4 * width;
}

template <class T> class MultiheadAttention {
public:
  MultiheadAttention(std::size_t width, std::size_t heads)
      : width_(width), heads_(heads), head_width_(width / heads),
        scale_(T(1) / std::sqrt(static_cast<T>(width / heads))) {}

  std::size_t heads() const { return heads_; }

  // A batch of `batch` items with up to `queries` query steps and `keys` key steps; item b's real
  // keys are [0, key_lengths[b]) (each 1 … keys; the array must outlive backward).
  void begin(std::size_t batch, std::size_t queries, std::size_t keys,
             const std::size_t *key_lengths, bool causal) {
    batch_ = batch;
    queries_ = queries;
    keys_ = keys;
    key_lengths_ = key_lengths;
    causal_ = causal;
    grow(queries * batch * width_, {&q_, &context_});
    grow(keys * batch * 2 * width_, {&kv_});
    grow(queries * batch * heads_ * keys, {&scores_, &weights_});
  }

  // K and V of key steps [k0, k1) from their inputs x (those steps' rows, width wide); `p` points
  // at the parameters, laid out as multihead_attention_parameters.
  void project_keys(const T *p, std::size_t k0, std::size_t k1, const T *x) {
    const std::size_t w = width_;
    linear_forward((k1 - k0) * batch_, w, 2 * w, x, w, p + w * w, w, p + 3 * w * w + w,
                   kv_.data() + k0 * batch_ * 2 * w, 2 * w);
  }

  // Query steps [q0, q1) from their inputs x (those steps' rows): `out` (the same rows) is the
  // attention's output. Reads the keys projected so far: with the causal mask, those of steps
  // [0, q1); without, all `keys` steps.
  void forward(const T *p, std::size_t q0, std::size_t q1, const T *x, T *out) {
    const std::size_t w = width_, rows = (q1 - q0) * batch_, first = q0 * batch_;
    linear_forward(rows, w, w, x, w, p, w, p + 3 * w * w, q_.data() + first * w, w);
    const auto attend = [&](std::size_t b, std::size_t h) {
      const std::size_t used = used_keys(b, q1);
      T *scores = scores_.data() + score_offset(q0, b, h),
        *weights = weights_.data() + score_offset(q0, b, h);
      kernels::gemm_abt(q1 - q0, used, head_width_, q_.data() + (first + b) * w + h * head_width_,
                        batch_ * w, key_block(kv_.data(), b, h), batch_ * 2 * w, scores,
                        score_stride());
      for (std::size_t t = q0; t < q1; ++t) {
        const std::size_t at = (t - q0) * score_stride(), allowed = allowed_keys(b, t);
        for (std::size_t j = 0; j < allowed; ++j)
          scores[at + j] *= scale_;
        std::fill(scores + at + allowed, scores + at + keys_, -std::numeric_limits<T>::infinity());
        detail::softmax_into(scores + at, allowed, T(1), nullptr, weights + at);
        std::fill(weights + at + allowed, weights + at + keys_, T(0));
      }
      kernels::gemm_ab(q1 - q0, head_width_, used, weights, score_stride(),
                       value_block(kv_.data(), b, h), batch_ * 2 * w,
                       context_.data() + (first + b) * w + h * head_width_, batch_ * w);
    };
    for_heads(q1 - q0, attend);
    linear_forward(rows, w, w, context_.data() + first * w, w, p + 3 * w * w + 3 * w, w,
                   p + 4 * w * w + 3 * w, out, w);
  }

  // Back through every query step, after forward ran them all: from d_out (queries x batch rows),
  // adds the parameters' gradients at `grad` (laid out as p), writes the gradient at the queries'
  // inputs into d_query, then adds the one at the keys' inputs to d_keys (the same buffer for
  // self-attention, whose input is both). x_query and x_keys are the inputs forward and
  // project_keys read. d_scores, when given, is a gradient at the softmax's inputs (laid out as
  // scores()) from another term of the loss, as guided alignment's.
  void backward(const T *p, T *grad, const T *x_query, const T *x_keys, const T *d_out,
                const T *d_scores, T *d_query, T *d_keys) {
    const std::size_t w = width_, query_rows = queries_ * batch_, key_rows = keys_ * batch_;
    grow(query_rows * w, {&d_q_, &d_context_});
    grow(query_rows * heads_ * keys_, {&d_weights_});
    d_kv_.assign(key_rows * 2 * w, T(0)); // keys past an item's length get none
    linear_backward(query_rows, w, w, context_.data(), w, p + 3 * w * w + 3 * w, w, d_out, w,
                    grad + 3 * w * w + 3 * w, grad + 4 * w * w + 3 * w, d_context_.data(), w);
    const auto back = [&](std::size_t b, std::size_t h) {
      const std::size_t used = used_keys(b, queries_);
      const T *weights = weights_.data() + score_offset(0, b, h);
      T *d_weights = d_weights_.data() + score_offset(0, b, h);
      const T *d_context = d_context_.data() + b * w + h * head_width_;
      kernels::gemm_abt(queries_, used, head_width_, d_context, batch_ * w,
                        value_block(kv_.data(), b, h), batch_ * 2 * w, d_weights, score_stride());
      kernels::gemm_atb(used, head_width_, queries_, weights, score_stride(), d_context, batch_ * w,
                        value_block(d_kv_.data(), b, h), batch_ * 2 * w);
      // Through the softmax, ds_j = α_j (dα_j - Σ_k α_k dα_k), then the scaling by 1/sqrt(d_k).
      for (std::size_t t = 0; t < queries_; ++t) {
        const std::size_t at = t * score_stride(), allowed = allowed_keys(b, t);
        const T *alpha = weights + at;
        T *d = d_weights + at;
        const T weighted = kernels::dot(alpha, d, allowed);
        const T *extra = d_scores ? d_scores + score_offset(0, b, h) + at : nullptr;
        for (std::size_t j = 0; j < allowed; ++j)
          d[j] = (alpha[j] * (d[j] - weighted) + (extra ? extra[j] : T(0))) * scale_;
        std::fill(d + allowed, d + used, T(0));
      }
      const T *queries = q_.data() + b * w + h * head_width_;
      kernels::gemm_ab(queries_, head_width_, used, d_weights, score_stride(),
                       key_block(kv_.data(), b, h), batch_ * 2 * w,
                       d_q_.data() + b * w + h * head_width_, batch_ * w);
      kernels::gemm_atb(used, head_width_, queries_, d_weights, score_stride(), queries, batch_ * w,
                        key_block(d_kv_.data(), b, h), batch_ * 2 * w);
    };
    for_heads(queries_, back);
    linear_backward(query_rows, w, w, x_query, w, p, w, d_q_.data(), w, grad, grad + 3 * w * w,
                    d_query, w);
    linear_backward(key_rows, w, 2 * w, x_keys, w, p + w * w, w, d_kv_.data(), 2 * w, grad + w * w,
                    grad + 3 * w * w + w, d_keys, w, true);
  }

  // Row (t * batch + b) * heads + h: query step t of item b against the `keys` key steps in head
  // h, the scaled scores (-inf where masked) and the weights (0 where masked).
  const T *scores() const { return scores_.data(); }
  const T *weights() const { return weights_.data(); }
  std::size_t keys() const { return keys_; }

private:
  // Runs head(b, h) for every item b and head h, on several threads for a large batch: each
  // writes only its own item's and head's blocks. `queries` steps each (scores, the softmax and
  // two products).
  template <class Head> void for_heads(std::size_t queries, const Head &head) const {
    const std::size_t pairs = batch_ * heads_;
    const double flops = double(pairs) * double(queries) * double(keys_) * (4.0 * head_width_ + 30);
    parallel::for_ranges(pairs, 1, flops, [&](std::size_t begin, std::size_t end) {
      for (std::size_t pair = begin; pair < end; ++pair)
        head(pair / heads_, pair % heads_);
    });
  }

  // The keys query step t of item b sees, and those a block of steps up to q1 sees.
  std::size_t allowed_keys(std::size_t b, std::size_t t) const {
    return causal_ ? std::min(key_lengths_[b], t + 1) : key_lengths_[b];
  }
  std::size_t used_keys(std::size_t b, std::size_t q1) const {
    return causal_ ? std::min(key_lengths_[b], q1) : key_lengths_[b];
  }
  std::size_t score_stride() const { return batch_ * heads_ * keys_; }
  // Where query step t of item b in head h starts in a buffer laid out as scores().
  std::size_t score_offset(std::size_t t, std::size_t b, std::size_t h) const {
    return ((t * batch_ + b) * heads_ + h) * keys_;
  }
  template <class Pointer> Pointer key_block(Pointer kv, std::size_t b, std::size_t h) const {
    return kv + b * 2 * width_ + h * head_width_;
  }
  template <class Pointer> Pointer value_block(Pointer kv, std::size_t b, std::size_t h) const {
    return kv + b * 2 * width_ + width_ + h * head_width_;
  }

  std::size_t width_, heads_, head_width_;
  T scale_;
  std::size_t batch_ = 0, queries_ = 0, keys_ = 0;
  const std::size_t *key_lengths_ = nullptr;
  bool causal_ = false;
  // queries x batch x width: Q and the heads' outputs side by side; keys x batch x 2 width: [K V]
  std::vector<T> q_, context_, kv_;
  std::vector<T> scores_, weights_; // queries x batch x heads x keys
  std::vector<T> d_q_, d_context_, d_kv_, d_weights_;
};

} // namespace attention::nn
