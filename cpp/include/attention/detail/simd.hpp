// The 16-byte vectors every kernel computes with: GCC/clang vector extensions, which compile to
// WebAssembly SIMD128 under emcc -msimd128 and to SSE2 natively, so the native build is a
// like-for-like baseline of the WebAssembly one.
#pragma once

#include <cstddef>
#include <cstring>

namespace attention::kernels {

template <class T> struct Simd;
template <> struct Simd<float> {
  typedef float Vector __attribute__((vector_size(16)));
  static constexpr std::size_t lanes = 4, mr = 4, nr = 8;
};
template <> struct Simd<double> {
  typedef double Vector __attribute__((vector_size(16)));
  static constexpr std::size_t lanes = 2, mr = 4, nr = 4;
};

// Lane-wise `mask ? a : b` as bit operations: clang lowers the vector ?: of GCC vector types
// lane by lane, but this to one v128.bitselect (or and/andnot/or on SSE2).
template <class V, class Mask> inline V select(Mask mask, V a, V b) {
  Mask ai, bi;
  std::memcpy(&ai, &a, sizeof a);
  std::memcpy(&bi, &b, sizeof b);
  const Mask bits = (ai & mask) | (bi & ~mask);
  V out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

namespace detail {

// Vectors from and to memory of any alignment.
template <class V, class T> inline V load(const T *from) {
  V v;
  std::memcpy(&v, from, sizeof v);
  return v;
}
template <class V, class T> inline void store(T *to, V v) { std::memcpy(to, &v, sizeof v); }

} // namespace detail

} // namespace attention::kernels
