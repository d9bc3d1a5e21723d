#include "models/classifier/network.hpp"

#include <algorithm>

#include "attention/detail/kernels.hpp"
#include "models/checks.hpp"

namespace attention {

std::vector<nn::ParameterSpec> classifier_parameter_specs(const ClassifierConfig &c) {
  const std::size_t e = c.embedding, h = c.width();
  std::vector<nn::ParameterSpec> specs;
  const auto add = [&](const std::string &module, std::vector<nn::ParameterSpec> part) {
    part = nn::prefixed(module, std::move(part));
    specs.insert(specs.end(), part.begin(), part.end());
  };
  add("embedding", nn::embedding_parameters(c.vocab, e));
  if (c.encoder == ClassifierEncoder::bigru)
    add("encoder", nn::gru_parameters(e, h / 2, 1, true));
  if (c.attention == ClassifierAttention::learned) {
    add("attention.W", nn::linear_parameters(h, h));
    add("attention.v", nn::linear_parameters(h, 1, false));
  }
  add("classifier", nn::linear_parameters(h, c.labels));
  return specs;
}

template <class T>
ClassifierNetwork<T>::ClassifierNetwork(const ClassifierConfig &config,
                                        const ParameterSet<T> &parameters)
    : bigru(config.encoder == ClassifierEncoder::bigru),
      learned(config.attention == ClassifierAttention::learned), e(config.embedding),
      h(config.width()), l(config.labels), encoder(e, h / 2, 1, true) {
  const auto at = [&](const char *name) { return parameters.info(name).offset; };
  embedding_at = at("embedding.weight");
  encoder_at = bigru ? at("encoder.weight_ih_l0") : 0;
  w_at = learned ? at("attention.W.weight") : 0;
  v_at = learned ? at("attention.v.weight") : 0;
  classifier_at = at("classifier.weight");
}

template <class T>
void ClassifierNetwork<T>::begin(const std::vector<const std::vector<TokenId> *> &sentences) {
  batch = sentences.size();
  n = models::pad_time_major(sentences, lengths, tokens);
  mask = {n, batch, lengths.data()};
  guide.clear();
  embedded.resize(n * batch * e);
  activations.resize(n * batch * h);
  time_scores.resize(n * batch);
  scores.assign(batch * n, T(0)); // uniform attention: every score 0, α = 1/n
  weights.resize(batch * n);
  contexts.resize(batch * h);
  for (auto *buffer : {&logits, &probabilities, &d_logits})
    buffer->resize(batch * l);
}

template <class T> void ClassifierNetwork<T>::forward(const T *p) {
  nn::embedding_forward(p + embedding_at, e, tokens.data(), n * batch, embedded.data(), e);
  if (bigru)
    encoder.forward(p + encoder_at, n, batch, lengths.data(), embedded.data());
  if (learned) {
    // Every row's score, the padding's too (masked next): one product each way.
    nn::linear_forward(n * batch, h, h, states(), h, p + w_at, h, p + w_at + h * h,
                       activations.data(), h);
    kernels::tanh_in_place(activations.data(), n * batch * h);
    nn::linear_forward<T>(n * batch, h, 1, activations.data(), h, p + v_at, h, nullptr,
                          time_scores.data(), 1);
    for (std::size_t k = 0; k < batch; ++k)
      for (std::size_t j = 0; j < n; ++j)
        scores[k * n + j] = time_scores[j * batch + k];
  }
  nn::attention_forward(batch, mask, h, scores.data(), states(), weights.data(), contexts.data());
  nn::linear_forward(batch, h, l, contexts.data(), h, p + classifier_at, h,
                     p + classifier_at + l * h, logits.data(), l);
}

template <class T> nn::CrossEntropy ClassifierNetwork<T>::cross_entropy() {
  return nn::cross_entropy_forward(batch, l, logits.data(), labels.data(), probabilities.data());
}

template <class T> void ClassifierNetwork<T>::backward(const T *p, T scale, T *grad) {
  nn::cross_entropy_backward(batch, l, probabilities.data(), labels.data(), scale, d_logits.data());
  backward_from_logits(p, grad);
}

template <class T> void ClassifierNetwork<T>::backward_from_logits(const T *p, T *grad) {
  d_contexts.resize(batch * h);
  d_scores.resize(batch * n);
  d_states.assign(n * batch * h, T(0));
  nn::linear_backward(batch, h, l, contexts.data(), h, p + classifier_at, h, d_logits.data(), l,
                      grad + classifier_at, grad + classifier_at + l * h, d_contexts.data(), h);
  nn::attention_backward(batch, mask, h, weights.data(), states(), d_contexts.data(),
                         d_scores.data(), d_states.data());
  if (learned) {
    guide.add_gradient(weights.data(), n, lengths.data(), 0, batch, d_scores.data());
    d_time_scores.resize(n * batch);
    d_activations.resize(n * batch * h);
    for (std::size_t k = 0; k < batch; ++k)
      for (std::size_t j = 0; j < n; ++j)
        d_time_scores[j * batch + k] = d_scores[k * n + j];
    // e = v · a, a = tanh(W h + b): the masked rows' zero gradients add nothing.
    nn::linear_backward<T>(n * batch, h, 1, activations.data(), h, p + v_at, h,
                           d_time_scores.data(), 1, grad + v_at, nullptr, d_activations.data(), h);
    for (std::size_t i = 0; i < n * batch * h; ++i)
      d_activations[i] *= T(1) - activations[i] * activations[i];
    nn::linear_backward(n * batch, h, h, states(), h, p + w_at, h, d_activations.data(), h,
                        grad + w_at, grad + w_at + h * h, d_states.data(), h, true);
  }
  if (bigru) {
    d_embedded.resize(n * batch * e);
    encoder.backward(p + encoder_at, grad + encoder_at, d_states.data(), {nullptr, nullptr},
                     d_embedded.data());
  } else {
    d_embedded = d_states;
  }
  nn::embedding_backward(d_embedded.data(), e, e, tokens.data(), n * batch, grad + embedding_at);
}

template struct ClassifierNetwork<float>;
template struct ClassifierNetwork<double>;

} // namespace attention
