// Seq2seq<T>: input checks, the loss and its gradients over a padded minibatch, and decoding
// (greedy and beam search) on the layers composed in network.hpp.
#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/softmax.hpp"
#include "models/beam_search.hpp"
#include "models/checks.hpp"
#include "models/model_parts.hpp"
#include "models/seq2seq/network.hpp"

namespace attention {

using namespace models;

namespace {

constexpr std::size_t max_width = 1024;                 // embedding and hidden sizes
constexpr std::size_t max_vocab = std::size_t(1) << 20; // either vocabulary

// The network's trace of `target` teacher forced after `source` (checked by the caller, or not: a
// beam's best may lack <eos>).
template <class T>
Seq2seqTrace<T> forced_trace(Seq2seqNetwork<T> &w, const T *parameters,
                             const std::vector<TokenId> &source, const std::vector<TokenId> &target,
                             TokenId sos) {
  w.begin({&source}, target.size());
  w.set_targets({&target}, sos);
  w.forward(parameters);
  return w.trace(target);
}

} // namespace

const char *encoder_name(Encoder encoder) {
  return encoder == Encoder::bidirectional ? "bidirectional" : "forward";
}

Encoder parse_encoder(const std::string &name, const char *argument) {
  return parse_choice(name, encoders, encoder_name, argument, "forward or bidirectional");
}

void validate(const Seq2seqConfig &c) {
  check_vocabularies(c, max_vocab);
  check_size(c.embedding, 1, max_width, "embedding");
  check_size(c.hidden, 1, max_width, "hidden");
  check_size(c.layers, 1, max_layers, "layers");
  check_halves(c.encoder == Encoder::bidirectional, c.hidden,
               " for a bidirectional encoder: each direction has hidden / 2");
  check_tables(c, std::max(c.embedding, c.hidden));
}

template <class T>
Seq2seq<T>::Seq2seq(const Seq2seqConfig &config) : Base(config, seq2seq_parameter_specs) {}

template <class T>
Seq2seqTrace<T> Seq2seq<T>::trace(const std::vector<TokenId> &source,
                                  const std::vector<TokenId> &target) {
  check_source(source, config_, "source");
  check_target(target, config_, "target");
  return forced_trace(*network_, parameters_.data(), source, target, config_.sos);
}

template <class T>
Seq2seqTrace<T> Seq2seq<T>::translate(const std::vector<TokenId> &source, std::size_t max_length) {
  check_translation(source, config_, max_length);
  auto &w = *network_;
  w.begin({&source}, max_length);
  w.encode(parameters_.data());
  std::vector<TokenId> output;
  for (std::size_t t = 0; t < max_length; ++t) {
    w.inputs[t] = t == 0 ? config_.sos : output.back();
    w.decode(parameters_.data(), t, t + 1);
    output.push_back(static_cast<TokenId>(argmax(w.logits_at(t), w.v)));
    if (output.back() == config_.eos)
      break;
  }
  return w.trace(std::move(output));
}

template <class T>
Seq2seqBeamSearch<T> Seq2seq<T>::beam_search(const std::vector<TokenId> &source,
                                             std::size_t max_length, std::size_t width) {
  check_translation(source, config_, max_length, width);
  auto &w = *network_;
  w.begin({&source}, max_length);
  w.encode(parameters_.data());
  Seq2seqBeamSearch<T> result;
  result.beams = recurrent_beam_search<TranslationHypothesis>(
      w, parameters_.data(), config_.hidden * config_.layers, max_length, width, config_.sos,
      config_.eos);
  // The best hypothesis again, teacher forced, for its trace (the same numbers it was found with).
  // Its output may lack <eos> (length-limited), so it is not checked as a target.
  result.trace =
      forced_trace(w, parameters_.data(), source, result.beams.front().output, config_.sos);
  return result;
}

ATTENTION_INSTANTIATE_TRANSLATION_MODEL(Seq2seq);

} // namespace attention
