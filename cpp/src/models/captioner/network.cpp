#include "models/captioner/network.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "attention/detail/kernels.hpp"
#include "nn/attention.hpp"
#include "nn/batch_norm.hpp"
#include "nn/embedding.hpp"
#include "nn/max_pool2d.hpp"
#include "nn/relu.hpp"

namespace attention {

namespace {

// Its modules as PyTorch's Show, Attend and Tell replica names them, encoder_att first.
nn::AdditiveConfig attention_config(const CaptionerConfig &config) {
  nn::AdditiveConfig attention{config.hidden, config.annotation, config.attention};
  attention.query = "decoder_att";
  attention.key = "encoder_att";
  attention.score = "full_att";
  attention.key_first = true;
  return attention;
}

} // namespace

std::vector<nn::ParameterSpec> captioner_parameter_specs(const CaptionerConfig &config) {
  const std::size_t d = config.annotation, h = config.hidden;
  std::vector<nn::ParameterSpec> specs;
  const auto add = [&](const std::string &module, std::vector<nn::ParameterSpec> part) {
    part = nn::prefixed(module, std::move(part));
    specs.insert(specs.end(), part.begin(), part.end());
  };
  const bool normalized = config.normalization == CaptionerNormalization::batch;
  add("encoder.conv1", nn::conv2d_parameters(5, config.channels));
  if (normalized)
    add("encoder.bn1", nn::batch_norm_parameters(config.channels));
  add("encoder.conv2", nn::conv2d_parameters(config.channels, d));
  if (normalized)
    add("encoder.bn2", nn::batch_norm_parameters(d));
  add("decoder.init_h", nn::linear_parameters(d, h));
  add("decoder.init_c", nn::linear_parameters(d, h));
  add("decoder.attention", nn::make_additive<double>(attention_config(config))->parameters());
  add("decoder.f_beta", nn::linear_parameters(h, d));
  add("decoder.embedding", nn::embedding_parameters(config.vocab, config.embedding));
  add("decoder.decode_step", nn::lstm_cell_parameters(config.embedding + d, h));
  add("decoder.fc", nn::linear_parameters(h, config.vocab));
  return specs;
}

template <class T>
CaptionerNetwork<T>::CaptionerNetwork(const CaptionerConfig &config,
                                      const ParameterSet<T> &parameters)
    : c(config.channels), d(config.annotation), e(config.embedding), h(config.hidden),
      v(config.vocab), sos(config.sos), height(config.height), width(config.width),
      l(config.height / 4 * (config.width / 4)),
      attention(nn::make_additive<T>(attention_config(config))) {
  const auto at = [&](const char *name) { return parameters.info(name).offset; };
  conv1 = at("encoder.conv1.weight");
  conv2 = at("encoder.conv2.weight");
  init_h = at("decoder.init_h.weight");
  init_c = at("decoder.init_c.weight");
  attention_at = at("decoder.attention.encoder_att.weight");
  f_beta = at("decoder.f_beta.weight");
  embedding = at("decoder.embedding.weight");
  lstm = at("decoder.decode_step.weight_ih");
  fc = at("decoder.fc.weight");
  normalized = config.normalization == CaptionerNormalization::batch;
  if (normalized) {
    bn1 = at("encoder.bn1.weight");
    bn2 = at("encoder.bn2.weight");
  }
  // x then y, as channels 3 and 4 of conv1's input
  std::vector<T> coordinates(height * width * 2);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x0 = 0; x0 < width; ++x0) {
      coordinates[(y * width + x0) * 2] = T(-1) + T(2 * x0) / T(width - 1);
      coordinates[(y * width + x0) * 2 + 1] = T(-1) + T(2 * y) / T(height - 1);
    }
  coordinate_patches.resize(height * width * 18);
  nn::im2col(nn::Conv2dShape{1, height, width, 2, c}, coordinates.data(),
             coordinate_patches.data());
}

