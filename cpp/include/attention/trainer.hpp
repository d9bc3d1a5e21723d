// One training loop for every model: seeded shuffled minibatches, Adam with global-norm clipping,
// a stop on a non-finite loss that keeps the last finite parameters, and an evaluation cached by
// the parameters it was computed from. A model plugs in through one callback that turns example
// indices into its loss and gradients (each kind's session plugs in this way).
//
// Minibatches come from the training split in an order shuffled from the seed, reproducible in
// numpy: r = np.random.RandomState(seed); for each epoch, order = list(range(n)) and for
// i = n - 1 … 1: j = r.randint(i + 1); swap order[i], order[j] (Fisher–Yates); then consecutive
// minibatches of `batch` examples, and a new shuffle (the stream continuing) when fewer than
// `batch` remain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "numpy_random.hpp"
#include "optimizer.hpp"
#include "parameters.hpp"

namespace attention {

// Training's limits (the JavaScript API's too) and the default clipping.
constexpr std::size_t max_train_steps = 1'000'000;
constexpr double max_learning_rate = 1e30;
constexpr double default_max_norm = 1.0;

template <class T> struct TrainResult {
  std::size_t step; // optimiser steps taken since the trainer was made
  T loss;           // of the last minibatch
};

template <class T> class Trainer {
public:
  // The mean loss of the training examples at these indices, and its gradients written over
  // `gradients` (zeroed before the call). Returning a non-finite loss, or throwing InputError
  // blaming "parameters" (the models' word for a loss that overflows T), stops training.
  using LossAndGradients =
      std::function<T(const std::vector<std::size_t> &examples, ParameterSet<T> &gradients)>;

  // For parameters of `layout`, trained on `examples` examples shuffled from numpy's `seed`;
  // `noun` names the examples in messages ("pairs").
  Trainer(ParameterLayout layout, std::size_t examples, std::int64_t seed,
          std::string noun = "examples");

  // `steps` Adam steps on `parameters` (of the trainer's layout); returns the step count and the
  // last minibatch's loss. InputError blames "steps", "batch", "learningRate" when out of range.
  // When a loss, a gradient or the parameters stop being finite, throws InputError blaming
  // "learningRate", with the parameters of the last finite step kept and Adam's moments reset.
  TrainResult<T> train(ParameterSet<T> &parameters, std::size_t steps, std::size_t batch,
                       double learning_rate, double max_norm,
                       const LossAndGradients &loss_and_gradients);

  std::size_t steps() const { return steps_; }

private:
  void shuffle();

  ParameterLayout layout_;
  std::size_t examples_;
  std::string noun_;
  NumpyRandomState random_;
  std::vector<std::size_t> order_, minibatch_;
  std::size_t next_ = 0, steps_ = 0;
  Adam<T> adam_; // made with gradients_ at the first step
  ParameterSet<T> gradients_;
  std::vector<T> last_; // the parameters before the current step
};

// FNV-1a over the parameters' bytes: some 20 µs, against an evaluation's tens of milliseconds.
template <class T> std::uint64_t parameter_hash(const ParameterSet<T> &parameters);

// An evaluation of a split computed again only when the parameters changed (a walkthrough that
// compares models asks for it at every edit), tallied over the examples a part at a time:
// `part(tally, first)` adds the examples from `first` to the kind's tally (a `Tally`, made anew
// for new parameters) and returns where the next part starts, `finish(tally)` makes the result
// once all `total` are in. advance() tallies one part (so that a page can keep each of its tasks
// short) and says whether the result is ready. Parts in any number give the same bits as one.
template <class Result> class EvaluationCache {
public:
  template <class Tally, class T, class Part, class Finish>
  bool advance(const ParameterSet<T> &parameters, std::size_t total, Part &&part, Finish &&finish) {
    const std::uint64_t hash = parameter_hash(parameters);
    if (hash != hash_ || (!tally_ && !result_)) {
      result_.reset();
      tally_ = std::make_shared<Tally>();
      next_ = 0;
      hash_ = hash;
    }
    if (result_)
      return true;
    Tally &tally = *std::static_pointer_cast<Tally>(tally_);
    if (next_ < total)
      next_ = part(tally, next_);
    if (next_ < total)
      return false;
    result_ = finish(tally);
    tally_.reset();
    return true;
  }

  // The result, once advance() has returned true.
  const Result &result() const { return *result_; }

private:
  std::uint64_t hash_ = 0;
  std::optional<Result> result_;
  std::shared_ptr<void> tally_; // the parts so far (a kind's own type, kept out of its header)
  std::size_t next_ = 0;
};

extern template class Trainer<float>;
extern template class Trainer<double>;
extern template std::uint64_t parameter_hash<float>(const ParameterSet<float> &);
extern template std::uint64_t parameter_hash<double>(const ParameterSet<double> &);

} // namespace attention
