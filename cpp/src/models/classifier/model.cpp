// Classifier<T>: input checks, the loss and its gradients over a padded minibatch, and what the
// explanations read (a trace, a batch's outputs, the gradient at the embeddings, other weights
// pooled), on the layers composed in network.hpp.
#include <algorithm>
#include <cmath>

#include "attention/softmax.hpp"
#include "models/checks.hpp"
#include "models/classifier/network.hpp"
#include "models/model_parts.hpp"

namespace attention {

using namespace models;

namespace {

constexpr std::size_t max_width = 1024;                 // every layer's width
constexpr std::size_t max_vocab = std::size_t(1) << 20; // a task from text's words

void check_sentence(const std::vector<TokenId> &tokens, const ClassifierConfig &config,
                    const std::string &what) {
  check_tokens(tokens, config.vocab, max_classifier_length, "tokens", what, "vocabulary");
}

// Checks every sample and λ before any work.
void check_batch(const std::vector<ClassifierSample> &batch, const ClassifierConfig &config,
                 double rationale) {
  check_weight(rationale, "rationale");
  if (batch.empty())
    fail(Argument("batch"), "batch is empty");
  for (std::size_t k = 0; k < batch.size(); ++k) {
    const std::string sample = "batch[" + std::to_string(k) + "]";
    check_sentence(batch[k].tokens, config, sample + ".tokens");
    if (batch[k].label >= config.labels)
      fail(Argument("label"), sample, ".label (", batch[k].label, ") must be below the ",
           config.labels, " labels");
    for (std::size_t j : batch[k].rationale)
      if (j >= batch[k].tokens.size())
        fail(Argument("rationale"), sample, ".rationale holds position ", j,
             ", outside a sentence of ", batch[k].tokens.size(), " words");
  }
}

template <class T> Vector<T> vector_of(const T *values, std::size_t n) {
  Vector<T> out = Vector<T>::from_shape({n});
  std::copy(values, values + n, out.data());
  return out;
}

} // namespace

const char *classifier_encoder_name(ClassifierEncoder encoder) {
  return encoder == ClassifierEncoder::bigru ? "bigru" : "none";
}

const char *classifier_attention_name(ClassifierAttention attention) {
  return attention == ClassifierAttention::learned ? "learned" : "uniform";
}

ClassifierEncoder parse_classifier_encoder(const std::string &name, const char *argument) {
  return parse_choice(name, classifier_encoders, classifier_encoder_name, argument,
                      "bigru or none");
}

ClassifierAttention parse_classifier_attention(const std::string &name, const char *argument) {
  return parse_choice(name, classifier_attentions, classifier_attention_name, argument,
                      "learned or uniform");
}

void validate(const ClassifierConfig &c) {
  check_size(c.vocab, 1, max_vocab, "vocab");
  check_size(c.labels, 2, max_labels, "labels");
  check_size(c.embedding, 1, max_width, "embedding");
  check_size(c.hidden, 2, max_width, "hidden");
  check_halves(c.encoder == ClassifierEncoder::bigru, c.hidden,
               ": the bidirectional GRU gives each direction half");
  check_seed(c.seed);
}

template <class T>
Classifier<T>::Classifier(const ClassifierConfig &config)
    : Base(config, classifier_parameter_specs) {}

namespace {

// The batch through the network with its labels and rationales: the mean cross-entropy plus λ
// times the rationale's term, checked to be finite in T.
template <class T, class Network>
double forward_batch(Network &network, const T *parameters,
                     const std::vector<ClassifierSample> &batch, T rationale) {
  std::vector<const std::vector<TokenId> *> sentences;
  std::vector<std::int32_t> labels;
  std::vector<nn::Links> links(batch.size());
  std::vector<const nn::Links *> guides;
  for (std::size_t k = 0; k < batch.size(); ++k) {
    sentences.push_back(&batch[k].tokens);
    labels.push_back(static_cast<std::int32_t>(batch[k].label));
    links[k] = {batch[k].rationale};
    guides.push_back(&links[k]);
  }
  network.begin(sentences);
  network.set_labels(labels);
  if (rationale > 0)
    network.set_guide(guides, rationale);
  network.forward(parameters);
  const nn::CrossEntropy loss = network.cross_entropy();
  const double guided = rationale > 0 ? double(rationale) * network.guide_loss() : 0.0;
  require_finite_loss<T>(loss.sum);
  require_finite_loss<T>(loss.mean() + guided);
  return loss.mean() + guided;
}

} // namespace

template <class T> T Classifier<T>::loss(const std::vector<ClassifierSample> &batch, T rationale) {
  check_batch(batch, config_, double(rationale));
  return static_cast<T>(forward_batch(*network_, parameters_.data(), batch, rationale));
}

template <class T>
T Classifier<T>::loss_and_gradients(const std::vector<ClassifierSample> &batch,
                                    ParameterSet<T> &gradients, T rationale) {
  check_batch(batch, config_, double(rationale));
  require_same_layout(gradients, parameters_);
  const double loss = forward_batch(*network_, parameters_.data(), batch, rationale);
  std::fill(gradients.data(), gradients.data() + gradients.size(), T(0));
  network_->backward(parameters_.data(), T(1) / static_cast<T>(batch.size()), gradients.data());
  return static_cast<T>(loss);
}

template <class T> ClassifierTrace<T> Classifier<T>::trace(const std::vector<TokenId> &tokens) {
  check_sentence(tokens, config_, "tokens");
  auto &w = *network_;
  w.begin({&tokens});
  w.forward(parameters_.data());
  const std::size_t n = tokens.size(), h = w.h, l = w.l;
  ClassifierTrace<T> r;
  r.tokens = tokens;
  r.embeddings = Matrix<T>::from_shape({n, w.e});
  std::copy(w.embedded.begin(), w.embedded.begin() + n * w.e, r.embeddings.data());
  r.states = Matrix<T>::from_shape({n, h});
  std::copy(w.states(), w.states() + n * h, r.states.data());
  r.scores = vector_of(w.scores.data(), n);
  r.weights = vector_of(w.weights.data(), n);
  r.context = vector_of(w.contexts.data(), h);
  r.logits = vector_of(w.logits.data(), l);
  r.probabilities = Vector<T>::from_shape({l});
  detail::softmax_into(w.logits.data(), l, T(1), nullptr, r.probabilities.data());
  return r;
}

template <class T>
ClassifierOutputs<T> Classifier<T>::classify(const std::vector<std::vector<TokenId>> &sentences) {
  if (sentences.empty())
    fail(Argument("sentences"), "sentences is empty");
  std::vector<const std::vector<TokenId> *> batch;
  for (std::size_t k = 0; k < sentences.size(); ++k) {
    check_sentence(sentences[k], config_, "sentences[" + std::to_string(k) + "]");
    batch.push_back(&sentences[k]);
  }
  auto &w = *network_;
  w.begin(batch);
  w.forward(parameters_.data());
  ClassifierOutputs<T> out;
  out.probabilities = Matrix<T>::from_shape({w.batch, w.l});
  for (std::size_t k = 0; k < w.batch; ++k) {
    detail::softmax_into(w.logits.data() + k * w.l, w.l, T(1), nullptr,
                         out.probabilities.data() + k * w.l);
    out.weights.emplace_back(w.weights.begin() + k * w.n,
                             w.weights.begin() + k * w.n + w.lengths[k]);
  }
  return out;
}

template <class T>
Matrix<T> Classifier<T>::input_gradients(const std::vector<TokenId> &tokens, std::size_t label) {
  const ClassifierTrace<T> r = trace(tokens);
  if (label >= config_.labels)
    fail(Argument("label"), "label (", label, ") must be below the ", config_.labels, " labels");
  // dp_c / dlogits = p_c (onehot_c - p), through the network with the gradients thrown away.
  auto &w = *network_;
  const T p_c = r.probabilities[label];
  for (std::size_t i = 0; i < w.l; ++i)
    w.d_logits[i] = p_c * ((i == label ? T(1) : T(0)) - r.probabilities[i]);
  ParameterSet<T> scratch = this->make_gradients();
  w.backward_from_logits(parameters_.data(), scratch.data());
  Matrix<T> out = Matrix<T>::from_shape({tokens.size(), w.e});
  std::copy(w.d_embedded.begin(), w.d_embedded.begin() + tokens.size() * w.e, out.data());
  return out;
}

template <class T>
Vector<T> Classifier<T>::pooled_probabilities(const ClassifierTrace<T> &trace,
                                              const std::vector<T> &weights) {
  const std::size_t n = trace.states.shape()[0], h = trace.states.shape()[1], l = config_.labels;
  if (weights.size() != n)
    fail(Argument("weights"), "weights holds ", weights.size(), " values for ", n, " words");
  std::vector<T> context(h), logits(l);
  kernels::gemm_ab(1, h, n, weights.data(), n, trace.states.data(), h, context.data(), h);
  const T *p = parameters_.values("classifier.weight");
  nn::linear_forward(1, h, l, context.data(), h, p, h, p + l * h, logits.data(), l);
  Vector<T> out = Vector<T>::from_shape({l});
  detail::softmax_into(logits.data(), l, T(1), nullptr, out.data());
  return out;
}

ATTENTION_INSTANTIATE_MODEL(Classifier);

} // namespace attention
