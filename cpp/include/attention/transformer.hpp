// The encoder–decoder Transformer of PyTorch's "Language Translation with nn.Transformer"
// tutorial, with PyTorch's names, shapes and equations, so that its state_dict loads as it is:
//   src_tok_emb.embedding, tgt_tok_emb.embedding   nn.Embedding, scaled by sqrt(d_model)
//   the positional encoding, added to both: PE[pos, 2i] = sin(pos / 10000^(2i / d_model)),
//       PE[pos, 2i + 1] = cos(pos / 10000^(2i / d_model)), computed (a buffer in PyTorch, not a
//       parameter)
//   transformer  nn.Transformer(d_model, nhead, num_encoder_layers, num_decoder_layers,
//       dim_feedforward, dropout=0, batch_first=True): post-norm layers with ReLU,
//       encoder layer: x = norm1(x + self_attn(x)), x = norm2(x + linear2(relu(linear1(x)))),
//       decoder layer: y = norm1(y + self_attn(y), causal), y = norm2(y + multihead_attn(y,
//       memory)), y = norm3(y + linear2(relu(linear1(y)))), and the final encoder.norm (whose
//       output is the memory) and decoder.norm
//   generator    nn.Linear(d_model, target vocabulary): the logits
// Masks, as the tutorial makes them: the causal mask on the target (-inf above the diagonal), the
// key-padding masks of the source (the encoder's self-attention and every cross-attention,
// memory_key_padding_mask) and of the target (the decoder's self-attention).
// The loss is the mean cross-entropy over every target token (<eos> included), teacher forced
// from <sos>. Guided alignment (Garg et al. 2019), when asked for with a weight λ > 0: the loss
// adds λ times the mean, over the target tokens that have guide links, of -Σ_j q_j log α_j between
// the links, normalised (q_j = 1/|links| at each), and one cross-attention head's weights α: head
// 0 of the last decoder layer (guided_head), the one nearest the output. The term is the GRU
// model's (seq2seq.hpp) on that head.
// Initialisation, drawn as initialise() draws (parameters.hpp): xavier_uniform_ for every matrix
// (nn.Transformer._reset_parameters, and the tutorial's loop for the embeddings and generator
// too), nn.Linear's default for linear1's, linear2's and the generator's biases, zeros for the
// attention's biases (nn.MultiheadAttention's), ones and zeros for the layer norms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "errors.hpp"
#include "network_model.hpp"
#include "sentences.hpp"

namespace attention {

// The sizes' limits (validate's).
constexpr std::size_t max_transformer_width = 1024; // d_model and dim_feedforward
constexpr std::size_t max_transformer_layers = 6;   // either stack
// The cross-attention head that guided alignment supervises: (the last decoder layer, head 0).
constexpr std::size_t guided_head = 0;

struct TransformerConfig {
  std::size_t source_vocab = 0, target_vocab = 0;
  std::size_t model = 32, heads = 2; // d_model and nhead: each head d_model / nhead wide
  std::size_t encoder_layers = 2, decoder_layers = 2, feedforward = 64;
  std::int64_t seed = 0;    // numpy's seeds: 0 … 2^32 - 1
  TokenId sos = 0, eos = 1; // target-vocabulary ids, distinct
};

// Throws InputError naming the field at fault ("sourceVocab", "targetVocab", "model", "heads"
// (also when it does not divide model), "encoderLayers", "decoderLayers", "feedforward", "seed",
// "sos", "eos"). The Transformer constructor calls it.
void validate(const TransformerConfig &config);

// Per layer: heads x queries x keys.
template <class T> using LayerAttention = xt::xtensor<T, 3>;

// One sentence through the model, for display: every attention weight (0 where masked).
template <class T> struct TransformerTrace {
  std::vector<TokenId> source;
  // The decoder's outputs: the target (teacher forcing), or the translation, which ends with
  // <eos> unless it reached the length limit.
  std::vector<TokenId> output;
  std::vector<LayerAttention<T>> encoder_attention; // per encoder layer: heads x n x n
  std::vector<LayerAttention<T>> decoder_attention; // per decoder layer: heads x m x m (causal)
  std::vector<LayerAttention<T>> cross_attention;   // per decoder layer: heads x m x n
  Matrix<T> logits;                                 // m x V_tgt
};

template <class T> struct TransformerBeamSearch {
  TransformerTrace<T> trace;                // the best hypothesis, teacher forced for display
  std::vector<TranslationHypothesis> beams; // best first, at most the beam's width
};

template <class T> struct TransformerNetwork; // its layers and their buffers (models/transformer/)

template <class T>
class Transformer : public TranslationModel<T, TransformerConfig, TransformerNetwork<T>> {
  using Base = TranslationModel<T, TransformerConfig, TransformerNetwork<T>>;
  using Base::config_, Base::parameters_, Base::network_;

public:
  explicit Transformer(const TransformerConfig &config);

  // Each pair teacher forced with its target, run as one batch.
  std::vector<TransformerTrace<T>> trace(const std::vector<SentencePair> &batch);
  // Greedy decoding: each step feeds back its most likely token, until <eos> or max_length; the
  // decoder runs one step at a time, keeping the keys and values of the steps before.
  TransformerTrace<T> translate(const std::vector<TokenId> &source, std::size_t max_length);
  // Greedy decoding of many sources as one batch: their outputs.
  std::vector<std::vector<TokenId>> translate(const std::vector<std::vector<TokenId>> &sources,
                                              std::size_t max_length);
  // Beam search as Seq2seq::beam_search: the `width` best by total log-probability (no length
  // penalty), ties to the earlier hypothesis, then the smaller token id (width 1 is greedy).
  // InputError blames "beam" for a width outside 1 … max_beam_width.
  TransformerBeamSearch<T> beam_search(const std::vector<TokenId> &source, std::size_t max_length,
                                       std::size_t width);
};

ATTENTION_EXTERN_TRANSLATION_MODEL(Transformer);

} // namespace attention