template <class T>
void CaptionerNetwork<T>::begin(const std::vector<const std::vector<T> *> &images,
                                std::size_t decoder_steps) {
  batch = images.size();
  steps = decoder_steps;
  shape1 = {batch, height, width, 3, c};
  shape2 = {batch, height / 2, width / 2, c, d};
  const std::size_t plane = height * width;
  pixels.resize(shape1.rows() * 3);
  for (std::size_t n = 0; n < batch; ++n)
    for (std::size_t q = 0; q < plane; ++q)
      for (std::size_t channel = 0; channel < 3; ++channel)
        pixels[(n * plane + q) * 3 + channel] = (*images[n])[channel * plane + q];
  const std::size_t rows = steps * batch;
  inputs.assign(rows, TokenId(0));
  targets.assign(rows, TokenId(-1));
  lengths.assign(batch, steps);
  annotations_per_image.assign(batch, l);
  mask = {l, batch, annotations_per_image.data(), true};
  nn::grow(rows * l, {&scores, &weights});
  nn::grow(rows * d, {&contexts, &betas});
  nn::grow(rows * (e + d), {&x});
  nn::grow(rows * 4 * h, {&lstm_gates});
  nn::grow(rows * h, {&tanh_c});
  nn::grow((steps + 1) * batch * h, {&hs, &cs});
  nn::grow(rows * v, {&logits, &probabilities});
}

template <class T>
void CaptionerNetwork<T>::set_targets(const std::vector<const std::vector<TokenId> *> &captions) {
  for (std::size_t b = 0; b < batch; ++b) {
    const auto &caption = *captions[b];
    lengths[b] = caption.size();
    for (std::size_t t = 0; t < caption.size(); ++t) {
      targets[t * batch + b] = caption[t];
      inputs[t * batch + b] = t == 0 ? sos : caption[t - 1];
    }
  }
}

template <class T> void CaptionerNetwork<T>::encode(const T *p) {
  nn::grow(shape1.rows() * shape1.patch(), {&patches1});
  nn::grow(shape1.rows() * c, {&features1});
  nn::grow(shape2.rows() * c, {&pooled1});
  nn::grow(shape2.rows() * shape2.patch(), {&patches2});
  nn::grow(shape2.rows() * d, {&features2});
  nn::grow(batch * l * d, {&annotations});
  argmax1.resize(shape2.rows() * c);
  argmax2.resize(batch * l * d);
  // conv1: the image's columns of the weight (the first 27 of each row's 45), then the
  // coordinates' part and the bias, the same for every image
  const std::size_t plane = height * width;
  coordinate_map.resize(plane * c);
  nn::linear_forward(plane, 18, c, coordinate_patches.data(), 18, p + conv1 + 27, 45,
                     p + conv1 + c * 45, coordinate_map.data(), c);
  nn::im2col(shape1, pixels.data(), patches1.data());
  nn::linear_forward(shape1.rows(), 27, c, patches1.data(), 27, p + conv1, 45,
                     static_cast<const T *>(nullptr), features1.data(), c);
  for (std::size_t n = 0; n < batch; ++n) {
    T *image = features1.data() + n * plane * c;
    if (normalized) // the batch norm, then the ReLU
      for (std::size_t i = 0; i < plane * c; ++i)
        image[i] += coordinate_map[i];
    else
      for (std::size_t i = 0; i < plane * c; ++i) { // and the ReLU
        const T y = image[i] + coordinate_map[i];
        image[i] = y > T(0) ? y : T(0);
      }
  }
  if (normalized) {
    batch_norm(p + bn1, shape1.rows(), c, features1.data(), normalised1, inverse_std1, mean1,
               variance1);
    nn::relu_forward(features1.data(), shape1.rows() * c);
  }
  nn::max_pool2d_forward(batch, height, width, c, features1.data(), pooled1.data(), argmax1.data());
  nn::conv2d_forward(shape2, pooled1.data(), p + conv2, p + conv2 + d * c * 9, patches2.data(),
                     features2.data());
  if (normalized)
    batch_norm(p + bn2, shape2.rows(), d, features2.data(), normalised2, inverse_std2, mean2,
               variance2);
  fresh_statistics = normalized && training;
  nn::relu_forward(features2.data(), shape2.rows() * d);
  nn::max_pool2d_forward(batch, height / 2, width / 2, d, features2.data(), annotations.data(),
                         argmax2.data());
  // h_0, c_0 from the mean annotation; the attention's projection of every annotation
  mean.assign(batch * d, T(0));
  for (std::size_t b = 0; b < batch; ++b) {
    T *m = mean.data() + b * d;
    for (std::size_t i = 0; i < l; ++i)
      for (std::size_t k = 0; k < d; ++k)
        m[k] += annotations[(b * l + i) * d + k];
    for (std::size_t k = 0; k < d; ++k)
      m[k] /= T(l);
  }
  nn::linear_forward(batch, d, h, mean.data(), d, p + init_h, d, p + init_h + h * d, state_h(0), h);
  nn::linear_forward(batch, d, h, mean.data(), d, p + init_c, d, p + init_c + h * d, state_c(0), h);
  ih_t.pack_transposed(4 * h, e + d, p + lstm, e + d);
  hh_t.pack_transposed(4 * h, h, p + lstm + 4 * h * (e + d), h);
  f_beta_t.pack_transposed(d, h, p + f_beta, h);
  attention->begin(p + attention_at, annotations.data(), mask, steps * batch);
}

