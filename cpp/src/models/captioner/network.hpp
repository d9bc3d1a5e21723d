// The captioner's layers composed over a padded minibatch: the encoder (coordinate channels, two
// convolutions, each with its batch norm in the batch layout, ReLU and max pooling, channels-last)
// and the decoder (soft attention, the gate β, an LSTM cell, the output layer), forward and
// backward, with the doubly stochastic regulariser. Each backward calls its forward's layers in
// reverse. Decoder buffers are step-major: row t * batch + b is image b at step t. Only model.cpp
// includes it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "attention/captioner.hpp"
#include "nn/buffers.hpp"
#include "nn/conv2d.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/lstm_cell.hpp"
#include "nn/scoring.hpp"

namespace attention {

// The parameters in state_dict order (encoder.{conv1, bn1, conv2, bn2}, decoder.{init_h, init_c,
// attention.{encoder_att, decoder_att, full_att}, f_beta, embedding, decode_step, fc}).
std::vector<nn::ParameterSpec> captioner_parameter_specs(const CaptionerConfig &config);

template <class T> struct CaptionerNetwork {
  CaptionerNetwork(const CaptionerConfig &config, const ParameterSet<T> &parameters);

  // A batch of images (3 x height x width each) for up to `steps` decoder steps.
  void begin(const std::vector<const std::vector<T> *> &images, std::size_t steps);
  // Teacher forcing: decoder inputs (<sos>, then each caption but its last token) and targets
  // (-1 past each caption's end, which the loss ignores).
  void set_targets(const std::vector<const std::vector<TokenId> *> &captions);

  // The annotations, the decoder's initial state and the attention's annotation side; the batch
  // norms in training mode (the batch's statistics, kept for update_running) or eval mode.
  void encode(const T *p);
  // After a training-mode encode: the running statistics moved towards its batch's, once.
  void update_running(T *p);
  void batch_norm(const T *at, std::size_t rows, std::size_t channels, T *x,
                  std::vector<T> &normalised, std::vector<T> &inverse_std,
                  std::vector<T> &batch_mean, std::vector<T> &batch_variance);
  // Decoder steps [t0, t1), their inputs set, then their logits.
  void decode(const T *p, std::size_t t0, std::size_t t1);
  // Step t: the attention from h_{t-1}, the gate β, the LSTM.
  void step(const T *p, std::size_t t);
  void forward(const T *p) {
    encode(p);
    decode(p, 0, steps);
  }
  nn::CrossEntropy cross_entropy();
  // After forward: the mean over the batch of Σ_i (1 - Σ_t α_ti)², t < each caption's length.
  double regularizer();
  // After cross_entropy and regularizer: adds every parameter's gradient of `scale` times the
  // summed cross-entropy plus λ times the regulariser.
  void backward(const T *p, T scale, T lambda, T *grad);
  // Its parts, each its forward's backward: encode's (from d_annotations, and dh and dc at the
  // initial state), decode's over every step (from d_logits), step t's (from d_hs, and dh and dc
  // at h_{t+1} and c_{t+1}).
  void encode_backward(const T *p, T *grad);
  void decode_backward(const T *p, T lambda, T *grad);
  void step_backward(const T *p, std::size_t t, T lambda, T *grad);

  // Image 0's steps that wrote `output` (its output), for display.
  CaptionerTrace<T> trace(std::vector<TokenId> output) const;
  const T *logits_at(std::size_t t) const { return logits.data() + t * batch * v; }
  // The decoder's (h, c) of a batch of one before step t (2H values), to read or replace.
  void get_decoder_state(std::size_t t, T *state) const;
  void set_decoder_state(std::size_t t, const T *state);

  std::size_t c, d, e, h, v;
  TokenId sos;
  std::size_t height, width, l; // l: annotations per image
  // offsets of each layer's block in the flat parameters
  std::size_t conv1, conv2, init_h, init_c, attention_at, f_beta, embedding, lstm, fc;
  bool normalized; // encoder.bn1 and encoder.bn2, at offsets bn1 and bn2
  std::size_t bn1 = 0, bn2 = 0;
  bool training = false;         // the batch norms' mode for the next encode
  bool fresh_statistics = false; // a training-mode encode's statistics not yet applied
  nn::Conv2dShape shape1{}, shape2{};
  // e_ti = full_att(tanh(encoder_att(a_i) + decoder_att(h_{t-1}))) over each image's L annotations
  std::unique_ptr<nn::ScoringFunction<T>> attention;

  std::size_t batch = 0, steps = 0;
  std::vector<TokenId> inputs, targets;
  std::vector<std::size_t> lengths;               // each caption's, for the regulariser
  std::vector<std::size_t> annotations_per_image; // L each: no region is masked
  nn::KeyMask mask{};

  // Encoder, channels-last
  // conv1 reads the image (3 channels) and the coordinates (2, the same in every image): each part
  // is a product of its own, and the coordinates' is made once per batch for all the images.
  std::vector<T> pixels;              // batch x H x W x 3: the image, channels-last
  std::vector<T> coordinate_patches;  // (H W) x 18: the coordinate channels' patches
  std::vector<T> coordinate_map;      // (H W) x C: their part of conv1's output, and its bias
  std::vector<T> patches1, features1; // conv1's image patches (rows x 27); its output after ReLU
  std::vector<T> pooled1, patches2, features2;
  // The batch norms in training mode: x̂ (rows x channels), and each channel's 1 / σ, mean and
  // biased variance
  std::vector<T> normalised1, inverse_std1, mean1, variance1, normalised2, inverse_std2, mean2,
      variance2;
  std::vector<T> annotations; // batch x L x D
  std::vector<std::uint8_t> argmax1, argmax2;
  // Decoder
  std::vector<T> mean;                  // batch x D
  std::vector<T> hs, cs;                // (steps + 1) x batch x H: h_t and c_t
  std::vector<T> scores, weights;       // steps x batch x L
  std::vector<T> contexts, betas;       // steps x batch x D: Σ α a, and β
  std::vector<T> x;                     // steps x batch x (E + D): [embedding; z]
  std::vector<T> lstm_gates, tanh_c;    // steps x batch x 4H, x H
  std::vector<T> logits, probabilities; // steps x batch x V
  std::vector<T> attended;              // batch x L: Σ_t α_ti
  // The weights used at every decoder step, packed once per batch: transposed by encode for the
  // forward steps (X W^T), as they are by backward for the gradients (dY W).
  kernels::PackedB<T> ih_t, hh_t, f_beta_t, ih_w, hh_w, f_beta_w;
  // Gradients; d_scores and d_queries (the attention's at h_{t-1}) of one step
  std::vector<T> d_logits, d_hs, d_gates, d_x, d_beta, d_scores, d_queries, d_annotations, d_mean,
      dh, dc, dh_next, dc_next, d_alpha, d_features2, d_pooled1, d_features1, d_patches,
      d_coordinate_map;

  T *state_h(std::size_t t) { return hs.data() + t * batch * h; }
  const T *state_h(std::size_t t) const { return hs.data() + t * batch * h; }
  T *state_c(std::size_t t) { return cs.data() + t * batch * h; }
  nn::LstmWeights<const T> lstm_weights(const T *p) const { return {p + lstm, e + d, h}; }
};

} // namespace attention
