// What a layer declares about each of its parameters, so that a model can lay them out in one
// flat buffer and initialise them without knowing the layer.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attention::nn {

// PyTorch's name within the layer's module ("weight_ih_l0"), its shape, and PyTorch's default
// initial distribution: U(-bound, bound), or N(0, 1) when bound is 0; or, when `constant` is set,
// that value everywhere, drawing nothing (nn.LayerNorm's ones and zeros, nn.MultiheadAttention's
// zero biases, and the state_dict's buffers that a model keeps: batch_norm.hpp's running
// statistics).
struct ParameterSpec {
  std::string name;
  std::vector<std::size_t> shape;
  double bound;
  std::optional<double> constant = std::nullopt;
};

inline ParameterSpec constant_parameter(std::string name, std::vector<std::size_t> shape,
                                        double value) {
  return {std::move(name), std::move(shape), 0, value};
}

// The specs of a submodule, named as in its parent's state_dict ("decoder.gru.weight_ih_l0").
inline std::vector<ParameterSpec> prefixed(const std::string &module,
                                           std::vector<ParameterSpec> specs) {
  for (auto &spec : specs)
    spec.name = module + "." + spec.name;
  return specs;
}

// nn.Linear's and nn.GRU's default bound, 1/sqrt(fan).
inline double uniform_bound(std::size_t fan) { return 1 / std::sqrt(double(fan)); }

// nn.init.xavier_uniform_'s bound (gain 1) for a matrix of `rows` x `cols`: PyTorch's fan_in is
// its columns, fan_out its rows, and the bound sqrt(6 / (fan_in + fan_out)).
inline double xavier_bound(std::size_t rows, std::size_t cols) {
  return std::sqrt(6.0 / double(rows + cols));
}

} // namespace attention::nn