// A batch norm's parameters at `at` (weight, bias, running_mean, running_var, num_batches_tracked,
// `channels` each but the last) over x (rows x channels), in place: in training mode on the
// batch's statistics, kept with x̂ and 1 / σ for the backward pass; in eval mode on the running
// statistics.
template <class T>
void CaptionerNetwork<T>::batch_norm(const T *at, std::size_t rows, std::size_t channels, T *x,
                                     std::vector<T> &normalised, std::vector<T> &inverse_std,
                                     std::vector<T> &batch_mean, std::vector<T> &batch_variance) {
  const T *weight = at, *bias = at + channels, *running_mean = at + 2 * channels,
          *running_var = at + 3 * channels;
  if (!training) {
    nn::batch_norm_eval_forward(rows, channels, x, weight, bias, running_mean, running_var, x);
    return;
  }
  nn::grow(rows * channels, {&normalised});
  for (auto *buffer : {&inverse_std, &batch_mean, &batch_variance})
    buffer->resize(channels);
  nn::batch_norm_forward(rows, channels, x, weight, bias, batch_mean.data(), batch_variance.data(),
                         normalised.data(), inverse_std.data(), x);
}

template <class T> void CaptionerNetwork<T>::update_running(T *p) {
  if (!fresh_statistics)
    return;
  fresh_statistics = false;
  for (const auto &[offset, rows, channels, batch_mean, batch_variance] :
       {std::tuple{bn1, shape1.rows(), c, &mean1, &variance1},
        std::tuple{bn2, shape2.rows(), d, &mean2, &variance2}})
    nn::batch_norm_update_running(rows, channels, batch_mean->data(), batch_variance->data(),
                                  p + offset + 2 * channels, p + offset + 3 * channels,
                                  p + offset + 4 * channels);
}

