// Luong's dot and general scoring: e(s, h_j) = s · h_j (dot, no parameters) or s · Wa h_j (general,
// Wa an nn.Linear without bias, Wa h_j computed once per batch of keys). One class: both are
// e_rj = q_r · k'_j, for keys k' = k or k Wa^T, and per item its query rows against its keys are
// one product.
#include <vector>

#include "nn/buffers.hpp"
#include "nn/linear.hpp"
#include "nn/scoring/kinds.hpp"

namespace attention::nn {

namespace {

template <class T> class DotProductScoring final : public ScoringFunction<T> {
public:
  // projected: keys go through Wa (H x H, the block's only tensor) first (general).
  DotProductScoring(std::size_t hidden, bool projected) : h_(hidden), projected_(projected) {}

  std::vector<ParameterSpec> parameters() const override {
    if (!projected_)
      return {};
    return prefixed("Wa", linear_parameters(h_, h_, false));
  }

  void begin(const T *weights, const T *keys, const KeyMask &mask, std::size_t rows) override {
    keys_ = keys;
    mask_ = mask;
    const std::size_t key_rows = mask.n * mask.batch;
    grow(rows * h_, {&queries_});
    d_projected_keys_.assign(key_rows * h_, T(0));
    if (projected_) {
      grow(key_rows * h_, {&projected_keys_});
      linear_forward(key_rows, h_, h_, keys, h_, weights, h_, static_cast<const T *>(nullptr),
                     projected_keys_.data(), h_);
    }
  }

  void forward(const T *, std::size_t first, std::size_t rows, const T *queries,
               T *scores) override {
    std::copy(queries, queries + rows * h_, queries_.data() + first * h_);
    const std::size_t n = mask_.n, batch = mask_.batch;
    for (std::size_t b = 0; b < batch && b < rows; ++b)
      kernels::gemm_abt(item_rows(rows, b), mask_.lengths[b], h_, queries + b * h_, batch * h_,
                        keys() + mask_.row(b, 0) * h_, key_ld(), scores + b * n, batch * n);
    mask_scores(rows, mask_, scores);
  }

  // dq = dS K' and dK' += dS^T Q, per item.
  void backward(const T *, std::size_t first, std::size_t rows, const T *d_scores, T *d_queries,
                T *) override {
    const std::size_t n = mask_.n, batch = mask_.batch;
    const T *queries = queries_.data() + first * h_;
    for (std::size_t b = 0; b < batch && b < rows; ++b) {
      const std::size_t item = item_rows(rows, b), length = mask_.lengths[b];
      kernels::gemm_ab(item, h_, length, d_scores + b * n, batch * n, keys() + mask_.row(b, 0) * h_,
                       key_ld(), d_queries + b * h_, batch * h_);
      kernels::gemm_atb(length, h_, item, d_scores + b * n, batch * n, queries + b * h_, batch * h_,
                        d_projected_keys_.data() + mask_.row(b, 0) * h_, key_ld(), true);
    }
  }

  void end_backward(const T *weights, T *d_keys, T *gradients) override {
    const std::size_t key_rows = mask_.n * mask_.batch;
    if (projected_) {
      linear_backward(key_rows, h_, h_, keys_, h_, weights, h_, d_projected_keys_.data(), h_,
                      gradients, static_cast<T *>(nullptr), d_keys, h_, true);
      return;
    }
    for (std::size_t i = 0; i < key_rows * h_; ++i)
      d_keys[i] += d_projected_keys_[i];
  }

private:
  const T *keys() const { return projected_ ? projected_keys_.data() : keys_; }
  std::size_t key_ld() const { return mask_.stride() * h_; }
  // Rows b, b + batch, … of a block of `rows`.
  std::size_t item_rows(std::size_t rows, std::size_t b) const {
    return (rows - b + mask_.batch - 1) / mask_.batch;
  }

  std::size_t h_;
  bool projected_;
  const T *keys_ = nullptr;
  KeyMask mask_{};
  std::vector<T> queries_, projected_keys_, d_projected_keys_;
};

} // namespace

template <class T> std::unique_ptr<ScoringFunction<T>> make_dot(std::size_t hidden) {
  return std::make_unique<DotProductScoring<T>>(hidden, false);
}
template <class T> std::unique_ptr<ScoringFunction<T>> make_general(std::size_t hidden) {
  return std::make_unique<DotProductScoring<T>>(hidden, true);
}
template std::unique_ptr<ScoringFunction<float>> make_dot(std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_dot(std::size_t);
template std::unique_ptr<ScoringFunction<float>> make_general(std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_general(std::size_t);

} // namespace attention::nn
