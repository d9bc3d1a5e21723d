// config.json as each family's configuration class reads it (transformers'
// configuration_<family>.py: its keys and defaults), into one Config.
#include <algorithm>
#include <cmath>

#include "attention/errors.hpp"
#include "attention/pretrained.hpp"
#include "files/json.hpp"

namespace attention::pretrained {

using detail::Argument;
using detail::fail;
using files::JsonValue;

namespace {

// The members of config.json, each read as its type or its family's default.
class Keys {
public:
  static constexpr std::size_t max_size = std::size_t(1) << 24;

  explicit Keys(const JsonValue &json) : json_(json) {}

  const JsonValue *find(const char *key) const {
    const JsonValue *value = json_.find(key);
    return value && value->type != JsonValue::Type::null ? value : nullptr;
  }

  std::size_t size(const char *key, std::size_t otherwise, bool positive = true) const {
    const JsonValue *value = find(key);
    if (!value)
      return otherwise;
    const double n = value->type == JsonValue::Type::number ? value->number : -1;
    // 2^24 at most, so that the products of sizes fit WebAssembly's 32-bit size_t
    if (n < (positive ? 1 : 0) || n != std::floor(n) || n > max_size)
      fail(Argument("config"), "config.json's \"", key, "\" must be a whole number",
           positive ? " >= 1" : " >= 0", " up to ", max_size);
    return static_cast<std::size_t>(n);
  }

  double number(const char *key, double otherwise) const {
    const JsonValue *value = find(key);
    if (!value)
      return otherwise;
    if (value->type != JsonValue::Type::number || !std::isfinite(value->number))
      fail(Argument("config"), "config.json's \"", key, "\" must be a number");
    return value->number;
  }

  bool boolean(const char *key, bool otherwise) const {
    const JsonValue *value = find(key);
    if (!value)
      return otherwise;
    if (value->type != JsonValue::Type::boolean)
      fail(Argument("config"), "config.json's \"", key, "\" must be true or false");
    return value->boolean;
  }

