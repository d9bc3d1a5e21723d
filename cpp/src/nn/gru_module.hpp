// nn.GRU(input, hidden, num_layers, bidirectional) over whole padded sequences, as an encoder runs
// it on a packed sequence (pack_padded_sequence): each layer and direction is a GruSequence; the
// backward direction runs over each item's own tokens reversed, so it starts at the item's last
// real token whatever the padding, and a layer above the first reads the directions' states side
// by side, [→h_j; ←h_j], as PyTorch's does.
//
// Time-major as GruSequence: row t * batch + b is item b at step t.
#pragma once

#include <algorithm>
#include <vector>

#include "attention/detail/parallel.hpp"
#include "nn/gru.hpp"

namespace attention::nn {

template <class T> class GruModule {
public:
  GruModule(std::size_t input, std::size_t hidden, std::size_t layers, bool bidirectional)
      : input_(input), hidden_(hidden), layers_(layers), directions_(bidirectional ? 2 : 1),
        sequences_(layers * directions_), reversed_(layers), outputs_(layers), d_inputs_(layers) {}

  // The width of the outputs: directions x hidden.
  std::size_t width() const { return directions_ * hidden_; }

  // The module over x (n x batch x input, read again by backward), item b's first lengths[b]
  // steps (1 … n; the array must outlive backward); `p` points at its parameters, laid out as
  // gru_parameters(input, hidden, layers, bidirectional).
  void forward(const T *p, std::size_t n, std::size_t batch, const std::size_t *lengths,
               const T *x) {
    n_ = n;
    batch_ = batch;
    lengths_ = lengths;
    x_ = x;
    if (directions_ == 2)
      reverse(x, input_, reversed_[0]);
    for (std::size_t layer = 0; layer < layers_; ++layer) {
      const std::size_t in = in_width(layer);
      grow(n * batch * width(), {&outputs_[layer]});
      // The directions run side by side, on two threads when there are: each has its own
      // sequence and writes its own half of the outputs.
      parallel::for_each(directions_, flops(layer), [&](std::size_t direction) {
        GruSequence<T> &sequence = sequences_[layer * directions_ + direction];
        const GruWeights<const T> w(p + offset(layer, direction), in, hidden_);
        const T *x_d = layer_input(layer, direction);
        sequence.begin(hidden_, n, batch, lengths, nullptr);
        sequence.project_inputs(w, 0, n, x_d, in, in);
        sequence.run(w, 0, n);
        // Outputs at original positions; zeros past an item's length, as pad_packed_sequence.
        for (std::size_t t = 0; t < n; ++t)
          for (std::size_t b = 0; b < batch; ++b) {
            T *out = outputs_[layer].data() + (t * batch + b) * width() + direction * hidden_;
            if (t >= lengths[b]) {
              std::fill(out, out + hidden_, T(0));
              continue;
            }
            const std::size_t step = direction ? lengths[b] - t : t + 1;
            const T *state = sequence.state(step) + b * hidden_;
            std::copy(state, state + hidden_, out);
          }
      });
      if (directions_ == 2 && layer + 1 < layers_)
        reverse(outputs_[layer].data(), width(), reversed_[layer + 1]);
    }
  }

  // The top layer's states, n x batch x width(): [→h_j; ←h_j] when bidirectional.
  const T *outputs() const { return outputs_.back().data(); }
  // Each item's last state (batch x hidden) of a layer and direction: the forward one after its
  // last token, the backward one after its first (←h_1).
  const T *last(std::size_t layer, std::size_t direction) const {
    return sequences_[layer * directions_ + direction].state(n_);
  }

  // From d_outputs (n x batch x width(), the gradient at outputs(); ignored past each item's
  // length) and d_last (per layer and direction, layer-major, the gradient at last(); null for
  // none): adds every parameter's gradient at `grad` (laid out as p) and writes dx (n x batch x
  // input) when given.
  void backward(const T *p, T *grad, const T *d_outputs, const std::vector<const T *> &d_last,
                T *dx) {
    const std::size_t rows = n_ * batch_;
    const T *d_layer = d_outputs;
    for (std::size_t layer = layers_; layer-- > 0;) {
      const std::size_t in = in_width(layer);
      std::vector<T> &d_in = d_inputs_[layer];
      d_in.assign(rows * in, T(0));
      // The directions side by side, as forward; their gradients at the input are then added in
      // order.
      parallel::for_each(directions_, 2 * flops(layer), [&](std::size_t direction) {
        GruSequence<T> &sequence = sequences_[layer * directions_ + direction];
        const std::size_t at = offset(layer, direction);
        // The gradient at this direction's states, in its own order of steps.
        gather(d_layer + direction * hidden_, width(), hidden_, direction == 1,
               d_states_[direction]);
        grow(rows * in, {&d_x_[direction]});
        sequence.backward(GruWeights<const T>(p + at, in, hidden_),
                          GruWeights<T>(grad + at, in, hidden_), n_, layer_input(layer, direction),
                          d_states_[direction].data(), d_last[layer * directions_ + direction],
                          d_x_[direction].data(), nullptr);
      });
      for (std::size_t direction = 0; direction < directions_; ++direction)
        for (std::size_t t = 0; t < n_; ++t)
          for (std::size_t b = 0; b < batch_; ++b) {
            if (t >= lengths_[b])
              continue;
            const std::size_t position = direction ? lengths_[b] - 1 - t : t;
            const T *from = d_x_[direction].data() + (t * batch_ + b) * in;
            T *to = d_in.data() + (position * batch_ + b) * in;
            for (std::size_t i = 0; i < in; ++i)
              to[i] += from[i];
          }
      d_layer = d_in.data();
    }
    if (dx)
      std::copy(d_layer, d_layer + rows * input_, dx);
  }

private:
  std::size_t in_width(std::size_t layer) const { return layer ? width() : input_; }
  // A layer's forward products, over both directions.
  double flops(std::size_t layer) const {
    return 6.0 * double(directions_ * n_ * batch_ * hidden_) * double(in_width(layer) + hidden_);
  }
  std::size_t offset(std::size_t layer, std::size_t direction) const {
    const std::size_t first = layer
                                  ? directions_ * gru_block_size(input_, hidden_) +
                                        (layer - 1) * directions_ * gru_block_size(width(), hidden_)
                                  : 0;
    return first + direction * gru_block_size(in_width(layer), hidden_);
  }
  // What a layer and direction reads: the layer's input, or for the backward direction each
  // item's tokens reversed.
  const T *layer_input(std::size_t layer, std::size_t direction) const {
    if (direction)
      return reversed_[layer].data();
    return layer ? outputs_[layer - 1].data() : x_;
  }
  // x reversed as the backward direction reads it: see gather.
  void reverse(const T *x, std::size_t width, std::vector<T> &out) {
    gather(x, width, width, true, out);
  }
  // out (n x batch x width) = each item's first lengths[b] rows of `source` (`stride` apart, the
  // first `width` values of each), in reverse order when `reversed`, zeros past its length.
  void gather(const T *source, std::size_t stride, std::size_t width, bool reversed,
              std::vector<T> &out) {
    grow(n_ * batch_ * width, {&out});
    for (std::size_t t = 0; t < n_; ++t)
      for (std::size_t b = 0; b < batch_; ++b) {
        T *to = out.data() + (t * batch_ + b) * width;
        if (t >= lengths_[b]) {
          std::fill(to, to + width, T(0));
          continue;
        }
        const std::size_t position = reversed ? lengths_[b] - 1 - t : t;
        const T *from = source + (position * batch_ + b) * stride;
        std::copy(from, from + width, to);
      }
  }

  std::size_t input_, hidden_, layers_, directions_;
  std::size_t n_ = 0, batch_ = 0;
  const std::size_t *lengths_ = nullptr;
  const T *x_ = nullptr;
  std::vector<GruSequence<T>> sequences_; // layer-major: (layer, direction)
  // Per layer: its input reversed (bidirectional), its outputs, the gradient at its input.
  std::vector<std::vector<T>> reversed_, outputs_, d_inputs_;
  // Per direction: the gradients at its states and at its input.
  std::vector<T> d_states_[2], d_x_[2];
};

} // namespace attention::nn
