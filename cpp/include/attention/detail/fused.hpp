// Fused scaled dot-product attention for MR queries at a time, on gemm.hpp's microkernel layout:
// K and V are packed once per head as B panels, the scores of MR queries against every key go
// straight from registers into the packed-A layout of the second product (key by key, MR values
// each), so the softmax runs on whole vectors (one lane per query) and weights V needs no
// packing. Memory beyond the packs is MR x N_k. Each query's result depends on that query alone,
// so however queries are cut into blocks (threads), the bits are the same.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "attention/detail/elementwise.hpp"
#include "attention/detail/gemm.hpp"
#include "attention/detail/simd.hpp"

namespace attention::kernels {

// One head's K (n_k x d) and V (n_k x d_v), packed as gemm packs B: K as the B of Q K^T (panels of
// NR keys, d deep) and V as the B of weights V (panels of NR columns, n_k deep).
template <class T> struct PackedKV {
  std::size_t nk = 0, d = 0, dv = 0;
  const T *k = nullptr, *v = nullptr;
};

template <class T>
PackedKV<T> pack_kv(const T *k, std::size_t k_ld, const T *v, std::size_t v_ld, std::size_t nk,
                    std::size_t d, std::size_t dv) {
  constexpr std::size_t nr = Simd<T>::nr;
  T *pk = working_memory<T>(Slot::packed_k, detail::round_up(nk, nr) * d);
  T *pv = working_memory<T>(Slot::packed_v, detail::round_up(dv, nr) * nk);
  detail::pack_panels<nr>(Operand<T>{k, k_ld, false}, 0, nk, 0, d, pk);
  detail::pack_panels<nr>(Operand<T>{v, v_ld, true}, 0, dv, 0, nk, pv);
  return {nk, d, dv, pk, pv};
}

namespace detail {

// exp(v - shift) lane by lane for v <= shift (-Infinity giving 0).
inline Simd<float>::Vector exp_shifted(Simd<float>::Vector v, Simd<float>::Vector shift) {
  return exp_lanes(v - shift);
}
inline Simd<double>::Vector exp_shifted(Simd<double>::Vector v, Simd<double>::Vector shift) {
  for (int l = 0; l < 2; ++l)
    v[l] = std::exp(v[l] - shift[l]);
  return v;
}

// The MR x NR tile acc (rows of NR values) into p (NR keys of MR values), times scale.
template <class T, std::size_t per_row>
inline void store_transposed(const typename Simd<T>::Vector (&acc)[Simd<T>::mr][per_row], T scale,
                             T *p) {
  using S = Simd<T>;
  if constexpr (std::is_same_v<T, float>) { // 4x4 blocks by shuffles
    using V = typename S::Vector;
    for (std::size_t b = 0; b < per_row; ++b) {
      const V t0 = __builtin_shufflevector(acc[0][b], acc[1][b], 0, 4, 1, 5);
      const V t1 = __builtin_shufflevector(acc[2][b], acc[3][b], 0, 4, 1, 5);
      const V t2 = __builtin_shufflevector(acc[0][b], acc[1][b], 2, 6, 3, 7);
      const V t3 = __builtin_shufflevector(acc[2][b], acc[3][b], 2, 6, 3, 7);
      store(p + (b * 4 + 0) * 4, __builtin_shufflevector(t0, t1, 0, 1, 4, 5) * scale);
      store(p + (b * 4 + 1) * 4, __builtin_shufflevector(t0, t1, 2, 3, 6, 7) * scale);
      store(p + (b * 4 + 2) * 4, __builtin_shufflevector(t2, t3, 0, 1, 4, 5) * scale);
      store(p + (b * 4 + 3) * 4, __builtin_shufflevector(t2, t3, 2, 3, 6, 7) * scale);
    }
  } else {
    for (std::size_t i = 0; i < S::mr; ++i)
      for (std::size_t b = 0; b < per_row; ++b)
        for (std::size_t l = 0; l < S::lanes; ++l)
          p[(b * S::lanes + l) * S::mr + i] = acc[i][b][l] * scale;
  }
}

} // namespace detail

// Softmax(scale * Q K^T) V for rows (<= MR) queries, Q row-major (stride q_ld), into out (stride
// out_ld), over keys [0, keys): the rest masked for all of these queries (a causal mask's future),
// which gives the same bits as masking them (each adds exactly 0). keep(i, j): whether query i
// sees key j (null: every key). Returns false, writing nothing, when a scaled score is not finite
// (the caller names it).
template <class T, class Keep>
bool attend_rows(const PackedKV<T> &kv, std::size_t keys, const T *q, std::size_t q_ld,
                 std::size_t rows, T scale, const Keep *keep, T *out, std::size_t out_ld) {
  using S = Simd<T>;
  using V = typename S::Vector;
  constexpr std::size_t mr = S::mr, nr = S::nr, lanes = S::lanes, per_row = nr / lanes,
                        w = mr / lanes; // vectors per key in the scores' layout
  constexpr T none = -std::numeric_limits<T>::infinity();
  const std::size_t nk = keys, d = kv.d, panels = (nk + nr - 1) / nr;
  T *qa = working_memory<T>(Slot::packed_a, mr * d);
  T *p = working_memory<T>(Slot::scores, panels * nr * mr);
  detail::pack_panels<mr>(Operand<T>{q, q_ld, false}, 0, rows, 0, d, qa);

  // scores, key panel by key panel, scaled, into p[key * mr + query]
  V largest[w], check[w];
  for (std::size_t x = 0; x < w; ++x)
    largest[x] = V{} + none, check[x] = V{};
  for (std::size_t jp = 0; jp < panels; ++jp) {
    const T *b = kv.k + jp * nr * d;
    V acc[mr][per_row] = {};
    detail::tile_product<T>(d, qa, b, acc);
    T *to = p + jp * nr * mr;
    detail::store_transposed<T, per_row>(acc, scale, to);
    const std::size_t used = std::min(nr, nk - jp * nr);
    for (std::size_t j = 0; j < used; ++j)
      for (std::size_t x = 0; x < w; ++x) {
        const V s = detail::load<V>(to + j * mr + x * lanes);
        largest[x] = larger(largest[x], s);
        check[x] += s * T(0);
      }
  }
  for (std::size_t x = 0; x < w; ++x)
    for (std::size_t l = 0; l < lanes; ++l)
      if (check[x][l] != 0 && x * lanes + l < rows)
        return false;
  if (keep) {
    for (std::size_t x = 0; x < w; ++x)
      largest[x] = V{} + none;
    for (std::size_t j = 0; j < nk; ++j) {
      for (std::size_t i = 0; i < rows; ++i)
        if (!(*keep)(i, j))
          p[j * mr + i] = none;
      for (std::size_t x = 0; x < w; ++x)
        largest[x] = larger(largest[x], detail::load<V>(p + j * mr + x * lanes));
    }
    for (std::size_t x = 0; x < w; ++x) // a row with nothing kept: every exp gives 0
      for (std::size_t l = 0; l < lanes; ++l)
        if (largest[x][l] == none)
          largest[x][l] = 0;
  }

  // exp, in place
  V sums[w] = {};
  for (std::size_t j = 0; j < nk; ++j)
    for (std::size_t x = 0; x < w; ++x) {
      const V e = detail::exp_shifted(detail::load<V>(p + j * mr + x * lanes), largest[x]);
      sums[x] += e;
      detail::store(p + j * mr + x * lanes, e);
    }

  // weights V, divided by each query's sum
  for (std::size_t c0 = 0; c0 < kv.dv; c0 += nr) {
    const T *b = kv.v + c0 * kv.nk; // panels are all keys deep
    V acc[mr][per_row] = {};
    detail::tile_product<T>(nk, p, b, acc);
    const std::size_t cols = std::min(nr, kv.dv - c0);
    for (std::size_t i = 0; i < rows; ++i) {
      const T sum = sums[i / lanes][i % lanes];
      T *row = out + i * out_ld + c0;
      if (cols == nr) {
        for (std::size_t y = 0; y < per_row; ++y)
          detail::store(row + y * lanes, sum > 0 ? acc[i][y] / sum : V{});
      } else {
        for (std::size_t c = 0; c < cols; ++c)
          row[c] = sum > 0 ? acc[i][c / lanes][c % lanes] / sum : T(0);
      }
    }
  }
  return true;
}

} // namespace attention::kernels
