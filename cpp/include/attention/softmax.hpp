// Softmax and log-softmax that never overflow: the largest kept score is subtracted first, so
// exp() only ever sees values <= 0.
//
// Masks hold 1 for a position that takes part and 0 for one that is masked out. A masked position
// gets weight 0 (log-weight -inf). A row whose every position is masked gets all-zero weights
// (all -inf log-weights) rather than NaN: nothing is attended, so the attention output is zero.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "detail/kernels.hpp"
#include "errors.hpp"

namespace attention {

using Mask = xt::xtensor<std::uint8_t, 1>;

namespace detail {

// Writes log-softmax(scale * x) over n values into out.
template <class T>
void log_softmax_into(const T *x, std::size_t n, T scale, const std::uint8_t *keep, T *out) {
  T max = -std::numeric_limits<T>::infinity();
  for (std::size_t j = 0; j < n; ++j)
    if (!keep || keep[j])
      max = std::max(max, scale * x[j]);
  if (max == -std::numeric_limits<T>::infinity()) {
    std::fill(out, out + n, -std::numeric_limits<T>::infinity());
    return;
  }
  T sum = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (!keep || keep[j])
      sum += std::exp(scale * x[j] - max);
  // (x - max) - log(sum), not x - (max + log(sum)): the large max would swallow digits of the sum.
  const T log_sum = std::log(sum);
  for (std::size_t j = 0; j < n; ++j)
    out[j] =
        (!keep || keep[j]) ? (scale * x[j] - max) - log_sum : -std::numeric_limits<T>::infinity();
}

// Writes softmax(scale * x) over the positions `keep` marks (all when null) into out, which may be
// x. False, with out holding scale * x, when a scaled value is not finite (the caller says which).
template <class T>
bool softmax_into(const T *x, std::size_t n, T scale, const std::uint8_t *keep, T *out) {
  constexpr T none = -std::numeric_limits<T>::infinity();
  T max = kernels::scale_into(x, n, scale, out);
  if (!std::isfinite(max))
    return false;
  if (keep) {
    for (std::size_t j = 0; j < n; ++j)
      if (!keep[j])
        out[j] = none;
    max = kernels::max_of(out, n);
    if (max == none) {
      std::fill(out, out + n, T(0));
      return true;
    }
  }
  const T inverse = T(1) / kernels::exp_in_place(out, n, max);
  for (std::size_t j = 0; j < n; ++j)
    out[j] *= inverse;
  return true;
}

template <class T>
const std::uint8_t *checked_mask(const Vector<T> &x, const Mask &mask, const char *x_name) {
  if (mask.size() == 0)
    return nullptr;
  require_equal_length(Argument("mask"), mask.size(), "mask length", mask, x.size(), x_name, x);
  return mask.data();
}

template <class T> void check_softmax_input(const Vector<T> &x, T scale) {
  require_values(x, "x");
  require_finite_scalar(scale, "scale");
  // A score finite on its own can still overflow once scaled, which would turn the max-shift
  // into inf - inf.
  for (std::size_t j = 0; j < x.size(); ++j)
    if (!std::isfinite(scale * x(j)))
      fail(Argument("scale"), "scale * x overflows at index ", j, " (scale ", scale, ", x ", x(j),
           ")");
}

} // namespace detail

// exp(scale * x_j) / sum_k exp(scale * x_k), over the positions the mask keeps.
template <class T> Vector<T> softmax(const Vector<T> &x, T scale = T(1), const Mask &mask = {}) {
  detail::check_softmax_input(x, scale);
  auto out = Vector<T>::from_shape({x.size()});
  detail::softmax_into(x.data(), x.size(), scale, detail::checked_mask(x, mask, "x length"),
                       out.data());
  return out;
}

// log of softmax(x), computed without forming the weights: exact even where a weight is too small
// for T (the Attention Basics weight 5.7661442e-340 has log -781.127..., which a double holds).
template <class T>
Vector<T> log_softmax(const Vector<T> &x, T scale = T(1), const Mask &mask = {}) {
  detail::check_softmax_input(x, scale);
  auto out = Vector<T>::from_shape({x.size()});
  detail::log_softmax_into(x.data(), x.size(), scale, detail::checked_mask(x, mask, "x length"),
                           out.data());
  return out;
}

} // namespace attention
