// nn.LSTMCell over a batch of rows, PyTorch's gate order i, f, g, o:
//   gates = x W_ih^T + b_ih + h W_hh^T + b_hh, i = σ, f = σ, g = tanh, o = σ of their quarters,
//   c' = f ⊙ c + i ⊙ g, h' = o ⊙ tanh(c').
#pragma once

#include <vector>

#include "attention/detail/kernels.hpp"
#include "nn/cell_weights.hpp"
#include "nn/linear.hpp"

namespace attention::nn {

inline std::vector<ParameterSpec> lstm_cell_parameters(std::size_t input, std::size_t hidden) {
  return cell_parameters(4, input, hidden);
}

// The four tensors laid out as lstm_cell_parameters (a state_dict's order): the weights, or their
// gradients.
template <class T> using LstmWeights = CellWeights<T, 4>;

// One step of `rows` rows from x (stride ldx) and (h, c) (rows x H): writes the activated gates
// (rows x 4H: i, f, g, o) and tanh(c') (rows x H), kept for the backward pass, and c', h'.
// ih_t and hh_t, when given, are W_ih^T and W_hh^T packed (pack_transposed), for a sequence that
// packs them once rather than at every step; the same bits.
template <class T>
void lstm_cell_forward(const LstmWeights<const T> &w, std::size_t rows, const T *x, std::size_t ldx,
                       const T *h, const T *c, T *gates, T *tanh_c, T *c_next, T *h_next,
                       const kernels::PackedB<T> *ih_t = nullptr,
                       const kernels::PackedB<T> *hh_t = nullptr) {
  const std::size_t hidden = w.hidden, g = 4 * hidden;
  if (ih_t)
    linear_forward(rows, x, ldx, *ih_t, w.bias_ih, gates, g);
  else
    linear_forward(rows, w.input, g, x, ldx, w.weight_ih, w.input, w.bias_ih, gates, g);
  if (hh_t)
    linear_forward(rows, h, hidden, *hh_t, w.bias_hh, gates, g, true);
  else
    linear_forward(rows, hidden, g, h, hidden, w.weight_hh, hidden, w.bias_hh, gates, g, true);
  for (std::size_t r = 0; r < rows; ++r) {
    T *gate = gates + r * g;
    kernels::sigmoid_in_place(gate, 2 * hidden); // i, f
    kernels::tanh_in_place(gate + 2 * hidden, hidden);
    kernels::sigmoid_in_place(gate + 3 * hidden, hidden);
    const T *c_r = c + r * hidden;
    T *c_out = c_next + r * hidden, *t = tanh_c + r * hidden;
    for (std::size_t k = 0; k < hidden; ++k) {
      c_out[k] = gate[hidden + k] * c_r[k] + gate[k] * gate[2 * hidden + k];
      t[k] = c_out[k];
    }
    kernels::tanh_in_place(t, hidden);
    for (std::size_t k = 0; k < hidden; ++k)
      h_next[r * hidden + k] = gate[3 * hidden + k] * t[k];
  }
}

// Back through one step, from the gradients at h' and c' (rows x H each): writes the gradient at
// the gates' pre-activations (rows x 4H), at c (dc_prev) and at h (dh_prev = d_gates W_hh). hh,
// when given, is W_hh packed (pack); the same bits.
template <class T>
void lstm_cell_backward(const LstmWeights<const T> &w, std::size_t rows, const T *dh_next,
                        const T *dc_next, const T *c, const T *gates, const T *tanh_c, T *d_gates,
                        T *dc_prev, T *dh_prev, const kernels::PackedB<T> *hh = nullptr) {
  const std::size_t hidden = w.hidden, g = 4 * hidden;
  for (std::size_t r = 0; r < rows; ++r) {
    const T *gate = gates + r * g, *t = tanh_c + r * hidden, *c_r = c + r * hidden;
    T *d = d_gates + r * g;
    for (std::size_t k = 0; k < hidden; ++k) {
      const T i = gate[k], f = gate[hidden + k], cell = gate[2 * hidden + k],
              o = gate[3 * hidden + k];
      const T dh = dh_next[r * hidden + k];
      const T dc = dc_next[r * hidden + k] + dh * o * (T(1) - t[k] * t[k]);
      d[k] = dc * cell * i * (T(1) - i);
      d[hidden + k] = dc * c_r[k] * f * (T(1) - f);
      d[2 * hidden + k] = dc * i * (T(1) - cell * cell);
      d[3 * hidden + k] = dh * t[k] * o * (T(1) - o);
      dc_prev[r * hidden + k] = dc * f;
    }
  }
  if (hh)
    kernels::gemm_packed(rows, d_gates, g, *hh, dh_prev, hidden);
  else
    kernels::gemm_ab(rows, hidden, g, d_gates, g, w.weight_hh, hidden, dh_prev, hidden);
}

// The weights' gradients from d_gates of `rows` rows (all steps at once), with their inputs x
// (stride ldx) and previous states h (rows x H); dx = d_gates W_ih when dx is given.
template <class T>
void lstm_weight_backward(const LstmWeights<T> &gradients, const LstmWeights<const T> &w,
                          std::size_t rows, const T *x, std::size_t ldx, const T *h,
                          const T *d_gates, T *dx, std::size_t lddx) {
  const std::size_t hidden = w.hidden, g = 4 * hidden;
  linear_backward(rows, w.input, g, x, ldx, w.weight_ih, w.input, d_gates, g, gradients.weight_ih,
                  gradients.bias_ih, dx, lddx);
  linear_backward(rows, hidden, g, h, hidden, w.weight_hh, hidden, d_gates, g, gradients.weight_hh,
                  gradients.bias_hh, static_cast<T *>(nullptr), 0);
}

} // namespace attention::nn
