// Packed, cache-blocked matrix products. A 4x8 float (4x4 double) tile of C stays in registers
// while packed panels of A and B stream through: wider tiles (6x8, 4x12) and an unrolled loop ran
// slower as WebAssembly, whose 16 vector registers V8 then spills. Packing buffers persist per
// thread, so repeated calls allocate nothing. A product large enough splits across the core's
// threads by blocks of C's rows or columns, never along its sums (split_product).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "attention/detail/parallel.hpp"
#include "attention/detail/simd.hpp"

namespace attention::kernels {

// A row-major operand read as M(i, p) = data[i * ld + p], or transposed: data[p * ld + i].
template <class T> struct Operand {
  const T *data;
  std::size_t ld;
  bool transposed = false;
  T operator()(std::size_t i, std::size_t p) const {
    return transposed ? data[p * ld + i] : data[i * ld + p];
  }
  // The operand from row i on.
  Operand from_row(std::size_t i) const {
    return {transposed ? data + i : data + i * ld, ld, transposed};
  }
};

// Block sizes: a KC x NC panel of B (256 x 512 floats = 512 KB) and an MC x KC block of A
// (64 x 256 floats = 64 KB) stay in cache while the microkernel sweeps them.
constexpr std::size_t kc_block = 256, mc_block = 64, nc_block = 512;

// Per-thread working memory that only grows, so repeated calls allocate nothing. Each user has
// its own slot; the contents are whatever the slot's last user left.
enum class Slot {
  packed_a,
  packed_b,
  scores,
  running_max,
  running_sum,
  mask,
  packed_k,
  packed_v,
  few_rows,
  count // how many slots
};

template <class T> T *working_memory(Slot slot, std::size_t n) {
  thread_local std::vector<T> buffers[static_cast<int>(Slot::count)];
  auto &buffer = buffers[static_cast<int>(slot)];
  if (buffer.size() < n)
    buffer.resize(n);
  return buffer.data();
}

namespace detail {

// acc += A panel (n x MR) times B panel (n x NR), as gemm's microkernel sums, over pointers
// that advance rather than indices: V8 then spends fewer integer instructions per step.
template <class T, std::size_t per_row>
inline void tile_product(std::size_t n, const T *a, const T *b,
                         typename Simd<T>::Vector (&acc)[Simd<T>::mr][per_row]) {
  using S = Simd<T>;
  using V = typename S::Vector;
  for (const T *end = a + n * S::mr; a != end; a += S::mr, b += S::nr) {
    V bv[per_row];
    for (std::size_t y = 0; y < per_row; ++y)
      bv[y] = load<V>(b + y * S::lanes);
    for (std::size_t i = 0; i < S::mr; ++i) {
      const T ai = a[i];
      for (std::size_t y = 0; y < per_row; ++y)
        acc[i][y] += bv[y] * ai;
    }
  }
}

// C[0:mr_used, 0:nr_used] (+)= A panel (kc x MR) times B panel (kc x NR). Vectors move one at a
// time (load, store): GCC keeps an array copied whole by memcpy in memory, storing every
// accumulator at every step of the loop.
template <class T>
inline void microkernel(std::size_t kc, const T *a, const T *b, T *c, std::size_t ldc,
                        std::size_t mr_used, std::size_t nr_used, bool accumulate) {
  using S = Simd<T>;
  using V = typename S::Vector;
  constexpr std::size_t per_row = S::nr / S::lanes;
  V acc[S::mr][per_row] = {};
  tile_product<T>(kc, a, b, acc);
  if (mr_used == S::mr && nr_used == S::nr) {
    for (std::size_t i = 0; i < S::mr; ++i)
      for (std::size_t v = 0; v < per_row; ++v) {
        T *to = c + i * ldc + v * S::lanes;
        store(to, accumulate ? acc[i][v] + load<V>(to) : acc[i][v]);
      }
    return;
  }
  T tile[S::mr][S::nr];
  for (std::size_t i = 0; i < S::mr; ++i)
    for (std::size_t v = 0; v < per_row; ++v)
      store(&tile[i][v * S::lanes], acc[i][v]);
  for (std::size_t i = 0; i < mr_used; ++i)
    for (std::size_t j = 0; j < nr_used; ++j)
      c[i * ldc + j] = (accumulate ? c[i * ldc + j] : T(0)) + tile[i][j];
}

// lanes x lanes block of a row-major source (rows `from[0..lanes)`, columns p..p+lanes) stored
// transposed: out[j * stride + i] = from[i][p + j].
inline void transpose_block(const float *const *from, std::size_t p, float *out,
                            std::size_t stride) {
  using V = Simd<float>::Vector;
  V r[4];
  for (int i = 0; i < 4; ++i)
    std::memcpy(&r[i], from[i] + p, sizeof(V));
  const V t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5);
  const V t1 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5);
  const V t2 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
  const V t3 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
  const V c[4] = {
      __builtin_shufflevector(t0, t1, 0, 1, 4, 5), __builtin_shufflevector(t0, t1, 2, 3, 6, 7),
      __builtin_shufflevector(t2, t3, 0, 1, 4, 5), __builtin_shufflevector(t2, t3, 2, 3, 6, 7)};
  for (int j = 0; j < 4; ++j)
    std::memcpy(out + j * stride, &c[j], sizeof(V));
}

