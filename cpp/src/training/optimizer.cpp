#include "attention/optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention/detail/parallel.hpp"
#include "attention/errors.hpp"

namespace attention {

namespace {
// Elementwise loops over all parameters split in ranges of whole cache lines (64 bytes of float).
constexpr std::size_t chunk = 16;
// Adam's update costs about this many floating-point operations a parameter (a square root and a
// division among them), for parallel::for_ranges.
constexpr double adam_flops = 20;
} // namespace

template <class T> T clip_gradient_norm(ParameterSet<T> &gradients, T max_norm) {
  if (!std::isfinite(max_norm) || max_norm <= 0)
    detail::fail(detail::Argument("maxNorm"), "maxNorm (", max_norm,
                 ") must be a positive finite number");
  // As clip_grad_norm_: the norm of the tensors' norms, each summed in double here, a tensor a
  // task (on several threads), then added in the layout's order.
  const auto &layout = gradients.layout();
  std::vector<double> norms(layout.size());
  parallel::for_each(layout.size(), 3.0 * double(gradients.size()), [&](std::size_t t) {
    const auto &info = layout[t];
    const T *g = gradients.data() + info.offset;
    double sum = 0;
    for (std::size_t i = 0; i < info.size; ++i) {
      if (!std::isfinite(g[i]))
        detail::fail(detail::Argument("gradients"), "the gradient of ", info.name,
                     " holds a non-finite value (", g[i], ") at flat index ", i);
      sum += double(g[i]) * double(g[i]);
    }
    norms[t] = static_cast<T>(std::sqrt(sum));
  });
  double squares = 0;
  for (const double norm : norms)
    squares += norm * norm;
  const T total = static_cast<T>(std::sqrt(squares));
  const T coefficient = max_norm / (total + T(1e-6));
  const auto scale = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      gradients.data()[i] *= coefficient;
  };
  if (coefficient < 1)
    parallel::for_ranges(gradients.size(), chunk, double(gradients.size()), scale);
  return total;
}

template <class T>
T Adam<T>::step(ParameterSet<T> &parameters, ParameterSet<T> &gradients, T learning_rate,
                std::optional<T> max_norm) {
  // One layout pointer in the usual case, so the check costs nothing.
  if (!parameters.same_layout(first_moment_))
    detail::fail(detail::Argument("parameters"),
                 "the parameters are not of the layout Adam's moments were made for");
  if (!gradients.same_layout(first_moment_))
    detail::fail(detail::Argument("gradients"),
                 "gradients must have the model's parameters' names and shapes");
  if (!std::isfinite(learning_rate) || learning_rate < 0)
    detail::fail(detail::Argument("learningRate"), "learningRate (", learning_rate,
                 ") must be a finite number >= 0");
  // Without clipping, the norm is still measured (and the gradients checked for NaN), so that a
  // diverged step never reaches the parameters.
  const T norm = clip_gradient_norm(gradients, max_norm.value_or(std::numeric_limits<T>::max()));
  // torch.optim.Adam's single-tensor update, operation for operation.
  constexpr double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  ++steps_;
  const double step = static_cast<double>(steps_);
  const T step_size = static_cast<T>(double(learning_rate) / (1 - std::pow(beta1, step)));
  const T correction2_sqrt = static_cast<T>(std::sqrt(1 - std::pow(beta2, step)));
  const T b1 = T(beta1), b2 = T(beta2), one_minus_b1 = T(1 - beta1), one_minus_b2 = T(1 - beta2),
          eps = T(epsilon);
  T *param = parameters.data(), *m = first_moment_.data(), *v = second_moment_.data();
  const T *g = gradients.data();
  const auto update = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      m[i] = m[i] * b1 + one_minus_b1 * g[i];
      v[i] = v[i] * b2 + one_minus_b2 * g[i] * g[i];
      const T denominator = std::sqrt(v[i]) / correction2_sqrt + eps;
      param[i] += -step_size * (m[i] / denominator);
    }
  };
  parallel::for_ranges(parameters.size(), chunk, adam_flops * double(parameters.size()), update);
  return norm;
}

template <class T> void Adam<T>::reset() {
  std::fill(first_moment_.data(), first_moment_.data() + first_moment_.size(), T(0));
  std::fill(second_moment_.data(), second_moment_.data() + second_moment_.size(), T(0));
  steps_ = 0;
}

template float clip_gradient_norm<float>(ParameterSet<float> &, float);
template double clip_gradient_norm<double>(ParameterSet<double> &, double);
template class Adam<float>;
template class Adam<double>;

} // namespace attention
