// The checks every model makes of its configuration, its inputs and its loss before any work, each
// blaming the argument at fault, and what translation models (a config with source_vocab,
// target_vocab and eos) share of their batches: the checks, the sides and guides as the networks
// take them, and one teacher-forced pass for the loss and its gradients.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "attention/parameters.hpp"
#include "attention/sentences.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/guided_alignment.hpp"

namespace attention::models {

using detail::Argument;
using detail::fail;

// ---- every model ------------------------------------------------------------------------------

inline void check_size(std::size_t value, std::size_t low, std::size_t high, const char *argument) {
  if (value < low || value > high)
    fail(Argument(argument), argument, " (", value, ") must be between ", low, " and ", high);
}

// The one of `values` (an enumeration's) whose name_of is `name`; InputError blames `argument` for
// any other ("<argument> must be <expected>, got "<name>"").
template <class Values, class NameOf>
auto parse_choice(const std::string &name, const Values &values, NameOf name_of,
                  const char *argument, const char *expected) {
  for (const auto value : values)
    if (name == name_of(value))
      return value;
  fail(Argument(argument), argument, " must be ", expected, ", got \"", name.substr(0, 40), "\"");
}

inline void check_seed(std::int64_t seed) {
  if (seed < 0 || seed > 0xFFFFFFFFLL)
    fail(Argument("seed"), "seed (", seed, ") must be between 0 and 2**32 - 1, as numpy's");
}

// <sos> and <eos>: two tokens of the vocabulary the model writes (`what`: "a target token").
inline void check_special_tokens(TokenId sos, TokenId eos, std::size_t vocab, const char *what) {
  for (auto [token, argument] : {std::pair{sos, "sos"}, {eos, "eos"}})
    if (token < 0 || static_cast<std::size_t>(token) >= vocab)
      fail(Argument(argument), argument, " (", token, ") must be ", what, ", in [0, ", vocab, ")");
  if (sos == eos)
    fail(Argument("eos"), "eos (", eos, ") must differ from sos (", sos, ")");
}

// A width a bidirectional GRU halves between its directions (when `bidirectional`): even, else
// InputError blames "hidden" (`why` ends the message).
inline void check_halves(bool bidirectional, std::size_t hidden, const char *why) {
  if (bidirectional && hidden % 2)
    fail(Argument("hidden"), "hidden (", hidden, ") must be even", why);
}

// A weight of the loss (guided alignment's or the regulariser's λ).
inline void check_weight(double weight, const char *argument) {
  if (!(std::isfinite(weight) && weight >= 0))
    fail(Argument(argument), argument, " (", weight, ") must be a finite number >= 0");
}

// A sequence of token ids of at most `max_length`, each within a vocabulary of `vocab` tokens
// (`vocabulary`: its name in the message, "source vocabulary").
inline void check_tokens(const std::vector<TokenId> &tokens, std::size_t vocab,
                         std::size_t max_length, const char *argument, const std::string &what,
                         const char *vocabulary) {
  if (tokens.empty())
    fail(Argument(argument), what, " is empty");
  if (tokens.size() > max_length)
    fail(Argument(argument), what, " has ", tokens.size(), " tokens, more than the ", max_length,
         " the model takes");
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= vocab)
      fail(Argument(argument), what, " holds token ", tokens[i], " at index ", i, ", outside the ",
           vocabulary, " [0, ", vocab, ")");
}

// What the model writes: tokens ending with <eos>.
inline void check_output_tokens(const std::vector<TokenId> &tokens, std::size_t vocab,
                                std::size_t max_length, TokenId eos, const char *argument,
                                const std::string &what, const char *vocabulary) {
  check_tokens(tokens, vocab, max_length, argument, what, vocabulary);
  if (tokens.back() != eos)
    fail(Argument(argument), what, " must end with <eos> (", eos, "), not ", tokens.back());
}

inline void check_max_length(std::size_t max_length, std::size_t limit) {
  if (max_length < 1 || max_length > limit)
    fail(Argument("maxLength"), "maxLength (", max_length, ") must be between 1 and ", limit);
}

// InputError blames "beam" for a width outside 1 … most.
inline void check_beam_width(std::size_t width, std::size_t most) {
  if (width < 1 || width > most)
    fail(Argument("beam"), "beam (", width, ") must be between 1 and ", most);
}

template <class T> void require_finite_loss(double loss) {
  if (!std::isfinite(static_cast<T>(loss)))
    fail(Argument("parameters"), "the loss (", loss, ") overflows ",
         sizeof(T) == 4 ? "float32" : "float64", ": the parameters are too large");
}

template <class T>
void require_same_layout(const ParameterSet<T> &gradients, const ParameterSet<T> &parameters) {
  if (!gradients.same_layout(parameters))
    fail(Argument("gradients"), "gradients must have the model's parameters' names and shapes");
}

// The first of the largest.
template <class T> std::size_t argmax(const T *x, std::size_t n) {
  return static_cast<std::size_t>(std::max_element(x, x + n) - x);
}

// ---- translation models -----------------------------------------------------------------------

// A translation model's configuration, checked first: its vocabularies' sizes (the target's
// holding <sos> and <eos>), up to `most` tokens, ...
template <class Config> void check_vocabularies(const Config &c, std::size_t most) {
  check_size(c.source_vocab, 1, most, "sourceVocab");
  check_size(c.target_vocab, 2, most, "targetVocab");
}

