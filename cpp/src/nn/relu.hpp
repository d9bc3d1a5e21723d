// nn.ReLU, in place: y = max(x, 0); its gradient passes where y > 0 (PyTorch's: 0 at x = 0).
#pragma once

#include <cstddef>

namespace attention::nn {

template <class T> void relu_forward(T *x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    x[i] = x[i] > T(0) ? x[i] : T(0);
}

// dy becomes dx, from the outputs y.
template <class T> void relu_backward(const T *y, T *dy, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    dy[i] = y[i] > T(0) ? dy[i] : T(0);
}

} // namespace attention::nn
