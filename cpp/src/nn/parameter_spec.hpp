// What a layer declares about each of its parameters, so that a model can lay them out in one
// flat buffer and initialise them without knowing the layer.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace attention::nn {

// PyTorch's name within the layer's module ("weight_ih_l0"), its shape, and PyTorch's default
// initial distribution: U(-bound, bound), or N(0, 1) when bound is 0.
struct ParameterSpec {
  std::string name;
  std::vector<std::size_t> shape;
  double bound;
};

// The specs of a submodule, named as in its parent's state_dict ("decoder.gru.weight_ih_l0").
inline std::vector<ParameterSpec> prefixed(const std::string &module,
                                           std::vector<ParameterSpec> specs) {
  for (auto &spec : specs)
    spec.name = module + "." + spec.name;
  return specs;
}

// nn.Linear's and nn.GRU's default bound, 1/sqrt(fan).
inline double uniform_bound(std::size_t fan) { return 1 / std::sqrt(double(fan)); }

} // namespace attention::nn
