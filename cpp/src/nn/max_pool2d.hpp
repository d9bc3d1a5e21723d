// nn.MaxPool2d(2) over channels-last images (conv2d.hpp's layout) of even height and width: each
// output value is the largest of its 2 x 2 window, and its gradient goes to that one input. Ties
// go as PyTorch breaks them: to the first maximum in the window's row-major order.
#pragma once

#include <algorithm>
#include <cstdint>

namespace attention::nn {

// y (batch x height/2 x width/2 x channels) and, per output value, which of its window's four
// inputs (dy * 2 + dx) was the largest, for the backward pass.
template <class T>
void max_pool2d_forward(std::size_t batch, std::size_t height, std::size_t width,
                        std::size_t channels, const T *x, T *y, std::uint8_t *argmax) {
  const std::size_t out_h = height / 2, out_w = width / 2;
  for (std::size_t n = 0; n < batch; ++n)
    for (std::size_t oy = 0; oy < out_h; ++oy)
      for (std::size_t ox = 0; ox < out_w; ++ox) {
        const std::size_t out = ((n * out_h + oy) * out_w + ox) * channels;
        const T *top_left = x + ((n * height + 2 * oy) * width + 2 * ox) * channels;
        for (std::size_t c = 0; c < channels; ++c) {
          T best = top_left[c];
          std::uint8_t at = 0;
          for (std::uint8_t k = 1; k < 4; ++k) {
            const T value = top_left[((k / 2) * width + k % 2) * channels + c];
            if (value > best) { // strictly: an equal value later keeps the first
              best = value;
              at = k;
            }
          }
          y[out + c] = best;
          argmax[out + c] = at;
        }
      }
}

// dx (batch x height x width x channels) = dy at each window's largest input, 0 elsewhere.
template <class T>
void max_pool2d_backward(std::size_t batch, std::size_t height, std::size_t width,
                         std::size_t channels, const std::uint8_t *argmax, const T *dy, T *dx) {
  const std::size_t out_h = height / 2, out_w = width / 2;
  std::fill(dx, dx + batch * height * width * channels, T(0));
  for (std::size_t n = 0; n < batch; ++n)
    for (std::size_t oy = 0; oy < out_h; ++oy)
      for (std::size_t ox = 0; ox < out_w; ++ox) {
        const std::size_t out = ((n * out_h + oy) * out_w + ox) * channels;
        T *top_left = dx + ((n * height + 2 * oy) * width + 2 * ox) * channels;
        for (std::size_t c = 0; c < channels; ++c) {
          const std::size_t k = argmax[out + c];
          top_left[((k / 2) * width + k % 2) * channels + c] = dy[out + c];
        }
      }
}

} // namespace attention::nn
