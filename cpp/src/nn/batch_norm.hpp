// nn.BatchNorm2d(channels) (eps 1e-5, momentum 0.1) over channels-last images (conv2d.hpp's
// layout: `rows` pixels of every image of the batch, `channels` values each). In training mode
// each channel is normalised by its mean and biased variance over the batch's pixels (N, H, W),
// then y = x̂ weight + bias, and the running statistics move towards the batch's; in eval mode
// the running statistics normalise instead.
//
// PyTorch keeps running_mean, running_var and num_batches_tracked as buffers, in the state_dict
// after weight and bias. They are declared here among the parameters, so a model holds them in its
// flat parameters: its files and state_dicts keep them under PyTorch's names, the evaluation
// cache's hash sees them change, and a diverged step's restore restores them with the weights.
// Their gradient is always 0, and Adam moves a value of zero gradient and zero moments by exactly
// 0, so only batch_norm_update_running changes them.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/parameter_spec.hpp"

namespace attention::nn {

constexpr double batch_norm_eps = 1e-5, batch_norm_momentum = 0.1;

// In state_dict order: weight ones and bias zeros, as nn.BatchNorm2d initialises them, then the
// buffers as it starts them (num_batches_tracked a scalar, shape [], as PyTorch's).
inline std::vector<ParameterSpec> batch_norm_parameters(std::size_t channels) {
  return {constant_parameter("weight", {channels}, 1), constant_parameter("bias", {channels}, 0),
          constant_parameter("running_mean", {channels}, 0),
          constant_parameter("running_var", {channels}, 1),
          constant_parameter("num_batches_tracked", {}, 0)};
}

// Training mode: y (rows x channels) from x; writes each channel's batch mean and biased variance
// (for batch_norm_update_running), and keeps x̂ (rows x channels) and 1 / σ (channels) for the
// backward pass. y may be x. The loops run along the channels of a row, contiguous.
template <class T>
void batch_norm_forward(std::size_t rows, std::size_t channels, const T *x, const T *weight,
                        const T *bias, T *mean, T *variance, T *normalised, T *inverse_std, T *y) {
  const T n = static_cast<T>(rows);
  std::fill(mean, mean + channels, T(0));
  std::fill(variance, variance + channels, T(0));
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < channels; ++c)
      mean[c] += x[r * channels + c];
  for (std::size_t c = 0; c < channels; ++c)
    mean[c] /= n;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < channels; ++c) {
      const T centred = x[r * channels + c] - mean[c];
      normalised[r * channels + c] = centred;
      variance[c] += centred * centred;
    }
  for (std::size_t c = 0; c < channels; ++c) {
    variance[c] /= n;
    inverse_std[c] = T(1) / std::sqrt(variance[c] + static_cast<T>(batch_norm_eps));
  }
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < channels; ++c) {
      T &xhat = normalised[r * channels + c];
      xhat *= inverse_std[c];
      y[r * channels + c] = xhat * weight[c] + bias[c];
    }
}

// After a training-mode forward over `rows` (at least 2: PyTorch refuses one value per channel),
// as PyTorch: running = (1 - momentum) running + momentum batch, the variance unbiased
// (rows / (rows - 1) times the biased one), and one more batch tracked.
template <class T>
void batch_norm_update_running(std::size_t rows, std::size_t channels, const T *mean,
                               const T *variance, T *running_mean, T *running_var,
                               T *num_batches_tracked) {
  const T momentum = static_cast<T>(batch_norm_momentum);
  const T correction = static_cast<T>(rows) / static_cast<T>(rows - 1);
  for (std::size_t c = 0; c < channels; ++c) {
    running_mean[c] = momentum * mean[c] + (1 - momentum) * running_mean[c];
    running_var[c] = momentum * variance[c] * correction + (1 - momentum) * running_var[c];
  }
  *num_batches_tracked += 1;
}

// Eval mode: y = (x - running_mean) / sqrt(running_var + eps) weight + bias, as one scale and shift
// a channel. y may be x.
template <class T>
void batch_norm_eval_forward(std::size_t rows, std::size_t channels, const T *x, const T *weight,
                             const T *bias, const T *running_mean, const T *running_var, T *y) {
  std::vector<T> scale(channels), shift(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    scale[c] = weight[c] / std::sqrt(running_var[c] + static_cast<T>(batch_norm_eps));
    shift[c] = bias[c] - running_mean[c] * scale[c];
  }
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < channels; ++c)
      y[r * channels + c] = x[r * channels + c] * scale[c] + shift[c];
}

// Training mode, from dy: d_weight += Σ_rows dy ⊙ x̂, d_bias += Σ_rows dy, and
// dx = weight / σ (dy - mean(dy) - x̂ mean(dy ⊙ x̂)), the means over the rows: the batch's mean and
// variance depend on every row. dx may be dy.
template <class T>
void batch_norm_backward(std::size_t rows, std::size_t channels, const T *normalised,
                         const T *inverse_std, const T *weight, const T *dy, T *d_weight, T *d_bias,
                         T *dx) {
  // Σ dy and Σ dy ⊙ x̂ per channel, then their means
  std::vector<T> mean_dy(channels, T(0)), mean_dy_xhat(channels, T(0)), scale(channels);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < channels; ++c) {
      mean_dy[c] += dy[r * channels + c];
      mean_dy_xhat[c] += dy[r * channels + c] * normalised[r * channels + c];
    }
  const T n = static_cast<T>(rows);
  for (std::size_t c = 0; c < channels; ++c) {
    d_weight[c] += mean_dy_xhat[c];
    d_bias[c] += mean_dy[c];
    mean_dy[c] /= n;
    mean_dy_xhat[c] /= n;
    scale[c] = weight[c] * inverse_std[c];
  }
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < channels; ++c) {
      const std::size_t i = r * channels + c;
      dx[i] = scale[c] * (dy[i] - mean_dy[c] - normalised[i] * mean_dy_xhat[c]);
    }
}

} // namespace attention::nn