  std::string string(const char *key, const std::string &otherwise) const {
    const JsonValue *value = find(key);
    if (!value)
      return otherwise;
    if (value->type != JsonValue::Type::string)
      fail(Argument("config"), "config.json's \"", key, "\" must be a string");
    return value->string;
  }

private:
  const JsonValue &json_;
};

Activation activation_of(const std::string &name) {
  if (name == "gelu")
    return Activation::gelu;
  if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast")
    return Activation::gelu_tanh;
  if (name == "relu")
    return Activation::relu;
  if (name == "silu" || name == "swish")
    return Activation::silu;
  fail(Argument("config"), "config.json's activation \"", name.substr(0, 40),
       "\" is none the engine computes: gelu, gelu_new, gelu_pytorch_tanh, relu, silu");
}

// The family of model_type, or of the architectures' names when it has none.
Family family_of(const JsonValue &json) {
  std::string type;
  if (const JsonValue *model_type = json.find("model_type");
      model_type && model_type->type == JsonValue::Type::string)
    type = model_type->string;
  const auto &names = family_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (type == names[i])
      return static_cast<Family>(i);
  std::string supported;
  for (const auto &name : names)
    supported += (supported.empty() ? "" : ", ") + name;
  if (type.empty())
    fail(Argument("config"), "config.json names no model_type; the engine reads ", supported);
  fail(Argument("config"), "model_type \"", type.substr(0, 40),
       "\" is none the engine computes: it reads ", supported);
}

void read_gpt2(const Keys &keys, Config &c) {
  c.vocabulary = keys.size("vocab_size", 50257);
  c.positions = keys.size("n_positions", 1024);
  c.hidden = keys.size("n_embd", 768);
  c.layers = keys.size("n_layer", 12);
  c.heads = keys.size("n_head", 12);
  c.intermediate = keys.size("n_inner", 4 * c.hidden);
  c.activation = activation_of(keys.string("activation_function", "gelu_new"));
  c.norm_eps = keys.number("layer_norm_epsilon", 1e-5);
  c.scale_attention = keys.boolean("scale_attn_weights", true);
  c.scale_by_layer = keys.boolean("scale_attn_by_inverse_layer_idx", false);
  c.tied = keys.boolean("tie_word_embeddings", true);
  c.attention_bias = c.mlp_bias = true;
  if (keys.boolean("add_cross_attention", false))
    fail(Argument("config"), "a GPT-2 with cross-attention (add_cross_attention) is not read");
}

void read_bert(const Keys &keys, Config &c) {
  c.vocabulary = keys.size("vocab_size", 30522);
  c.hidden = keys.size("hidden_size", 768);
  c.layers = keys.size("num_hidden_layers", 12);
  c.heads = keys.size("num_attention_heads", 12);
  c.intermediate = keys.size("intermediate_size", 3072);
  c.activation = activation_of(keys.string("hidden_act", "gelu"));
  c.positions = keys.size("max_position_embeddings", 512);
  c.token_types = keys.size("type_vocab_size", 2);
  c.norm_eps = keys.number("layer_norm_eps", 1e-12);
  c.tied = keys.boolean("tie_word_embeddings", true);
  c.causal = false;
  c.attention_bias = c.mlp_bias = true;
  const std::string positions = keys.string("position_embedding_type", "absolute");
  if (positions != "absolute")
    fail(Argument("config"), "position_embedding_type \"", positions.substr(0, 40),
         "\" is not read: only \"absolute\"");
  if (keys.boolean("is_decoder", false))
    fail(Argument("config"), "a BERT decoder (is_decoder) is not read");
}

void read_distilbert(const Keys &keys, Config &c) {
  c.vocabulary = keys.size("vocab_size", 30522);
  c.positions = keys.size("max_position_embeddings", 512);
  c.layers = keys.size("n_layers", 6);
  c.heads = keys.size("n_heads", 12);
  c.hidden = keys.size("dim", 768);
  c.intermediate = keys.size("hidden_dim", 4 * 768);
  c.activation = activation_of(keys.string("activation", "gelu"));
  c.norm_eps = 1e-12; // DistilBERT's LayerNorms are made with eps=1e-12 whatever the config says
  c.tied = keys.boolean("tie_word_embeddings", true);
  c.causal = false;
  c.attention_bias = c.mlp_bias = true;
}

void read_llama(const Keys &keys, Config &c, bool qwen2) {
  c.vocabulary = keys.size("vocab_size", qwen2 ? 151936 : 32000);
  c.hidden = keys.size("hidden_size", 4096);
  c.intermediate = keys.size("intermediate_size", qwen2 ? 22016 : 11008);
  c.layers = keys.size("num_hidden_layers", 32);
  c.heads = keys.size("num_attention_heads", 32);
  c.kv_heads = keys.size("num_key_value_heads", c.heads);
  c.activation = activation_of(keys.string("hidden_act", "silu"));
  c.positions = keys.size("max_position_embeddings", qwen2 ? 32768 : 2048);
  c.norm_eps = keys.number("rms_norm_eps", 1e-6);
  c.tied = keys.boolean("tie_word_embeddings", false);
  c.rope_theta = keys.number("rope_theta", 10000);
  c.attention_bias = qwen2 || keys.boolean("attention_bias", false);
  c.mlp_bias = !qwen2 && keys.boolean("mlp_bias", false);
  if (c.heads && c.hidden % c.heads == 0)
    c.head_dim = keys.size("head_dim", c.hidden / c.heads);
  else
    c.head_dim = keys.size("head_dim", 0);
  if (qwen2 && keys.boolean("use_sliding_window", false))
    fail(Argument("config"), "a Qwen2 with use_sliding_window is not read");
  if (keys.number("partial_rotary_factor", 1) != 1)
    fail(Argument("config"), "partial_rotary_factor other than 1 is not read");
  if (const JsonValue *scaling = keys.find("rope_scaling")) {
    if (scaling->type != JsonValue::Type::object)
      fail(Argument("config"), "config.json's \"rope_scaling\" must be an object or null");
    const Keys rope(*scaling);
    c.rope.type = rope.string("rope_type", rope.string("type", "default"));
    if (c.rope.type != "default" && c.rope.type != "linear" && c.rope.type != "llama3")
      fail(Argument("config"), "rope_scaling's type \"", c.rope.type.substr(0, 40),
           "\" is none the engine computes: default, linear, llama3");
    if (c.rope.type != "default") {
      c.rope.factor = rope.number("factor", 0);
      if (!(c.rope.factor >= 1))
        fail(Argument("config"), "rope_scaling's factor must be a number >= 1");
    }
    if (c.rope.type == "llama3") {
      c.rope.low_freq_factor = rope.number("low_freq_factor", 0);
      c.rope.high_freq_factor = rope.number("high_freq_factor", 0);
      c.rope.original_positions = rope.size("original_max_position_embeddings", 0);
      if (!(c.rope.low_freq_factor > 0) || !(c.rope.high_freq_factor > c.rope.low_freq_factor) ||
          c.rope.original_positions == 0)
        fail(Argument("config"), "llama3's rope_scaling needs low_freq_factor > 0, a larger "
                                 "high_freq_factor and original_max_position_embeddings");
    }
  }
}

} // namespace

const std::vector<std::string> &family_names() {
  static const std::vector<std::string> names{"gpt2", "bert", "distilbert", "llama", "qwen2"};
  return names;
}

const char *family_name(Family family) {
  return family_names()[static_cast<std::size_t>(family)].c_str();
}

const char *head_name(Head head) {
  return head == Head::lm ? "lm" : head == Head::mlm ? "mlm" : "none";
}

Config read_config(const std::string &text) {
  const JsonValue json = files::parse_json(text, files::JsonDocument::config);
  if (json.type != JsonValue::Type::object)
    fail(Argument("config"), "config.json must hold a JSON object");
  const Keys keys(json);
  Config c;
  c.family = family_of(json);
  c.name = keys.string("_name_or_path", "");
  switch (c.family) {
  case Family::gpt2:
    read_gpt2(keys, c);
    break;
  case Family::bert:
    read_bert(keys, c);
    break;
  case Family::distilbert:
    read_distilbert(keys, c);
    break;
  case Family::llama:
  case Family::qwen2:
    read_llama(keys, c, c.family == Family::qwen2);
    break;
  }
  if (c.family != Family::llama && c.family != Family::qwen2) {
    c.kv_heads = c.heads;
    if (c.hidden % c.heads != 0)
      fail(Argument("config"), "the hidden size ", c.hidden, " is not a multiple of the ", c.heads,
           " heads");
    c.head_dim = c.hidden / c.heads;
  }
  if (const JsonValue *end = keys.find("eos_token_id")) {
    const std::vector<JsonValue> one{*end};
    for (const JsonValue &id : end->type == JsonValue::Type::array ? end->items : one) {
      if (id.type != JsonValue::Type::number || id.number < 0 || id.number != std::floor(id.number))
        fail(Argument("config"),
             "config.json's \"eos_token_id\" must be a token id or a list of them");
      c.end_tokens.push_back(static_cast<TokenId>(std::min(id.number, 2e9)));
    }
  }
  if (c.head_dim == 0)
    fail(Argument("config"), "config.json must say head_dim when the hidden size ", c.hidden,
         " is not a multiple of the ", c.heads, " heads");
  if (static_cast<double>(c.heads) * static_cast<double>(c.head_dim) > Keys::max_size)
    fail(Argument("config"), "the ", c.heads, " heads of ", c.head_dim, " values are more than ",
         Keys::max_size, " values a token");
  if (c.kv_heads == 0 || c.heads % c.kv_heads != 0)
    fail(Argument("config"), "the ", c.heads, " heads are not a multiple of the ", c.kv_heads,
         " key/value heads");
  if ((c.family == Family::llama || c.family == Family::qwen2) && c.head_dim % 2 != 0)
    fail(Argument("config"), "rotary positions need an even head_dim, not ", c.head_dim);
  if (!(c.norm_eps > 0))
    fail(Argument("config"), "the norm's epsilon must be a number > 0");
  return c;
}

} // namespace attention::pretrained
