// The core of the additive and concat scoring functions: e_rj = va · tanh(q'_r + k'_j) (+ va's
// bias), with q' and k' linear projections of the query and the key to the same width. additive.cpp
// and concat.cpp say where the projections' weights sit.
#pragma once

#include <vector>

#include "attention/detail/parallel.hpp"
#include "nn/buffers.hpp"
#include "nn/linear.hpp"
#include "nn/scoring.hpp"

namespace attention::nn {

// tanh and the dot product cost about this many floating-point operations a value, for
// parallel::for_ranges.
constexpr double tanh_flops = 20;

template <class T> class TanhScoring : public ScoringFunction<T> {
protected:
  // Offsets in the block, and row strides: q' = q Wq^T (+ bq), k' = k Wk^T (+ bk), va, its bias.
  struct Layout {
    std::size_t query_weight, query_ld, key_weight, key_ld, va;
    bool biases; // additive's bq, bk and va's bias; concat has none
    std::size_t query_bias = 0, key_bias = 0, va_bias = 0;
  };
  // Queries `query` wide and keys `key` wide, both projected to `width`.
  TanhScoring(std::size_t query, std::size_t key, std::size_t width, Layout layout)
      : query_width_(query), key_width_(key), width_(width), at_(layout) {}

public:
  void begin(const T *weights, const T *keys, const KeyMask &mask, std::size_t rows) override {
    keys_ = keys;
    mask_ = mask;
    rows_ = rows;
    const std::size_t key_rows = mask.n * mask.batch;
    grow(rows * query_width_, {&queries_});
    grow(rows * width_, {&projected_queries_, &d_projected_queries_});
    grow(rows * mask.n * width_, {&activations_});
    grow(key_rows * width_, {&projected_keys_});
    d_projected_keys_.assign(key_rows * width_, T(0));
    linear_forward(key_rows, key_width_, width_, keys, key_width_, weights + at_.key_weight,
                   at_.key_ld, bias(weights, at_.key_bias), projected_keys_.data(), width_);
    // Wq^T for the queries, which may come a step at a time; Wq for their gradients at the first
    // backward
    query_t_.pack_transposed(width_, query_width_, weights + at_.query_weight, at_.query_ld);
    packed_query_ = false;
  }

  void forward(const T *weights, std::size_t first, std::size_t rows, const T *queries,
               T *scores) override {
    const std::size_t n = mask_.n;
    std::copy(queries, queries + rows * query_width_, queries_.data() + first * query_width_);
    T *q = projected_queries_.data() + first * width_;
    linear_forward(rows, queries, query_width_, query_t_, bias(weights, at_.query_bias), q, width_);
    const T *va = weights + at_.va, va_bias = at_.biases ? weights[at_.va_bias] : T(0);
    // Each row's scores and activations are its own: rows may run on several threads.
    const auto score_rows = [&](std::size_t begin, std::size_t end) {
      for (std::size_t r = begin; r < end; ++r) {
        const std::size_t b = r % mask_.batch, length = mask_.lengths[b];
        for (std::size_t j = 0; j < length; ++j) {
          T *a = activations_.data() + ((first + r) * n + j) * width_;
          const T *key = projected_keys_.data() + mask_.row(b, j) * width_;
          scores[r * n + j] = va_bias + kernels::tanh_sum_dot(q + r * width_, key, va, a, width_);
        }
      }
    };
    parallel::for_ranges(rows, 1, tanh_flops * double(rows * n * width_), score_rows);
    mask_scores(rows, mask_, scores);
  }

  // Through the kept tanh activations a: d(pre-activation) = ds va ⊙ (1 - a²) goes to q' and k'.
  // va's bias shifts every score of a row alike, which the softmax cancels: its gradient is exactly
  // 0, left as it is rather than summed from rounding noise.
  void backward(const T *weights, std::size_t first, std::size_t rows, const T *d_scores,
                T *d_queries, T *gradients) override {
    const std::size_t n = mask_.n;
    const T *va = weights + at_.va;
    T *d_va = gradients + at_.va, *d_q = d_projected_queries_.data() + first * width_;
    std::fill(d_q, d_q + rows * width_, T(0));
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t b = r % mask_.batch, length = mask_.lengths[b];
      for (std::size_t j = 0; j < length; ++j) {
        const T d_score = d_scores[r * n + j];
        const T *a = activations_.data() + ((first + r) * n + j) * width_;
        T *d_key = d_projected_keys_.data() + mask_.row(b, j) * width_;
        for (std::size_t i = 0; i < width_; ++i) {
          d_va[i] += d_score * a[i];
          const T d_pre = d_score * va[i] * (T(1) - a[i] * a[i]);
          d_q[r * width_ + i] += d_pre;
          d_key[i] += d_pre;
        }
      }
    }
    if (!packed_query_)
      query_.pack(query_width_, width_, weights + at_.query_weight, at_.query_ld);
    packed_query_ = true;
    kernels::gemm_packed(rows, d_q, width_, query_, d_queries, query_width_);
  }

  // The projections' weight gradients over every row at once.
  void end_backward(const T *weights, T *d_keys, T *gradients) override {
    kernels::gemm_atb(width_, query_width_, rows_, d_projected_queries_.data(), width_,
                      queries_.data(), query_width_, gradients + at_.query_weight, at_.query_ld,
                      true);
    if (at_.biases)
      add_column_sums(rows_, width_, d_projected_queries_.data(), width_,
                      gradients + at_.query_bias);
    linear_backward(mask_.n * mask_.batch, key_width_, width_, keys_, key_width_,
                    weights + at_.key_weight, at_.key_ld, d_projected_keys_.data(), width_,
                    gradients + at_.key_weight, at_.biases ? gradients + at_.key_bias : nullptr,
                    d_keys, key_width_, true);
  }

private:
  const T *bias(const T *weights, std::size_t offset) const {
    return at_.biases ? weights + offset : nullptr;
  }

  std::size_t query_width_, key_width_, width_; // the queries' width, the keys', the projections'
  Layout at_;
  const T *keys_ = nullptr;
  KeyMask mask_{};
  std::size_t rows_ = 0;
  // queries (rows x Q), q' and its gradient (rows x A), the activations (rows x n x A), k' and its
  // gradient
  std::vector<T> queries_, projected_queries_, d_projected_queries_, activations_, projected_keys_,
      d_projected_keys_;
  kernels::PackedB<T> query_t_, query_; // Wq^T and Wq, packed
  bool packed_query_ = false;
};

} // namespace attention::nn
