// The forward pass of each family as transformers' eager path computes it, over one sequence:
// embeddings, the layers (GPT-2 and Llama pre-norm, BERT and DistilBERT post-norm), the final norm
// and the head, every head's attention weights kept when asked. A key/value cache extends a causal
// model's sequence a token at a time.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "attention/detail/kernels.hpp"
#include "attention/errors.hpp"
#include "attention/pretrained.hpp"
#include "core/precision.hpp"
#include "files/safetensors.hpp"

namespace attention::pretrained {

using detail::Argument;
using detail::fail;

namespace {

// C = A B^T: a few rows (a decoding step's) as dot products over B where it lies, more by gemm.
template <class T>
void product_abt(std::size_t m, std::size_t n, std::size_t k, const T *a, std::size_t lda,
                 const T *b, std::size_t ldb, T *c, std::size_t ldc) {
  if (m < kernels::Simd<T>::mr)
    kernels::gemv_abt<T>(m, n, k, a, lda, b, ldb, c, ldc);
  else
    kernels::gemm_abt<T>(m, n, k, a, lda, b, ldb, c, ldc);
}

// y (rows x outputs) = x W^T + b for nn.Linear's W (outputs x inputs); b may be null.
template <class T>
void linear(std::size_t rows, std::size_t inputs, std::size_t outputs, const T *x, const T *w,
            const T *b, T *y) {
  product_abt<T>(rows, outputs, inputs, x, inputs, w, inputs, y, outputs);
  if (b)
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t o = 0; o < outputs; ++o)
        y[r * outputs + o] += b[o];
}

// y = x W + b for GPT-2's Conv1D, whose W is stored (inputs x outputs).
template <class T>
void conv1d(std::size_t rows, std::size_t inputs, std::size_t outputs, const T *x, const T *w,
            const T *b, T *y) {
  kernels::gemm_ab<T>(rows, outputs, inputs, x, inputs, w, outputs, y, outputs);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t o = 0; o < outputs; ++o)
      y[r * outputs + o] += b[o];
}

// nn.LayerNorm over rows, in place.
template <class T>
void layer_norm(std::size_t rows, std::size_t width, T *x, const T *weight, const T *bias,
                double eps) {
  for (std::size_t r = 0; r < rows; ++r) {
    T *row = x + r * width;
    T mean = 0;
    for (std::size_t i = 0; i < width; ++i)
      mean += row[i];
    mean /= static_cast<T>(width);
    T variance = 0;
    for (std::size_t i = 0; i < width; ++i)
      variance += (row[i] - mean) * (row[i] - mean);
    variance /= static_cast<T>(width);
    const T inverse = T(1) / std::sqrt(variance + static_cast<T>(eps));
    for (std::size_t i = 0; i < width; ++i)
      row[i] = (row[i] - mean) * inverse * weight[i] + bias[i];
  }
}

// LlamaRMSNorm: x / sqrt(mean(x²) + eps) * weight, from x into y.
template <class T>
void rms_norm(std::size_t rows, std::size_t width, const T *x, const T *weight, double eps, T *y) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T *row = x + r * width;
    T squares = 0;
    for (std::size_t i = 0; i < width; ++i)
      squares += row[i] * row[i];
    const T inverse = T(1) / std::sqrt(squares / static_cast<T>(width) + static_cast<T>(eps));
    for (std::size_t i = 0; i < width; ++i)
      y[r * width + i] = weight[i] * (row[i] * inverse);
  }
}

template <class T> T activate(Activation activation, T x) {
  switch (activation) {
  case Activation::gelu:
    return T(0.5) * x * (T(1) + std::erf(x / std::sqrt(T(2))));
  case Activation::gelu_tanh: // transformers' NewGELUActivation
    return T(0.5) * x *
           (T(1) +
            std::tanh(std::sqrt(T(2) / static_cast<T>(M_PI)) * (x + T(0.044715) * x * x * x)));
  case Activation::relu:
    return x > 0 ? x : T(0);
  case Activation::silu:
    return x / (T(1) + std::exp(-x));
  }
  return x;
}

template <class T> void activate_all(Activation activation, std::vector<T> &values) {
  for (T &value : values)
    value = activate(activation, value);
}