// ... and last, once its own sizes are: its embedding tables, `width` wide, within memory, its
// seed and its special tokens.
template <class Config> void check_tables(const Config &c, std::size_t width) {
  detail::require_fits(c.source_vocab, width, "a source-vocabulary table", Argument("sourceVocab"));
  detail::require_fits(c.target_vocab, width, "a target-vocabulary table", Argument("targetVocab"));
  check_seed(c.seed);
  check_special_tokens(c.sos, c.eos, c.target_vocab, "a target token");
}

template <class Config>
void check_source(const std::vector<TokenId> &source, const Config &config,
                  const std::string &what) {
  check_tokens(source, config.source_vocab, max_sentence_length, "source", what,
               "source vocabulary");
}

template <class Config>
void check_target(const std::vector<TokenId> &target, const Config &config,
                  const std::string &what) {
  check_output_tokens(target, config.target_vocab, max_sentence_length, config.eos, "target", what,
                      "target vocabulary");
}

// A translation's source and length, and a beam search's width (1: greedy decoding).
template <class Config>
void check_translation(const std::vector<TokenId> &source, const Config &config,
                       std::size_t max_length, std::size_t width = 1) {
  check_source(source, config, "source");
  check_max_length(max_length, max_sentence_length);
  check_beam_width(width, max_beam_width);
}

// A pair's guide: none, or one entry per target token of positions within the source.
inline void check_guide(const SentencePair &pair, const std::string &what) {
  if (pair.guide.empty())
    return;
  if (pair.guide.size() != pair.target.size())
    fail(Argument("guide"), what, " has ", pair.guide.size(), " entries for a target of ",
         pair.target.size(), " tokens");
  for (std::size_t t = 0; t < pair.guide.size(); ++t)
    for (std::size_t j : pair.guide[t])
      if (j >= pair.source.size())
        fail(Argument("guide"), what, "[", t, "] links source position ", j,
             ", outside a source of ", pair.source.size(), " tokens");
}

// Checks every pair and the guide's weight before any work; returns the longest target.
template <class T, class Config>
std::size_t check_batch(const std::vector<SentencePair> &batch, const Config &config, T guide) {
  check_weight(double(guide), "guide");
  if (batch.empty())
    fail(Argument("batch"), "batch is empty");
  std::size_t longest = 0;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const std::string pair = "batch[" + std::to_string(k) + "]";
    check_source(batch[k].source, config, pair + ".source");
    check_target(batch[k].target, config, pair + ".target");
    check_guide(batch[k], pair + ".guide");
    longest = std::max(longest, batch[k].target.size());
  }
  return longest;
}

using Tokens = std::vector<const std::vector<TokenId> *>;

// Sentences as one padded, time-major batch: `tokens` (row t * batch + k is sentence k's token t;
// <eos> past its end, where the networks mask or never read) and `lengths`; returns the longest.
inline std::size_t pad_time_major(const Tokens &sentences, std::vector<std::size_t> &lengths,
                                  std::vector<TokenId> &tokens) {
  const std::size_t batch = sentences.size();
  std::size_t n = 0;
  lengths.clear();
  for (const auto *sentence : sentences) {
    lengths.push_back(sentence->size());
    n = std::max(n, sentence->size());
  }
  tokens.assign(n * batch, TokenId(1));
  for (std::size_t k = 0; k < batch; ++k)
    for (std::size_t t = 0; t < lengths[k]; ++t)
      tokens[t * batch + k] = (*sentences[k])[t];
  return n;
}

inline Tokens sources_of(const std::vector<SentencePair> &batch) {
  Tokens sources;
  for (const auto &pair : batch)
    sources.push_back(&pair.source);
  return sources;
}

inline Tokens targets_of(const std::vector<SentencePair> &batch) {
  Tokens targets;
  for (const auto &pair : batch)
    targets.push_back(&pair.target);
  return targets;
}

// The batch teacher forced through a translation model's network (a private type deduced here),
// and with `gradients` every parameter's gradient written over them: the mean cross-entropy plus
// λ (`guide`) times the guided term, checked to be finite in T.
template <class T, class Network, class Config>
T translation_loss(Network &network, const ParameterSet<T> &parameters,
                   const std::vector<SentencePair> &batch, const Config &config, T guide,
                   ParameterSet<T> *gradients = nullptr) {
  const std::size_t steps = check_batch(batch, config, guide);
  if (gradients)
    require_same_layout(*gradients, parameters);
  network.begin(sources_of(batch), steps);
  network.set_targets(targets_of(batch), config.sos);
  if (guide > 0) {
    std::vector<const nn::Links *> guides;
    for (const auto &pair : batch)
      guides.push_back(&pair.guide);
    network.set_guide(guides, guide);
  }
  network.forward(parameters.data());
  const nn::CrossEntropy loss = network.cross_entropy();
  const double guided = guide > 0 ? double(guide) * network.guide_loss() : 0.0;
  require_finite_loss<T>(loss.sum);
  require_finite_loss<T>(loss.mean() + guided);
  if (gradients) {
    std::fill(gradients->data(), gradients->data() + gradients->size(), T(0));
    network.backward(parameters.data(), T(1) / static_cast<T>(loss.tokens), gradients->data());
  }
  return static_cast<T>(loss.mean() + guided);
}

} // namespace attention::models