inline void transpose_block(const double *const *from, std::size_t p, double *out,
                            std::size_t stride) {
  using V = Simd<double>::Vector;
  V r0, r1;
  std::memcpy(&r0, from[0] + p, sizeof(V));
  std::memcpy(&r1, from[1] + p, sizeof(V));
  const V c0 = __builtin_shufflevector(r0, r1, 0, 2), c1 = __builtin_shufflevector(r0, r1, 1, 3);
  std::memcpy(out, &c0, sizeof(V));
  std::memcpy(out + stride, &c1, sizeof(V));
}

// Packs rows [i0, i0 + rows) x columns [p0, p0 + kc) of M into panels of `width` rows, each
// stored column by column and zero-padded. A packs in MR-row panels; B packs as its transpose
// in NR-row panels (B's columns), which is the layout the microkernel streams. Whole panels move
// a vector at a time: rows of a transposed operand are copied, others transposed in blocks.
template <std::size_t width, class T>
void pack_panels(const Operand<T> &m, std::size_t i0, std::size_t rows, std::size_t p0,
                 std::size_t kc, T *out) {
  constexpr std::size_t lanes = Simd<T>::lanes;
  for (std::size_t panel = 0; panel < rows; panel += width, out += width * kc) {
    const std::size_t first = i0 + panel, used = std::min(width, rows - panel);
    if (used < width) { // the last panel: zeros past the used rows
      std::fill(out, out + width * kc, T(0));
      if (m.transposed)
        for (std::size_t p = 0; p < kc; ++p)
          std::memcpy(out + p * width, m.data + (p0 + p) * m.ld + first, used * sizeof(T));
      else
        for (std::size_t i = 0; i < used; ++i)
          for (std::size_t p = 0; p < kc; ++p)
            out[p * width + i] = m.data[(first + i) * m.ld + p0 + p];
    } else if (m.transposed) { // M(i, p) = data[p * ld + i]: `width` values in a row
      for (std::size_t p = 0; p < kc; ++p)
        std::memcpy(out + p * width, m.data + (p0 + p) * m.ld + first, width * sizeof(T));
    } else {
      const T *from[width];
      for (std::size_t i = 0; i < width; ++i)
        from[i] = m.data + (first + i) * m.ld + p0;
      std::size_t p = 0;
      for (; p + lanes <= kc; p += lanes)
        for (std::size_t i = 0; i < width; i += lanes)
          transpose_block(from + i, p, out + p * width + i, width);
      for (; p < kc; ++p)
        for (std::size_t i = 0; i < width; ++i)
          out[p * width + i] = from[i][p];
    }
  }
}

