// The matrix products the core needs, over the containers' contiguous row-major data: xtensor
// 0.24 has no BLAS-free dot, so the products run on the packed SIMD kernels of kernels.hpp.
#pragma once

#include <array>
#include <cstddef>

#include <xtensor/xadapt.hpp>

#include "../errors.hpp"
#include "kernels.hpp"
#include "parallel.hpp"

namespace attention {

namespace detail {
// A rows x cols row-major buffer seen as a matrix, for the checks; nothing is copied.
template <class T> auto view(T *data, std::size_t rows, std::size_t cols) {
  return xt::adapt(data, rows * cols, xt::no_ownership(), std::array<std::size_t, 2>{rows, cols});
}

// A (m x k) times B (k x n) into C (m x n), row-major: blocks of A's rows run on the core's
// threads when the product is large enough to gain from them.
template <class T>
void multiply(const T *a, const T *b, T *c, std::size_t m, std::size_t k, std::size_t n) {
  constexpr std::size_t block_rows = 64; // the kernels' own row block
  const std::size_t blocks =
      2.0 * m * n * k < parallel::min_split_flops ? 1 : (m + block_rows - 1) / block_rows;
  parallel::for_each(blocks, [&](std::size_t block) {
    const std::size_t first = block * block_rows;
    const std::size_t rows = blocks == 1 ? m : std::min(block_rows, m - first);
    kernels::gemm<T>(rows, n, k, {a + first * k, k}, {b, n}, c + first * n, n);
  });
}
} // namespace detail

// A (m x k) times B (k x n).
template <class T>
Matrix<T> matmul(const Matrix<T> &a, const Matrix<T> &b, const char *a_name = "A",
                 const char *b_name = "B", detail::Argument argument = detail::Argument("A")) {
  const std::size_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  detail::require_equal_length(argument, k, a_name, a, b.shape()[0], b_name, b);
  auto out = Matrix<T>::from_shape({m, n});
  detail::multiply(a.data(), b.data(), out.data(), m, k, n);
  return out;
}

// matmul over caller-owned row-major buffers, for callers that reuse memory across calls (the
// WebAssembly wrapper): checks A (m x k) and B (k2 x n) as a public function does, then writes
// A B into out (m x n).
template <class T>
void matmul_into(const T *a, std::size_t m, std::size_t k, const T *b, std::size_t k2,
                 std::size_t n, T *out) {
  const auto av = detail::view(a, m, k), bv = detail::view(b, k2, n);
  detail::require_values(av, "A");
  detail::require_values(bv, "B");
  detail::require_equal_length(detail::Argument("A"), k, "A columns", av, k2, "B rows", bv);
  detail::require_fits(m, n, "the product A B", detail::Argument("A"));
  detail::multiply(a, b, out, m, k, n);
  detail::require_finite_result(detail::view(out, m, n), "the product A B", detail::Argument("A"));
}

// A (m x k) times the transpose of B (n x k): the score matrix Q K^T without forming K^T.
template <class T>
Matrix<T> matmul_transposed(const Matrix<T> &a, const Matrix<T> &b, const char *a_name = "A",
                            const char *b_name = "B",
                            detail::Argument argument = detail::Argument("A")) {
  const std::size_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[0];
  detail::require_equal_length(argument, k, a_name, a, b.shape()[1], b_name, b);
  auto out = Matrix<T>::from_shape({m, n});
  kernels::gemm<T>(m, n, k, {a.data(), k}, {b.data(), k, true}, out.data(), n);
  return out;
}

// W (m x n) times the column vector x (n).
template <class T>
Vector<T> matvec(const Matrix<T> &w, const Vector<T> &x, const char *w_name = "W",
                 const char *x_name = "x", detail::Argument argument = detail::Argument("W")) {
  const std::size_t m = w.shape()[0], n = w.shape()[1];
  detail::require_equal_length(argument, n, w_name, w, x.size(), x_name, x);
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
