// The classifier's layers composed over a padded minibatch, time-major (row j * batch + k is
// sentence k's word j): the embedding, the bidirectional GRU (or none), the attention's scores
// (time-major) and its weights and context (one row a sentence, nn/attention.hpp), the output
// layer and the cross-entropy, forward and backward, with the rationale's guided term. Only
// model.cpp includes it.
#pragma once

#include "attention/classifier.hpp"
#include "nn/attention.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/embedding.hpp"
#include "nn/gru_module.hpp"
#include "nn/guided_alignment.hpp"
#include "nn/linear.hpp"

namespace attention {

// The parameters in state_dict order: embedding, encoder (bigru), attention.W and attention.v
// (learned), classifier.
std::vector<nn::ParameterSpec> classifier_parameter_specs(const ClassifierConfig &config);

template <class T> struct ClassifierNetwork {
  ClassifierNetwork(const ClassifierConfig &config, const ParameterSet<T> &parameters);

  // A padded batch of sentences (n x batch, padded with <eos>, never read: the GRU runs each
  // sentence over its own length both ways, and the attention masks the padding).
  void begin(const std::vector<const std::vector<TokenId> *> &sentences);
  void set_labels(const std::vector<std::int32_t> &batch_labels) { labels = batch_labels; }
  // Per sentence, its rationale's positions (null or empty for none); `weight` is λ.
  void set_guide(const std::vector<const nn::Links *> &guides, T weight) {
    guide.set(guides, 1, n, weight);
  }

  void forward(const T *p);
  nn::CrossEntropy cross_entropy();
  // After forward with a guide: the rationale's term, without λ.
  double guide_loss() const { return guide.loss(scores.data(), n, lengths.data()); }
  // After cross_entropy: adds every parameter's gradient of `scale` times the summed
  // cross-entropy plus λ times guide_loss().
  void backward(const T *p, T scale, T *grad);
  // Adds every parameter's gradient from d_logits (batch x L, set by the caller) and leaves the
  // gradient at the embeddings in d_embedded (n x batch x E).
  void backward_from_logits(const T *p, T *grad);

  bool bigru, learned;
  std::size_t e, h, l;
  std::size_t embedding_at, encoder_at, w_at, v_at, classifier_at; // offsets in the parameters
  nn::GruModule<T> encoder;

  std::size_t batch = 0, n = 0;
  std::vector<TokenId> tokens;
  std::vector<std::int32_t> labels;
  std::vector<std::size_t> lengths;
  nn::KeyMask mask{};
  nn::GuidedAlignment<T> guide;

  std::vector<T> embedded;                        // n x batch x E
  std::vector<T> activations;                     // tanh(W h_j): n x batch x H
  std::vector<T> time_scores;                     // v · activations: n x batch
  std::vector<T> scores, weights;                 // batch x n: e and α
  std::vector<T> contexts;                        // batch x H
  std::vector<T> logits, probabilities, d_logits; // batch x L
  // Gradients
  std::vector<T> d_contexts, d_scores, d_time_scores, d_activations, d_states, d_embedded;

  const T *states() const { return bigru ? encoder.outputs() : embedded.data(); }
};

} // namespace attention
