// A model's parameter layout and PyTorch's default initial values, made from its layers'
// parameter specs.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/parameters.hpp"
#include "nn/parameter_spec.hpp"

namespace attention {

// The specs' tensors one after the other.
ParameterLayout make_layout(const std::vector<nn::ParameterSpec> &specs);

// PyTorch's default distributions, drawn in the specs' (state_dict) order from numpy's
// RandomState(seed) (randn for N(0, 1), -b + 2b rand for U(-b, b), as numpy's uniform; a constant
// draws nothing): the same values on every platform and in numpy, though not the values of
// PyTorch's own generator.
template <class T>
void initialise(ParameterSet<T> &parameters, const std::vector<nn::ParameterSpec> &specs,
                std::int64_t seed);

extern template void initialise(ParameterSet<float> &, const std::vector<nn::ParameterSpec> &,
                                std::int64_t);
extern template void initialise(ParameterSet<double> &, const std::vector<nn::ParameterSpec> &,
                                std::int64_t);

} // namespace attention
