// nn.Conv2d(in, out, 3, padding=1) (stride 1) over a batch of images, as im2col and one GEMM:
// every output pixel's 3 x 3 x in patch is a row of `patches`, and y = patches W^T + b.
//
// Images are channels-last (NHWC: row (n * height + y) * width + x holds that pixel's channels),
// so the output's rows are again pixels and a pooled grid's rows are annotations, with no
// transposition between layers. The weight keeps PyTorch's layout (out x in x 3 x 3), which is
// the patch's column order: column (c * 3 + ky) * 3 + kx reads channel c at (y + ky - 1,
// x + kx - 1), 0 outside the image.
#pragma once

#include <algorithm>

#include "nn/linear.hpp"

namespace attention::nn {

struct Conv2dShape {
  std::size_t batch, height, width, in, out;
  std::size_t rows() const { return batch * height * width; } // pixels
  std::size_t patch() const { return in * 9; }                // a patch's values
};

// The weight is He's U(±sqrt(6 / fan_in)) (kaiming_uniform_ for a ReLU), fan_in = in * 3 * 3; the
// bias keeps Conv2d's default U(±1/sqrt(fan_in)). Conv2d's default weight (a = sqrt(5)) is sqrt(6)
// times narrower: two such layers shrink a scene's contrast so far that the annotations of an
// image encoder start nearly alike (their spread over the grid 0.05, against 0.40 with He's), its
// attention gets no gradient, and it learned nothing of the image in 750 steps (issue 22).
inline std::vector<ParameterSpec> conv2d_parameters(std::size_t in, std::size_t out) {
  return {{"weight", {out, in, 3, 3}, std::sqrt(6.0) * uniform_bound(in * 9)},
          {"bias", {out}, uniform_bound(in * 9)}};
}

// patches (rows x 9 in) from x (rows x in).
template <class T> void im2col(const Conv2dShape &s, const T *x, T *patches) {
  const std::size_t k = s.patch();
  for (std::size_t n = 0; n < s.batch; ++n)
    for (std::size_t y = 0; y < s.height; ++y)
      for (std::size_t x0 = 0; x0 < s.width; ++x0) {
        T *row = patches + ((n * s.height + y) * s.width + x0) * k;
        for (std::size_t ky = 0; ky < 3; ++ky)
          for (std::size_t kx = 0; kx < 3; ++kx) {
            const std::size_t yy = y + ky - 1, xx = x0 + kx - 1; // wraps past 0: outside
            if (yy >= s.height || xx >= s.width) {
              for (std::size_t c = 0; c < s.in; ++c)
                row[c * 9 + ky * 3 + kx] = T(0);
              continue;
            }
            const T *pixel = x + ((n * s.height + yy) * s.width + xx) * s.in;
            for (std::size_t c = 0; c < s.in; ++c)
              row[c * 9 + ky * 3 + kx] = pixel[c];
          }
      }
}

// dx (rows x in) = the sum, over the patches that read each input value, of their gradients.
template <class T> void col2im(const Conv2dShape &s, const T *d_patches, T *dx) {
  const std::size_t k = s.patch();
  std::fill(dx, dx + s.rows() * s.in, T(0));
  for (std::size_t n = 0; n < s.batch; ++n)
    for (std::size_t y = 0; y < s.height; ++y)
      for (std::size_t x0 = 0; x0 < s.width; ++x0) {
        const T *row = d_patches + ((n * s.height + y) * s.width + x0) * k;
        for (std::size_t ky = 0; ky < 3; ++ky)
          for (std::size_t kx = 0; kx < 3; ++kx) {
            const std::size_t yy = y + ky - 1, xx = x0 + kx - 1;
            if (yy >= s.height || xx >= s.width)
              continue;
            T *pixel = dx + ((n * s.height + yy) * s.width + xx) * s.in;
            for (std::size_t c = 0; c < s.in; ++c)
              pixel[c] += row[c * 9 + ky * 3 + kx];
          }
      }
}

// y (rows x out) = conv(x); keeps x's patches (rows x 9 in) for the backward pass.
template <class T>
void conv2d_forward(const Conv2dShape &s, const T *x, const T *weight, const T *bias, T *patches,
                    T *y) {
  im2col(s, x, patches);
  linear_forward(s.rows(), s.patch(), s.out, patches, s.patch(), weight, s.patch(), bias, y, s.out);
}

// From dy (rows x out): d_weight += dy^T patches, d_bias += dy's column sums, and, when dx is
// given, dx = the input's gradient (d_patches, rows x 9 in, is its working buffer).
template <class T>
void conv2d_backward(const Conv2dShape &s, const T *patches, const T *weight, const T *dy,
                     T *d_weight, T *d_bias, T *d_patches, T *dx) {
  linear_backward(s.rows(), s.patch(), s.out, patches, s.patch(), weight, s.patch(), dy, s.out,
                  d_weight, d_bias, dx ? d_patches : nullptr, s.patch());
  if (dx)
    col2im(s, d_patches, dx);
}

} // namespace attention::nn
