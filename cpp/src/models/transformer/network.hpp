// The Transformer's layers composed over a padded minibatch, time-major (row t * batch + k is pair
// k at step t): the embeddings and positional encoding, the encoder's layers and final norm (the
// memory), the decoder's layers, final norm and generator, forward and backward, with guided
// alignment's term. Only model.cpp includes it.
#pragma once

#include <vector>

#include "attention/transformer.hpp"
#include "models/translation_network.hpp"
#include "nn/embedding.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/linear.hpp"
#include "nn/multihead_attention.hpp"

namespace attention {

// The parameters in the tutorial model's state_dict order (transformer.encoder.layers.{i}.…,
// transformer.encoder.norm, transformer.decoder.layers.{i}.…, transformer.decoder.norm,
// generator, src_tok_emb.embedding, tgt_tok_emb.embedding).
std::vector<nn::ParameterSpec> transformer_parameter_specs(const TransformerConfig &config);

template <class T>
struct TransformerNetwork : models::TranslationNetwork<T, TransformerNetwork<T>> {
  using Base = models::TranslationNetwork<T, TransformerNetwork>;
  using Base::batch, Base::n, Base::steps, Base::v, Base::sources, Base::inputs,
      Base::source_lengths, Base::logits, Base::probabilities, Base::targets, Base::guide,
      Base::logits_at;

  TransformerNetwork(const TransformerConfig &config, const ParameterSet<T> &parameters);

  // The batch's sources (the padding masked) and `steps` decoder steps
  // (TranslationNetwork::set_sources), every target taken as `steps` long until set_targets says
  // otherwise, and the buffers.
  void begin(const std::vector<const std::vector<TokenId> *> &sources, std::size_t steps);
  // TranslationNetwork::set_targets, and the targets' padding masked.
  void set_targets(const std::vector<const std::vector<TokenId> *> &targets, TokenId sos);

  // The encoder over the sources: the memory, and each cross-attention's keys and values.
  void encode(const T *p);
  // Decoder steps [t0, t1), their inputs set, after the steps before them: logits.
  void decode(const T *p, std::size_t t0, std::size_t t1);
  // After forward with a guide: the mean over the guided head's guided tokens of -Σ_j q_j log α_j
  // (0 when none).
  double guide_loss() const;
  // After cross_entropy: adds every parameter's gradient of `scale` times the summed
  // cross-entropy plus λ times guide_loss().
  void backward(const T *p, T scale, T *grad);

  // Pair k's attention weights and logits over its source and the steps that wrote `output` (its
  // output).
  TransformerTrace<T> trace(std::size_t k, std::vector<TokenId> output) const;

  // A layer norm's kept values, over every row of its stack.
  struct Norm {
    std::size_t at; // its weight's offset; the bias follows
    std::vector<T> normalised, inverse_std;
  };
  // The offsets of parameters by their names under `prefix` (a layer's, or none).
  struct Offsets {
    const ParameterSet<T> &parameters;
    std::string prefix;
    std::size_t operator()(const char *name) const { return parameters.info(prefix + name).offset; }
  };
  struct EncoderLayer {
    EncoderLayer(const Offsets &at, std::size_t width, std::size_t heads);
    std::size_t attention_at, feed_forward_at;
    Norm norm1, norm2;
    nn::MultiheadAttention<T> attention;
    std::vector<T> input, middle, activations; // middle: after norm1
  };
  struct DecoderLayer {
    DecoderLayer(const Offsets &at, std::size_t width, std::size_t heads);
    std::size_t self_attention_at, cross_attention_at, feed_forward_at;
    Norm norm1, norm2, norm3;
    nn::MultiheadAttention<T> self_attention, cross_attention;
    std::vector<T> input, first, second, activations; // after norm1, after norm2
  };

  std::size_t d, heads, f;
  std::size_t generator, source_embedding, target_embedding;
  std::vector<EncoderLayer> encoder;
  std::vector<DecoderLayer> decoder;
  Norm encoder_norm, decoder_norm;

  std::vector<std::size_t> target_lengths;
  std::vector<T> positions;      // the positional encoding's rows computed so far (x d)
  std::vector<T> encoder_output; // n x batch x d: the last layer's, before encoder.norm
  std::vector<T> memory;         // n x batch x d
  std::vector<T> decoder_output; // steps x batch x d: the last layer's, before decoder.norm
  std::vector<T> normalised;     // steps x batch x d: after decoder.norm, the generator's input
  std::vector<T> sublayer;       // a sublayer's output, then a gradient's part
  // Guided alignment's gradient at the guided head's softmax's inputs (steps x batch x heads x n,
  // the other heads' 0).
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
  // dx (every row), the gradient at a sublayer's add & norm, becomes the one at its input: a
  // feed-forward's (weights at `at`, `input` and `activations` kept) or a self-attention's.
  void feed_forward_backward(const T *p, T *grad, Norm &norm, std::size_t at, std::size_t rows,
                             const std::vector<T> &input, const std::vector<T> &activations, T *dx);
  void self_attention_backward(const T *p, T *grad, Norm &norm,
                               nn::MultiheadAttention<T> &attention, std::size_t at,
                               std::size_t rows, const std::vector<T> &input, T *dx);
  // dx, the gradient at the embeddings of `rows` tokens scaled by sqrt(d), into their table's.
  void embedding_backward(T *dx, std::size_t rows, const TokenId *tokens, T *table);
};

} // namespace attention