template <class T> void CaptionerNetwork<T>::encode_backward(const T *p, T *grad) {
  attention->end_backward(p + attention_at, d_annotations.data(), grad + attention_at);
  // h_0 and c_0 from the mean annotation, which each annotation feeds by 1 / L
  d_mean.resize(batch * d);
  nn::linear_backward(batch, d, h, mean.data(), d, p + init_h, d, dh.data(), h, grad + init_h,
                      grad + init_h + h * d, d_mean.data(), d);
  nn::linear_backward(batch, d, h, mean.data(), d, p + init_c, d, dc.data(), h, grad + init_c,
                      grad + init_c + h * d, d_mean.data(), d, true);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < l; ++i)
      for (std::size_t k = 0; k < d; ++k)
        d_annotations[(b * l + i) * d + k] += d_mean[b * d + k] / T(l);
  // The encoder, back to conv1's weights (the image needs no gradient)
  nn::grow(shape2.rows() * d, {&d_features2});
  nn::grow(shape2.rows() * c, {&d_pooled1});
  nn::grow(shape1.rows() * c, {&d_features1});
  nn::grow(shape2.rows() * shape2.patch(), {&d_patches});
  nn::max_pool2d_backward(batch, height / 2, width / 2, d, argmax2.data(), d_annotations.data(),
                          d_features2.data());
  nn::relu_backward(features2.data(), d_features2.data(), shape2.rows() * d);
  if (normalized)
    nn::batch_norm_backward(shape2.rows(), d, normalised2.data(), inverse_std2.data(), p + bn2,
                            d_features2.data(), grad + bn2, grad + bn2 + d, d_features2.data());
  nn::conv2d_backward(shape2, patches2.data(), p + conv2, d_features2.data(), grad + conv2,
                      grad + conv2 + d * c * 9, d_patches.data(), d_pooled1.data());
  nn::max_pool2d_backward(batch, height, width, c, argmax1.data(), d_pooled1.data(),
                          d_features1.data());
  nn::relu_backward(features1.data(), d_features1.data(), shape1.rows() * c);
  if (normalized)
    nn::batch_norm_backward(shape1.rows(), c, normalised1.data(), inverse_std1.data(), p + bn1,
                            d_features1.data(), grad + bn1, grad + bn1 + c, d_features1.data());
  // conv1's weight: its image columns from every pixel, its coordinate columns and the bias from
  // the gradient summed over the images
  nn::linear_backward(shape1.rows(), 27, c, patches1.data(), 27, p + conv1, 45, d_features1.data(),
                      c, grad + conv1, static_cast<T *>(nullptr), static_cast<T *>(nullptr), 0);
  const std::size_t plane = height * width;
  d_coordinate_map.assign(plane * c, T(0));
  for (std::size_t n = 0; n < batch; ++n)
    for (std::size_t i = 0; i < plane * c; ++i)
      d_coordinate_map[i] += d_features1[n * plane * c + i];
  nn::linear_backward(plane, 18, c, coordinate_patches.data(), 18, p + conv1 + 27, 45,
                      d_coordinate_map.data(), c, grad + conv1 + 27, grad + conv1 + c * 45,
                      static_cast<T *>(nullptr), 0);
}

template <class T> void CaptionerNetwork<T>::step(const T *p, std::size_t t) {
  const std::size_t at = t * batch, width_x = e + d;
  const T *h_prev = state_h(t);
  attention->forward(p + attention_at, at, batch, h_prev, scores.data() + at * l);
  nn::attention_forward(batch, mask, d, scores.data() + at * l, annotations.data(),
                        weights.data() + at * l, contexts.data() + at * d);
  // β = σ(f_beta(h_{t-1})); the LSTM's input [embedding(y_{t-1}); β ⊙ context]
  T *beta = betas.data() + at * d;
  nn::linear_forward(batch, h_prev, h, f_beta_t, p + f_beta + d * h, beta, d);
  kernels::sigmoid_in_place(beta, batch * d);
  T *input = x.data() + at * width_x;
  nn::embedding_forward(p + embedding, e, inputs.data() + at, batch, input, width_x);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t k = 0; k < d; ++k)
      input[b * width_x + e + k] = beta[b * d + k] * contexts[(at + b) * d + k];
  nn::lstm_cell_forward(lstm_weights(p), batch, input, width_x, h_prev, state_c(t),
                        lstm_gates.data() + at * 4 * h, tanh_c.data() + at * h, state_c(t + 1),
                        state_h(t + 1), &ih_t, &hh_t);
}