// The rotary frequencies of one head's dimension pairs (modeling_rope_utils.py: default,
// linear and llama3), in double whatever T.
std::vector<double> rotary_frequencies(const Config &c) {
  const std::size_t half = c.head_dim / 2;
  std::vector<double> frequencies(half);
  for (std::size_t j = 0; j < half; ++j)
    frequencies[j] =
        1.0 / std::pow(c.rope_theta, static_cast<double>(2 * j) / static_cast<double>(c.head_dim));
  const RopeScaling &rope = c.rope;
  if (rope.type == "linear")
    for (double &f : frequencies)
      f /= rope.factor;
  if (rope.type == "llama3") {
    const double context = static_cast<double>(rope.original_positions);
    const double low_wavelength = context / rope.low_freq_factor;
    const double high_wavelength = context / rope.high_freq_factor;
    for (double &f : frequencies) {
      const double wavelength = 2 * M_PI / f;
      if (wavelength > low_wavelength) {
        f /= rope.factor;
      } else if (wavelength >= high_wavelength) {
        const double smooth = (context / wavelength - rope.low_freq_factor) /
                              (rope.high_freq_factor - rope.low_freq_factor);
        f = (1 - smooth) * f / rope.factor + smooth * f;
      }
    }
  }
  return frequencies;
}

// Rotates each head of rows (positions first, first + 1, …): x·cos + rotate_half(x)·sin, where
// rotate_half(x) = [-x₂, x₁] of x's halves.
template <class T>
void rotate(std::size_t rows, std::size_t heads, std::size_t head_dim, std::size_t first,
            const std::vector<double> &frequencies, T *x) {
  const std::size_t half = head_dim / 2;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < half; ++j) {
      const double angle = static_cast<double>(first + r) * frequencies[j];
      const T cos = static_cast<T>(std::cos(angle)), sin = static_cast<T>(std::sin(angle));
      for (std::size_t h = 0; h < heads; ++h) {
        T *head = x + (r * heads + h) * head_dim;
        const T a = head[j], b = head[j + half];
        head[j] = a * cos - b * sin;
        head[j + half] = b * cos + a * sin;
      }
    }
}

// Weights a file may hold (finite, but as large as a float holds) can make a model's values
// overflow: the forward pass refuses them where they do rather than give NaN weights.
template <class T> void require_finite(const T *values, std::size_t size, const char *where) {
  for (std::size_t i = 0; i < size; ++i)
    if (!std::isfinite(values[i]))
      fail(Argument("weights"), "the model's values overflow ", where, ": its weights make them ",
           "larger than ", sizeof(T) == 4 ? "float32" : "float64", " holds");
}

template <class T>
Matrix<T> matrix_of(std::size_t rows, std::size_t cols, const T *data, std::size_t ld) {
  auto out = Matrix<T>::from_shape({rows, cols});
  for (std::size_t r = 0; r < rows; ++r)
    std::copy(data + r * ld, data + r * ld + cols, out.data() + r * cols);
  return out;
}

} // namespace

template <class T>
Model<T>::Model(const Plan &plan)
    : config_(plan.config), head_(plan.head), parameters_(plan.layout), sources_(plan.sources),
      written_(plan.sources.size(), 0) {}

template <class T>
void Model<T>::write(std::size_t tensor, std::size_t offset, const std::uint8_t *bytes,
                     std::size_t size) {
  if (tensor >= sources_.size())
    fail(Argument("tensor"), "tensor ", tensor, " is past the model's ", sources_.size());
  const TensorSource &source = sources_[tensor];
  const std::size_t element = safetensors::dtype_size(source.dtype);
  const std::size_t total = source.end - source.begin;
  if (offset != written_[tensor] || size % element != 0 || size > total - offset)
    fail(Argument("bytes"), "tensor ", parameters_.layout()[tensor].name, " takes its ", total,
         " bytes in order, whole values of ", element, " bytes: ", size, " bytes at ", offset,
         " after ", written_[tensor]);
  T *out = parameters_.data() + parameters_.layout()[tensor].offset + offset / element;
  const std::size_t count = size / element;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t *at = bytes + i * element;
    if (source.dtype == "F32") {
      float value;
      std::memcpy(&value, at, 4);
      out[i] = static_cast<T>(value);
    } else if (source.dtype == "F64") {
      double value;
      std::memcpy(&value, at, 8);
      out[i] = static_cast<T>(value);
    } else {
      const std::uint16_t bits = static_cast<std::uint16_t>(at[0] | at[1] << 8);
      out[i] = source.dtype == "F16" ? static_cast<T>(precision::float16_to_double(bits))
                                     : static_cast<T>(precision::bfloat16_to_float(bits));
    }
    if (!std::isfinite(out[i]))
      fail(Argument("weights"), "tensor ", parameters_.layout()[tensor].name, " holds ",
           static_cast<double>(out[i]), " at value ", offset / element + i);
  }
  written_[tensor] += size;
}