constexpr std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// The blocked product over B's packed blocks: packed_b(jc, nc, pc, kc) gives B's block of rows
// [pc, pc + kc) and columns [jc, jc + nc) as pack_panels<NR> lays it out. Each value of C is summed
// in the same order whoever packs B: over each KC block in turn, from 0, then added to C.
template <class T, class PackedBlock>
void gemm_blocked(std::size_t m, std::size_t n, std::size_t k, const Operand<T> &a,
                  PackedBlock packed_b, T *c, std::size_t ldc, bool accumulate) {
  using S = Simd<T>;
  for (std::size_t jc = 0; jc < n; jc += nc_block) {
    const std::size_t nc = std::min(nc_block, n - jc);
    for (std::size_t pc = 0; pc < k; pc += kc_block) {
      const std::size_t kc = std::min(kc_block, k - pc);
      const T *packed = packed_b(jc, nc, pc, kc);
      const bool add = accumulate || pc > 0;
      for (std::size_t ic = 0; ic < m; ic += mc_block) {
        const std::size_t mc = std::min(mc_block, m - ic);
        T *packed_a = working_memory<T>(Slot::packed_a, round_up(mc, S::mr) * kc);
        pack_panels<S::mr>(a, ic, mc, pc, kc, packed_a);
        for (std::size_t jr = 0; jr < nc; jr += S::nr)
          for (std::size_t ir = 0; ir < mc; ir += S::mr)
            microkernel(kc, packed_a + ir * kc, packed + jr * kc, c + (ic + ir) * ldc + jc + jr,
                        ldc, std::min(S::mr, mc - ir), std::min(S::nr, nc - jr), add);
      }
    }
  }
}

// Runs product(i0, rows, j0, cols) over blocks of C (m x n) covering it once, by its columns or
// by its rows, on the core's threads when the product is large enough to pay. The sum over k is
// never cut: each value of C is summed by one thread, in the order one thread sums it, so the
// bits do not depend on the thread count.
template <class T, class Product>
void split_product(std::size_t m, std::size_t n, std::size_t k, bool by_columns,
                   const Product &product) {
  const double flops = 2.0 * double(m) * double(n) * double(k);
  if (by_columns)
    parallel::for_ranges(n, Simd<T>::nr, flops, [&](std::size_t j0, std::size_t j1) {
      product(std::size_t(0), m, j0, j1 - j0);
    });
  else
    parallel::for_ranges(m, Simd<T>::mr, flops, [&](std::size_t i0, std::size_t i1) {
      product(i0, i1 - i0, std::size_t(0), n);
    });
}

// A few rows of C from a row-major B (B(p, j) = b[p * ldb + j]) read where it lies, a row of B
// after another, as it is stored: packing B would cost as much as the product (an attention's
// weights times one item's values, a decoder's step times a weight). Each value sums over a KC
// block from zero and is then added to C, as gemm_blocked sums, so either path gives the same
// bits; ranges of columns go to the core's threads when the product is large enough to pay (each
// value summed by one thread, so the bits do not depend on the thread count).
template <class T>
void gemm_few_rows(std::size_t m, std::size_t n, std::size_t k, const Operand<T> &a, const T *b,
                   std::size_t ldb, T *c, std::size_t ldc, bool accumulate) {
  using V = typename Simd<T>::Vector;
  constexpr std::size_t lanes = Simd<T>::lanes;
  const double flops = 2.0 * double(m) * double(n) * double(k);
  parallel::for_ranges(n, 2 * lanes, flops, [&](std::size_t j0, std::size_t j1) {
    const std::size_t width = j1 - j0, vector_width = width - width % lanes;
    T *sums = working_memory<T>(Slot::few_rows, m * width); // this thread's: one row of C's each
    for (std::size_t pc = 0; pc < k; pc += kc_block) {
      const std::size_t kc = std::min(kc_block, k - pc);
      std::fill(sums, sums + m * width, T(0));
      for (std::size_t p = pc; p < pc + kc; ++p) {
        const T *row_of_b = b + p * ldb + j0;
        for (std::size_t i = 0; i < m; ++i) {
          const T ai = a(i, p);
          T *sum = sums + i * width;
          std::size_t j = 0;
          for (; j < vector_width; j += lanes)
            store(sum + j, load<V>(sum + j) + load<V>(row_of_b + j) * ai);
          for (; j < width; ++j)
            sum[j] += row_of_b[j] * ai;
        }
      }
      const bool add = accumulate || pc > 0;
      for (std::size_t i = 0; i < m; ++i) {
        T *row = c + i * ldc + j0;
        const T *sum = sums + i * width;
        for (std::size_t j = 0; j < width; ++j)
          row[j] = add ? row[j] + sum[j] : sum[j];
      }
    }
  });
}

} // namespace detail

