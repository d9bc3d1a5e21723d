// Attention over a padded batch of keys: the masked softmax of the scores and the weighted sum of
// the values (the context), as softmax(scores.masked_fill(~mask, -inf)) and torch.bmm.
//
// Keys and values are time-major, key j of item b being row j * batch + b, or batch-major (row
// b * n + j) when the mask says so. Queries come in rows where row r belongs to item r % batch (a
// block of decoder steps of the whole batch).
#pragma once

#include <algorithm>
#include <limits>

#include "attention/detail/kernels.hpp"
#include "attention/softmax.hpp"

namespace attention::nn {

// The keys' padding: key j of item b is real when j < lengths[b]; and their layout.
struct KeyMask {
  std::size_t n, batch;       // the padded length, the items
  const std::size_t *lengths; // batch values, each 1 … n
  bool batch_major = false;
  // Key j of item b's row, and the rows from one key of an item to its next.
  std::size_t row(std::size_t b, std::size_t j) const {
    return batch_major ? b * n + j : j * batch + b;
  }
  std::size_t stride() const { return batch_major ? 1 : batch; }
};

// Scores at masked keys become -inf (as masked_fill), for rows [0, rows) of a block (rows x n).
template <class T> void mask_scores(std::size_t rows, const KeyMask &keys, T *scores) {
  for (std::size_t r = 0; r < rows; ++r)
    std::fill(scores + r * keys.n + keys.lengths[r % keys.batch], scores + (r + 1) * keys.n,
              -std::numeric_limits<T>::infinity());
}

// weights (rows x n): the softmax of each row over its item's real keys, 0 at the masked ones;
// context (rows x width) = Σ_j weight_rj value_j of the row's item.
template <class T>
void attention_forward(std::size_t rows, const KeyMask &keys, std::size_t width, const T *scores,
                       const T *values, T *weights, T *context) {
  const std::size_t n = keys.n, batch = keys.batch;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t length = keys.lengths[r % batch];
    detail::softmax_into(scores + r * n, length, T(1), nullptr, weights + r * n);
    std::fill(weights + r * n + length, weights + (r + 1) * n, T(0));
  }
  // Per item, its rows' contexts are one product of their weights and its values.
  for (std::size_t b = 0; b < batch && b < rows; ++b)
    kernels::gemm_ab((rows - b + batch - 1) / batch, width, keys.lengths[b], weights + b * n,
                     batch * n, values + keys.row(b, 0) * width, keys.stride() * width,
                     context + b * width, batch * width);
}

// From d_context (rows x width): d_scores (rows x n, 0 at masked keys) through the softmax,
// ds_j = α_j (dα_j - Σ_k α_k dα_k) for dα_j = dc · value_j, and d_values += α^T dc per item.
template <class T>
void attention_backward(std::size_t rows, const KeyMask &keys, std::size_t width, const T *weights,
                        const T *values, const T *d_context, T *d_scores, T *d_values) {
  const std::size_t n = keys.n, batch = keys.batch, ld = keys.stride() * width;
  for (std::size_t b = 0; b < batch && b < rows; ++b) {
    const std::size_t item_rows = (rows - b + batch - 1) / batch, length = keys.lengths[b],
                      first = keys.row(b, 0) * width;
    kernels::gemm_abt(item_rows, length, width, d_context + b * width, batch * width,
                      values + first, ld, d_scores + b * n, batch * n);
    kernels::gemm_atb(length, width, item_rows, weights + b * n, batch * n, d_context + b * width,
                      batch * width, d_values + first, ld, true);
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t length = keys.lengths[r % batch];
    const T *alpha = weights + r * n;
    T *d = d_scores + r * n;
    const T weighted = kernels::dot(alpha, d, length);
    for (std::size_t j = 0; j < length; ++j)
      d[j] = alpha[j] * (d[j] - weighted);
    std::fill(d + length, d + n, T(0));
  }
}

} // namespace attention::nn
