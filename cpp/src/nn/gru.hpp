// nn.GRU (one layer, gate order r, z, n) over a batch, one step and a sequence:
//   gi = W_ih x + b_ih, gh = W_hh h + b_hh, r = σ(gi_r + gh_r), z = σ(gi_z + gh_z),
//   n = tanh(gi_n + r ⊙ gh_n), h' = (1 - z) ⊙ n + z ⊙ h, computed as (h - n) ⊙ z + n.
// A sequence is time-major (row t * batch + b is item b at step t), with PyTorch's packed-sequence
// semantics for padding: item b's state stops changing after its length.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "attention/detail/kernels.hpp"
#include "nn/buffers.hpp"
#include "nn/cell_weights.hpp"
#include "nn/linear.hpp"

namespace attention::nn {

// nn.GRU(input, hidden, num_layers=layers, bidirectional=…)'s parameters in state_dict order: for
// each layer, each direction (the backward one named *_reverse), a block of four tensors. A layer
// above the first reads the directions' states side by side (directions x hidden wide).
inline std::vector<ParameterSpec> gru_parameters(std::size_t input, std::size_t hidden,
                                                 std::size_t layers = 1,
                                                 bool bidirectional = false) {
  const std::size_t directions = bidirectional ? 2 : 1;
  std::vector<ParameterSpec> specs;
  for (std::size_t layer = 0; layer < layers; ++layer)
    for (std::size_t direction = 0; direction < directions; ++direction) {
      const std::string suffix = "_l" + std::to_string(layer) + (direction ? "_reverse" : "");
      const std::size_t in = layer ? directions * hidden : input;
      const auto block = cell_parameters(3, in, hidden, suffix);
      specs.insert(specs.end(), block.begin(), block.end());
    }
  return specs;
}

// The values of one such block: input and hidden widths' weights and biases.
inline std::size_t gru_block_size(std::size_t input, std::size_t hidden) {
  return 3 * hidden * (input + hidden + 2);
}

// The four tensors of a block laid out as gru_parameters (a state_dict's order): its weights, or
// their gradients.
template <class T> using GruWeights = CellWeights<T, 3>;

// One step of `rows` items from their input projections gi (rows x 3H) and states h (rows x H):
// keeps gh and the gates (r|z|n, rows x 3H each) for the backward pass and writes h_next. Rows
// where `active` (when given) is 0 keep their state. hh_t, when given, is W_hh^T packed
// (pack_transposed), for a sequence that packs it once rather than at every step.
template <class T>
void gru_step_forward(const GruWeights<const T> &w, std::size_t rows, const T *gi, const T *h,
                      T *gh, T *gates, T *h_next, const std::uint8_t *active = nullptr,
                      const kernels::PackedB<T> *hh_t = nullptr) {
  const std::size_t hidden = w.hidden, g = 3 * hidden;
  if (hh_t)
    linear_forward(rows, h, hidden, *hh_t, w.bias_hh, gh, g);
  else
    linear_forward(rows, hidden, g, h, hidden, w.weight_hh, hidden, w.bias_hh, gh, g);
  for (std::size_t b = 0; b < rows; ++b) {
    const T *gi_b = gi + b * g, *gh_b = gh + b * g, *h_b = h + b * hidden;
    T *gates_b = gates + b * g, *next = h_next + b * hidden;
    if (active && !active[b]) {
      std::copy(h_b, h_b + hidden, next);
      continue;
    }
    for (std::size_t i = 0; i < 2 * hidden; ++i)
      gates_b[i] = gi_b[i] + gh_b[i];
    kernels::sigmoid_in_place(gates_b, 2 * hidden); // r, z
    T *n = gates_b + 2 * hidden;
    for (std::size_t i = 0; i < hidden; ++i)
      n[i] = gi_b[2 * hidden + i] + gates_b[i] * gh_b[2 * hidden + i];
    kernels::tanh_in_place(n, hidden);
    for (std::size_t i = 0; i < hidden; ++i)
      next[i] = (h_b[i] - n[i]) * gates_b[hidden + i] + n[i];
  }
}

// Back through one step: from dh (the gradient at h_next) writes the gradients at gi and gh and
// at h, dh ⊙ z + dgh W_hh, into dh_prev. An inactive row passes dh through unchanged. hh, when
// given, is W_hh packed (pack).
template <class T>
void gru_step_backward(const GruWeights<const T> &w, std::size_t rows, const T *dh, const T *h,
                       const T *gates, const T *gh, T *d_gi, T *d_gh, T *dh_prev,
                       const std::uint8_t *active = nullptr,
                       const kernels::PackedB<T> *hh = nullptr) {
  const std::size_t hidden = w.hidden, g = 3 * hidden;
  for (std::size_t b = 0; b < rows; ++b) {
    const T *dh_b = dh + b * hidden, *h_b = h + b * hidden, *gates_b = gates + b * g,
            *gh_b = gh + b * g;
    T *d_gi_b = d_gi + b * g, *d_gh_b = d_gh + b * g, *dh_prev_b = dh_prev + b * hidden;
    if (active && !active[b]) {
      std::fill(d_gi_b, d_gi_b + g, T(0));
      std::fill(d_gh_b, d_gh_b + g, T(0));
      std::copy(dh_b, dh_b + hidden, dh_prev_b);
      continue;
    }
    for (std::size_t i = 0; i < hidden; ++i) {
      const T r = gates_b[i], z = gates_b[hidden + i], n = gates_b[2 * hidden + i];
      const T dn = dh_b[i] * (T(1) - z) * (T(1) - n * n);
      const T dz = dh_b[i] * (h_b[i] - n) * z * (T(1) - z);
      const T dr = dn * gh_b[2 * hidden + i] * r * (T(1) - r);
      d_gi_b[i] = d_gh_b[i] = dr;
      d_gi_b[hidden + i] = d_gh_b[hidden + i] = dz;
      d_gi_b[2 * hidden + i] = dn;
      d_gh_b[2 * hidden + i] = dn * r;
      dh_prev_b[i] = dh_b[i] * z;
    }
  }
  if (hh)
    kernels::gemm_packed(rows, d_gh, g, *hh, dh_prev, hidden, true);
  else
    kernels::gemm_ab(rows, hidden, g, d_gh, g, w.weight_hh, hidden, dh_prev, hidden, true);
}

// The weights' gradients from d_gi and d_gh of `rows` rows (all steps of all items at once), with
// their inputs x (stride ldx) and previous states h_prev (rows x H).
template <class T>
void gru_weight_backward(const GruWeights<T> &gradients, std::size_t rows, const T *x,
                         std::size_t ldx, const T *h_prev, const T *d_gi, const T *d_gh) {
  const std::size_t hidden = gradients.hidden, g = 3 * hidden;
  kernels::gemm_atb(g, gradients.input, rows, d_gi, g, x, ldx, gradients.weight_ih, gradients.input,
                    true);
  add_column_sums(rows, g, d_gi, g, gradients.bias_ih);
  kernels::gemm_atb(g, hidden, rows, d_gh, g, h_prev, hidden, gradients.weight_hh, hidden, true);
  add_column_sums(rows, g, d_gh, g, gradients.bias_hh);
}

// A GRU over up to `steps` steps of a batch, keeping what the backward pass needs. Steps may run
// in blocks (a decoder feeding back its outputs runs one at a time), and the backward pass one step
// at a time when the gradient at a state depends on the step after it in other ways (the additive
// decoder's attention query).
template <class T> class GruSequence {
public:
  // Sizes the buffers; h0 (batch x H) is the initial state, zeros when null; item b runs
  // lengths[b] steps (all when lengths is null).
  void begin(std::size_t hidden, std::size_t steps, std::size_t batch, const std::size_t *lengths,
             const T *h0) {
    hidden_ = hidden;
    batch_ = batch;
    const std::size_t rows = steps * batch, g = 3 * hidden;
    grow(rows * g, {&gi_, &gh_, &gates_, &d_gi_, &d_gh_});
    grow((steps + 1) * batch * hidden, {&states_});
    carry_.resize(batch * hidden);
    dh_.resize(batch * hidden);
    active_.assign(rows, 1);
    if (lengths)
      for (std::size_t t = 0; t < steps; ++t)
        for (std::size_t b = 0; b < batch; ++b)
          active_[t * batch + b] = t < lengths[b];
    if (h0)
      std::copy(h0, h0 + batch * hidden, states_.begin());
    else
      std::fill(states_.begin(), states_.begin() + batch * hidden, T(0));
    packed_forward_ = packed_backward_ = packed_tail_ = packed_tail_t_ = false;
  }

  // gi = x W_ih^T + b_ih for steps [t0, t1): one product over all their rows (x: stride ldx,
  // `columns` of W_ih's columns from the first; the rest may be added later through
  // input_projections, as the additive decoder adds its context).
  void project_inputs(const GruWeights<const T> &w, std::size_t t0, std::size_t t1, const T *x,
                      std::size_t ldx, std::size_t columns) {
    const std::size_t g = 3 * hidden_;
    linear_forward((t1 - t0) * batch_, columns, g, x, ldx, w.weight_ih, w.input, w.bias_ih,
                   input_projections(t0), g);
  }
  T *input_projections(std::size_t t) { return gi_.data() + t * batch_ * 3 * hidden_; }

  // gi += x W_ih[:, first:]^T for step t (x: batch rows, stride ldx): an input known a step at a
  // time (the additive decoder's context). That slice of W_ih is packed at the first call after
  // begin, so `first` must stay the same until then.
  void add_input_projection(const GruWeights<const T> &w, std::size_t t, std::size_t first,
                            const T *x, std::size_t ldx) {
    if (!packed_tail_t_)
      tail_t_.pack_transposed(3 * hidden_, w.input - first, w.weight_ih + first, w.input);
    packed_tail_t_ = true;
    kernels::gemm_packed(batch_, x, ldx, tail_t_, input_projections(t), 3 * hidden_, true);
  }

  // Steps [t0, t1) from their input projections.
  // W_hh is packed at the first step after begin: the weights must not change until the
  // backward pass is done.
  void run(const GruWeights<const T> &w, std::size_t t0, std::size_t t1) {
    const std::size_t g = 3 * hidden_;
    if (!packed_forward_)
      hh_t_.pack_transposed(g, hidden_, w.weight_hh, hidden_);
    packed_forward_ = true;
    for (std::size_t t = t0; t < t1; ++t)
      gru_step_forward(w, batch_, gi_.data() + t * batch_ * g, state(t),
                       gh_.data() + t * batch_ * g, gates_.data() + t * batch_ * g, state(t + 1),
                       active_.data() + t * batch_, &hh_t_);
  }

  // h_t (batch x H) for t = 0 … steps: past an item's length, its last state.
  T *state(std::size_t t) { return states_.data() + t * batch_ * hidden_; }
  const T *state(std::size_t t) const { return states_.data() + t * batch_ * hidden_; }

  // Backward through step t: dh (batch x H) is the gradient at h_{t+1}; writes the one at h_t
  // into dh_prev and keeps d_gi, d_gh of the step.
  void step_backward(const GruWeights<const T> &w, std::size_t t, const T *dh, T *dh_prev) {
    const std::size_t g = 3 * hidden_, at = t * batch_ * g;
    if (!packed_backward_)
      hh_.pack(hidden_, g, w.weight_hh, hidden_);
    packed_backward_ = true;
    gru_step_backward(w, batch_, dh, state(t), gates_.data() + at, gh_.data() + at,
                      d_gi_.data() + at, d_gh_.data() + at, dh_prev, active_.data() + t * batch_,
                      &hh_);
  }
  const T *d_input_projections(std::size_t t) const {
    return d_gi_.data() + t * batch_ * 3 * hidden_;
  }
  // dx (batch rows, stride lddx) = step t's d_gi W_ih[:, first:], after its step_backward: the
  // gradient at an input given to add_input_projection (the same `first`).
  void input_gradient(const GruWeights<const T> &w, std::size_t t, std::size_t first, T *dx,
                      std::size_t lddx) {
    if (!packed_tail_)
      tail_.pack(w.input - first, 3 * hidden_, w.weight_ih + first, w.input);
    packed_tail_ = true;
    kernels::gemm_packed(batch_, d_input_projections(t), 3 * hidden_, tail_, dx, lddx);
  }

  // After step_backward of steps [0, steps): the weights' gradients in one product each, given
  // the steps' inputs x (stride ldx, W_ih's full width).
  void weight_backward(const GruWeights<T> &gradients, std::size_t steps, const T *x,
                       std::size_t ldx) const {
    gru_weight_backward(gradients, steps * batch_, x, ldx, state(0), d_gi_.data(), d_gh_.data());
  }

  // Backward through steps [0, steps) at once: d_outputs (steps x batch x H, null for none) is
  // the gradient at h_1 … h_steps from outside (ignored past each item's length, where PyTorch's
  // padded outputs are constants), d_last (batch x H, null for none) the one at the last states.
  // Adds the weights' gradients; writes dx (steps x batch x input) and d_h0 (batch x H) when given.
  void backward(const GruWeights<const T> &w, const GruWeights<T> &gradients, std::size_t steps,
                const T *x, const T *d_outputs, const T *d_last, T *dx, T *d_h0) {
    const std::size_t size = batch_ * hidden_;
    if (d_last)
      std::copy(d_last, d_last + size, carry_.begin());
    else
      std::fill(carry_.begin(), carry_.end(), T(0));
    for (std::size_t t = steps; t-- > 0;) {
      std::copy(carry_.begin(), carry_.end(), dh_.begin());
      if (d_outputs)
        for (std::size_t b = 0; b < batch_; ++b)
          if (active_[t * batch_ + b])
            for (std::size_t i = 0; i < hidden_; ++i)
              dh_[b * hidden_ + i] += d_outputs[(t * batch_ + b) * hidden_ + i];
      step_backward(w, t, dh_.data(), carry_.data());
    }
    weight_backward(gradients, steps, x, w.input);
    if (dx)
      kernels::gemm_ab(steps * batch_, w.input, 3 * hidden_, d_gi_.data(), 3 * hidden_, w.weight_ih,
                       w.input, dx, w.input);
    if (d_h0)
      std::copy(carry_.begin(), carry_.end(), d_h0);
  }

private:
  std::size_t hidden_ = 0, batch_ = 0;
  std::vector<T> gi_, gh_, gates_, states_, d_gi_, d_gh_, carry_, dh_;
  std::vector<std::uint8_t> active_; // steps x batch: whether item b still runs at step t
  // W_hh^T and W_hh packed once per sequence (the forward and backward recurrent products)
  // and W_ih[:, first:]^T and W_ih[:, first:] (add_input_projection, input_gradient)
  kernels::PackedB<T> hh_t_, hh_, tail_t_, tail_;
  bool packed_forward_ = false, packed_backward_ = false, packed_tail_t_ = false,
       packed_tail_ = false;
};

} // namespace attention::nn
