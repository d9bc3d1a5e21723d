// Captioner<T>: input checks, the loss and its gradients over a padded minibatch, and decoding
// (greedy over a batch, beam search) on the layers composed in network.hpp.
#include <algorithm>
#include <cmath>

#include "attention/softmax.hpp"
#include "models/beam_search.hpp"
#include "models/captioner/network.hpp"
#include "models/checks.hpp"
#include "models/model_parts.hpp"

namespace attention {

using namespace models;

namespace {

constexpr std::size_t max_width = 1024;                 // every layer's width
constexpr std::size_t max_vocab = std::size_t(1) << 16; // caption words
constexpr std::size_t max_image_side = 1024;

template <class T> void check_image(const std::vector<T> &image, const CaptionerConfig &config) {
  const std::size_t expected = 3 * config.height * config.width;
  if (image.size() != expected)
    fail(Argument("image"), "image holds ", image.size(), " values, not the ", expected, " of 3 x ",
         config.height, " x ", config.width);
  for (std::size_t i = 0; i < image.size(); ++i)
    if (!std::isfinite(image[i]))
      fail(Argument("image"), "image holds a non-finite value (", image[i], ") at flat index ", i);
}

void check_caption(const std::vector<TokenId> &caption, const CaptionerConfig &config,
                   const std::string &what) {
  check_output_tokens(caption, config.vocab, max_caption_steps, config.eos, "caption", what,
                      "vocabulary");
}

// Checks every sample and λ before any work; returns the longest caption.
template <class T>
std::size_t check_batch(const std::vector<CaptionSample<T>> &batch, const CaptionerConfig &config,
                        T regularization) {
  check_weight(double(regularization), "regularization");
  if (batch.empty())
    fail(Argument("batch"), "batch is empty");
  std::size_t longest = 0;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    check_image(batch[k].image, config);
    check_caption(batch[k].caption, config, "batch[" + std::to_string(k) + "].caption");
    longest = std::max(longest, batch[k].caption.size());
  }
  return longest;
}

// The batch teacher forced through the network, its batch norms in training mode or not: its
// cross-entropy and λ times the regulariser, checked to be finite in T.
template <class T, class Network>
std::pair<nn::CrossEntropy, double>
forward_batch(Network &network, const T *parameters, const std::vector<CaptionSample<T>> &batch,
              std::size_t steps, T regularization, bool training) {
  std::vector<const std::vector<T> *> images;
  std::vector<const std::vector<TokenId> *> captions;
  for (const auto &sample : batch) {
    images.push_back(&sample.image);
    captions.push_back(&sample.caption);
  }
  network.begin(images, steps);
  network.set_targets(captions);
  network.training = training;
  network.forward(parameters);
  const nn::CrossEntropy loss = network.cross_entropy();
  const double regularized =
      regularization > 0 ? double(regularization) * network.regularizer() : 0.0;
  require_finite_loss<T>(loss.sum);
  require_finite_loss<T>(loss.mean() + regularized);
  return {loss, regularized};
}

} // namespace

const char *normalization_name(CaptionerNormalization normalization) {
  return normalization == CaptionerNormalization::batch ? "batch" : "none";
}

CaptionerNormalization parse_normalization(const std::string &name, const char *argument) {
  return parse_choice(name, captioner_normalizations, normalization_name, argument,
                      "\"batch\" or \"none\"");
}

void validate(const CaptionerConfig &c) {
  check_size(c.vocab, 2, max_vocab, "vocab");
  for (auto [width, argument] : {std::pair{c.channels, "channels"},
                                 {c.annotation, "annotation"},
                                 {c.attention, "attention"},
                                 {c.embedding, "embedding"},
                                 {c.hidden, "hidden"}})
    check_size(width, 1, max_width, argument);
  for (auto [side, argument] : {std::pair{c.height, "height"}, {c.width, "width"}}) {
    check_size(side, 4, max_image_side, argument);
    if (side % 4)
      fail(Argument(argument), argument, " (", side,
           ") must be a multiple of 4: two poolings halve it twice");
  }
  check_seed(c.seed);
  check_special_tokens(c.sos, c.eos, c.vocab, "a token");
}

template <class T>
Captioner<T>::Captioner(const CaptionerConfig &config) : Base(config, captioner_parameter_specs) {}

template <class T>
T Captioner<T>::loss(const std::vector<CaptionSample<T>> &batch, T regularization) {
  const std::size_t steps = check_batch(batch, config_, regularization);
  const auto [loss, regularized] =
      forward_batch(*network_, parameters_.data(), batch, steps, regularization, true);
  return static_cast<T>(loss.mean() + regularized);
}

