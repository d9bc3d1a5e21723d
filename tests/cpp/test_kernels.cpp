// The packed SIMD kernels against the plain triple loop, over shapes that hit every edge of the
// blocking (partial panels, several KC / MC / NC blocks), both layouts of B, and accumulation.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "attention/detail/kernels.hpp"
#include "attention/detail/linalg.hpp"
#include "check_close.hpp"

using namespace attention;

namespace {
template <class T> Matrix<T> random_matrix(std::size_t rows, std::size_t cols, std::mt19937 &rng) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  auto m = Matrix<T>::from_shape({rows, cols});
  for (auto &x : m)
    x = static_cast<T>(uniform(rng));
  return m;
}

template <class T> Matrix<T> reference_product(const Matrix<T> &a, const Matrix<T> &b) {
  Matrix<T> c = xt::zeros<T>({a.shape()[0], b.shape()[1]});
  for (std::size_t i = 0; i < a.shape()[0]; ++i)
    for (std::size_t j = 0; j < b.shape()[1]; ++j) {
      double sum = 0;
      for (std::size_t p = 0; p < a.shape()[1]; ++p)
        sum += double(a(i, p)) * double(b(p, j));
      c(i, j) = static_cast<T>(sum);
    }
  return c;
}

template <class T> void check_shapes(double tolerance) {
  std::mt19937 rng(7);
  const std::size_t sizes[][3] = {{1, 1, 1},    {3, 5, 7},      {4, 8, 16},
                                  {5, 9, 3},    {17, 33, 65},   {64, 64, 64},
                                  {70, 530, 9}, {129, 12, 300}, {2, 1030, 513}};
  for (const auto &size : sizes) {
    const std::size_t m = size[0], n = size[1], k = size[2];
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    const Matrix<T> a = random_matrix<T>(m, k, rng), b = random_matrix<T>(k, n, rng);
    const Matrix<T> expected = reference_product(a, b);
    check_close(matmul(a, b), expected, tolerance);
    const Matrix<T> bt = xt::transpose(b);
    check_close(matmul_transposed(a, bt), expected, tolerance);
    Matrix<T> c = xt::ones<T>({m, n});
    kernels::gemm<T>(m, n, k, {a.data(), k}, {b.data(), n}, c.data(), n, true);
    check_close(c, Matrix<T>(expected + T(1)), tolerance);
  }
}
} // namespace

TEST_CASE("packed float kernels match the plain loop") { check_shapes<float>(1e-5); }

TEST_CASE("packed double kernels match the plain loop") { check_shapes<double>(1e-12); }

// gemv_abt: a few rows times B^T as dot products, B read where it lies (a decoding step's product
// with a weight stored outputs x inputs), against the plain loop and gemm_abt.
template <class T> void check_gemv(double tolerance) {
  std::mt19937 rng(11);
  const std::size_t shapes[][3] = {{1, 1, 1}, {1, 7, 3}, {2, 33, 17}, {3, 64, 768}, {1, 1030, 513}};
  for (const auto &shape : shapes) {
    const std::size_t m = shape[0], n = shape[1], k = shape[2]; // no structured binding: clang 14
                                                                // cannot capture one
    const Matrix<T> a = random_matrix<T>(m, k, rng), b = random_matrix<T>(n, k, rng);
    const Matrix<T> expected = reference_product<T>(a, xt::transpose(b));
    Matrix<T> c = xt::zeros<T>({m, n}), packed = xt::zeros<T>({m, n});
    kernels::gemv_abt<T>(m, n, k, a.data(), k, b.data(), k, c.data(), n);
    kernels::gemm_abt<T>(m, n, k, a.data(), k, b.data(), k, packed.data(), n);
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    check_close(c, expected, tolerance * std::sqrt(double(k)));
    check_close(c, packed, tolerance * std::sqrt(double(k)));
  }
}

TEST_CASE("gemv_abt's dot products match the plain loop and gemm_abt, in float and double") {
  check_gemv<float>(1e-6);
  check_gemv<double>(1e-14);
}

TEST_CASE("a product over k = 0 is zero, or leaves C as it was when accumulating") {
  Matrix<double> c = {{5}};
  kernels::gemm<double>(1, 1, 0, {nullptr, 0}, {nullptr, 1}, c.data(), 1, true);
  CHECK(c(0, 0) == 5);
  kernels::gemm<double>(1, 1, 0, {nullptr, 0}, {nullptr, 1}, c.data(), 1, false);
  CHECK(c(0, 0) == 0);
}

TEST_CASE("all_finite finds a NaN or an infinity wherever it sits, and products that overflow") {
  for (std::size_t n = 1; n <= 13; ++n)
    for (std::size_t at = 0; at < n; ++at) {
      CAPTURE(n);
      CAPTURE(at);
      std::vector<float> x(n, -2.f);
      CHECK(kernels::all_finite(x.data(), n));
      x[at] = 3e38f;
      CHECK(kernels::all_finite(x.data(), n));
      CHECK_FALSE(kernels::all_finite(x.data(), n, 2.f)); // 6e38 overflows float
      x[at] = NAN;
      CHECK_FALSE(kernels::all_finite(x.data(), n));
      x[at] = -INFINITY;
      CHECK_FALSE(kernels::all_finite(x.data(), n));
      std::vector<double> y(n, 1.0);
      y[at] = NAN;
      CHECK_FALSE(kernels::all_finite(y.data(), n));
    }
}

TEST_CASE("the vectorised float exp is within 3e-7 of std::exp; below exp(-87.3), and at -inf, 0") {
  std::vector<float> x, expected;
  for (float v = -100.f; v <= 0.f; v += 0.0137f)
    x.push_back(v);
  x.push_back(-std::numeric_limits<float>::infinity());
  x.push_back(0.f);
  for (float v : x)
    expected.push_back(v < -87.3f ? 0.f : std::exp(v)); // below exp(-87.3): flushed to 0
  kernels::exp_in_place(x.data(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    CHECK(std::fabs(x[i] - expected[i]) <= 3e-7f * expected[i]);
  }
  CHECK(x[x.size() - 2] == 0.f);
  CHECK(x.back() == 1.f);
}

TEST_CASE("the vectorised float tanh and sigmoid are within 2e-7 of double's, saturating cleanly") {
  std::vector<float> x;
  for (float v = -30.f; v <= 30.f; v += 0.00731f)
    x.push_back(v);
  for (float v : {0.625f, -0.625f, 0.62499994f, 1e-30f, 88.f, -88.f, 1e30f, -1e30f, -0.f})
    x.push_back(v);
  std::vector<float> tanh = x, sigmoid = x;
  kernels::tanh_in_place(tanh.data(), tanh.size());
  kernels::sigmoid_in_place(sigmoid.data(), sigmoid.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(x[i]);
    const double expected_tanh = std::tanh(double(x[i]));
    const double expected_sigmoid = 1 / (1 + std::exp(-double(x[i])));
    CHECK(std::abs(tanh[i] - expected_tanh) <= 2e-7 * std::abs(expected_tanh));
    CHECK(std::abs(sigmoid[i] - expected_sigmoid) <= 2e-7 * expected_sigmoid + 1e-38);
  }
  CHECK(tanh[tanh.size() - 3] == 1.f); // tanh(1e30)
  CHECK(tanh[tanh.size() - 2] == -1.f);
  CHECK(std::signbit(tanh.back())); // tanh(-0) = -0
  CHECK(sigmoid[sigmoid.size() - 3] == 1.f);
  CHECK(sigmoid[sigmoid.size() - 2] == 0.f);
}
