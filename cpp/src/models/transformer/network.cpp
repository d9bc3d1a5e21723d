#include "models/transformer/network.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "attention/detail/kernels.hpp"
#include "models/transformer/positional_encoding.hpp"

namespace attention {

namespace {

std::string encoder_layer(std::size_t l) {
  return "transformer.encoder.layers." + std::to_string(l);
}
std::string decoder_layer(std::size_t l) {
  return "transformer.decoder.layers." + std::to_string(l);
}

// x += y over n values: a residual connection's two gradients.
template <class T> void add(std::size_t n, const T *y, T *x) {
  for (std::size_t i = 0; i < n; ++i)
    x[i] += y[i];
}

} // namespace

std::vector<nn::ParameterSpec> transformer_parameter_specs(const TransformerConfig &c) {
  const std::size_t d = c.model;
  std::vector<nn::ParameterSpec> specs;
  const auto add = [&](const std::string &module, std::vector<nn::ParameterSpec> part) {
    part = nn::prefixed(module, std::move(part));
    specs.insert(specs.end(), part.begin(), part.end());
  };
  for (std::size_t l = 0; l < c.encoder_layers; ++l) {
    add(encoder_layer(l) + ".self_attn", nn::multihead_attention_parameters(d));
    add(encoder_layer(l), nn::feed_forward_parameters(d, c.feedforward));
    add(encoder_layer(l) + ".norm1", nn::layer_norm_parameters(d));
    add(encoder_layer(l) + ".norm2", nn::layer_norm_parameters(d));
  }
  add("transformer.encoder.norm", nn::layer_norm_parameters(d));
  for (std::size_t l = 0; l < c.decoder_layers; ++l) {
    add(decoder_layer(l) + ".self_attn", nn::multihead_attention_parameters(d));
    add(decoder_layer(l) + ".multihead_attn", nn::multihead_attention_parameters(d));
    add(decoder_layer(l), nn::feed_forward_parameters(d, c.feedforward));
    for (const char *norm : {".norm1", ".norm2", ".norm3"})
      add(decoder_layer(l) + norm, nn::layer_norm_parameters(d));
  }
  add("transformer.decoder.norm", nn::layer_norm_parameters(d));
  add("generator", nn::linear_parameters(d, c.target_vocab));
  add("src_tok_emb.embedding", nn::embedding_parameters(c.source_vocab, d));
  add("tgt_tok_emb.embedding", nn::embedding_parameters(c.target_vocab, d));
  // nn.Transformer._reset_parameters, and the tutorial's loop over the whole model after it:
  // xavier_uniform_ for every parameter of more than one dimension.
  for (auto &spec : specs)
    if (spec.shape.size() > 1)
      spec.bound = nn::xavier_bound(spec.shape[0], spec.shape[1]);
  return specs;
}

template <class T>
TransformerNetwork<T>::EncoderLayer::EncoderLayer(const Offsets &at, std::size_t width,
                                                  std::size_t heads)
    : attention_at(at(".self_attn.in_proj_weight")), feed_forward_at(at(".linear1.weight")),
      norm1{at(".norm1.weight"), {}, {}}, norm2{at(".norm2.weight"), {}, {}},
      attention(width, heads) {}

template <class T>
TransformerNetwork<T>::DecoderLayer::DecoderLayer(const Offsets &at, std::size_t width,
                                                  std::size_t heads)
    : self_attention_at(at(".self_attn.in_proj_weight")),
      cross_attention_at(at(".multihead_attn.in_proj_weight")),
      feed_forward_at(at(".linear1.weight")), norm1{at(".norm1.weight"), {}, {}},
      norm2{at(".norm2.weight"), {}, {}}, norm3{at(".norm3.weight"), {}, {}},
      self_attention(width, heads), cross_attention(width, heads) {}

template <class T>
TransformerNetwork<T>::TransformerNetwork(const TransformerConfig &config,
                                          const ParameterSet<T> &parameters)
    : Base(config.target_vocab), d(config.model), heads(config.heads), f(config.feedforward) {
  const Offsets at{parameters, ""};
  for (std::size_t l = 0; l < config.encoder_layers; ++l)
    encoder.emplace_back(Offsets{parameters, encoder_layer(l)}, d, heads);
  for (std::size_t l = 0; l < config.decoder_layers; ++l)
    decoder.emplace_back(Offsets{parameters, decoder_layer(l)}, d, heads);
  encoder_norm.at = at("transformer.encoder.norm.weight");
  decoder_norm.at = at("transformer.decoder.norm.weight");
  generator = at("generator.weight");
  source_embedding = at("src_tok_emb.embedding.weight");
  target_embedding = at("tgt_tok_emb.embedding.weight");
}

template <class T>
void TransformerNetwork<T>::begin(const std::vector<const std::vector<TokenId> *> &batch_sources,
                                  std::size_t decoder_steps) {
  this->set_sources(batch_sources, decoder_steps);
  target_lengths.assign(batch, steps);
  // The positional encoding's rows up to the longer side.
  const std::size_t known = positions.size() / d, needed = std::max(n, steps);
  if (needed > known) {
    positions.resize(needed * d);
    for (std::size_t pos = known; pos < needed; ++pos)
      positional_encoding(pos, d, positions.data() + pos * d);
  }
  const std::size_t source_rows = n * batch, target_rows = steps * batch;
  const auto size_norm = [](Norm &norm, std::size_t rows, std::size_t width) {
    nn::grow(rows * width, {&norm.normalised});
    nn::grow(rows, {&norm.inverse_std});
  };
  for (auto &layer : encoder) {
    nn::grow(source_rows * d, {&layer.input, &layer.middle});
    nn::grow(source_rows * f, {&layer.activations});
    size_norm(layer.norm1, source_rows, d);
    size_norm(layer.norm2, source_rows, d);
  }
  for (auto &layer : decoder) {
    nn::grow(target_rows * d, {&layer.input, &layer.first, &layer.second});
    nn::grow(target_rows * f, {&layer.activations});
    for (Norm *norm : {&layer.norm1, &layer.norm2, &layer.norm3})
      size_norm(*norm, target_rows, d);
  }
  size_norm(encoder_norm, source_rows, d);
  size_norm(decoder_norm, target_rows, d);
  nn::grow(source_rows * d, {&encoder_output, &memory});
  nn::grow(target_rows * d, {&decoder_output, &normalised});
  nn::grow(std::max(source_rows, target_rows) * d, {&sublayer});
  nn::grow(target_rows * v, {&logits, &probabilities});
}

template <class T>
void TransformerNetwork<T>::set_targets(
    const std::vector<const std::vector<TokenId> *> &batch_targets, TokenId sos) {
  Base::set_targets(batch_targets, sos);
  for (std::size_t k = 0; k < batch; ++k)
    target_lengths[k] = batch_targets[k]->size();
}

// out's rows of steps [t0, t1) = the tokens' embeddings * sqrt(d) + the positional encoding.
template <class T>
void TransformerNetwork<T>::embed(const T *table, const TokenId *tokens, std::size_t t0,
                                  std::size_t t1, T *out) {
  const T scale = std::sqrt(static_cast<T>(d));
  for (std::size_t t = t0; t < t1; ++t)
    for (std::size_t k = 0; k < batch; ++k) {
      const T *row = table + static_cast<std::size_t>(tokens[t * batch + k]) * d;
      const T *position = positions.data() + t * d;
      T *x = out + (t * batch + k) * d;
      for (std::size_t i = 0; i < d; ++i)
        x[i] = row[i] * scale + position[i];
    }
}

template <class T>
void TransformerNetwork<T>::add_and_norm(const T *p, Norm &norm, std::size_t first,
                                         std::size_t rows, const T *residual,
                                         const T *sublayer_output, T *out) {
  T *sum = out + first * d;
  for (std::size_t i = 0; i < rows * d; ++i)
    sum[i] = residual[first * d + i] + sublayer_output[first * d + i];
  nn::layer_norm_forward(rows, d, sum, p + norm.at, p + norm.at + d,
                         norm.normalised.data() + first * d, norm.inverse_std.data() + first, sum);
}

template <class T>
void TransformerNetwork<T>::norm_backward(const T *p, T *grad, Norm &norm, std::size_t rows,
                                          T *d_out) {
  nn::layer_norm_backward(rows, d, norm.normalised.data(), norm.inverse_std.data(), p + norm.at,
                          d_out, grad + norm.at, grad + norm.at + d, d_out);
}

template <class T> void TransformerNetwork<T>::encode(const T *p) {
  const std::size_t rows = n * batch;
  embed(p + source_embedding, sources.data(), 0, n, encoder.front().input.data());
  for (std::size_t l = 0; l < encoder.size(); ++l) {
    EncoderLayer &layer = encoder[l];
    T *out = l + 1 < encoder.size() ? encoder[l + 1].input.data() : encoder_output.data();
    const T *attention = p + layer.attention_at;
    layer.attention.begin(batch, n, n, source_lengths.data(), false);
    layer.attention.project_keys(attention, 0, n, layer.input.data());
    layer.attention.forward(attention, 0, n, layer.input.data(), sublayer.data());
    add_and_norm(p, layer.norm1, 0, rows, layer.input.data(), sublayer.data(), layer.middle.data());
    nn::feed_forward_forward(nn::FeedForwardWeights<const T>(p + layer.feed_forward_at, d, f), rows,
                             layer.middle.data(), layer.activations.data(), sublayer.data());
    add_and_norm(p, layer.norm2, 0, rows, layer.middle.data(), sublayer.data(), out);
  }
  std::copy(encoder_output.begin(), encoder_output.begin() + rows * d, memory.begin());
  nn::layer_norm_forward(rows, d, memory.data(), p + encoder_norm.at, p + encoder_norm.at + d,
                         encoder_norm.normalised.data(), encoder_norm.inverse_std.data(),
                         memory.data());
  for (auto &layer : decoder) {
    layer.self_attention.begin(batch, steps, steps, target_lengths.data(), true);
    layer.cross_attention.begin(batch, steps, n, source_lengths.data(), false);
    layer.cross_attention.project_keys(p + layer.cross_attention_at, 0, n, memory.data());
  }
}

template <class T> void TransformerNetwork<T>::decode(const T *p, std::size_t t0, std::size_t t1) {
  const std::size_t first = t0 * batch, rows = (t1 - t0) * batch;
  embed(p + target_embedding, inputs.data(), t0, t1, decoder.front().input.data());
  T *sub = sublayer.data() + first * d;
  for (std::size_t l = 0; l < decoder.size(); ++l) {
    DecoderLayer &layer = decoder[l];
    T *out = l + 1 < decoder.size() ? decoder[l + 1].input.data() : decoder_output.data();
    const T *self = p + layer.self_attention_at, *cross = p + layer.cross_attention_at;
    layer.self_attention.project_keys(self, t0, t1, layer.input.data() + first * d);
    layer.self_attention.forward(self, t0, t1, layer.input.data() + first * d, sub);
    add_and_norm(p, layer.norm1, first, rows, layer.input.data(), sublayer.data(),
                 layer.first.data());
    layer.cross_attention.forward(cross, t0, t1, layer.first.data() + first * d, sub);
    add_and_norm(p, layer.norm2, first, rows, layer.first.data(), sublayer.data(),
                 layer.second.data());
    nn::feed_forward_forward(nn::FeedForwardWeights<const T>(p + layer.feed_forward_at, d, f), rows,
                             layer.second.data() + first * d, layer.activations.data() + first * f,
                             sub);
    add_and_norm(p, layer.norm3, first, rows, layer.second.data(), sublayer.data(), out);
  }
  T *top = normalised.data() + first * d;
  std::copy(decoder_output.begin() + first * d, decoder_output.begin() + (first + rows) * d, top);
  nn::layer_norm_forward(rows, d, top, p + decoder_norm.at, p + decoder_norm.at + d,
                         decoder_norm.normalised.data() + first * d,
                         decoder_norm.inverse_std.data() + first, top);
  nn::linear_forward(rows, d, v, top, d, p + generator, d, p + generator + v * d,
                     logits.data() + first * v, v);
}

template <class T> double TransformerNetwork<T>::guide_loss() const {
  return guide.loss(decoder.back().cross_attention.scores() + guided_head * n, heads * n,
                    source_lengths.data());
}

template <class T> void TransformerNetwork<T>::backward(const T *p, T scale, T *grad) {
  const std::size_t rows = steps * batch;
  nn::grow(rows * v, {&d_logits});
  nn::grow(rows * d, {&d_decoder});
  nn::grow(std::max(n, steps) * batch * f, {&d_activations});
  nn::cross_entropy_backward(rows, v, probabilities.data(), targets.data(), scale, d_logits.data());
  nn::linear_backward(rows, d, v, normalised.data(), d, p + generator, d, d_logits.data(), v,
                      grad + generator, grad + generator + v * d, d_decoder.data(), d);
  norm_backward(p, grad, decoder_norm, rows, d_decoder.data());
  backward_decoder(p, grad);
  backward_encoder(p, grad);
}

// d_decoder, the gradient at the last layer's output, back through every layer (adding what
// each cross-attention gives the memory to d_memory) to the target embeddings.
template <class T> void TransformerNetwork<T>::backward_decoder(const T *p, T *grad) {
  const std::size_t rows = steps * batch;
  T *dx = d_decoder.data(), *part = sublayer.data();
  d_memory.assign(n * batch * d, T(0));
  const bool guiding = guide.active();
  if (guiding) {
    d_guide.assign(rows * heads * n, T(0));
    guide.add_gradient(decoder.back().cross_attention.weights() + guided_head * n, heads * n,
                       source_lengths.data(), 0, rows, d_guide.data() + guided_head * n);
  }
  for (std::size_t l = decoder.size(); l-- > 0;) {
    DecoderLayer &layer = decoder[l];
    feed_forward_backward(p, grad, layer.norm3, layer.feed_forward_at, rows, layer.second,
                          layer.activations, dx);
    norm_backward(p, grad, layer.norm2, rows, dx);
    layer.cross_attention.backward(p + layer.cross_attention_at, grad + layer.cross_attention_at,
                                   layer.first.data(), memory.data(), dx,
                                   guiding && l + 1 == decoder.size() ? d_guide.data() : nullptr,
                                   part, d_memory.data());
    add(rows * d, part, dx);
    self_attention_backward(p, grad, layer.norm1, layer.self_attention, layer.self_attention_at,
                            rows, layer.input, dx);
  }
  embedding_backward(dx, rows, inputs.data(), grad + target_embedding);
}

// d_memory back through encoder.norm and every encoder layer to the source embeddings.
template <class T> void TransformerNetwork<T>::backward_encoder(const T *p, T *grad) {
  const std::size_t rows = n * batch;
  T *dx = d_memory.data();
  norm_backward(p, grad, encoder_norm, rows, dx);
  for (std::size_t l = encoder.size(); l-- > 0;) {
    EncoderLayer &layer = encoder[l];
    feed_forward_backward(p, grad, layer.norm2, layer.feed_forward_at, rows, layer.middle,
                          layer.activations, dx);
    self_attention_backward(p, grad, layer.norm1, layer.attention, layer.attention_at, rows,
                            layer.input, dx);
  }
  embedding_backward(dx, rows, sources.data(), grad + source_embedding);
}

template <class T>
void TransformerNetwork<T>::feed_forward_backward(const T *p, T *grad, Norm &norm, std::size_t at,
                                                  std::size_t rows, const std::vector<T> &input,
                                                  const std::vector<T> &activations, T *dx) {
  T *part = sublayer.data();
  norm_backward(p, grad, norm, rows, dx);
  nn::feed_forward_backward(nn::FeedForwardWeights<const T>(p + at, d, f),
                            nn::FeedForwardWeights<T>(grad + at, d, f), rows, input.data(),
                            activations.data(), dx, d_activations.data(), part);
  add(rows * d, part, dx);
}

template <class T>
void TransformerNetwork<T>::self_attention_backward(const T *p, T *grad, Norm &norm,
                                                    nn::MultiheadAttention<T> &attention,
                                                    std::size_t at, std::size_t rows,
                                                    const std::vector<T> &input, T *dx) {
  T *part = sublayer.data();
  norm_backward(p, grad, norm, rows, dx);
  attention.backward(p + at, grad + at, input.data(), input.data(), dx, nullptr, part, part);
  add(rows * d, part, dx);
}

template <class T>
void TransformerNetwork<T>::embedding_backward(T *dx, std::size_t rows, const TokenId *tokens,
                                               T *table) {
  const T scale = std::sqrt(static_cast<T>(d));
  for (std::size_t i = 0; i < rows * d; ++i)
    dx[i] *= scale;
  nn::embedding_backward(dx, d, d, tokens, rows, table);
}

template <class T>
TransformerTrace<T> TransformerNetwork<T>::trace(std::size_t k, std::vector<TokenId> output) const {
  const std::size_t m = output.size();
  const std::size_t source_length = source_lengths[k];
  // head h, query t, key j of pair k, from an attention's weights (row (t batch + k) heads + h)
  const auto weights = [&](const nn::MultiheadAttention<T> &attention, std::size_t queries,
                           std::size_t keys) {
    LayerAttention<T> out = LayerAttention<T>::from_shape({heads, queries, keys});
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t t = 0; t < queries; ++t)
        std::copy_n(attention.weights() + ((t * batch + k) * heads + h) * attention.keys(), keys,
                    &out(h, t, 0));
    return out;
  };
  TransformerTrace<T> r;
  r.output = std::move(output);
  for (std::size_t t = 0; t < source_length; ++t)
    r.source.push_back(sources[t * batch + k]);
  for (const auto &layer : encoder)
    r.encoder_attention.push_back(weights(layer.attention, source_length, source_length));
  for (const auto &layer : decoder) {
    r.decoder_attention.push_back(weights(layer.self_attention, m, m));
    r.cross_attention.push_back(weights(layer.cross_attention, m, source_length));
  }
  r.logits = Matrix<T>::from_shape({m, v});
  for (std::size_t t = 0; t < m; ++t)
    std::copy_n(logits_at(t) + k * v, v, &r.logits(t, 0));
  return r;
}

template struct TransformerNetwork<float>;
template struct TransformerNetwork<double>;

} // namespace attention
