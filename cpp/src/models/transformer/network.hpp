// The Transformer's layers composed over a padded minibatch, time-major (row t * batch + k is pair
// k at step t): the embeddings and positional encoding, the encoder's layers and final norm (the
// memory), the decoder's layers, final norm and generator, forward and backward, with guided
// alignment's term. Only model.cpp includes it.
#pragma once

#include <vector>

#include "attention/transformer.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/embedding.hpp"
#include "nn/feed_forward.hpp"
#include "nn/guided_alignment.hpp"
#include "nn/layer_norm.hpp"
#include "nn/linear.hpp"
#include "nn/multihead_attention.hpp"

namespace attention {

// The parameters in the tutorial model's state_dict order (transformer.encoder.layers.{i}.…,
// transformer.encoder.norm, transformer.decoder.layers.{i}.…, transformer.decoder.norm,
// generator, src_tok_emb.embedding, tgt_tok_emb.embedding).
std::vector<nn::ParameterSpec> transformer_parameter_specs(const TransformerConfig &config);

template <class T> struct Transformer<T>::Network {
  Network(const TransformerConfig &config, const ParameterSet<T> &parameters);

  // A padded batch of sources (n x batch; the padding, <eos>, is masked) and `steps` decoder
  // steps, every target taken as `steps` long until set_targets says otherwise.
  void begin(const std::vector<const std::vector<TokenId> *> &sources, std::size_t steps);
  // Teacher forcing: decoder inputs (<sos>, then each target but its last token) and targets
  // (padded with -1, which the loss ignores), and the targets' padding masked.
  void set_targets(const std::vector<const std::vector<TokenId> *> &targets, TokenId sos);
  // Guided alignment, as Seq2seq's: per pair (null or empty for none), per target token, the
  // source positions the guided head is pulled to; `weight` is λ.
  void set_guide(const std::vector<const nn::Links *> &guides, T weight);

  // The encoder over the sources: the memory, and each cross-attention's keys and values.
  void encode(const T *p);
  // Decoder steps [t0, t1), their inputs set, after the steps before them: logits.
  void decode(const T *p, std::size_t t0, std::size_t t1);
  void forward(const T *p) {
    encode(p);
    decode(p, 0, steps);
  }
  nn::CrossEntropy cross_entropy();
  // After forward with a guide: the mean over guided tokens of -Σ_j q_j log α_j (0 when none).
  double guide_loss() const;
  // After cross_entropy: adds every parameter's gradient of `scale` times the summed
  // cross-entropy plus λ times guide_loss().
  void backward(const T *p, T scale, T *grad);

  // Pair k's attention weights and logits over its source and the first m steps.
  TransformerTrace<T> trace(std::size_t k, std::size_t m) const;
  const T *logits_at(std::size_t t) const { return logits.data() + t * batch * v; }

  // A layer norm's kept values, over every row of its stack.
  struct Norm {
    std::size_t at; // its weight's offset; the bias follows
    std::vector<T> normalised, inverse_std;
  };
  // Each layer finds its parameters' offsets by their names under `prefix`.
  struct EncoderLayer {
    EncoderLayer(const ParameterSet<T> &parameters, const std::string &prefix, std::size_t width,
                 std::size_t heads);
    std::size_t attention_at, feed_forward_at;
    Norm norm1, norm2;
    nn::MultiheadAttention<T> attention;
    std::vector<T> input, middle, activations; // middle: after norm1
  };
  struct DecoderLayer {
    DecoderLayer(const ParameterSet<T> &parameters, const std::string &prefix, std::size_t width,
                 std::size_t heads);
    std::size_t self_attention_at, cross_attention_at, feed_forward_at;
    Norm norm1, norm2, norm3;
    nn::MultiheadAttention<T> self_attention, cross_attention;
    std::vector<T> input, first, second, activations; // after norm1, after norm2
  };

  std::size_t d, heads, f, v;
  std::size_t generator, source_embedding, target_embedding;
  std::vector<EncoderLayer> encoder;
  std::vector<DecoderLayer> decoder;
  Norm encoder_norm, decoder_norm;

  std::size_t batch = 0, n = 0, steps = 0;
  std::vector<TokenId> sources, inputs, targets;
  std::vector<std::size_t> source_lengths, target_lengths;
  std::vector<T> positions;      // the positional encoding's rows computed so far (x d)
  std::vector<T> encoder_output; // n x batch x d: the last layer's, before encoder.norm
  std::vector<T> memory;         // n x batch x d
  std::vector<T> decoder_output; // steps x batch x d: the last layer's, before decoder.norm
  std::vector<T> normalised;     // steps x batch x d: after decoder.norm, the generator's input
  std::vector<T> logits, probabilities; // steps x batch x V
  std::vector<T> sublayer;              // a sublayer's output, then a gradient's part
  // Guided alignment over the guided head's weights, and its gradient at that head's softmax's
  // inputs (steps x batch x heads x n, the other heads' 0).
  nn::GuidedAlignment<T> guide;
  std::vector<T> d_guide;
  // Gradients
  std::vector<T> d_logits, d_decoder, d_memory, d_activations;

  void embed(const T *table, const TokenId *tokens, std::size_t t0, std::size_t t1, T *out);
  // out = LayerNorm(residual + sublayer) over rows [first, first + rows) of them all.
  void add_and_norm(const T *p, Norm &norm, std::size_t first, std::size_t rows, const T *residual,
                    const T *sublayer_output, T *out);
  // d (every row), the gradient at a norm's output, becomes the one at its input, the sum.
  void norm_backward(const T *p, T *grad, Norm &norm, std::size_t rows, T *d);
  void backward_decoder(const T *p, T *grad);
  void backward_encoder(const T *p, T *grad);
};

} // namespace attention
