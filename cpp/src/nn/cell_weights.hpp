// What PyTorch's recurrent cells share (nn.GRU's layers, nn.LSTMCell): one block of four tensors,
// weight_ih (G·H x I), weight_hh (G·H x H), bias_ih and bias_hh (G·H), for G stacked gates (a
// GRU's 3, an LSTM's 4), each drawn from U(-1/sqrt(H), 1/sqrt(H)).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "nn/parameter_spec.hpp"

namespace attention::nn {

// The block's specs in state_dict order, each name ending in `suffix` (nn.GRU's "_l0_reverse").
inline std::vector<ParameterSpec> cell_parameters(std::size_t gates, std::size_t input,
                                                  std::size_t hidden,
                                                  const std::string &suffix = "") {
  const double bound = uniform_bound(hidden);
  return {{"weight_ih" + suffix, {gates * hidden, input}, bound},
          {"weight_hh" + suffix, {gates * hidden, hidden}, bound},
          {"bias_ih" + suffix, {gates * hidden}, bound},
          {"bias_hh" + suffix, {gates * hidden}, bound}};
}

// The four tensors of a block laid out as cell_parameters: its weights, or their gradients.
template <class T, std::size_t Gates> struct CellWeights {
  std::size_t input, hidden;
  T *weight_ih, *weight_hh, *bias_ih, *bias_hh;
  CellWeights(T *block, std::size_t input, std::size_t hidden)
      : input(input), hidden(hidden), weight_ih(block),
        weight_hh(weight_ih + Gates * hidden * input), bias_ih(weight_hh + Gates * hidden * hidden),
        bias_hh(bias_ih + Gates * hidden) {}
};

} // namespace attention::nn
