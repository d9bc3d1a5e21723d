// The seq2seq model's layers composed over a padded minibatch, time-major (row t * batch + k is
// pair k at step t): the encoder (embedding, GRU), the attention (a scoring function, the masked
// softmax and the context) and the decoder (embedding, GRU, for Luong the combine layer, and the
// output layer), forward and backward. Only model.cpp includes it.
#pragma once

#include <algorithm>

#include "attention/seq2seq.hpp"
#include "nn/attention.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/embedding.hpp"
#include "nn/gru.hpp"
#include "nn/linear.hpp"
#include "nn/scoring.hpp"

namespace attention {

// The parameters in state_dict order (PyTorch's module names: encoder.{embedding, gru},
// decoder.{embedding, attention, gru, combine (Luong), out}).
std::vector<nn::ParameterSpec> seq2seq_parameter_specs(const Seq2seqConfig &config);

template <class T> struct Seq2seq<T>::Network {
  Network(const Seq2seqConfig &config, const ParameterSet<T> &parameters);

  // A padded batch: sources (n x batch, padded with <eos> as the PyTorch reference pads them),
  // decoder inputs (<sos>, then each target but its last token) and targets (m x batch, targets
  // padded with -1, which the loss ignores).
  void begin(const std::vector<const std::vector<TokenId> *> &sources, std::size_t steps);
  void set_targets(const std::vector<const std::vector<TokenId> *> &targets, TokenId sos);

  // The encoder over the sources, and the keys' side of the attention.
  void encode(const T *p);
  // Decoder steps [t0, t1) (their inputs set): states, attention and logits.
  void decode(const T *p, std::size_t t0, std::size_t t1);
  // Teacher forcing of the batch set by begin and set_targets.
  void forward(const T *p) {
    encode(p);
    decode(p, 0, steps);
  }
  nn::CrossEntropy cross_entropy();
  // After cross_entropy: adds every parameter's gradient of `scale` times the summed loss.
  void backward(const T *p, T scale, T *grad);

  // Pair 0 of the first `m` steps, for display.
  Seq2seqTrace<T> trace(std::size_t m) const;

  const T *logits_at(std::size_t t) const { return logits.data() + t * batch * v; }
  T *decoder_state(std::size_t t) { return decoder_gru.state(t); }

  ScoreFunction scoring;
  std::size_t e, h, g, v, input; // input: the decoder GRU's input width
  // Offsets of each layer's block in the flat parameters (in a gradient buffer alike).
  std::size_t encoder_embedding, encoder_gru_at, decoder_embedding, attention_block, decoder_gru_at,
      combine, out;
  std::unique_ptr<nn::ScoringFunction<T>> scorer;

  std::size_t batch = 0, n = 0, steps = 0;
  std::vector<TokenId> sources, inputs, targets;
  std::vector<std::size_t> source_lengths;
  nn::KeyMask mask{};

  std::vector<T> encoder_x;       // n x batch x E
  nn::GruSequence<T> encoder_gru; // its states 1 … n are the annotations (the keys)
  std::vector<T> decoder_x;       // steps x batch x input: embeddings (and contexts, additive)
  nn::GruSequence<T> decoder_gru; // from the encoder's last states
  std::vector<T> scores, weights; // steps x batch x n
  std::vector<T> contexts;        // steps x batch x H
  std::vector<T> combined;        // Luong: steps x batch x 2H, [c_t; s_t]
  std::vector<T> attentional;     // Luong: h̃_t, steps x batch x H
  std::vector<T> logits, probabilities; // steps x batch x V
  // Gradients
  std::vector<T> d_logits, d_top, d_combined, d_context, d_states, d_scores, d_queries,
      d_annotations, d_embedded, carry, dh;

  bool additive() const { return scoring == ScoreFunction::additive; }
  const T *annotations() const { return encoder_gru.state(1); }
  nn::GruWeights<const T> gru_weights(const T *p, std::size_t at, std::size_t width) const {
    return {p + at, width, h};
  }
  void backward_additive(const T *p, T *grad);
  void backward_luong(const T *p, T *grad);
};

} // namespace attention