template <class T> bool Model<T>::loaded() const { return missing().empty(); }

template <class T> std::string Model<T>::missing() const {
  for (std::size_t i = 0; i < sources_.size(); ++i)
    if (written_[i] != sources_[i].end - sources_[i].begin)
      return parameters_.layout()[i].name;
  return "";
}

template <class T>
RunOutput<T> Model<T>::run(const RunInput &input, bool attentions, bool hidden_states,
                           Logits logits) const {
  return forward(input, nullptr, attentions, hidden_states, logits, nullptr, 0, 0);
}

template <class T>
HeadTrace<T> Model<T>::trace(const RunInput &input, std::size_t layer, std::size_t head) const {
  if (layer >= config_.layers)
    fail(Argument("layer"), "layer ", layer, " is past the model's ", config_.layers,
         " layers (0 to ", config_.layers - 1, ")");
  if (head >= config_.heads)
    fail(Argument("head"), "head ", head, " is past the model's ", config_.heads, " heads (0 to ",
         config_.heads - 1, ")");
  HeadTrace<T> out;
  forward(input, nullptr, false, false, Logits::none, &out, layer, head);
  return out;
}

template <class T>
RunOutput<T> Model<T>::extend(Cache &cache, const std::vector<TokenId> &ids,
                              bool attentions) const {
  if (!config_.causal)
    fail(Argument("model"), "a ", family_name(config_.family),
         " model reads every token at once: it has no cache to extend");
  RunInput input;
  input.ids = ids;
  return forward(input, &cache, attentions, false, Logits::last, nullptr, 0, 0);
}

