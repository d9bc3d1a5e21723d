// Pretrained Transformers read from the files Hugging Face writes (config.json, model.safetensors
// or its shards and index), computed as transformers' modeling code computes them on its eager
// attention path: GPT-2 (modeling_gpt2.py), BERT (modeling_bert.py), DistilBERT
// (modeling_distilbert.py), Llama and Qwen2 (modeling_llama.py, modeling_qwen2.py). Every head's
// weights are kept, and one head's every step can be traced. Nothing here trains.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "numpy_random.hpp"
#include "parameters.hpp"
#include "sentences.hpp"
#include "types.hpp"

namespace attention::pretrained {

enum class Family { gpt2, bert, distilbert, llama, qwen2 };
// The families' model_type names, in Family's order.
const std::vector<std::string> &family_names();
const char *family_name(Family family);

enum class Activation { gelu, gelu_tanh, relu, silu };
// What the model's head makes of its last hidden states: next-token logits (the LM head), the
// masked-LM head's, or none (a base model).
enum class Head { none, lm, mlm };
const char *head_name(Head head); // "none", "lm", "mlm"

// rope_scaling: "default" (none), "linear" (positions ÷ factor) or "llama3" (per wavelength).
struct RopeScaling {
  std::string type = "default";
  double factor = 1, low_freq_factor = 1, high_freq_factor = 4;
  std::size_t original_positions = 0;
};

// A checkpoint's configuration, from its config.json under each family's own keys and defaults.
struct Config {
  Family family = Family::gpt2;
  std::string name; // _name_or_path when the file says it, else empty
  std::size_t layers = 0, heads = 0, kv_heads = 0, hidden = 0, head_dim = 0, intermediate = 0;
  std::size_t vocabulary = 0, positions = 0, token_types = 0;
  bool causal = true;
  double norm_eps = 1e-5;
  Activation activation = Activation::gelu_tanh;
  bool scale_attention = true, scale_by_layer = false; // GPT-2's scale_attn_weights and
                                                       // scale_attn_by_inverse_layer_idx
  double rope_theta = 10000;
  RopeScaling rope;
  bool tied = true;            // the LM head is the token embedding's table
  bool attention_bias = false; // q, k, v (and Llama's o) projections have biases
  bool mlp_bias = false;
  std::vector<TokenId> end_tokens; // eos_token_id: one id or several
};

// Reads config.json's text; InputError blames "config" (a model_type of no family lists those
// supported).
Config read_config(const std::string &json);

// What a model needs before any weight is read: its parameters (the largest head its family has
// included) and their bytes at a precision (4 or 8 bytes a value), as doubles: a configuration's
// sizes may overflow WebAssembly's 32-bit size_t.
struct Estimate {
  double parameters = 0;
  double bytes = 0;
  // what a forward pass needs besides: an eighth of the parameters' bytes, at least 32 MB
  double working = 0;
};
Estimate estimate(const Config &config, std::size_t value_bytes);

// One file of a checkpoint as its header says: its name, and where each tensor's bytes lie in it.
struct FileTensor {
  std::string name, dtype;
  std::vector<std::size_t> shape;
  std::size_t begin = 0, end = 0; // byte offsets into the whole file
};
struct CheckpointFile {
  std::string name;
  std::vector<FileTensor> tensors;
};

// A safetensors file's header read from its first bytes (at least 8 + the header's length) and
// the file's whole size: every offset checked against it (InputError blames `argument`).
CheckpointFile read_checkpoint_header(const std::string &name, const std::uint8_t *bytes,
                                      std::size_t available, std::size_t file_size,
                                      const std::string &argument);

// The files an index (model.safetensors.index.json's text) names, in order of first mention;
// InputError blames "index".
std::vector<std::string> index_files(const std::string &index);

// Where each of a model's tensors comes from: the layout of its parameters (canonical names:
// without the base model's prefix, LayerNorm's weight and bias for gamma and beta) and for each,
// the file and bytes that hold it.
struct TensorSource {
  std::size_t file = 0;
  std::string dtype;
  std::size_t begin = 0, end = 0; // in the file
};
struct Plan {
  Config config;
  Head head = Head::none;
  ParameterLayout layout;
  std::vector<TensorSource> sources; // one per layout entry
  std::vector<std::string> files;
};

// The plan of a checkpoint: its files' headers, and the index's text when it has shards (each
// tensor must lie in the file the index names). InputError blames "weights" for a tensor missing,
// extra or mis-shaped (naming it, with both shapes), and "config" for a configuration the tensors
// contradict.
Plan plan_checkpoint(const Config &config, const std::vector<CheckpointFile> &files,
                     const std::string &index);

// Options of a forward pass. token_types and attention_mask are empty or one per id.
struct RunInput {
  std::vector<TokenId> ids;
  std::vector<TokenId> token_types;
  std::vector<int> attention_mask; // 1 attends, 0 is masked (padding)
};

enum class Logits { none, last, all };

template <class T> struct RunOutput {
  std::vector<std::vector<Matrix<T>>> attentions; // [layer][head]: new tokens x all tokens
  std::vector<Matrix<T>> hidden_states;           // [layers + 1]: new tokens x hidden
  Matrix<T> logits;                               // rows of the head's output, or none
  // with the attentions: [layer]: each key/value head's value norms ‖v_j‖, kv_heads x all tokens
  std::vector<Matrix<T>> value_norms;
};

// One head of one layer, step by step (Plan's names): q, k, v (T x headDim; k and v of the
// key/value head the query head reads), after rotary positions when the family has them, the
// scores QKᵀ, after the model's own scaling, after the mask (masked entries -inf), the softmax
// weights and their product with V.
template <class T> struct HeadTrace {
  std::size_t kv_head = 0;
  Matrix<T> q, k, v, q_rotated, k_rotated, scores, scaled, masked, weights, output;
};

// A model's weights and its forward pass, in float or double.
template <class T> class Model {
public:
  explicit Model(const Plan &plan);
  const Config &config() const { return config_; }
  Head head() const { return head_; }
  ParameterSet<T> &parameters() { return parameters_; }
  const ParameterSet<T> &parameters() const { return parameters_; }
  // where each tensor's bytes lie in the checkpoint's files, in the parameters' order
  const std::vector<TensorSource> &sources() const { return sources_; }

  // Writes `size` bytes of tensor `tensor`'s stored bytes (its dtype's, little-endian) from byte
  // `offset` of it, widened to T: a load, a slice at a time. Bytes must come whole elements at a
  // time (InputError blames "bytes"), and each byte once.
  void write(std::size_t tensor, std::size_t offset, const std::uint8_t *bytes, std::size_t size);
  // Whether every tensor has all its bytes; `missing()` names the first that lacks some.
  bool loaded() const;
  std::string missing() const;

  // The forward pass over input's ids (InputError blames "input", "tokenTypes" or
  // "attentionMask" for what the model cannot take); the caller says what to keep.
  RunOutput<T> run(const RunInput &input, bool attentions, bool hidden_states, Logits logits) const;
  // One head's steps over the input (InputError blames "layer" or "head" past the model's).
  HeadTrace<T> trace(const RunInput &input, std::size_t layer, std::size_t head) const;

  // Decoding with a key/value cache (causal models): each call appends tokens and returns the
  // last one's logits, and the new tokens' attention rows over every token so far.
  class Cache {
  public:
    std::size_t length() const { return length_; }
    // layer l's keys (after rotary positions) and values so far: length() rows of kv_heads x
    // head_dim each
    const std::vector<T> &keys_of(std::size_t l) const { return keys.at(l); }
    const std::vector<T> &values_of(std::size_t l) const { return values.at(l); }

  private:
    friend class Model;
    std::size_t length_ = 0;
    std::vector<std::vector<T>> keys, values; // per layer: positions x kv_heads * head_dim
  };
  RunOutput<T> extend(Cache &cache, const std::vector<TokenId> &ids, bool attentions) const;

private:
  // InputError for input this model cannot take, `total` tokens with the cache's.
  void check_input(const RunInput &input, std::size_t total) const;
  RunOutput<T> forward(const RunInput &input, Cache *cache, bool attentions, bool hidden_states,
                       Logits logits, HeadTrace<T> *trace, std::size_t trace_layer,
                       std::size_t trace_head) const;

  Config config_;
  Head head_;
  ParameterSet<T> parameters_;
  std::vector<TensorSource> sources_;
  std::vector<std::size_t> written_; // bytes written per tensor
};

// A token of a distribution and its probability.
struct TokenChoice {
  TokenId id = 0;
  double probability = 0;
};

// The next token of one row of logits: the likeliest at temperature 0, else a draw of `random`
// (np.random.rand) from softmax(logits / temperature) over the top_k likeliest (0: all), the first
// token whose cumulative probability passes it; with its probability under softmax(logits).
// InputError blames "temperature" below 0 or not finite.
template <class T>
TokenChoice next_token(const T *logits, std::size_t size, double temperature, std::size_t top_k,
                       NumpyRandomState &random);
// The k likeliest tokens of softmax(logits), likeliest first (ties: the lower id).
template <class T>
std::vector<TokenChoice> likeliest(const T *logits, std::size_t size, std::size_t k);

extern template class Model<float>;
extern template class Model<double>;

} // namespace attention::pretrained
