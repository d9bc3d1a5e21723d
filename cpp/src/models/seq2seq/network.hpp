// The seq2seq model's layers composed over a padded minibatch, time-major (row t * batch + k is
// pair k at step t): the encoder (embedding, a GRU of one or two layers, one way or both, and the
// bridge to the decoder when both), the attention (a scoring function, the masked softmax and the
// context) and the decoder (embedding, a GRU of as many layers, for Luong the combine layer, and
// the output layer), forward and backward, with guided alignment's term. Only model.cpp includes
// it.
#pragma once

#include <algorithm>

#include "attention/seq2seq.hpp"
#include "models/translation_network.hpp"
#include "nn/attention.hpp"
#include "nn/embedding.hpp"
#include "nn/gru.hpp"
#include "nn/gru_module.hpp"
#include "nn/linear.hpp"
#include "nn/scoring.hpp"

namespace attention {

// The parameters in state_dict order (PyTorch's module names: encoder.{embedding, gru, bridge
// (bidirectional)}, decoder.{embedding, attention, gru, combine (Luong), out}).
std::vector<nn::ParameterSpec> seq2seq_parameter_specs(const Seq2seqConfig &config);

template <class T> struct Seq2seqNetwork : models::TranslationNetwork<T, Seq2seqNetwork<T>> {
  using Base = models::TranslationNetwork<T, Seq2seqNetwork>;
  using Base::batch, Base::n, Base::steps, Base::v, Base::sources, Base::inputs,
      Base::source_lengths, Base::logits, Base::probabilities, Base::targets, Base::guide;

  Seq2seqNetwork(const Seq2seqConfig &config, const ParameterSet<T> &parameters);

  // The batch's sources (the padding is never read, the encoder running each source over its own
  // length both ways) and `steps` decoder steps (TranslationNetwork::set_sources), and its buffers.
  void begin(const std::vector<const std::vector<TokenId> *> &sources, std::size_t steps);

  // The encoder over the sources, and the keys' side of the attention.
  void encode(const T *p);
  // Decoder steps [t0, t1) (their inputs set): states, attention and logits.
  void decode(const T *p, std::size_t t0, std::size_t t1);
  // After forward with a guide: the guided-alignment term, the mean over guided tokens of
  // -Σ_j q_j log α_j (0 when no token is guided).
  double guide_loss() const;
  // After cross_entropy: adds every parameter's gradient of `scale` times the summed
  // cross-entropy plus λ times guide_loss().
  void backward(const T *p, T scale, T *grad);

  // Pair 0 of the steps that wrote `output` (its output), for display.
  Seq2seqTrace<T> trace(std::vector<TokenId> output) const;

  // The decoder's state of a batch of one before step t, every layer's (layers x H), to read or
  // replace (a beam search).
  void get_decoder_state(std::size_t t, T *state) const;
  void set_decoder_state(std::size_t t, const T *state);

  ScoreFunction scoring;
  bool bidirectional;
  std::size_t layers, e, h, g, input; // input: the decoder GRU's first layer's input width
  // Offsets of each layer's block in the flat parameters (in a gradient buffer alike); the
  // decoder GRU's layers one after another.
  std::size_t encoder_embedding, encoder_gru_at, bridge, decoder_embedding, attention_block,
      decoder_gru_at, combine, out;
  std::unique_ptr<nn::ScoringFunction<T>> scorer;

  nn::KeyMask mask{};

  std::vector<T> encoder_x; // n x batch x E
  nn::GruModule<T> encoder; // its outputs are the annotations (the keys)
  std::vector<T> initial;   // layers x batch x H: the decoder's s_0 (bridged, bidirectional)
  std::vector<T> decoder_x; // steps x batch x input: embeddings (and contexts, additive)
  std::vector<nn::GruSequence<T>> decoder; // a layer each, the top one's states scored
  std::vector<T> scores, weights;          // steps x batch x n
  std::vector<T> contexts;                 // steps x batch x H
  std::vector<T> combined;                 // Luong: steps x batch x 2H, [c_t; s_t]
  std::vector<T> attentional;              // Luong: h̃_t, steps x batch x H
  // Gradients
  std::vector<T> d_logits, d_top, d_combined, d_context, d_states, d_scores, d_queries,
      d_annotations, d_embedded, d_below, d_initial, carry, dh;

  const T *annotations() const { return encoder.outputs(); }
  nn::GruWeights<const T> decoder_weights(const T *p, std::size_t layer) const {
    return {p + decoder_layer_at(layer), layer ? h : input, h};
  }
  nn::GruWeights<T> decoder_gradients(T *grad, std::size_t layer) const {
    return {grad + decoder_layer_at(layer), layer ? h : input, h};
  }
  std::size_t decoder_layer_at(std::size_t layer) const {
    return decoder_gru_at + (layer ? nn::gru_block_size(input, h) : 0) +
           (layer > 1 ? (layer - 1) * nn::gru_block_size(h, h) : 0);
  }
  nn::GruSequence<T> &top() { return decoder.back(); }
  const nn::GruSequence<T> &top() const { return decoder.back(); }
  // Decoder layers above the first over steps [t0, t1), each from the states of the one below.
  void run_upper_layers(const T *p, std::size_t t0, std::size_t t1);
  void backward_encoder(const T *p, T *grad);
  bool additive() const { return scoring == ScoreFunction::additive; }
  void backward_additive(const T *p, T *grad);
  void backward_luong(const T *p, T *grad);
};

} // namespace attention
