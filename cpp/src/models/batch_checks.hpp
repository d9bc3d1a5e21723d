// The checks every translation model makes of its batches and sentences before any work, each
// blaming the argument at fault: a model's config (Seq2seqConfig, TransformerConfig) gives its
// vocabularies' sizes and <eos>.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attention/seq2seq.hpp"

namespace attention::models {

inline void check_sentence(const std::vector<TokenId> &tokens, std::size_t vocab,
                           const char *argument, const std::string &what, const char *vocabulary) {
  if (tokens.empty())
    detail::fail(detail::Argument(argument), what, " is empty");
  if (tokens.size() > max_sentence_length)
    detail::fail(detail::Argument(argument), what, " has ", tokens.size(),
                 " tokens, more than the ", max_sentence_length, " the model takes");
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= vocab)
      detail::fail(detail::Argument(argument), what, " holds token ", tokens[i], " at index ", i,
                   ", outside the ", vocabulary, " vocabulary [0, ", vocab, ")");
}

template <class Config>
void check_target(const std::vector<TokenId> &target, const Config &config,
                  const std::string &what) {
  check_sentence(target, config.target_vocab, "target", what, "target");
  if (target.back() != config.eos)
    detail::fail(detail::Argument("target"), what, " must end with <eos> (", config.eos, "), not ",
                 target.back());
}

inline void check_max_length(std::size_t max_length) {
  if (max_length < 1 || max_length > max_sentence_length)
    detail::fail(detail::Argument("maxLength"), "maxLength (", max_length,
                 ") must be between 1 and ", max_sentence_length);
}

template <class T> void require_finite_loss(double loss) {
  if (!std::isfinite(static_cast<T>(loss)))
    detail::fail(detail::Argument("parameters"), "the loss (", loss, ") overflows ",
                 sizeof(T) == 4 ? "float32" : "float64", ": the parameters are too large");
}

// A pair's guide: none, or one entry per target token of positions within the source.
inline void check_guide(const SentencePair &pair, const std::string &what) {
  if (pair.guide.empty())
    return;
  if (pair.guide.size() != pair.target.size())
    detail::fail(detail::Argument("guide"), what, " has ", pair.guide.size(),
                 " entries for a target of ", pair.target.size(), " tokens");
  for (std::size_t t = 0; t < pair.guide.size(); ++t)
    for (std::size_t j : pair.guide[t])
      if (j >= pair.source.size())
        detail::fail(detail::Argument("guide"), what, "[", t, "] links source position ", j,
                     ", outside a source of ", pair.source.size(), " tokens");
}

// Checks every pair and the guide's weight before any work; returns the longest target.
template <class T, class Config>
std::size_t check_batch(const std::vector<SentencePair> &batch, const Config &config, T guide) {
  if (!(std::isfinite(guide) && guide >= 0))
    detail::fail(detail::Argument("guide"), "guide (", guide, ") must be a finite number >= 0");
  if (batch.empty())
    detail::fail(detail::Argument("batch"), "batch is empty");
  std::size_t longest = 0;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const std::string pair = "batch[" + std::to_string(k) + "]";
    check_sentence(batch[k].source, config.source_vocab, "source", pair + ".source", "source");
    check_target(batch[k].target, config, pair + ".target");
    check_guide(batch[k], pair + ".guide");
    longest = std::max(longest, batch[k].target.size());
  }
  return longest;
}

template <class T> std::size_t argmax(const T *x, std::size_t n) {
  return static_cast<std::size_t>(std::max_element(x, x + n) - x);
}

} // namespace attention::models
