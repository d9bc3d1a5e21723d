// The matrix products the core needs, over the containers' contiguous row-major data: xtensor
// 0.24 has no BLAS-free dot, so the products run on the packed SIMD kernels of kernels.hpp.
#pragma once

#include <cstddef>

#include "errors.hpp"
#include "kernels.hpp"

namespace attention {

// A (m x k) times B (k x n).
template <class T>
Matrix<T> matmul(const Matrix<T> &a, const Matrix<T> &b, const char *a_name = "A",
                 const char *b_name = "B") {
  const std::size_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  detail::require_equal_length(k, a_name, a, b.shape()[0], b_name, b);
  auto out = Matrix<T>::from_shape({m, n});
  kernels::gemm<T>(m, n, k, {a.data(), k}, {b.data(), n}, out.data(), n);
  return out;
}

// A (m x k) times the transpose of B (n x k): the score matrix Q K^T without forming K^T.
template <class T>
Matrix<T> matmul_transposed(const Matrix<T> &a, const Matrix<T> &b, const char *a_name = "A",
                            const char *b_name = "B") {
  const std::size_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[0];
  detail::require_equal_length(k, a_name, a, b.shape()[1], b_name, b);
  auto out = Matrix<T>::from_shape({m, n});
  kernels::gemm<T>(m, n, k, {a.data(), k}, {b.data(), k, true}, out.data(), n);
  return out;
}

// W (m x n) times the column vector x (n).
template <class T>
Vector<T> matvec(const Matrix<T> &w, const Vector<T> &x, const char *w_name = "W",
                 const char *x_name = "x") {
  const std::size_t m = w.shape()[0], n = w.shape()[1];
  detail::require_equal_length(n, w_name, w, x.size(), x_name, x);
  auto out = Vector<T>::from_shape({m});
  for (std::size_t i = 0; i < m; ++i) {
    T sum = 0;
    for (std::size_t j = 0; j < n; ++j)
      sum += w.data()[i * n + j] * x.data()[j];
    out(i) = sum;
  }
  return out;
}

// The column vector [a; b].
template <class T> Vector<T> concatenate(const Vector<T> &a, const Vector<T> &b) {
  auto out = Vector<T>::from_shape({a.size() + b.size()});
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + static_cast<std::ptrdiff_t>(a.size()));
  return out;
}

} // namespace attention
