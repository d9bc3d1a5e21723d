// An image captioner with soft attention over regions: Xu et al.'s "Show, Attend and Tell" (2015)
// at the size of the engine's scenes. Parameters carry PyTorch's names, shapes and equations, so a
// PyTorch state_dict of the reference model loads as it is (tests/fixtures/
// make_captioner_fixtures.py holds that model). The captioner computes the loss of a batch and
// every gradient by backpropagation; training it is the trainer's (trainer.hpp).
//
// Encoder: the image (3 x H x W) and two coordinate channels the model adds, x then y, each
// -1 + 2 k / (n - 1) along its axis (so a region's annotation knows where it is), then
//   encoder.conv1 Conv2d(5, C, 3, padding=1), encoder.bn1 BatchNorm2d(C), ReLU, MaxPool2d(2),
//   encoder.conv2 Conv2d(C, D, 3, padding=1), encoder.bn2 BatchNorm2d(D), ReLU, MaxPool2d(2):
// an (H/4) x (W/4) grid of L annotations a_i of width D (8 x 8 for 32 x 32 images), cell
// i = row * (W/4) + column. Each sees only a 10 x 10 pixel neighbourhood, which is what makes it
// describe its region. The batch norms are the default layout (normalization batch); the first
// layout (none) has neither. Without them most seeds never learn to look at the objects within the
// budget a reader trains for (issue 32): the batch norm keeps every channel's scale in step.
// A batch norm normalises by its batch's statistics in training mode (loss, loss_and_gradients),
// by its running statistics in eval mode (everything else); the running statistics move only when
// update_running_statistics() is called after a training-mode pass, once a training step (as
// PyTorch's forward in train() mode does), so that gradient checks leave them.
// Decoder, teacher forced from y_0 = <sos>: h_0 = decoder.init_h(mean_i a_i), c_0 =
// decoder.init_c(mean_i a_i) (Linear D -> H); at step t,
//   e_ti = decoder.attention.full_att(tanh(encoder_att(a_i) + decoder_att(h_{t-1})))
//          (Linear D -> A, H -> A, A -> 1), α_t = softmax_i(e_t),
//   β_t = σ(decoder.f_beta(h_{t-1})) (Linear H -> D), z_t = β_t ⊙ Σ_i α_ti a_i,
//   (h_t, c_t) = decoder.decode_step([decoder.embedding(y_{t-1}); z_t], (h_{t-1}, c_{t-1}))
//          (nn.LSTMCell(E + D, H), gate order i, f, g, o), logits_t = decoder.fc(h_t).
// Loss: the mean cross-entropy over every caption token of the batch, plus λ (regularization)
// times the mean over the batch and the L regions of (1 - Σ_t α_ti)², t over each caption's own
// steps: the paper's doubly stochastic regulariser, which asks every region to be looked at about
// once. The paper writes λ Σ_i; its authors' code (arctic-captions) and the PyTorch implementation
// its readers use (sgrvinod's) both average over the regions, and so do we: summed over 64
// regions and at most 18 steps, the term is about 40 at any attention and, at λ = 1, drowns the
// cross-entropy (exact match 0.05 after 2000 steps, against 0.99 at λ = 0).
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

// The widest beam search, and the longest caption (tokens, <eos> included).
constexpr std::size_t max_caption_beam = 16;
constexpr std::size_t max_caption_steps = 256;

// The encoder's layout: a batch norm after each convolution, or none (the first files' layout).
enum class CaptionerNormalization { none, batch };
inline constexpr CaptionerNormalization captioner_normalizations[] = {
    CaptionerNormalization::none, CaptionerNormalization::batch};
const char *normalization_name(CaptionerNormalization normalization); // "none", "batch"
// InputError blames `argument` for any other name.
CaptionerNormalization parse_normalization(const std::string &name, const char *argument);