// C (m x n, row stride ldc) = A (m x k) B (k x n), or C += A B when accumulate is set.
template <class T>
void gemm(std::size_t m, std::size_t n, std::size_t k, const Operand<T> &a, const Operand<T> &b,
          T *c, std::size_t ldc, bool accumulate = false) {
  using S = Simd<T>;
  if (k == 0) {
    if (!accumulate)
      for (std::size_t i = 0; i < m; ++i)
        std::fill(c + i * ldc, c + i * ldc + n, T(0));
    return;
  }
  if (m < S::mr && !b.transposed)
    return detail::gemm_few_rows(m, n, k, a, b.data, b.ld, c, ldc, accumulate);
  const auto block_of_c = [&](std::size_t i0, std::size_t rows, std::size_t j0, std::size_t cols) {
    const auto packed_b = [&](std::size_t jc, std::size_t nc, std::size_t pc, std::size_t kc) {
      T *packed = working_memory<T>(Slot::packed_b, detail::round_up(nc, S::nr) * kc);
      detail::pack_panels<S::nr>(Operand<T>{b.data, b.ld, !b.transposed}, j0 + jc, nc, pc, kc,
                                 packed);
      return static_cast<const T *>(packed);
    };
    detail::gemm_blocked(rows, cols, k, a.from_row(i0), packed_b, c + i0 * ldc + j0, ldc,
                         accumulate);
  };
  // Each block packs the operand it spans whole again: cutting columns repacks A (m k values),
  // cutting rows B (k n).
  detail::split_product<T>(m, n, k, m <= n, block_of_c);
}

// B packed once for many products with it, as gemm packs it at every call: a weight used at
// every step of a sequence (a recurrent layer's W_hh), against a few rows at a time.
template <class T> class PackedB {
public:
  // B = W^T for W (n x k, row stride ldw): the products X W^T.
  void pack_transposed(std::size_t n, std::size_t k, const T *w, std::size_t ldw) {
    pack(n, k, {w, ldw});
  }
  // B (k x n, row stride ldb): the products dY W.
  void pack(std::size_t n, std::size_t k, const T *b, std::size_t ldb) {
    pack(n, k, {b, ldb, true});
  }
  std::size_t n() const { return n_; }
  std::size_t k() const { return k_; }
  // Rows [pc, pc + kc) of columns [jc, jc + nc): blocks lie column block by column block, each
  // column block (all of k) of round_up(nc, NR) x k values.
  const T *block(std::size_t jc, std::size_t nc, std::size_t pc) const {
    return data_.data() + jc * k_ + detail::round_up(nc, Simd<T>::nr) * pc;
  }

private:
  // `rows` is B read as gemm packs it: its NR-wide column panels as rows.
  void pack(std::size_t n, std::size_t k, const Operand<T> &rows) {
    n_ = n;
    k_ = k;
    data_.resize(detail::round_up(n, Simd<T>::nr) * k);
    for (std::size_t jc = 0; jc < n; jc += nc_block) {
      const std::size_t nc = std::min(nc_block, n - jc);
      for (std::size_t pc = 0; pc < k; pc += kc_block)
        detail::pack_panels<Simd<T>::nr>(rows, jc, nc, pc, std::min(kc_block, k - pc),
                                         data_.data() + jc * k +
                                             detail::round_up(nc, Simd<T>::nr) * pc);
    }
  }

  std::size_t n_ = 0, k_ = 0;
  std::vector<T> data_;
};

