// Sentences as the models read and write them, whatever the kind: token ids (indices into a
// task's vocabulary), the limits every decoder keeps to, a sentence pair to learn from, and a
// hypothesis of a beam search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention {

using TokenId = std::int32_t;

// The longest source or target sentence, and the longest greedy translation.
constexpr std::size_t max_sentence_length = 1024;
// The widest beam search.
constexpr std::size_t max_beam_width = 16;

// A source sentence and its gold translation, which ends with <eos> (the model appends nothing).
// `guide`, for guided alignment: empty, or for each target token the source positions its
// attention is guided to (none for a token left free).
struct SentencePair {
  std::vector<TokenId> source, target;
  std::vector<std::vector<std::size_t>> guide;
};

// One finished (or length-limited) hypothesis of a beam search over a translation: its tokens,
// ending with <eos> unless it reached the length limit, and the sum of their log-probabilities.
struct TranslationHypothesis {
  std::vector<TokenId> output;
  double log_probability = 0;
};

} // namespace attention
