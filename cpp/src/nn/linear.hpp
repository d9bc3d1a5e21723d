// nn.Linear over a block of rows: y = x W^T + b, W (out x in). The weight may be a column slice
// of a wider one (row stride ldw), for a layer whose input is a concatenation computed in parts.
#pragma once

#include "attention/detail/kernels.hpp"
#include "attention/detail/parallel.hpp"
#include "nn/parameter_spec.hpp"

namespace attention::nn {

inline std::vector<ParameterSpec> linear_parameters(std::size_t in, std::size_t out,
                                                    bool bias = true) {
  std::vector<ParameterSpec> specs = {{"weight", {out, in}, uniform_bound(in)}};
  if (bias)
    specs.push_back({"bias", {out}, uniform_bound(in)});
  return specs;
}

// sums += the sum of `rows` rows (stride ld) of `cols` values: a bias's gradient. Columns may
// run on several threads, each column summed in row order.
template <class T>
void add_column_sums(std::size_t rows, std::size_t cols, const T *x, std::size_t ld, T *sums) {
  const auto sum_columns = [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t i = begin; i < end; ++i)
        sums[i] += x[r * ld + i];
  };
  parallel::for_ranges(cols, kernels::Simd<T>::lanes, double(rows) * double(cols), sum_columns);
}

// y (rows x cols, stride ldy) += bias on every row.
template <class T>
void add_bias(std::size_t rows, std::size_t cols, const T *bias, T *y, std::size_t ldy) {
  const auto add_rows = [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r)
      for (std::size_t i = 0; i < cols; ++i)
        y[r * ldy + i] += bias[i];
  };
  parallel::for_ranges(rows, 1, double(rows) * double(cols), add_rows);
}

// y (rows x out, stride ldy) = x (rows x in, stride ldx) W^T + bias, or y += x W^T + bias when
// accumulate is set; bias may be null.
template <class T>
void linear_forward(std::size_t rows, std::size_t in, std::size_t out, const T *x, std::size_t ldx,
                    const T *weight, std::size_t ldw, const T *bias, T *y, std::size_t ldy,
                    bool accumulate = false) {
  kernels::gemm_abt(rows, out, in, x, ldx, weight, ldw, y, ldy, accumulate);
  if (bias)
    add_bias(rows, out, bias, y, ldy);
}

// y (rows x out, stride ldy) = x (rows x in, stride ldx) W^T + bias for W^T packed once
// (PackedB::pack_transposed), or y += when accumulate is set; the same bits as unpacked.
template <class T>
void linear_forward(std::size_t rows, const T *x, std::size_t ldx, const kernels::PackedB<T> &w_t,
                    const T *bias, T *y, std::size_t ldy, bool accumulate = false) {
  kernels::gemm_packed(rows, x, ldx, w_t, y, ldy, accumulate);
  if (bias)
    add_bias(rows, w_t.n(), bias, y, ldy);
}

// From dy (rows x out): d_weight += dy^T x, d_bias += the column sums of dy (when given), and
// dx = dy W, or dx += dy W when accumulate_dx is set (none when dx is null).
template <class T>
void linear_backward(std::size_t rows, std::size_t in, std::size_t out, const T *x, std::size_t ldx,
                     const T *weight, std::size_t ldw, const T *dy, std::size_t ldy, T *d_weight,
                     T *d_bias, T *dx, std::size_t lddx, bool accumulate_dx = false) {
  kernels::gemm_atb(out, in, rows, dy, ldy, x, ldx, d_weight, ldw, true);
  if (d_bias)
    add_column_sums(rows, out, dy, ldy, d_bias);
  if (dx)
    kernels::gemm_ab(rows, in, out, dy, ldy, weight, ldw, dx, lddx, accumulate_dx);
}

} // namespace attention::nn
