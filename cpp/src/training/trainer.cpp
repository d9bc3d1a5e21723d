#include "attention/trainer.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <utility>

#include "attention/detail/kernels.hpp"
#include "attention/detail/parallel.hpp"
#include "attention/errors.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;

// The passes over every parameter at every step, split on several threads for large models, in
// ranges of whole cache lines (16 floats).
constexpr std::size_t chunk = 16;

template <class T> bool all_finite(const T *x, std::size_t n) {
  std::atomic<bool> finite{true};
  parallel::for_ranges(n, chunk, double(n), [&](std::size_t begin, std::size_t end) {
    if (!kernels::all_finite(x + begin, end - begin))
      finite = false;
  });
  return finite;
}

template <class T> void copy(const T *from, std::size_t n, T *to) {
  parallel::for_ranges(n, chunk, double(n), [&](std::size_t begin, std::size_t end) {
    std::copy(from + begin, from + end, to + begin);
  });
}

template <class T> void zero(T *x, std::size_t n) {
  parallel::for_ranges(n, chunk, double(n), [&](std::size_t begin, std::size_t end) {
    std::fill(x + begin, x + end, T(0));
  });
}

} // namespace

template <class T>
Trainer<T>::Trainer(ParameterLayout layout, std::size_t examples, std::int64_t seed,
                    std::string noun)
    : layout_(std::move(layout)), examples_(examples), noun_(std::move(noun)), random_(seed) {}

template <class T> void Trainer<T>::shuffle() {
  order_ = random_.shuffled(examples_);
  next_ = 0;
}

template <class T>
TrainResult<T> Trainer<T>::train(ParameterSet<T> &parameters, std::size_t steps, std::size_t batch,
                                 double learning_rate, double max_norm,
                                 const LossAndGradients &loss_and_gradients) {
  if (steps < 1 || steps > max_train_steps)
    fail(Argument("steps"), "steps (", steps, ") must be from 1 to ", max_train_steps);
  if (batch < 1 || batch > examples_)
    fail(Argument("batch"), "batch (", batch, ") must be from 1 to ", examples_, ", the training ",
         noun_);
  if (!(learning_rate > 0) || !(learning_rate <= max_learning_rate))
    fail(Argument("learningRate"), "learningRate (", learning_rate,
         ") must be above 0 and at most ", max_learning_rate);
  if (gradients_.shared_layout() != layout_) { // at the first step: only trained models hold them
    adam_ = Adam<T>(layout_);
    gradients_ = ParameterSet<T>(layout_);
  }
  if (!parameters.same_layout(gradients_))
    fail(Argument("parameters"), "the parameters are not of the layout the trainer was made for");
  last_.resize(parameters.size());
  minibatch_.resize(batch);
  T loss = 0;
  // Stops training; `restore`: the last Adam step made a parameter non-finite, so the parameters
  // go back to those before it (otherwise they are still the last finite ones). Adam's moments,
  // which led astray, start afresh.
  const auto diverged = [&](const char *what, bool restore) {
    if (restore)
      std::copy(last_.begin(), last_.end(), parameters.data());
    adam_.reset();
    fail(Argument("learningRate"), "training stopped at step ", steps_ + 1, ": ", what, " (loss ",
         static_cast<double>(loss), "); the parameters are those of step ", steps_,
         ". Try a smaller learningRate (", learning_rate, ")");
  };
  for (std::size_t s = 0; s < steps; ++s) {
    if (order_.size() != examples_ || next_ + batch > examples_)
      shuffle();
    std::copy(order_.begin() + next_, order_.begin() + next_ + batch, minibatch_.begin());
    next_ += batch;
    zero(gradients_.data(), gradients_.size());
    try {
      loss = loss_and_gradients(minibatch_, gradients_);
    } catch (const InputError &error) {
      if (error.argument() != "parameters")
        throw;
      loss = std::numeric_limits<T>::infinity();
    }
    if (!std::isfinite(loss))
      diverged("the loss is not finite", false);
    if (!all_finite(gradients_.data(), gradients_.size()))
      diverged("a gradient is not finite", false);
    copy(parameters.data(), parameters.size(), last_.data());
    adam_.step(parameters, gradients_, static_cast<T>(learning_rate), static_cast<T>(max_norm));
    if (!all_finite(parameters.data(), parameters.size()))
      diverged("a parameter is not finite", true);
    ++steps_;
  }
  return {steps_, loss};
}

template <class T> std::uint64_t parameter_hash(const ParameterSet<T> &parameters) {
  const auto *byte = reinterpret_cast<const unsigned char *>(parameters.data());
  std::uint64_t hash = 14695981039346656037ULL;
  for (std::size_t i = 0; i < parameters.size() * sizeof(T); ++i)
    hash = (hash ^ byte[i]) * 1099511628211ULL;
  return hash;
}

template class Trainer<float>;
template class Trainer<double>;
template std::uint64_t parameter_hash<float>(const ParameterSet<float> &);
template std::uint64_t parameter_hash<double>(const ParameterSet<double> &);

} // namespace attention
