// What the translation models' networks (encoder-decoders over sentence pairs) share over a padded
// minibatch, time-major (row t * batch + k is pair k at step t): the batch's sources, decoder
// inputs and targets, its logits and their softmax, guided alignment's weights, teacher forcing and
// its cross-entropy. Network, the network deriving from it, has encode(p) (the sources) and
// decode(p, t0, t1) (decoder steps [t0, t1), their inputs set), which forward runs over the whole
// batch.
#pragma once

#include <algorithm>
#include <vector>

#include "attention/types.hpp"
#include "models/checks.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/guided_alignment.hpp"

namespace attention::models {

template <class T, class Network> struct TranslationNetwork {
  explicit TranslationNetwork(std::size_t target_vocab) : v(target_vocab) {}

  // A padded batch of sources (n x batch, padded with <eos> as the PyTorch reference pads them) and
  // `steps` decoder steps, their inputs <sos> until set_targets or a decoding step sets them, no
  // targets and no guide.
  void set_sources(const std::vector<const std::vector<TokenId> *> &batch_sources,
                   std::size_t decoder_steps) {
    batch = batch_sources.size();
    steps = decoder_steps;
    n = pad_time_major(batch_sources, source_lengths, sources);
    inputs.assign(steps * batch, TokenId(0));
    targets.clear();
    guide.clear();
  }
  // Teacher forcing: decoder inputs (<sos>, then each target but its last token) and targets
  // (padded with -1, which the loss ignores).
  void set_targets(const std::vector<const std::vector<TokenId> *> &batch_targets, TokenId sos) {
    targets.assign(steps * batch, TokenId(-1));
    for (std::size_t k = 0; k < batch; ++k) {
      const auto &target = *batch_targets[k];
      for (std::size_t t = 0; t < target.size(); ++t) {
        targets[t * batch + k] = target[t];
        inputs[t * batch + k] = t == 0 ? sos : target[t - 1];
      }
    }
  }
  // Guided alignment of the batch: per pair (null or empty for none), per target token, the source
  // positions its attention is guided to; `weight` is λ.
  void set_guide(const std::vector<const nn::Links *> &guides, T weight) {
    guide.set(guides, steps, n, weight);
  }

  // Teacher forcing of the batch set by begin and set_targets.
  void forward(const T *p) {
    Network &network = static_cast<Network &>(*this);
    network.encode(p);
    network.decode(p, 0, steps);
  }
  nn::CrossEntropy cross_entropy() {
    return nn::cross_entropy_forward(steps * batch, v, logits.data(), targets.data(),
                                     probabilities.data());
  }
  const T *logits_at(std::size_t t) const { return logits.data() + t * batch * v; }

  std::size_t v; // the target vocabulary's size
  std::size_t batch = 0, n = 0, steps = 0;
  std::vector<TokenId> sources, inputs, targets;
  std::vector<std::size_t> source_lengths;
  std::vector<T> logits, probabilities; // steps x batch x V
  nn::GuidedAlignment<T> guide;
};

} // namespace attention::models