// C (m x n) = A (m x k, row stride lda) B for a packed B (k x n), or C += A B: the same bits as
// gemm with B unpacked.
template <class T>
void gemm_packed(std::size_t m, const T *a, std::size_t lda, const PackedB<T> &b, T *c,
                 std::size_t ldc, bool accumulate = false) {
  if (b.k() == 0)
    return gemm<T>(m, b.n(), 0, {a, lda}, {a, lda}, c, ldc, accumulate);
  const auto rows_of_c = [&](std::size_t i0, std::size_t rows, std::size_t, std::size_t) {
    const auto packed_b = [&](std::size_t jc, std::size_t nc, std::size_t pc, std::size_t) {
      return b.block(jc, nc, pc);
    };
    detail::gemm_blocked(rows, b.n(), b.k(), Operand<T>{a + i0 * lda, lda}, packed_b, c + i0 * ldc,
                         ldc, accumulate);
  };
  // by rows only: B is packed already, in whole column blocks
  detail::split_product<T>(m, b.n(), b.k(), false, rows_of_c);
}

// The products a layer's forward and backward passes need, over row-major buffers (lda, ldb,
// ldc: row strides); each writes C, or adds to it when accumulate is set.

// C (m x n) = A (m x k) B^T for B (n x k): a layer's outputs X W^T.
template <class T>
void gemm_abt(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda, const T *b,
              std::size_t ldb, T *c, std::size_t ldc, bool accumulate = false) {
  gemm<T>(m, n, k, {a, lda}, {b, ldb, true}, c, ldc, accumulate);
}

// C (m x n) = A (m x k) B^T for B (n x k), a few rows of A (a decoder's step): each value one dot
// product of a row of A and a row of B, four lanes at a time, B read once where it lies (packing
// it, as gemm does, would cost more than the product). Not gemm's order of sums: its bits may
// differ from gemm_abt's in the last place. Ranges of B's rows go to the core's threads when the
// product is large enough to pay; each value is summed by one thread.
template <class T>
void gemv_abt(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda, const T *b,
              std::size_t ldb, T *c, std::size_t ldc) {
  using V = typename Simd<T>::Vector;
  constexpr std::size_t lanes = Simd<T>::lanes;
  const std::size_t vector_end = k - k % (2 * lanes);
  const double flops = 2.0 * double(m) * double(n) * double(k);
  parallel::for_ranges(n, 16, flops, [&](std::size_t j0, std::size_t j1) {
    for (std::size_t j = j0; j < j1; ++j) {
      const T *w = b + j * ldb;
      for (std::size_t i = 0; i < m; ++i) {
        const T *x = a + i * lda;
        V acc0 = {}, acc1 = {}; // two chains of adds
        std::size_t p = 0;
        for (; p < vector_end; p += 2 * lanes) {
          acc0 += detail::load<V>(x + p) * detail::load<V>(w + p);
          acc1 += detail::load<V>(x + p + lanes) * detail::load<V>(w + p + lanes);
        }
        const V acc = acc0 + acc1;
        T sum = 0;
        for (std::size_t l = 0; l < lanes; ++l)
          sum += acc[l];
        for (; p < k; ++p)
          sum += x[p] * w[p];
        c[i * ldc + j] = sum;
      }
    }
  });
}

// C (m x n) = A (m x k) B (k x n): a layer's input gradients dY W.
template <class T>
void gemm_ab(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda, const T *b,
             std::size_t ldb, T *c, std::size_t ldc, bool accumulate = false) {
  gemm<T>(m, n, k, {a, lda}, {b, ldb}, c, ldc, accumulate);
}

// C (m x n) = A^T B for A (k x m), B (k x n): a weight's gradient dY^T X summed over k rows.
template <class T>
void gemm_atb(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda, const T *b,
              std::size_t ldb, T *c, std::size_t ldc, bool accumulate = false) {
  gemm<T>(m, n, k, {a, lda, true}, {b, ldb}, c, ldc, accumulate);
}

} // namespace attention::kernels
