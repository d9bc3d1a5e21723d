// F.cross_entropy with ignore_index: the mean of -log softmax(logits)[target] over the rows that
// have a target (the targets' padding, a negative id, is ignored).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "attention/detail/kernels.hpp"
#include "attention/detail/parallel.hpp"

namespace attention::nn {

struct CrossEntropy {
  double sum = 0;         // in double: a float sum of many tokens loses digits
  std::size_t tokens = 0; // rows with a target
  double mean() const { return sum / double(tokens); }
};

// Softmax and cross-entropy cost about this many floating-point operations a value, for
// parallel::for_ranges (the max, exp's polynomial and the scaling).
constexpr double cross_entropy_flops = 30;
// Rows without a target (padding, time-major: most of them last) cost next to nothing: ranges of
// rows, four a thread, even the threads' shares out.
constexpr std::size_t cross_entropy_ranges = 4;

// Over `rows` rows of logits (rows x classes); keeps softmax(logits) in probabilities (rows x
// classes) for the backward pass, written by the exponential itself (no copy of the logits: with
// 5,000 classes these passes are a large share of a step). Rows may run on several threads; their
// losses are summed after, in row order.
template <class T>
CrossEntropy cross_entropy_forward(std::size_t rows, std::size_t classes, const T *logits,
                                   const std::int32_t *targets, T *probabilities) {
  std::vector<double> losses(rows);
  const auto softmax_rows = [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      if (targets[r] < 0)
        continue;
      const T *row = logits + r * classes;
      T *p = probabilities + r * classes;
      const T max = kernels::max_of(row, classes);
      const T sum = kernels::exp_into(row, p, classes, max);
      losses[r] = double((row[targets[r]] - max) - std::log(sum));
      const T inverse = T(1) / sum;
      for (std::size_t k = 0; k < classes; ++k)
        p[k] *= inverse;
    }
  };
  parallel::for_ranges(rows, 1, cross_entropy_flops * double(rows) * double(classes), softmax_rows,
                       cross_entropy_ranges);
  CrossEntropy result;
  for (std::size_t r = 0; r < rows; ++r)
    if (targets[r] >= 0) {
      result.sum -= losses[r];
      ++result.tokens;
    }
  return result;
}

// d_logits = scale (softmax - onehot(target)) at rows with a target, 0 at ignored ones; scale
// 1 / tokens gives the mean's gradient.
template <class T>
void cross_entropy_backward(std::size_t rows, std::size_t classes, const T *probabilities,
                            const std::int32_t *targets, T scale, T *d_logits) {
  const auto gradient_rows = [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      T *d = d_logits + r * classes;
      if (targets[r] < 0) {
        std::fill(d, d + classes, T(0));
        continue;
      }
      const T *p = probabilities + r * classes;
      for (std::size_t k = 0; k < classes; ++k)
        d[k] = scale * p[k];
      d[targets[r]] -= scale;
    }
  };
  parallel::for_ranges(rows, 1, double(rows) * double(classes), gradient_rows,
                       cross_entropy_ranges);
}

} // namespace attention::nn