template <class T>
T Captioner<T>::loss_and_gradients(const std::vector<CaptionSample<T>> &batch,
                                   ParameterSet<T> &gradients, T regularization) {
  const std::size_t steps = check_batch(batch, config_, regularization);
  require_same_layout(gradients, parameters_);
  const auto [loss, regularized] =
      forward_batch(*network_, parameters_.data(), batch, steps, regularization, true);
  std::fill(gradients.data(), gradients.data() + gradients.size(), T(0));
  network_->backward(parameters_.data(), T(1) / static_cast<T>(loss.tokens), regularization,
                     gradients.data());
  return static_cast<T>(loss.mean() + regularized);
}

template <class T> void Captioner<T>::update_running_statistics() {
  network_->update_running(parameters_.data());
}

template <class T>
CaptionerTrace<T> Captioner<T>::trace(const std::vector<T> &image,
                                      const std::vector<TokenId> &caption) {
  check_image(image, config_);
  check_caption(caption, config_, "caption");
  network_->begin({&image}, caption.size());
  network_->set_targets({&caption});
  network_->training = false;
  network_->forward(parameters_.data());
  return network_->trace(caption);
}

template <class T>
std::vector<Matrix<T>> Captioner<T>::attention_weights(const std::vector<CaptionSample<T>> &batch) {
  const std::size_t steps = check_batch(batch, config_, T(0));
  forward_batch(*network_, parameters_.data(), batch, steps, T(0), false);
  const auto &w = *network_;
  std::vector<Matrix<T>> result;
  for (std::size_t b = 0; b < batch.size(); ++b) {
    auto weights = Matrix<T>::from_shape({batch[b].caption.size(), w.l});
    for (std::size_t t = 0; t < batch[b].caption.size(); ++t)
      std::copy(w.weights.data() + (t * w.batch + b) * w.l,
                w.weights.data() + (t * w.batch + b + 1) * w.l, weights.data() + t * w.l);
    result.push_back(std::move(weights));
  }
  return result;
}

template <class T>
std::vector<std::vector<TokenId>>
Captioner<T>::caption(const std::vector<const std::vector<T> *> &images, std::size_t max_length) {
  check_max_length(max_length, max_caption_steps);
  if (images.empty())
    fail(Argument("images"), "images is empty");
  for (const auto *image : images)
    check_image(*image, config_);
  auto &w = *network_;
  w.begin(images, max_length);
  w.training = false;
  w.encode(parameters_.data());
  std::vector<std::vector<TokenId>> outputs(images.size());
  std::size_t running = images.size();
  for (std::size_t t = 0; t < max_length && running; ++t) {
    for (std::size_t b = 0; b < images.size(); ++b) // an ended caption feeds <eos>, unread
      w.inputs[t * w.batch + b] = t == 0 ? config_.sos : outputs[b].back();
    w.decode(parameters_.data(), t, t + 1);
    for (std::size_t b = 0; b < images.size(); ++b) {
      if (!outputs[b].empty() && outputs[b].back() == config_.eos)
        continue;
      outputs[b].push_back(static_cast<TokenId>(argmax(w.logits_at(t) + b * w.v, w.v)));
      running -= outputs[b].back() == config_.eos;
    }
  }
  return outputs;
}

template <class T>
CaptionerBeamSearch<T> Captioner<T>::beam_search(const std::vector<T> &image,
                                                 std::size_t max_length, std::size_t width) {
  check_image(image, config_);
  check_max_length(max_length, max_caption_steps);
  check_beam_width(width, max_caption_beam);
  auto &w = *network_;
  w.begin({&image}, max_length);
  w.training = false;
  w.encode(parameters_.data());
  CaptionerBeamSearch<T> result;
  // the decoder's state: its (h, c)
  result.beams = recurrent_beam_search<CaptionHypothesis>(
      w, parameters_.data(), 2 * config_.hidden, max_length, width, config_.sos, config_.eos);
  // The best again, teacher forced, for its trace (the numbers it was found with); it may lack
  // <eos> (length-limited), so it is not checked as a caption.
  const auto &best = result.beams.front().output;
  w.begin({&image}, best.size());
  w.set_targets({&best});
  w.forward(parameters_.data());
  result.trace = w.trace(best);
  return result;
}

ATTENTION_INSTANTIATE_MODEL(Captioner);

} // namespace attention
