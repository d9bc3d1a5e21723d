#include "models/seq2seq/network.hpp"

#include <cmath>
#include <utility>

#include "attention/detail/kernels.hpp"
#include "nn/buffers.hpp"

namespace attention {

std::vector<nn::ParameterSpec> seq2seq_parameter_specs(const Seq2seqConfig &c) {
  const std::size_t e = c.embedding, h = c.hidden;
  const bool additive = c.scoring == ScoreFunction::additive;
  std::vector<nn::ParameterSpec> specs;
  const auto add = [&](const std::string &module, std::vector<nn::ParameterSpec> part) {
    part = nn::prefixed(module, std::move(part));
    specs.insert(specs.end(), part.begin(), part.end());
  };
  const bool bidirectional = c.encoder == Encoder::bidirectional;
  add("encoder.embedding", nn::embedding_parameters(c.source_vocab, e));
  add("encoder.gru", nn::gru_parameters(e, bidirectional ? h / 2 : h, c.layers, bidirectional));
  if (bidirectional)
    add("encoder.bridge", nn::linear_parameters(h / 2, h));
  add("decoder.embedding", nn::embedding_parameters(c.target_vocab, e));
  add("decoder.attention", nn::make_scoring_function<double>(c.scoring, h)->parameters());
  add("decoder.gru", nn::gru_parameters(additive ? e + h : e, h, c.layers));
  if (!additive)
    add("decoder.combine", nn::linear_parameters(2 * h, h));
  add("decoder.out", nn::linear_parameters(h, c.target_vocab));
  return specs;
}

template <class T>
Seq2seqNetwork<T>::Seq2seqNetwork(const Seq2seqConfig &config, const ParameterSet<T> &parameters)
    : Base(config.target_vocab), scoring(config.scoring),
      bidirectional(config.encoder == Encoder::bidirectional), layers(config.layers),
      e(config.embedding), h(config.hidden), g(3 * config.hidden),
      input(config.scoring == ScoreFunction::additive ? e + h : e),
      scorer(nn::make_scoring_function<T>(config.scoring, config.hidden)),
      encoder(e, bidirectional ? h / 2 : h, layers, bidirectional), decoder(layers) {
  const auto at = [&](const char *name) { return parameters.info(name).offset; };
  encoder_embedding = at("encoder.embedding.weight");
  encoder_gru_at = at("encoder.gru.weight_ih_l0");
  bridge = bidirectional ? at("encoder.bridge.weight") : 0;
  decoder_embedding = at("decoder.embedding.weight");
  attention_block = decoder_embedding + config.target_vocab * e; // right after, when it has any
  decoder_gru_at = at("decoder.gru.weight_ih_l0");
  combine = additive() ? 0 : at("decoder.combine.weight");
  out = at("decoder.out.weight");
}

template <class T>
void Seq2seqNetwork<T>::begin(const std::vector<const std::vector<TokenId> *> &batch_sources,
                              std::size_t decoder_steps) {
  this->set_sources(batch_sources, decoder_steps);
  if (scoring == ScoreFunction::additive || scoring == ScoreFunction::concat)
    detail::require_fits(n * steps * batch, h, "the attention's tanh activations",
                         detail::Argument("target"));
  mask = {n, batch, source_lengths.data()};
  const std::size_t rows = steps * batch;
  encoder_x.resize(n * batch * e);
  decoder_x.resize(rows * input);
  for (auto *buffer : {&scores, &weights})
    buffer->resize(rows * n);
  for (auto *buffer : {&contexts, &attentional})
    buffer->resize(rows * h);
  combined.resize(rows * 2 * h);
  for (auto *buffer : {&logits, &probabilities})
    buffer->resize(rows * v);
}

template <class T> void Seq2seqNetwork<T>::encode(const T *p) {
  nn::embedding_forward(p + encoder_embedding, e, sources.data(), n * batch, encoder_x.data(), e);
  encoder.forward(p + encoder_gru_at, n, batch, source_lengths.data(), encoder_x.data());
  scorer->begin(p + attention_block, annotations(), mask, steps * batch);
  // Decoder layer l starts from encoder layer l's last state (which the encoder holds past each
  // source's length), or from tanh(bridge(←h_1)) of that layer.
  initial.resize(layers * batch * h);
  for (std::size_t layer = 0; layer < layers; ++layer) {
    T *s0 = initial.data() + layer * batch * h;
    if (bidirectional) {
      nn::linear_forward(batch, h / 2, h, encoder.last(layer, 1), h / 2, p + bridge, h / 2,
                         p + bridge + h * (h / 2), s0, h);
      kernels::tanh_in_place(s0, batch * h);
    } else {
      std::copy(encoder.last(layer, 0), encoder.last(layer, 0) + batch * h, s0);
    }
    decoder[layer].begin(h, steps, batch, nullptr, s0);
  }
}

template <class T>
void Seq2seqNetwork<T>::run_upper_layers(const T *p, std::size_t t0, std::size_t t1) {
  for (std::size_t layer = 1; layer < layers; ++layer) {
    const auto w = decoder_weights(p, layer);
    decoder[layer].project_inputs(w, t0, t1, decoder[layer - 1].state(t0 + 1), h, h);
    decoder[layer].run(w, t0, t1);
  }
}

template <class T> void Seq2seqNetwork<T>::decode(const T *p, std::size_t t0, std::size_t t1) {
  const std::size_t rows = (t1 - t0) * batch, first = t0 * batch;
  const auto w = decoder_weights(p, 0);
  T *x = decoder_x.data() + first * input;
  nn::embedding_forward(p + decoder_embedding, e, inputs.data() + first, rows, x, input);
  decoder[0].project_inputs(w, t0, t1, x, input, e);
  const T *attention = p + attention_block;
  if (additive()) {
    // Bahdanau: the attention reads s_{t-1} and its context feeds the GRU, a step at a time.
    for (std::size_t t = t0; t < t1; ++t) {
      const std::size_t at = t * batch;
      scorer->forward(attention, at, batch, top().state(t), scores.data() + at * n);
      nn::attention_forward(batch, mask, h, scores.data() + at * n, annotations(),
                            weights.data() + at * n, contexts.data() + at * h);
      for (std::size_t k = 0; k < batch; ++k)
        std::copy(contexts.data() + (at + k) * h, contexts.data() + (at + k + 1) * h,
                  decoder_x.data() + (at + k) * input + e);
      decoder[0].add_input_projection(w, t, e, contexts.data() + at * h, h);
      decoder[0].run(w, t, t + 1);
      run_upper_layers(p, t, t + 1);
    }
    nn::linear_forward(rows, h, v, top().state(t0 + 1), h, p + out, h, p + out + v * h,
                       logits.data() + first * v, v);
    return;
  }
  // Luong: the GRU runs first; the attention reads s_t, and h̃_t = tanh(combine [c_t; s_t]).
  decoder[0].run(w, t0, t1);
  run_upper_layers(p, t0, t1);
  const T *states = top().state(t0 + 1);
  scorer->forward(attention, first, rows, states, scores.data() + first * n);
  nn::attention_forward(rows, mask, h, scores.data() + first * n, annotations(),
                        weights.data() + first * n, contexts.data() + first * h);
  for (std::size_t r = first; r < first + rows; ++r) {
    std::copy(contexts.data() + r * h, contexts.data() + (r + 1) * h, combined.data() + r * 2 * h);
    std::copy(states + (r - first) * h, states + (r - first + 1) * h,
              combined.data() + r * 2 * h + h);
  }
  T *tilde = attentional.data() + first * h;
  nn::linear_forward(rows, 2 * h, h, combined.data() + first * 2 * h, 2 * h, p + combine, 2 * h,
                     p + combine + 2 * h * h, tilde, h);
  kernels::tanh_in_place(tilde, rows * h);
  nn::linear_forward(rows, h, v, tilde, h, p + out, h, p + out + v * h, logits.data() + first * v,
                     v);
}

template <class T> void Seq2seqNetwork<T>::get_decoder_state(std::size_t t, T *state) const {
  for (std::size_t layer = 0; layer < layers; ++layer)
    std::copy(decoder[layer].state(t), decoder[layer].state(t) + h, state + layer * h);
}

template <class T> void Seq2seqNetwork<T>::set_decoder_state(std::size_t t, const T *state) {
  for (std::size_t layer = 0; layer < layers; ++layer)
    std::copy(state + layer * h, state + (layer + 1) * h, decoder[layer].state(t));
}

template <class T> double Seq2seqNetwork<T>::guide_loss() const {
  return guide.loss(scores.data(), n, source_lengths.data());
}

template <class T> void Seq2seqNetwork<T>::backward(const T *p, T scale, T *grad) {
  const std::size_t rows = steps * batch;
  for (auto *buffer : {&d_top, &d_states, &d_context, &d_queries, &d_below})
    buffer->resize(rows * h);
  d_logits.resize(rows * v);
  d_scores.resize(rows * n);
  d_combined.resize(rows * 2 * h);
  d_embedded.resize(std::max(rows, n * batch) * e);
  d_annotations.assign(n * batch * h, T(0));
  carry.resize(layers * batch * h);
  dh.resize(batch * h);
  nn::cross_entropy_backward(rows, v, probabilities.data(), targets.data(), scale, d_logits.data());
  // out: logits = W top + b, top being s_t (additive) or h̃_t (Luong)
  const T *output = additive() ? top().state(1) : attentional.data();
  nn::linear_backward(rows, h, v, output, h, p + out, h, d_logits.data(), v, grad + out,
                      grad + out + v * h, d_top.data(), h);
  if (additive())
    backward_additive(p, grad);
  else
    backward_luong(p, grad);
  backward_encoder(p, grad);
}

// d_annotations from the attention, and carry (layers x batch x H) at the decoder's initial
// states, through the bridge (bidirectional) to the encoder's last states.
template <class T> void Seq2seqNetwork<T>::backward_encoder(const T *p, T *grad) {
  const std::size_t directions = bidirectional ? 2 : 1;
  std::vector<const T *> d_last(layers * directions, nullptr);
  if (bidirectional) {
    d_initial.resize(layers * batch * (h / 2));
    for (std::size_t layer = 0; layer < layers; ++layer) {
      // s_0 = tanh(bridge ←h_1): carry becomes the pre-activation's gradient.
      T *d = carry.data() + layer * batch * h;
      const T *s0 = initial.data() + layer * batch * h;
      for (std::size_t i = 0; i < batch * h; ++i)
        d[i] *= T(1) - s0[i] * s0[i];
      T *d_backward = d_initial.data() + layer * batch * (h / 2);
      nn::linear_backward(batch, h / 2, h, encoder.last(layer, 1), h / 2, p + bridge, h / 2, d, h,
                          grad + bridge, grad + bridge + h * (h / 2), d_backward, h / 2);
      d_last[layer * 2 + 1] = d_backward;
    }
  } else {
    for (std::size_t layer = 0; layer < layers; ++layer)
      d_last[layer] = carry.data() + layer * batch * h;
  }
  encoder.backward(p + encoder_gru_at, grad + encoder_gru_at, d_annotations.data(), d_last,
                   d_embedded.data());
  nn::embedding_backward(d_embedded.data(), e, e, sources.data(), n * batch,
                         grad + encoder_embedding);
}

// Steps backwards: the gradient at the top layer's s_t is d_top's row plus what flows back from
// step t + 1 through its GRU and its attention query; a layer below gets the gradient at its
// state from the layer above's input and from its own next step (carry, a block per layer).
template <class T> void Seq2seqNetwork<T>::backward_additive(const T *p, T *grad) {
  const T *attention = p + attention_block;
  T *d_attention = grad + attention_block;
  std::fill(carry.begin(), carry.end(), T(0));
  const std::size_t size = batch * h;
  for (std::size_t t = steps; t-- > 0;) {
    const std::size_t at = t * batch;
    for (std::size_t layer = layers; layer-- > 0;) {
      T *layer_carry = carry.data() + layer * size;
      const T *from_above = layer + 1 == layers ? d_top.data() + at * h : d_below.data();
      for (std::size_t i = 0; i < size; ++i)
        dh[i] = from_above[i] + layer_carry[i];
      const auto w = decoder_weights(p, layer);
      decoder[layer].step_backward(w, t, dh.data(), layer_carry);
      if (layer > 0) // the gradient at the input, the state of the layer below
        decoder[layer].input_gradient(w, t, 0, d_below.data(), h);
    }
    // The context is the first layer's input's tail: its gradient is dgi W_ih[:, E:].
    decoder[0].input_gradient(decoder_weights(p, 0), t, e, d_context.data() + at * h, h);
    nn::attention_backward(batch, mask, h, weights.data() + at * n, annotations(),
                           d_context.data() + at * h, d_scores.data() + at * n,
                           d_annotations.data());
    guide.add_gradient(weights.data(), n, source_lengths.data(), at, batch, d_scores.data());
    scorer->backward(attention, at, batch, d_scores.data() + at * n, d_queries.data() + at * h,
                     d_attention);
    T *top_carry = carry.data() + (layers - 1) * size;
    for (std::size_t i = 0; i < size; ++i)
      top_carry[i] += d_queries[at * h + i];
  }
  scorer->end_backward(attention, d_annotations.data(), d_attention);
  for (std::size_t layer = 0; layer < layers; ++layer)
    decoder[layer].weight_backward(decoder_gradients(grad, layer), steps,
                                   layer ? decoder[layer - 1].state(1) : decoder_x.data(),
                                   layer ? h : input);
  kernels::gemm_ab(steps * batch, e, g, decoder[0].d_input_projections(0), g,
                   decoder_weights(p, 0).weight_ih, input, d_embedded.data(), e);
  nn::embedding_backward(d_embedded.data(), e, e, inputs.data(), steps * batch,
                         grad + decoder_embedding);
}

template <class T> void Seq2seqNetwork<T>::backward_luong(const T *p, T *grad) {
  const std::size_t rows = steps * batch;
  // h̃ = tanh(combine [c; s]): d_top becomes the pre-activation's gradient.
  for (std::size_t i = 0; i < rows * h; ++i)
    d_top[i] *= T(1) - attentional[i] * attentional[i];
  nn::linear_backward(rows, 2 * h, h, combined.data(), 2 * h, p + combine, 2 * h, d_top.data(), h,
                      grad + combine, grad + combine + 2 * h * h, d_combined.data(), 2 * h);
  for (std::size_t r = 0; r < rows; ++r) {
    const T *both = d_combined.data() + r * 2 * h;
    std::copy(both, both + h, d_context.data() + r * h);
    std::copy(both + h, both + 2 * h, d_states.data() + r * h);
  }
  nn::attention_backward(rows, mask, h, weights.data(), annotations(), d_context.data(),
                         d_scores.data(), d_annotations.data());
  guide.add_gradient(weights.data(), n, source_lengths.data(), 0, rows, d_scores.data());
  T *d_attention = grad + attention_block;
  scorer->backward(p + attention_block, 0, rows, d_scores.data(), d_queries.data(), d_attention);
  scorer->end_backward(p + attention_block, d_annotations.data(), d_attention);
  for (std::size_t i = 0; i < rows * h; ++i)
    d_states[i] += d_queries[i];
  // Each layer's states feed only the layer above (the top's, the attention and combine); the
  // first states are the encoder's (carry).
  for (std::size_t layer = layers; layer-- > 0;) {
    const bool first = layer == 0;
    // d_below holds the gradient at this layer's states when it is not the top
    if (layer + 1 < layers)
      std::copy(d_below.begin(), d_below.begin() + rows * h, d_states.begin());
    decoder[layer].backward(decoder_weights(p, layer), decoder_gradients(grad, layer), steps,
                            first ? decoder_x.data() : decoder[layer - 1].state(1), d_states.data(),
                            nullptr, first ? d_embedded.data() : d_below.data(),
                            carry.data() + layer * batch * h);
  }
  nn::embedding_backward(d_embedded.data(), e, e, inputs.data(), rows, grad + decoder_embedding);
}

template <class T> Seq2seqTrace<T> Seq2seqNetwork<T>::trace(std::vector<TokenId> output) const {
  const std::size_t m = output.size();
  // Pair 0's rows: in a batch of one, every row.
  Seq2seqTrace<T> r;
  r.output = std::move(output);
  r.source.assign(sources.begin(), sources.begin() + n);
  r.source_embeddings = nn::matrix_of(encoder_x.data(), n, e);
  r.encoder_states = nn::matrix_of(annotations(), n, h);
  r.initial_state = nn::matrix_of(initial.data() + (layers - 1) * batch * h, 1, h);
  r.decoder_states = nn::matrix_of(top().state(1), m, h);
  r.scores = nn::matrix_of(scores.data(), m, n);
  r.weights = nn::matrix_of(weights.data(), m, n);
  r.contexts = nn::matrix_of(contexts.data(), m, h);
  if (!additive())
    r.attentional = nn::matrix_of(attentional.data(), m, h);
  r.logits = nn::matrix_of(logits.data(), m, v);
  return r;
}

template struct Seq2seqNetwork<float>;
template struct Seq2seqNetwork<double>;

} // namespace attention
