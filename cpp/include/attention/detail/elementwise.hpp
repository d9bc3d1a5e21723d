// Reductions and elementwise functions over rows: dot products, max, finiteness checks, and exp,
// tanh and the sigmoid four lanes at a time.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <type_traits>

#include "attention/detail/simd.hpp"

namespace attention::kernels {

// a . b, a vector of lanes at a time (the compiler does not reorder a floating-point sum itself).
template <class T> T dot(const T *a, const T *b, std::size_t n) {
  using V = typename Simd<T>::Vector;
  constexpr std::size_t lanes = Simd<T>::lanes;
  const std::size_t vector_end = n - n % lanes;
  V acc = {};
  for (std::size_t k = 0; k < vector_end; k += lanes) {
    V av, bv;
    std::memcpy(&av, a + k, sizeof av);
    std::memcpy(&bv, b + k, sizeof bv);
    acc += av * bv;
  }
  T sum = 0;
  for (std::size_t l = 0; l < lanes; ++l)
    sum += acc[l];
  for (std::size_t k = vector_end; k < n; ++k)
    sum += a[k] * b[k];
  return sum;
}

// Reductions over a row, a vector of lanes at a time (clang does not vectorise float max
// reductions without fast-math, which the rest of the core must not have).
template <class T, class Combine> T reduce(const T *x, std::size_t n, T initial, Combine combine) {
  using V = typename Simd<T>::Vector;
  constexpr std::size_t lanes = Simd<T>::lanes;
  const std::size_t vector_end = n - n % lanes;
  V acc = V{} + initial;
  for (std::size_t i = 0; i < vector_end; i += lanes) {
    V v;
    std::memcpy(&v, x + i, sizeof v);
    acc = combine(acc, v);
  }
  T result = initial;
  for (std::size_t l = 0; l < lanes; ++l)
    result = combine(result, acc[l]);
  for (std::size_t i = vector_end; i < n; ++i)
    result = combine(result, x[i]);
  return result;
}

// The larger of a and b, lane by lane (for values known not to be NaN).
template <class A, class B> inline auto larger(A a, B b) {
  if constexpr (std::is_arithmetic_v<A>)
    return a > b ? a : b;
  else
    return select(a > b, a, b);
}

template <class T> T max_of(const T *x, std::size_t n) {
  return reduce(x, n, -std::numeric_limits<T>::infinity(),
                [](auto a, auto b) { return larger(a, b); });
}

// Whether scale * x is finite for every x: (scale * x) * 0 is 0 for a finite product and NaN
// otherwise, and a NaN survives every sum, so a multiply-add per value checks a row without a
// compare (a max would also have to carry NaN through, which costs more).
template <class T> bool all_finite(const T *x, std::size_t n, T scale = T(1)) {
  return reduce(x, n, T(0), [scale](auto sum, auto v) { return sum + v * scale * T(0); }) == 0;
}

// out = scale * x in one pass that also finds the largest value: returns it, or a value that is not
// finite when some scaled value is not (its * 0 is NaN, and a NaN survives the sum).
template <class T> T scale_into(const T *x, std::size_t n, T scale, T *out) {
  using V = typename Simd<T>::Vector;
  constexpr std::size_t lanes = Simd<T>::lanes;
  const std::size_t vector_end = n - n % lanes;
  V largest = V{} - std::numeric_limits<T>::infinity(), check = {};
  for (std::size_t i = 0; i < vector_end; i += lanes) {
    V v;
    std::memcpy(&v, x + i, sizeof v);
    v *= scale;
    std::memcpy(out + i, &v, sizeof v);
    largest = larger(largest, v);
    check += v * T(0);
  }
  T result = -std::numeric_limits<T>::infinity(), checked = 0;
  for (std::size_t l = 0; l < lanes; ++l) {
    result = larger(result, largest[l]);
    checked += check[l];
  }
  for (std::size_t i = vector_end; i < n; ++i) {
    out[i] = scale * x[i];
    result = larger(result, out[i]);
    checked += out[i] * T(0);
  }
  return result + checked;
}

// exp(v) lane by lane for v <= 0, exactly 0 below -87.3 (under the smallest normal float):
// Cephes' expf polynomial, relative error about 2e-7.
inline Simd<float>::Vector exp_lanes(Simd<float>::Vector v) {
  using V = Simd<float>::Vector;
  typedef int I __attribute__((vector_size(16)));
  const I underflow = v < -87.3f;
  v = select(underflow, V{} - 87.3f, v);
  const V magic = V{} + 12582912.0f; // 1.5 * 2^23: adding it rounds to an integer
  const V shifted = v * 1.44269504088896341f + magic;
  const V k = shifted - magic;
  const V r = v - k * 0.693359375f + k * 2.12194440e-4f;
  V p = V{} + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  I exponent;
  std::memcpy(&exponent, &shifted, sizeof exponent);
  exponent = (exponent - 0x4B400000 + 127) << 23;
  V scale;
  std::memcpy(&scale, &exponent, sizeof scale);
  I bits;
  V result = p * scale;
  std::memcpy(&bits, &result, sizeof bits);
  bits &= ~underflow;
  std::memcpy(&result, &bits, sizeof bits);
  return result;
}

// y = exp(x - shift) for x <= shift (max-shifted scores), -Infinity giving exactly 0; returns the
// sum. y may be x (in place); a softmax over logits it must keep writes its probabilities apart in
// the same pass, with no copy first. Float runs four lanes at a time (exp_lanes), since a libm
// call per score costs as much as the products; double keeps std::exp.
inline float exp_into(const float *x, float *y, std::size_t n, float shift = 0) {
  using V = Simd<float>::Vector;
  const std::size_t vector_end = n / 4 * 4;
  V sums = {};
  for (std::size_t i = 0; i < vector_end; i += 4) {
    V v;
    std::memcpy(&v, x + i, sizeof v);
    const V result = exp_lanes(v - shift);
    sums += result;
    std::memcpy(y + i, &result, sizeof result);
  }
  float sum = sums[0] + sums[1] + sums[2] + sums[3];
  for (std::size_t i = vector_end; i < n; ++i)
    sum += y[i] = std::exp(x[i] - shift);
  return sum;
}

inline double exp_into(const double *x, double *y, std::size_t n, double shift = 0) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += y[i] = std::exp(x[i] - shift);
  return sum;
}

