// A GRU encoder-decoder with attention: Bahdanau's additive scoring, or Luong's dot, general and
// concat. Parameters carry PyTorch's names, shapes and equations (nn.Embedding, nn.GRU with gate
// order r, z, n, nn.Linear as x W^T + b), so a PyTorch state_dict loads as it is. The model
// computes the mean cross-entropy of a batch and every gradient by backpropagation through time;
// training it (Adam, clipping, minibatches) is the trainer's (trainer.hpp).
//
// Encoder, forward: h_t = GRU(embedding(x_t), h_{t-1}), h_0 = 0; the annotations are h_1 … h_n,
// and the decoder starts from s_0 = h_n. Bidirectional (Bahdanau): nn.GRU(E, H/2,
// bidirectional=True), the annotations [→h_j; ←h_j] (still H wide), the backward direction
// starting at each source's last token, and s_0 = tanh(bridge(←h_1)), bridge an nn.Linear(H/2, H).
// Two layers (Luong's stacks): nn.GRU(…, num_layers=2) in the encoder and the decoder, the
// second layer reading the first's states; the top layer's states are the annotations and the
// s_t below, and decoder layer l starts from encoder layer l's last state (or its bridge).
// Decoder, teacher forced: y_0 = <sos>, and for t = 1 … m, with α_t = softmax_j(e_tj)
// and c_t = Σ_j α_tj h_j:
//   additive: e_tj = va(tanh(Wa s_{t-1} + Ua h_j)), s_t = GRU([embedding(y_{t-1}); c_t], s_{t-1}),
//             logits_t = out(s_t)
//   Luong:    s_t = GRU(embedding(y_{t-1}), s_{t-1}); e_tj = s_t · h_j (dot), s_t · Wa(h_j)
//             (general), va(tanh(Wa [s_t; h_j])) (concat); h̃_t = tanh(combine([c_t; s_t])),
//             logits_t = out(h̃_t)
// Guided alignment (Chen et al. 2016), when asked for with a weight λ > 0: the loss adds λ times
// the mean, over the target tokens that have guide links, of the cross-entropy -Σ_j q_tj log α_tj
// between the links, normalised (q_tj = 1/|links| at each), and the attention row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "network_model.hpp"
#include "score_function.hpp"
#include "sentences.hpp"

namespace attention {

// The encoder reads the source one way, or both ways (Bahdanau).
enum class Encoder { forward, bidirectional };
constexpr Encoder encoders[] = {Encoder::forward, Encoder::bidirectional};
const char *encoder_name(Encoder encoder); // "forward", "bidirectional"
// InputError blames `argument` for a name that is none of them.
Encoder parse_encoder(const std::string &name, const char *argument);
// What an API picks when not told: both ways for Bahdanau's additive scoring, as in his paper,
// one way for Luong's.
inline Encoder default_encoder(ScoreFunction scoring) {
  return scoring == ScoreFunction::additive ? Encoder::bidirectional : Encoder::forward;
}
// The GRUs' layers, in the encoder and the decoder alike.
constexpr std::size_t max_layers = 2;

struct Seq2seqConfig {
  std::size_t source_vocab = 0, target_vocab = 0;
  std::size_t embedding = 32, hidden = 64;
  ScoreFunction scoring = ScoreFunction::additive;
  Encoder encoder = Encoder::forward;
  std::size_t layers = 1;
  std::int64_t seed = 0;    // numpy's seeds: 0 … 2^32 - 1
  TokenId sos = 0, eos = 1; // target-vocabulary ids, distinct
};

// Throws InputError naming the field at fault ("sourceVocab", "targetVocab", "embedding",
// "hidden" (also when odd for a bidirectional encoder), "layers", "seed", "sos", "eos") when a size
// is out of range or sos/eos lie outside the target vocabulary. The Seq2seq constructor calls it.
void validate(const Seq2seqConfig &config);

// Everything the model computed for one sentence, for display. Rows are time steps.
template <class T> struct Seq2seqTrace {
  std::vector<TokenId> source;
  // The decoder's outputs: the target (teacher forcing), or the greedy translation, which ends
  // with <eos> unless it reached the length limit.
  std::vector<TokenId> output;
  Matrix<T> source_embeddings; // n x E
  Matrix<T> encoder_states;    // n x H: h_1 … h_n, the annotations ([→h_j; ←h_j] both ways)
  Matrix<T> initial_state;     // 1 x H: s_0 of the top layer, h_n or tanh(bridge(←h_1))
  Matrix<T> decoder_states;    // m x H: s_1 … s_m
  // m x n. Row t scores the annotations against s_{t-1} (additive) or s_t (Luong).
  Matrix<T> scores, weights;
  Matrix<T> contexts;    // m x H
  Matrix<T> attentional; // m x H: h̃_t (Luong); empty for additive
  Matrix<T> logits;      // m x V_tgt
};

template <class T> struct Seq2seqBeamSearch {
  Seq2seqTrace<T> trace;                    // the best hypothesis, decoded again for display
  std::vector<TranslationHypothesis> beams; // best first, at most the beam's width
};

template <class T> struct Seq2seqNetwork; // its layers and their buffers (models/seq2seq/)

template <class T> class Seq2seq : public TranslationModel<T, Seq2seqConfig, Seq2seqNetwork<T>> {
  using Base = TranslationModel<T, Seq2seqConfig, Seq2seqNetwork<T>>;
  using Base::config_, Base::parameters_, Base::network_;

public:
  explicit Seq2seq(const Seq2seqConfig &config);

  // One sentence, teacher forced with its target.
  Seq2seqTrace<T> trace(const std::vector<TokenId> &source, const std::vector<TokenId> &target);
  // Greedy decoding: each step feeds back its most likely token, until <eos> or max_length.
  Seq2seqTrace<T> translate(const std::vector<TokenId> &source, std::size_t max_length);
  // Beam search: at each step every live hypothesis is extended by every token, and the `width`
  // best by total log-probability (no length penalty) are kept; a hypothesis ending with <eos>
  // stops growing but keeps its place. It stops when the best `width` have all ended, or at
  // max_length. Ties go to the earlier hypothesis, then the smaller token id, so width 1 is greedy
  // decoding. InputError blames "beam" for a width outside 1 … max_beam_width.
  Seq2seqBeamSearch<T> beam_search(const std::vector<TokenId> &source, std::size_t max_length,
                                   std::size_t width);
};

ATTENTION_EXTERN_TRANSLATION_MODEL(Seq2seq);

} // namespace attention