struct CaptionerConfig {
  std::size_t vocab = 0;
  CaptionerNormalization normalization = CaptionerNormalization::batch;
  // C, D, A, E and H above; caption_session.hpp says why these defaults
  std::size_t channels = 16, annotation = 32, attention = 32, embedding = 16, hidden = 64;
  std::size_t height = 32, width = 32; // the images': multiples of 4
  std::int64_t seed = 0;               // numpy's seeds: 0 … 2^32 - 1
  TokenId sos = 0, eos = 1;
};

// Throws InputError naming the field at fault ("vocab", "channels", "annotation", "attention",
// "embedding", "hidden", "height", "width", "seed", "sos", "eos"). The constructor calls it.
void validate(const CaptionerConfig &config);

// An image (3 x height x width, channels first) and its caption, ending with <eos>.
template <class T> struct CaptionSample {
  std::vector<T> image;
  std::vector<TokenId> caption;
};

// Everything the model computed for one image, for display. Rows are decoder steps.
template <class T> struct CaptionerTrace {
  std::vector<TokenId> output; // the caption decoded or teacher forced
  Matrix<T> annotations;       // L x D
  Matrix<T> states;            // m x H: h_{t-1}, the state each step attends from
  Matrix<T> scores, weights;   // m x L: e_t and α_t
  Matrix<T> gates;             // m x D: β_t
  Matrix<T> logits;            // m x V
};

struct CaptionHypothesis {
  std::vector<TokenId> output; // ends with <eos> unless it reached the length limit
  double log_probability = 0;
};

template <class T> struct CaptionerBeamSearch {
  CaptionerTrace<T> trace;              // the best hypothesis, teacher forced again for display
  std::vector<CaptionHypothesis> beams; // best first, at most the beam's width
};

template <class T> struct CaptionerNetwork; // its layers and their buffers (models/captioner/)

template <class T> class Captioner : public NetworkModel<T, CaptionerConfig, CaptionerNetwork<T>> {
  using Base = NetworkModel<T, CaptionerConfig, CaptionerNetwork<T>>;
  using Base::config_, Base::parameters_, Base::network_;

public:
  explicit Captioner(const CaptionerConfig &config);

  // The grid of annotations: height / 4 x width / 4.
  std::size_t grid_rows() const { return config_.height / 4; }
  std::size_t grid_columns() const { return config_.width / 4; }

  // The loss of a batch (one padded minibatch) with the regulariser's weight λ (finite, >= 0).
  // InputError blames "batch" (empty), "image" (wrong size, non-finite), "caption" (empty, too
  // long, a token outside the vocabulary, not ending with <eos>), "regularization".
  T loss(const std::vector<CaptionSample<T>> &batch, T regularization = 1);
  // The same, and its gradient with respect to every parameter, written over `gradients`.
  T loss_and_gradients(const std::vector<CaptionSample<T>> &batch, ParameterSet<T> &gradients,
                       T regularization = 1);

  // After loss or loss_and_gradients of a batch: each batch norm's running statistics moved
  // towards that batch's (PyTorch's update, momentum 0.1), one more batch tracked. Nothing
  // without batch norms.
  void update_running_statistics();

  // One image teacher forced with its caption.
  CaptionerTrace<T> trace(const std::vector<T> &image, const std::vector<TokenId> &caption);
  // The attention weights (caption length x L each) of a batch, teacher forced.
  std::vector<Matrix<T>> attention_weights(const std::vector<CaptionSample<T>> &batch);
  // Greedy decoding of a batch of images: each until <eos> or max_length tokens.
  std::vector<std::vector<TokenId>> caption(const std::vector<const std::vector<T> *> &images,
                                            std::size_t max_length);
  // Beam search, as Seq2seq's: the `width` best hypotheses by total log-probability, no length
  // penalty; ties to the earlier hypothesis, then the smaller token, so width 1 is greedy.
  // InputError blames "beam" for a width outside 1 … max_caption_beam.
  CaptionerBeamSearch<T> beam_search(const std::vector<T> &image, std::size_t max_length,
                                     std::size_t width);
};

ATTENTION_EXTERN_MODEL(Captioner);

} // namespace attention
