// Transformer<T>: input checks, the loss and its gradients over a padded minibatch, and decoding
// (greedy, one or many sentences at a time, and beam search) on the layers composed in
// network.hpp.
#include <algorithm>
#include <cmath>

#include "attention/softmax.hpp"
#include "models/beam_search.hpp"
#include "models/checks.hpp"
#include "models/model_parts.hpp"
#include "models/transformer/network.hpp"

namespace attention {

using namespace models;

namespace {

constexpr std::size_t max_feedforward = 4 * max_transformer_width;
constexpr std::size_t max_vocab = std::size_t(1) << 20; // either vocabulary

} // namespace

void validate(const TransformerConfig &c) {
  check_vocabularies(c, max_vocab);
  check_size(c.model, 1, max_transformer_width, "model");
  check_size(c.heads, 1, c.model, "heads");
  if (c.model % c.heads)
    fail(Argument("heads"), "heads (", c.heads, ") must divide model (", c.model,
         "): each head is model / heads wide");
  check_size(c.encoder_layers, 1, max_transformer_layers, "encoderLayers");
  check_size(c.decoder_layers, 1, max_transformer_layers, "decoderLayers");
  check_size(c.feedforward, 1, max_feedforward, "feedforward");
  check_tables(c, c.model);
}

template <class T>
Transformer<T>::Transformer(const TransformerConfig &config)
    : Base(config, transformer_parameter_specs) {}

template <class T>
std::vector<TransformerTrace<T>> Transformer<T>::trace(const std::vector<SentencePair> &batch) {
  const std::size_t steps = check_batch(batch, config_, T(0));
  auto &w = *network_;
  w.begin(sources_of(batch), steps);
  w.set_targets(targets_of(batch), config_.sos);
  w.forward(parameters_.data());
  std::vector<TransformerTrace<T>> traces;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    traces.push_back(w.trace(k, batch[k].target));
  }
  return traces;
}

template <class T>
std::vector<std::vector<TokenId>>
Transformer<T>::translate(const std::vector<std::vector<TokenId>> &sources,
                          std::size_t max_length) {
  if (sources.empty())
    detail::fail(detail::Argument("sources"), "sources is empty");
  for (std::size_t k = 0; k < sources.size(); ++k)
    check_source(sources[k], config_, "sources[" + std::to_string(k) + "]");
  check_max_length(max_length, max_sentence_length);
  auto &w = *network_;
  std::vector<const std::vector<TokenId> *> batch;
  for (const auto &source : sources)
    batch.push_back(&source);
  w.begin(batch, max_length);
  w.encode(parameters_.data());
  std::vector<std::vector<TokenId>> outputs(sources.size());
  std::size_t ended = 0;
  for (std::size_t t = 0; t < max_length && ended < sources.size(); ++t) {
    for (std::size_t k = 0; k < sources.size(); ++k)
      w.inputs[t * w.batch + k] =
          t == 0 || outputs[k].back() == config_.eos ? config_.sos : outputs[k].back();
    w.decode(parameters_.data(), t, t + 1);
    for (std::size_t k = 0; k < sources.size(); ++k) {
      if (!outputs[k].empty() && outputs[k].back() == config_.eos)
        continue; // an ended sentence's rows run on, unread
      const T *row = w.logits_at(t) + k * w.v;
      outputs[k].push_back(static_cast<TokenId>(std::max_element(row, row + w.v) - row));
      ended += outputs[k].back() == config_.eos;
    }
  }
  return outputs;
}

template <class T>
TransformerTrace<T> Transformer<T>::translate(const std::vector<TokenId> &source,
                                              std::size_t max_length) {
  auto output = std::move(translate(std::vector<std::vector<TokenId>>{source}, max_length)[0]);
  // The steps decoded are the trace's: a causal decoder's step t is the same whatever follows.
  return network_->trace(0, std::move(output));
}

template <class T>
TransformerBeamSearch<T> Transformer<T>::beam_search(const std::vector<TokenId> &source,
                                                     std::size_t max_length, std::size_t width) {
  check_translation(source, config_, max_length, width);
  auto &w = *network_;
  std::size_t decoded = max_length, row = 0; // the step decoded, and its next live row
  TransformerBeamSearch<T> result;
  result.beams = search_beams<TranslationHypothesis>(
      max_length, w.v, width, config_.eos,
      [&](std::size_t t, const std::vector<TranslationHypothesis> &beams, std::size_t) {
        // At the step's first live hypothesis, all of them as one batch, each decoded over its t
        // tokens so far and one more step (no keys kept between steps: hypotheses reorder at
        // every step); then each its row, in order.
        if (decoded != t) {
          std::vector<std::size_t> live;
          for (std::size_t b = 0; b < beams.size(); ++b)
            if (!ended(beams[b], config_.eos))
              live.push_back(b);
          w.begin(std::vector<const std::vector<TokenId> *>(live.size(), &source), t + 1);
          for (std::size_t i = 0; i < live.size(); ++i)
            for (std::size_t s = 0; s <= t; ++s)
              w.inputs[s * live.size() + i] = s == 0 ? config_.sos : beams[live[i]].output[s - 1];
          w.forward(parameters_.data());
          decoded = t;
          row = 0;
        }
        return w.logits_at(t) + row++ * w.v;
      },
      [](const std::vector<BeamOrigin> &) {});
  // The best hypothesis teacher forced, for its trace; it may lack <eos> (length-limited), so it
  // is not checked as a target.
  const auto &best = result.beams.front().output;
  w.begin({&source}, best.size());
  w.set_targets({&best}, config_.sos);
  w.forward(parameters_.data());
  result.trace = w.trace(0, best);
  return result;
}

ATTENTION_INSTANTIATE_TRANSLATION_MODEL(Transformer);

} // namespace attention
