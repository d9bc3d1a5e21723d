// Global-norm gradient clipping and Adam over a ParameterSet, as torch.nn.utils.clip_grad_norm_
// and torch.optim.Adam compute them, for any model.
#pragma once

#include <optional>

#include "parameters.hpp"

namespace attention {

// torch.nn.utils.clip_grad_norm_(…, max_norm): scales every gradient by
// max_norm / (total_norm + 1e-6) when that is below 1; returns total_norm, the 2-norm of all
// gradients together. A non-finite gradient throws InputError blaming "gradients".
template <class T> T clip_gradient_norm(ParameterSet<T> &gradients, T max_norm);

// torch.optim.Adam (β1 0.9, β2 0.999, ε 1e-8, no weight decay), keeping its moments and step count.
template <class T> class Adam {
public:
  Adam() = default;
  explicit Adam(ParameterLayout layout) : first_moment_(layout), second_moment_(layout) {}

  // Clips `gradients` in place to a global norm of max_norm (when given), then updates
  // `parameters`; returns the gradients' global norm before clipping. A non-finite gradient, or
  // gradients of another layout than the moments', throw InputError blaming "gradients",
  // parameters of another layout "parameters", and a bad learning rate "learningRate", changing
  // nothing.
  T step(ParameterSet<T> &parameters, ParameterSet<T> &gradients, T learning_rate,
         std::optional<T> max_norm);
  void reset();
  std::size_t steps() const { return steps_; }

private:
  ParameterSet<T> first_moment_, second_moment_;
  std::size_t steps_ = 0;
};

extern template float clip_gradient_norm<float>(ParameterSet<float> &, float);
extern template double clip_gradient_norm<double>(ParameterSet<double> &, double);
extern template class Adam<float>;
extern template class Adam<double>;

} // namespace attention