template <class T>
void CaptionerNetwork<T>::step_backward(const T *p, std::size_t t, T lambda, T *grad) {
  const std::size_t at = t * batch, width_x = e + d, g = 4 * h;
  // The LSTM, from the gradients at h_{t+1} (the output's and step t + 1's) and c_{t+1}, to its
  // input (the embedding's part is taken for every step at once, by decode_backward)
  for (std::size_t i = 0; i < batch * h; ++i)
    dh_next[i] = d_hs[at * h + i] + dh[i];
  std::copy(dc.begin(), dc.end(), dc_next.begin());
  T *d_gates_t = d_gates.data() + at * g;
  nn::lstm_cell_backward(lstm_weights(p), batch, dh_next.data(), dc_next.data(), state_c(t),
                         lstm_gates.data() + at * g, tanh_c.data() + at * h, d_gates_t, dc.data(),
                         dh.data(), &hh_w);
  T *dx = d_x.data() + at * width_x;
  kernels::gemm_packed(batch, d_gates_t, g, ih_w, dx, width_x);
  // z = β ⊙ context: β's pre-activation, then h_{t-1} through f_beta
  T *d_beta_t = d_beta.data() + at * d;
  for (std::size_t b = 0; b < batch; ++b) {
    const T *beta = betas.data() + (at + b) * d, *context = contexts.data() + (at + b) * d,
            *dz = dx + b * width_x + e;
    for (std::size_t k = 0; k < d; ++k)
      d_beta_t[b * d + k] = dz[k] * context[k] * beta[k] * (T(1) - beta[k]);
  }
  kernels::gemm_packed(batch, d_beta_t, d, f_beta_w, dh.data(), h, true);
  // The context Σ α_i a_i, with the regulariser's d (λ/(B L) Σ_b Σ_i (1 - Σ_t α_ti)²) / dα_ti =
  // 2 λ/(B L) (Σ_t α_ti - 1) at each caption's own steps, then the softmax
  const T regularizer_scale = T(2) * lambda / T(batch * l);
  for (std::size_t b = 0; b < batch; ++b) {
    const T *beta = betas.data() + (at + b) * d, *dz = dx + b * width_x + e;
    const T *alpha = weights.data() + (at + b) * l, *values = annotations.data() + b * l * d;
    for (std::size_t i = 0; i < l; ++i) {
      T d_weight = 0;
      for (std::size_t k = 0; k < d; ++k) {
        d_weight += dz[k] * beta[k] * values[i * d + k];
        d_annotations[(b * l + i) * d + k] += alpha[i] * dz[k] * beta[k];
      }
      d_alpha[i] = d_weight;
    }
    if (t < lengths[b] && lambda != T(0))
      for (std::size_t i = 0; i < l; ++i)
        d_alpha[i] += regularizer_scale * (attended[b * l + i] - T(1));
    const T weighted = kernels::dot(alpha, d_alpha.data(), l);
    for (std::size_t i = 0; i < l; ++i)
      d_scores[b * l + i] = alpha[i] * (d_alpha[i] - weighted);
  }
  // The scores, to h_{t-1} (and the annotations, at encode_backward)
  attention->backward(p + attention_at, at, batch, d_scores.data(), d_queries.data(),
                      grad + attention_at);
  for (std::size_t i = 0; i < batch * h; ++i)
    dh[i] += d_queries[i];
}

template <class T> void CaptionerNetwork<T>::decode(const T *p, std::size_t t0, std::size_t t1) {
  for (std::size_t t = t0; t < t1; ++t)
    step(p, t);
  nn::linear_forward((t1 - t0) * batch, h, v, state_h(t0 + 1), h, p + fc, h, p + fc + v * h,
                     logits.data() + t0 * batch * v, v);
}