template <class T>
RunOutput<T> Model<T>::forward(const RunInput &input, Cache *cache, bool keep_attentions,
                               bool keep_hidden, Logits logits, HeadTrace<T> *trace,
                               std::size_t trace_layer, std::size_t trace_head) const {
  const Config &c = config_;
  const std::size_t n = input.ids.size(), past = cache ? cache->length_ : 0, total = past + n;
  const std::size_t H = c.hidden, hd = c.head_dim, heads = c.heads, kv = c.kv_heads;
  const std::size_t qd = heads * hd, kvd = kv * hd, I = c.intermediate, group = heads / kv;
  check_input(input, total);
  const std::vector<int> &mask = input.attention_mask;
  const auto weight = [&](const std::string &name) -> const T * {
    for (const auto &info : parameters_.layout())
      if (info.name == name)
        return parameters_.data() + info.offset;
    return nullptr;
  };
  const bool gpt2 = c.family == Family::gpt2, bert = c.family == Family::bert;
  const bool llama = c.family == Family::llama || c.family == Family::qwen2;
  const bool post_norm = !gpt2 && !llama; // BERT, DistilBERT

  RunOutput<T> out;
  std::vector<T> x(n * H);
  const auto keep_hidden_state = [&] {
    if (keep_hidden)
      out.hidden_states.push_back(matrix_of(n, H, x.data(), H));
  };
  const auto norm = [&](const std::string &name, T *rows, std::size_t count) {
    layer_norm(count, H, rows, weight(name + ".weight"), weight(name + ".bias"), c.norm_eps);
  };

  // the embeddings: tokens, and positions but for rotary ones, and BERT's token types
  const T *table = weight(gpt2    ? "wte.weight"
                          : llama ? "embed_tokens.weight"
                                  : "embeddings.word_embeddings.weight");
  for (std::size_t i = 0; i < n; ++i)
    std::copy_n(table + static_cast<std::size_t>(input.ids[i]) * H, H, x.begin() + i * H);
  if (!llama) {
    const T *positions = weight(gpt2 ? "wpe.weight" : "embeddings.position_embeddings.weight");
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t d = 0; d < H; ++d)
        x[i * H + d] += positions[(past + i) * H + d];
  }
  if (bert) {
    const T *types = weight("embeddings.token_type_embeddings.weight");
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t type = input.token_types.empty() ? 0 : input.token_types[i];
      for (std::size_t d = 0; d < H; ++d)
        x[i * H + d] += types[type * H + d];
    }
  }
  if (post_norm)
    norm("embeddings.LayerNorm", x.data(), n);
  require_finite(x.data(), x.size(), "in the embeddings");
  if (post_norm)
    keep_hidden_state();

  const std::vector<double> frequencies = llama ? rotary_frequencies(c) : std::vector<double>{};
  std::vector<T> a(n * H), q(n * qd), k_new(n * kvd), v_new(n * kvd), context(n * qd);
  std::vector<T> scores(n * total), projected(n * H), f(n * I), g(n * I);
  std::vector<T> local_keys, local_values;
  if (cache) {
    cache->keys.resize(c.layers);
    cache->values.resize(c.layers);
  }
  for (std::size_t l = 0; l < c.layers; ++l) {
    const std::string layer = std::to_string(l);
    const std::string at = gpt2    ? "h." + layer + "."
                           : llama ? "layers." + layer + "."
                           : bert  ? "encoder.layer." + layer + "."
                                   : "transformer.layer." + layer + ".";
    if (!post_norm)
      keep_hidden_state();
    // the new tokens' queries, keys and values
    if (gpt2) {
      std::copy(x.begin(), x.end(), a.begin());
      norm(at + "ln_1", a.data(), n);
      std::vector<T> qkv(n * 3 * H);
      conv1d(n, H, 3 * H, a.data(), weight(at + "attn.c_attn.weight"),
             weight(at + "attn.c_attn.bias"), qkv.data());
      for (std::size_t i = 0; i < n; ++i) {
        std::copy_n(qkv.begin() + i * 3 * H, H, q.begin() + i * H);
        std::copy_n(qkv.begin() + i * 3 * H + H, H, k_new.begin() + i * H);
        std::copy_n(qkv.begin() + i * 3 * H + 2 * H, H, v_new.begin() + i * H);
      }
    } else {
      const T *in = x.data();
      std::string names[3];
      if (llama) {
        rms_norm(n, H, x.data(), weight(at + "input_layernorm.weight"), c.norm_eps, a.data());
        in = a.data();
        for (int i = 0; i < 3; ++i)
          names[i] = at + "self_attn." + "qkv"[i] + "_proj";
      } else {
        for (int i = 0; i < 3; ++i)
          names[i] = bert ? at + "attention.self." +
                                (i == 0   ? "query"
                                 : i == 1 ? "key"
                                          : "value")
                          : at + "attention." + "qkv"[i] + "_lin";
      }
      linear(n, H, qd, in, weight(names[0] + ".weight"), weight(names[0] + ".bias"), q.data());
      linear(n, H, kvd, in, weight(names[1] + ".weight"), weight(names[1] + ".bias"), k_new.data());
      linear(n, H, kvd, in, weight(names[2] + ".weight"), weight(names[2] + ".bias"), v_new.data());
    }
    const bool traced = trace && l == trace_layer;
    std::vector<T> q_unscaled;
    if (traced) {
      trace->kv_head = trace_head / group;
      trace->q = matrix_of(n, hd, q.data() + trace_head * hd, qd);
      trace->k = matrix_of(n, hd, k_new.data() + trace->kv_head * hd, kvd);
      trace->v = matrix_of(n, hd, v_new.data() + trace->kv_head * hd, kvd);
    }
    if (llama) {
      rotate(n, heads, hd, past, frequencies, q.data());
      rotate(n, kv, hd, past, frequencies, k_new.data());
    }
    if (c.family == Family::distilbert) { // q ÷ √d before the product, as its code does
      if (traced)
        q_unscaled = q;
      const T root = std::sqrt(static_cast<T>(hd));
      for (T &value : q)
        value /= root;
    }
    // every token's keys and values so far
    std::vector<T> &keys = cache ? cache->keys[l] : local_keys;
    std::vector<T> &values = cache ? cache->values[l] : local_values;
    if (!cache) {
      keys.clear();
      values.clear();
    }
    keys.insert(keys.end(), k_new.begin(), k_new.end());
    values.insert(values.end(), v_new.begin(), v_new.end());

    if (keep_attentions) {
      out.attentions.emplace_back();
      auto norms = Matrix<T>::from_shape({kv, total});
      for (std::size_t g = 0; g < kv; ++g)
        for (std::size_t j = 0; j < total; ++j) {
          const T *v = values.data() + j * kvd + g * hd;
          T sum = 0;
          for (std::size_t d = 0; d < hd; ++d)
            sum += v[d] * v[d];
          norms(g, j) = std::sqrt(sum);
        }
      out.value_norms.push_back(std::move(norms));
    }
    for (std::size_t h = 0; h < heads; ++h) {
      const std::size_t kv_head = h / group;
      const T *qh = q.data() + h * hd, *kh = keys.data() + kv_head * hd;
      const T *vh = values.data() + kv_head * hd;
      const bool this_head = traced && h == trace_head;
      product_abt<T>(n, total, hd, qh, qd, kh, kvd, scores.data(), total);
      if (this_head) {
        if (llama) {
          trace->q_rotated = matrix_of(n, hd, qh, qd);
          trace->k_rotated = matrix_of(total, hd, kh, kvd);
        }
        if (c.family == Family::distilbert) {
          std::vector<T> unscaled(n * total);
          product_abt<T>(n, total, hd, q_unscaled.data() + h * hd, qd, kh, kvd, unscaled.data(),
                         total);
          trace->scores = matrix_of(n, total, unscaled.data(), total);
        } else {
          trace->scores = matrix_of(n, total, scores.data(), total);
        }
      }
      // the model's own scaling: GPT-2 and BERT divide, Llama multiplies, DistilBERT scaled q
      if (gpt2 || bert) {
        const T divisor = gpt2 ? (c.scale_attention ? std::sqrt(static_cast<T>(hd)) : T(1)) *
                                     (c.scale_by_layer ? static_cast<T>(l + 1) : T(1))
                               : std::sqrt(static_cast<T>(hd));
        for (T &score : scores)
          score /= divisor;
      } else if (llama) {
        const T scaling = static_cast<T>(1.0 / std::sqrt(static_cast<double>(hd)));
        for (T &score : scores)
          score *= scaling;
      }
      if (this_head)
        trace->scaled = matrix_of(n, total, scores.data(), total);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < total; ++j)
          if ((c.causal && j > past + i) || (!mask.empty() && mask[j] == 0))
            scores[i * total + j] = -std::numeric_limits<T>::infinity();
      if (this_head)
        trace->masked = matrix_of(n, total, scores.data(), total);
      for (std::size_t i = 0; i < n; ++i) {
        T *row = scores.data() + i * total;
        const T most = *std::max_element(row, row + total);
        T sum = 0;
        for (std::size_t j = 0; j < total; ++j)
          sum += row[j] = std::exp(row[j] - most);
        for (std::size_t j = 0; j < total; ++j)
          row[j] /= sum;
      }
      if (this_head)
        trace->weights = matrix_of(n, total, scores.data(), total);
      if (keep_attentions)
        out.attentions.back().push_back(matrix_of(n, total, scores.data(), total));
      kernels::gemm_ab<T>(n, hd, total, scores.data(), total, vh, kvd, context.data() + h * hd, qd);
      if (this_head)
        trace->output = matrix_of(n, hd, context.data() + h * hd, qd);
    }
    if (traced) {
      require_finite(trace->output.data(), trace->output.size(), "in the traced head");
      return out; // a trace needs no more
    }

    // the output projection, the residuals and norms, and the feed-forward layer
    const auto add_into = [&](std::vector<T> &to, const std::vector<T> &from) {
      for (std::size_t i = 0; i < to.size(); ++i)
        to[i] += from[i];
    };
    if (gpt2) {
      conv1d(n, qd, H, context.data(), weight(at + "attn.c_proj.weight"),
             weight(at + "attn.c_proj.bias"), projected.data());
      add_into(x, projected);
      std::copy(x.begin(), x.end(), a.begin());
      norm(at + "ln_2", a.data(), n);
      conv1d(n, H, I, a.data(), weight(at + "mlp.c_fc.weight"), weight(at + "mlp.c_fc.bias"),
             f.data());
      activate_all(c.activation, f);
      conv1d(n, I, H, f.data(), weight(at + "mlp.c_proj.weight"), weight(at + "mlp.c_proj.bias"),
             projected.data());
      add_into(x, projected);
    } else if (llama) {
      const std::string o = at + "self_attn.o_proj";
      linear(n, qd, H, context.data(), weight(o + ".weight"), weight(o + ".bias"),
             projected.data());
      add_into(x, projected);
      rms_norm(n, H, x.data(), weight(at + "post_attention_layernorm.weight"), c.norm_eps,
               a.data());
      const std::string mlp = at + "mlp.";
      linear(n, H, I, a.data(), weight(mlp + "gate_proj.weight"), weight(mlp + "gate_proj.bias"),
             f.data());
      linear(n, H, I, a.data(), weight(mlp + "up_proj.weight"), weight(mlp + "up_proj.bias"),
             g.data());
      for (std::size_t i = 0; i < f.size(); ++i)
        f[i] = activate(c.activation, f[i]) * g[i];
      linear(n, I, H, f.data(), weight(mlp + "down_proj.weight"), weight(mlp + "down_proj.bias"),
             projected.data());
      add_into(x, projected);
    } else {
      const std::string o = bert ? at + "attention.output.dense" : at + "attention.out_lin";
      linear(n, qd, H, context.data(), weight(o + ".weight"), weight(o + ".bias"),
             projected.data());
      add_into(x, projected);
      norm(bert ? at + "attention.output.LayerNorm" : at + "sa_layer_norm", x.data(), n);
      const std::string in = bert ? at + "intermediate.dense" : at + "ffn.lin1";
      const std::string back = bert ? at + "output.dense" : at + "ffn.lin2";
      linear(n, H, I, x.data(), weight(in + ".weight"), weight(in + ".bias"), f.data());
      activate_all(c.activation, f);
      linear(n, I, H, f.data(), weight(back + ".weight"), weight(back + ".bias"), projected.data());
      add_into(x, projected);
      norm(bert ? at + "output.LayerNorm" : at + "output_layer_norm", x.data(), n);
    }
    require_finite(x.data(), x.size(), ("at layer " + layer).c_str());
    if (post_norm)
      keep_hidden_state();
  }
  if (cache)
    cache->length_ = total;
  if (gpt2)
    norm("ln_f", x.data(), n);
  if (llama)
    rms_norm(n, H, x.data(), weight("norm.weight"), c.norm_eps, x.data());
  if (!post_norm)
    keep_hidden_state();

  // the head's logits, of every token or the last
  if (logits == Logits::none || head_ == Head::none)
    return out;
  const std::size_t first = logits == Logits::last ? n - 1 : 0, rows = n - first;
  const std::size_t V = c.vocabulary;
  const T *rows_in = x.data() + first * H;
  std::vector<T> transformed;
  const T *decoder = nullptr, *bias = nullptr;
  if (head_ == Head::lm) {
    decoder = c.tied ? table : weight("lm_head.weight");
  } else {
    const bool distil = c.family == Family::distilbert;
    transformed.resize(rows * H);
    const std::string dense = distil ? "vocab_transform" : "cls.predictions.transform.dense";
    linear(rows, H, H, rows_in, weight(dense + ".weight"), weight(dense + ".bias"),
           transformed.data());
    activate_all(c.activation, transformed);
    norm(distil ? "vocab_layer_norm" : "cls.predictions.transform.LayerNorm", transformed.data(),
         rows);
    rows_in = transformed.data();
    decoder = c.tied ? table
                     : weight(distil ? "vocab_projector.weight" : "cls.predictions.decoder.weight");
    bias = weight(distil ? "vocab_projector.bias" : "cls.predictions.bias");
  }
  out.logits = Matrix<T>::from_shape({rows, V});
  linear(rows, H, V, rows_in, decoder, bias, out.logits.data());
  require_finite(out.logits.data(), out.logits.size(), "in the head's logits");
  return out;
}

