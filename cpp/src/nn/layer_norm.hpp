// nn.LayerNorm(width) over rows: y = (x - mean) / sqrt(var + eps) * weight + bias, the mean and
// the biased variance over each row's `width` values, eps 1e-5 (PyTorch's default). Rows are
// independent, so a padded batch needs no mask: padding rows are normalised too, as PyTorch
// normalises them, and their gradients are whatever flows into them (zero from a masked loss).
#pragma once

#include <cmath>

#include "nn/parameter_spec.hpp"

namespace attention::nn {

constexpr double layer_norm_eps = 1e-5;

// weight ones, bias zeros, as nn.LayerNorm initialises them.
inline std::vector<ParameterSpec> layer_norm_parameters(std::size_t width) {
  return {constant_parameter("weight", {width}, 1), constant_parameter("bias", {width}, 0)};
}

// y (rows x width) from x; keeps x̂ = (x - mean) / σ (rows x width) and 1 / σ (rows) for the
// backward pass. y may be x.
template <class T>
void layer_norm_forward(std::size_t rows, std::size_t width, const T *x, const T *weight,
                        const T *bias, T *normalised, T *inverse_std, T *y) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T *row = x + r * width;
    T *xhat = normalised + r * width;
    T mean = 0;
    for (std::size_t i = 0; i < width; ++i)
      mean += row[i];
    mean /= static_cast<T>(width);
    T variance = 0;
    for (std::size_t i = 0; i < width; ++i) {
      xhat[i] = row[i] - mean;
      variance += xhat[i] * xhat[i];
    }
    variance /= static_cast<T>(width);
    const T inverse = T(1) / std::sqrt(variance + static_cast<T>(layer_norm_eps));
    inverse_std[r] = inverse;
    T *out = y + r * width;
    for (std::size_t i = 0; i < width; ++i) {
      xhat[i] *= inverse;
      out[i] = xhat[i] * weight[i] + bias[i];
    }
  }
}

// From dy: d_weight += Σ_rows dy ⊙ x̂, d_bias += Σ_rows dy, and
// dx = (g - mean(g) - x̂ mean(g ⊙ x̂)) / σ for g = dy ⊙ weight. dx may be dy.
template <class T>
void layer_norm_backward(std::size_t rows, std::size_t width, const T *normalised,
                         const T *inverse_std, const T *weight, const T *dy, T *d_weight, T *d_bias,
                         T *dx) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T *xhat = normalised + r * width, *d = dy + r * width;
    T mean_g = 0, mean_gx = 0;
    for (std::size_t i = 0; i < width; ++i) {
      const T g = d[i] * weight[i];
      mean_g += g;
      mean_gx += g * xhat[i];
      d_weight[i] += d[i] * xhat[i];
      d_bias[i] += d[i];
    }
    mean_g /= static_cast<T>(width);
    mean_gx /= static_cast<T>(width);
    T *out = dx + r * width;
    for (std::size_t i = 0; i < width; ++i)
      out[i] = (d[i] * weight[i] - mean_g - xhat[i] * mean_gx) * inverse_std[r];
  }
}

} // namespace attention::nn