template <class T> void CaptionerNetwork<T>::decode_backward(const T *p, T lambda, T *grad) {
  const std::size_t rows = steps * batch, width_x = e + d, g = 4 * h;
  const auto w = lstm_weights(p);
  nn::grow(rows * h, {&d_hs});
  nn::grow(rows * g, {&d_gates});
  nn::grow(rows * width_x, {&d_x});
  nn::grow(rows * d, {&d_beta});
  nn::grow(batch * l, {&d_scores});
  nn::grow(batch * h, {&d_queries});
  d_annotations.assign(batch * l * d, T(0));
  for (auto *buffer : {&dh, &dc, &dh_next, &dc_next})
    buffer->assign(batch * h, T(0));
  d_alpha.resize(l);
  ih_w.pack(width_x, g, w.weight_ih, width_x);
  hh_w.pack(h, g, w.weight_hh, h);
  f_beta_w.pack(h, d, p + f_beta, h);
  nn::linear_backward(rows, h, v, state_h(1), h, p + fc, h, d_logits.data(), v, grad + fc,
                      grad + fc + v * h, d_hs.data(), h);
  for (std::size_t t = steps; t-- > 0;)
    step_backward(p, t, lambda, grad);
  // The weights of the layers applied at every step, over all steps at once; the inputs of step
  // t's are h_{t-1}, rows [0, steps) of hs.
  nn::lstm_weight_backward<T>({grad + lstm, width_x, h}, w, rows, x.data(), width_x, state_h(0),
                              d_gates.data(), nullptr, 0);
  nn::embedding_backward(d_x.data(), width_x, e, inputs.data(), rows, grad + embedding);
  nn::linear_backward(rows, h, d, state_h(0), h, p + f_beta, h, d_beta.data(), d, grad + f_beta,
                      grad + f_beta + d * h, static_cast<T *>(nullptr), 0);
}

template <class T> nn::CrossEntropy CaptionerNetwork<T>::cross_entropy() {
  return nn::cross_entropy_forward(steps * batch, v, logits.data(), targets.data(),
                                   probabilities.data());
}

template <class T> double CaptionerNetwork<T>::regularizer() {
  attended.assign(batch * l, T(0));
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < lengths[b]; ++t)
      for (std::size_t i = 0; i < l; ++i)
        attended[b * l + i] += weights[(t * batch + b) * l + i];
  double sum = 0;
  for (const T total : attended)
    sum += double((T(1) - total) * (T(1) - total));
  return sum / double(batch * l);
}

// The forward's calls in reverse: the loss's, decode's, encode's.
template <class T> void CaptionerNetwork<T>::backward(const T *p, T scale, T lambda, T *grad) {
  nn::grow(steps * batch * v, {&d_logits});
  nn::cross_entropy_backward(steps * batch, v, probabilities.data(), targets.data(), scale,
                             d_logits.data());
  decode_backward(p, lambda, grad);
  encode_backward(p, grad);
}

template <class T> void CaptionerNetwork<T>::get_decoder_state(std::size_t t, T *state) const {
  std::copy(state_h(t), state_h(t) + h, state);
  const T *cell = cs.data() + t * batch * h;
  std::copy(cell, cell + h, state + h);
}

template <class T> void CaptionerNetwork<T>::set_decoder_state(std::size_t t, const T *state) {
  std::copy(state, state + h, state_h(t));
  std::copy(state + h, state + 2 * h, state_c(t));
}

template <class T> CaptionerTrace<T> CaptionerNetwork<T>::trace(std::vector<TokenId> output) const {
  const std::size_t m = output.size();
  // Image 0's rows: in a batch of one, every row.
  CaptionerTrace<T> r;
  r.output = std::move(output);
  r.annotations = nn::matrix_of(annotations.data(), l, d);
  r.states = nn::matrix_of(state_h(0), m, h);
  r.scores = nn::matrix_of(scores.data(), m, l);
  r.weights = nn::matrix_of(weights.data(), m, l);
  r.gates = nn::matrix_of(betas.data(), m, d);
  r.logits = nn::matrix_of(logits.data(), m, v);
  return r;
}

template struct CaptionerNetwork<float>;
template struct CaptionerNetwork<double>;

} // namespace attention