template <class T> void Model<T>::check_input(const RunInput &input, std::size_t total) const {
  const Config &c = config_;
  const std::size_t n = input.ids.size();
  if (!loaded())
    fail(Argument("model"), "the model's weights are not all loaded: ", missing(), " lacks some");
  if (n == 0)
    fail(Argument("input"), "the input has no tokens");
  if (total > c.positions)
    fail(Argument("input"), total, " tokens are more than the model's ", c.positions, " positions");
  for (const TokenId id : input.ids)
    if (id < 0 || static_cast<std::size_t>(id) >= c.vocabulary)
      fail(Argument("input"), "token id ", id, " is past the model's embedding table of ",
           c.vocabulary, " rows (ids 0 to ", c.vocabulary - 1, ")");
  if (!input.token_types.empty()) {
    if (c.token_types == 0)
      fail(Argument("tokenTypes"), "a ", family_name(c.family), " model has no token types");
    if (input.token_types.size() != n)
      fail(Argument("tokenTypes"), input.token_types.size(), " token types for ", n, " tokens");
    for (const TokenId type : input.token_types)
      if (type < 0 || static_cast<std::size_t>(type) >= c.token_types)
        fail(Argument("tokenTypes"), "token type ", type, " is past the model's ", c.token_types,
             " types");
  }
  const std::vector<int> &mask = input.attention_mask;
  if (mask.empty())
    return;
  if (mask.size() != n)
    fail(Argument("attentionMask"), mask.size(), " mask values for ", n, " tokens");
  for (const int m : mask)
    if (m != 0 && m != 1)
      fail(Argument("attentionMask"), "the attention mask holds ", m, ", not 0 or 1");
  if (c.causal && mask[0] == 0)
    fail(Argument("attentionMask"), "the mask hides token 0, which leaves it no token to attend ",
         "to (a causal model reads left to right)");
  if (std::find(mask.begin(), mask.end(), 1) == mask.end())
    fail(Argument("attentionMask"), "the mask hides every token");
}

