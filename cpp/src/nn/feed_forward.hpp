// The Transformer's position-wise feed-forward block, as nn.TransformerEncoderLayer and
// nn.TransformerDecoderLayer compose it (dropout 0, activation ReLU):
// y = linear2(relu(linear1(x))), linear1: width -> hidden, linear2: hidden -> width. Rows are
// independent, like a layer norm's.
#pragma once

#include <algorithm>

#include "nn/linear.hpp"

namespace attention::nn {

// linear1 then linear2, each with nn.Linear's defaults, as a layer's state_dict lists them.
inline std::vector<ParameterSpec> feed_forward_parameters(std::size_t width, std::size_t hidden) {
  auto specs = prefixed("linear1", linear_parameters(width, hidden));
  const auto second = prefixed("linear2", linear_parameters(hidden, width));
  specs.insert(specs.end(), second.begin(), second.end());
  return specs;
}

// The block's tensors laid out as feed_forward_parameters (or their gradients).
template <class T> struct FeedForwardWeights {
  std::size_t width, hidden;
  T *weight1, *bias1, *weight2, *bias2;
  FeedForwardWeights(T *block, std::size_t width, std::size_t hidden)
      : width(width), hidden(hidden), weight1(block), bias1(weight1 + hidden * width),
        weight2(bias1 + hidden), bias2(weight2 + width * hidden) {}
};

inline std::size_t feed_forward_size(std::size_t width, std::size_t hidden) {
  return 2 * width * hidden + hidden + width;
}

// y (rows x width) from x (rows x width); keeps the ReLU's outputs in activations (rows x hidden).
template <class T>
void feed_forward_forward(const FeedForwardWeights<const T> &w, std::size_t rows, const T *x,
                          T *activations, T *y) {
  linear_forward(rows, w.width, w.hidden, x, w.width, w.weight1, w.width, w.bias1, activations,
                 w.hidden);
  for (std::size_t i = 0; i < rows * w.hidden; ++i)
    activations[i] = std::max(activations[i], T(0));
  linear_forward(rows, w.hidden, w.width, activations, w.hidden, w.weight2, w.hidden, w.bias2, y,
                 w.width);
}

// From dy: adds the weights' gradients and writes dx; d_activations (rows x hidden) is working
// memory. ReLU's gradient is 0 where its output is 0, as PyTorch's (threshold_backward).
template <class T>
void feed_forward_backward(const FeedForwardWeights<const T> &w,
                           const FeedForwardWeights<T> &gradients, std::size_t rows, const T *x,
                           const T *activations, const T *dy, T *d_activations, T *dx) {
  linear_backward(rows, w.hidden, w.width, activations, w.hidden, w.weight2, w.hidden, dy, w.width,
                  gradients.weight2, gradients.bias2, d_activations, w.hidden);
  for (std::size_t i = 0; i < rows * w.hidden; ++i)
    if (!(activations[i] > T(0)))
      d_activations[i] = 0;
  linear_backward(rows, w.width, w.hidden, x, w.width, w.weight1, w.width, d_activations, w.hidden,
                  gradients.weight1, gradients.bias1, dx, w.width);
}

} // namespace attention::nn
