// nn.Embedding: row t of the output is row tokens[t] of the weight (vocab x width).
#pragma once

#include <cstdint>
#include <cstring>

#include "nn/parameter_spec.hpp"

namespace attention::nn {

inline std::vector<ParameterSpec> embedding_parameters(std::size_t vocab, std::size_t width) {
  return {{"weight", {vocab, width}, 0}};
}

// out (count rows, stride ldo) = the weight's rows of the tokens.
template <class T>
void embedding_forward(const T *weight, std::size_t width, const std::int32_t *tokens,
                       std::size_t count, T *out, std::size_t ldo) {
  for (std::size_t t = 0; t < count; ++t)
    std::memcpy(out + t * ldo, weight + static_cast<std::size_t>(tokens[t]) * width,
                width * sizeof(T));
}

// d_weight's row of token t += row t of d_out (stride ld).
template <class T>
void embedding_backward(const T *d_out, std::size_t ld, std::size_t width,
                        const std::int32_t *tokens, std::size_t count, T *d_weight) {
  for (std::size_t t = 0; t < count; ++t) {
    T *row = d_weight + static_cast<std::size_t>(tokens[t]) * width;
    for (std::size_t i = 0; i < width; ++i)
      row[i] += d_out[t * ld + i];
  }
}

} // namespace attention::nn
