// A sentence classifier with attention pooling, as Jain & Wallace (2019) test it: the words'
// embeddings, read by a bidirectional GRU (or not: encoder none, the embeddings are the states),
// pooled by attention into one vector that a linear layer classifies. Parameters carry PyTorch's
// names, shapes and equations, so a PyTorch state_dict of the reference model
// (tests/fixtures/make_classifier_fixtures.py) loads as it is. The classifier computes the loss of
// a batch and every gradient by backpropagation; training it is the trainer's (trainer.hpp).
//
//   x_j = embedding(w_j)                                       (embedding.weight, V x E)
//   h_j = [→h_j; ←h_j] = encoder(x)_j                           nn.GRU(E, H/2, bidirectional=True):
//         encoder.weight_ih_l0 … encoder.bias_hh_l0_reverse; encoder none: h_j = x_j, H = E
//   e_j = attention.v(tanh(attention.W(h_j)))                  Linear H -> H with bias, H -> 1
//                                                              without
//   α = softmax_j(e) over the sentence's words (padding masked); attention uniform: α_j = 1/n, and
//         the model has no attention.* parameters (its state_dict none)
//   c = Σ_j α_j h_j, logits = classifier(c)                    (classifier.weight, .bias: H -> L)
// Loss: the mean cross-entropy over the batch, plus λ (rationale) times the mean over the
// sentences with a rationale of -Σ_j q_j log α_j, q the rationale's words weighing alike: guided
// alignment's term (nn/guided_alignment.hpp), which teaches the attention the deciding words. For
// uniform attention the term is a constant (log n) with no gradient.
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

enum class ClassifierEncoder { bigru, none };
enum class ClassifierAttention { learned, uniform };
inline constexpr ClassifierEncoder classifier_encoders[] = {ClassifierEncoder::bigru,
                                                            ClassifierEncoder::none};
inline constexpr ClassifierAttention classifier_attentions[] = {ClassifierAttention::learned,
                                                                ClassifierAttention::uniform};
const char *classifier_encoder_name(ClassifierEncoder encoder);       // "bigru", "none"
const char *classifier_attention_name(ClassifierAttention attention); // "learned", "uniform"
// InputError blames `argument` for any other name.
ClassifierEncoder parse_classifier_encoder(const std::string &name, const char *argument);
ClassifierAttention parse_classifier_attention(const std::string &name, const char *argument);

// The most labels, and the longest sentence, a classifier takes.
constexpr std::size_t max_labels = 10, max_classifier_length = 1024;

struct ClassifierConfig {
  std::size_t vocab = 0, labels = 2;
  ClassifierEncoder encoder = ClassifierEncoder::bigru;
  ClassifierAttention attention = ClassifierAttention::learned;
  // E and H above (classifier_session.hpp says why these defaults); H is even for the bigru, and
  // unused by encoder none, whose states are E wide
  std::size_t embedding = 32, hidden = 64;
  std::int64_t seed = 0; // numpy's seeds: 0 … 2^32 - 1

  std::size_t width() const { return encoder == ClassifierEncoder::none ? embedding : hidden; }
};

// Throws InputError naming the field at fault ("vocab", "labels", "embedding", "hidden", "seed").
// The constructor calls it.
void validate(const ClassifierConfig &config);

// A sentence (token ids, no <eos>), its label, and its rationale's positions (none: unguided).
struct ClassifierSample {
  std::vector<TokenId> tokens;
  std::size_t label = 0;
  std::vector<std::size_t> rationale;
};

// Everything the model computed for one sentence, for display.
template <class T> struct ClassifierTrace {
  std::vector<TokenId> tokens;
  Matrix<T> embeddings, states;    // n x E, n x H
  Vector<T> scores, weights;       // n: e and α (uniform: e = 0)
  Vector<T> context;               // H
  Vector<T> logits, probabilities; // L
};

// A batch's outputs: per sentence its probabilities and attention weights (its first n_k).
template <class T> struct ClassifierOutputs {
  Matrix<T> probabilities;             // batch x L
  std::vector<std::vector<T>> weights; // per sentence, n_k
};

template <class T> struct ClassifierNetwork; // its layers and their buffers (models/classifier/)

template <class T>
class Classifier : public NetworkModel<T, ClassifierConfig, ClassifierNetwork<T>> {
  using Base = NetworkModel<T, ClassifierConfig, ClassifierNetwork<T>>;
  using Base::config_, Base::parameters_, Base::network_;

public:
  explicit Classifier(const ClassifierConfig &config);

  // The loss of a batch (one padded minibatch) with the rationale term's weight λ (finite, >= 0).
  // InputError blames "batch" (empty), "tokens" (empty, too long, outside the vocabulary), "label"
  // (outside the labels), "rationale" (a position outside the sentence, or λ negative).
  T loss(const std::vector<ClassifierSample> &batch, T rationale = 0);
  // The same, and its gradient with respect to every parameter, written over `gradients`.
  T loss_and_gradients(const std::vector<ClassifierSample> &batch, ParameterSet<T> &gradients,
                       T rationale = 0);

  // One sentence, every intermediate value.
  ClassifierTrace<T> trace(const std::vector<TokenId> &tokens);
  // A batch of sentences' probabilities and weights (InputError blames "sentences", "tokens").
  ClassifierOutputs<T> classify(const std::vector<std::vector<TokenId>> &sentences);
  // The gradient of the probability of `label` with respect to each word's embedding (n x E).
  Matrix<T> input_gradients(const std::vector<TokenId> &tokens, std::size_t label);
  // The probabilities the classifier gives the trace's states pooled with other weights (n of
  // them, as a permutation of the trace's): c = Σ_j weights_j h_j, softmax(classifier(c)).
  Vector<T> pooled_probabilities(const ClassifierTrace<T> &trace, const std::vector<T> &weights);
};

ATTENTION_EXTERN_MODEL(Classifier);

} // namespace attention