namespace {

// softmax(logits / temperature) in double.
template <class T>
std::vector<double> probabilities(const T *logits, std::size_t size, double temperature) {
  const double most = static_cast<double>(*std::max_element(logits, logits + size));
  std::vector<double> p(size);
  double sum = 0;
  for (std::size_t i = 0; i < size; ++i)
    sum += p[i] = std::exp((static_cast<double>(logits[i]) - most) / temperature);
  for (double &value : p)
    value /= sum;
  return p;
}

// Ids by falling logit, ties by id.
template <class T> std::vector<TokenId> ranked(const T *logits, std::size_t size, std::size_t k) {
  std::vector<TokenId> ids(size);
  for (std::size_t i = 0; i < size; ++i)
    ids[i] = static_cast<TokenId>(i);
  k = std::min(k, size);
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), [&](TokenId a, TokenId b) {
    return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
  });
  ids.resize(k);
  return ids;
}

} // namespace

template <class T>
TokenChoice next_token(const T *logits, std::size_t size, double temperature, std::size_t top_k,
                       NumpyRandomState &random) {
  if (!(temperature >= 0) || !std::isfinite(temperature))
    fail(Argument("temperature"), "the temperature must be a number >= 0, not ", temperature);
  const std::vector<double> plain = probabilities(logits, size, 1.0);
  if (temperature == 0) {
    const TokenId id = ranked(logits, size, 1).front();
    return {id, plain[id]};
  }
  const std::vector<TokenId> pool = ranked(logits, size, top_k == 0 ? size : top_k);
  std::vector<T> kept(pool.size());
  for (std::size_t i = 0; i < pool.size(); ++i)
    kept[i] = logits[pool[i]];
  const std::vector<double> p = probabilities(kept.data(), kept.size(), temperature);
  const double draw = random.rand(1, 1)(0, 0);
  double cumulative = 0;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    cumulative += p[i];
    if (draw < cumulative)
      return {pool[i], plain[pool[i]]};
  }
  return {pool.back(), plain[pool.back()]}; // the draw past a sum rounded below 1
}

template <class T>
std::vector<TokenChoice> likeliest(const T *logits, std::size_t size, std::size_t k) {
  const std::vector<double> p = probabilities(logits, size, 1.0);
  std::vector<TokenChoice> out;
  for (const TokenId id : ranked(logits, size, k))
    out.push_back({id, p[id]});
  return out;
}

template class Model<float>;
template class Model<double>;
template TokenChoice next_token(const float *, std::size_t, double, std::size_t,
                                NumpyRandomState &);
template TokenChoice next_token(const double *, std::size_t, double, std::size_t,
                                NumpyRandomState &);
template std::vector<TokenChoice> likeliest(const float *, std::size_t, std::size_t);
template std::vector<TokenChoice> likeliest(const double *, std::size_t, std::size_t);

} // namespace attention::pretrained