template <class T> T exp_in_place(T *x, std::size_t n, T shift = 0) {
  return exp_into(x, x, n, shift);
}

// tanh and the logistic sigmoid in place, for finite x: a recurrent network's gates. Float runs
// four lanes at a time on exp_lanes (relative error within 1e-6), as libm's tanhf cost a quarter
// of a training step; double keeps libm.

// Cephes' tanhf: x + x^3 P(x^2) below |x| = 0.625, above it (1 - e) / (1 + e) for e = exp(-2|x|),
// which cannot overflow; x's sign restored.
inline Simd<float>::Vector tanh_lanes(Simd<float>::Vector x) {
  using V = Simd<float>::Vector;
  typedef int I __attribute__((vector_size(16)));
  I bits;
  std::memcpy(&bits, &x, sizeof bits);
  const I sign = bits & int(0x80000000);
  bits ^= sign;
  V a;
  std::memcpy(&a, &bits, sizeof a);
  const V z = a * a;
  V small = V{} - 5.70498872745e-3f;
  small = small * z + 2.06390887954e-2f;
  small = small * z - 5.37397155531e-2f;
  small = small * z + 1.33314422036e-1f;
  small = small * z - 3.33332819422e-1f;
  small = small * z * a + a;
  const V e = exp_lanes(a * -2.0f);
  const V magnitude = select(a < 0.625f, small, (1.0f - e) / (1.0f + e));
  std::memcpy(&bits, &magnitude, sizeof bits);
  bits |= sign;
  V result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

inline void tanh_in_place(float *x, std::size_t n) {
  using V = Simd<float>::Vector;
  const std::size_t vector_end = n / 4 * 4;
  for (std::size_t i = 0; i < vector_end; i += 4)
    detail::store(x + i, tanh_lanes(detail::load<V>(x + i)));
  for (std::size_t i = vector_end; i < n; ++i)
    x[i] = std::tanh(x[i]);
}

inline void tanh_in_place(double *x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    x[i] = std::tanh(x[i]);
}

// a = tanh(x + y) and returns w . a, in one pass: an additive attention score w . tanh(q' + k').
// The same bits as tanh_in_place then dot.
inline float tanh_sum_dot(const float *x, const float *y, const float *w, float *a, std::size_t n) {
  using V = Simd<float>::Vector;
  const std::size_t vector_end = n / 4 * 4;
  V acc = {};
  for (std::size_t i = 0; i < vector_end; i += 4) {
    const V t = tanh_lanes(detail::load<V>(x + i) + detail::load<V>(y + i));
    detail::store(a + i, t);
    acc += detail::load<V>(w + i) * t;
  }
  float sum = 0;
  for (std::size_t l = 0; l < 4; ++l)
    sum += acc[l];
  for (std::size_t i = vector_end; i < n; ++i) {
    a[i] = std::tanh(x[i] + y[i]);
    sum += w[i] * a[i];
  }
  return sum;
}

inline double tanh_sum_dot(const double *x, const double *y, const double *w, double *a,
                           std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    a[i] = std::tanh(x[i] + y[i]);
  return dot(w, a, n);
}

// 1 / (1 + exp(-x)), as e / (1 + e) below 0 for e = exp(-|x|), which cannot overflow.
inline void sigmoid_in_place(float *x, std::size_t n) {
  using V = Simd<float>::Vector;
  typedef int I __attribute__((vector_size(16)));
  const std::size_t vector_end = n / 4 * 4;
  for (std::size_t i = 0; i < vector_end; i += 4) {
    V v;
    std::memcpy(&v, x + i, sizeof v);
    I bits;
    std::memcpy(&bits, &v, sizeof bits);
    bits &= 0x7FFFFFFF;
    V a;
    std::memcpy(&a, &bits, sizeof a);
    const V e = exp_lanes(-a);
    const V inverse = 1.0f / (1.0f + e);
    const V result = select(v >= 0.0f, inverse, e * inverse);
    std::memcpy(x + i, &result, sizeof result);
  }
  for (std::size_t i = vector_end; i < n; ++i)
    x[i] = 1.0f / (1.0f + std::exp(-x[i]));
}

inline void sigmoid_in_place(double *x, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    x[i] = 1.0 / (1.0 + std::exp(-x[i]));
}

} // namespace attention::kernels
