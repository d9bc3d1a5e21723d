// Guided alignment (Garg et al. 2019), the loss both translation models may add: a cross-entropy
// that pulls an attention distribution toward a target word's gold links, each of its l links
// weighing q_j = 1/l. The term is the mean over guided rows of -Σ_j q_j log α_j, and its gradient
// at the softmax's inputs λ/guided (α_j - q_j). A row is a target step of a batch item (row
// t * batch + k); where its scores lie is the model's (`stride` apart, from the pointer given:
// the GRU's one distribution per row, or one head of a multi-head attention's several).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention::nn {

// Per target step, the source positions it is guided to (empty: none).
using Links = std::vector<std::vector<std::size_t>>;

template <class T> class GuidedAlignment {
public:
  // The guides of a batch of `guides.size()` items (null or empty for none), over `steps` target
  // steps and `n` keys, with weight λ.
  void set(const std::vector<const Links *> &guides, std::size_t steps, std::size_t n, T weight) {
    batch_ = guides.size();
    n_ = n;
    weight_ = weight;
    guided_ = 0;
    targets_.assign(steps * batch_ * n, T(0));
    guided_rows_.assign(steps * batch_, 0);
    for (std::size_t k = 0; k < batch_; ++k)
      for (std::size_t t = 0; guides[k] && t < guides[k]->size(); ++t) {
        const auto &links = (*guides[k])[t];
        if (links.empty())
          continue;
        const std::size_t row = t * batch_ + k;
        guided_rows_[row] = 1;
        ++guided_;
        for (std::size_t j : links)
          targets_[row * n + j] = T(1) / static_cast<T>(links.size());
      }
  }
  // No guide (a new batch).
  void clear() { guided_ = 0; }
  // Whether the term and its gradient count.
  bool active() const { return guided_ > 0 && weight_ != T(0); }

  // The term without λ (0 when no row is guided). log α_j = e_j - log Σ_k exp e_k over each
  // item's real keys (`lengths`), from the scores rather than the weights, so that a weight
  // rounded to 0 gives a large term, not an infinite one.
  double loss(const T *scores, std::size_t stride, const std::size_t *lengths) const {
    if (!guided_)
      return 0;
    double sum = 0;
    for (std::size_t r = 0; r < guided_rows_.size(); ++r) {
      if (!guided_rows_[r])
        continue;
      const std::size_t length = lengths[r % batch_];
      const T *row = scores + r * stride;
      const T max = *std::max_element(row, row + length);
      double total = 0;
      for (std::size_t j = 0; j < length; ++j)
        total += std::exp(double(row[j] - max));
      const double log_total = double(max) + std::log(total);
      for (std::size_t j = 0; j < length; ++j)
        if (targets_[r * n_ + j] > 0)
          sum -= double(targets_[r * n_ + j]) * (double(row[j]) - log_total);
    }
    return sum / double(guided_);
  }

  // Adds λ/guided (α - q) to the gradient at the softmax's inputs `d` of rows
  // [first, first + rows), laid out as the weights are.
  void add_gradient(const T *weights, std::size_t stride, const std::size_t *lengths,
                    std::size_t first, std::size_t rows, T *d) const {
    if (!active())
      return;
    const T scale = weight_ / static_cast<T>(guided_);
    for (std::size_t r = first; r < first + rows; ++r)
      if (guided_rows_[r])
        for (std::size_t j = 0; j < lengths[r % batch_]; ++j)
          d[r * stride + j] += scale * (weights[r * stride + j] - targets_[r * n_ + j]);
  }

private:
  std::size_t batch_ = 0, n_ = 0, guided_ = 0;
  T weight_ = 0;
  std::vector<T> targets_;                // rows x n: q
  std::vector<std::uint8_t> guided_rows_; // whether a row has links
};

} // namespace attention::nn
