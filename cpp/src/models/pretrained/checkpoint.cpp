// A checkpoint's files as Hugging Face writes them: which tensors each family's model needs under
// which names and shapes, which others a file may hold (buffers, heads the engine does not run),
// and where each needed tensor's bytes lie.
#include <algorithm>
#include <map>

#include "attention/errors.hpp"
#include "attention/pretrained.hpp"
#include "files/json.hpp"
#include "files/safetensors.hpp"

namespace attention::pretrained {

using detail::Argument;
using detail::fail;
using Shape = std::vector<std::size_t>;

namespace {

// The base model's prefix in a file saved from a model with a head (GPT2LMHeadModel's
// "transformer."), which a file of the base model alone lacks.
const char *base_prefix(Family family) {
  switch (family) {
  case Family::gpt2:
    return "transformer.";
  case Family::bert:
    return "bert.";
  case Family::distilbert:
    return "distilbert.";
  default:
    return "model.";
  }
}

// The tensor a file holds of each family's head, if it holds the head.
const char *head_probe(Family family) {
  switch (family) {
  case Family::bert:
    return "cls.predictions.transform.dense.weight";
  case Family::distilbert:
    return "vocab_transform.weight";
  default:
    return "lm_head.weight";
  }
}

// Tensors a file may hold that the engine does not read: the causal masks GPT-2's older files
// keep, position ids and rotary frequencies (computed again), the pooler and next-sentence head,
// and a head's weights tied to the embeddings.
bool ignored(const Config &c, const std::string &name) {
  const auto ends_with = [&](const char *suffix) {
    const std::size_t n = std::char_traits<char>::length(suffix);
    return name.size() >= n && name.compare(name.size() - n, n, suffix) == 0;
  };
  const auto starts_with = [&](const char *prefix) { return name.rfind(prefix, 0) == 0; };
  switch (c.family) {
  case Family::gpt2:
    return ends_with(".attn.bias") || ends_with(".attn.masked_bias") ||
           (c.tied && name == "lm_head.weight");
  case Family::bert:
    return name == "embeddings.position_ids" || starts_with("pooler.") ||
           starts_with("cls.seq_relationship.") || name == "cls.predictions.decoder.bias" ||
           (c.tied && name == "cls.predictions.decoder.weight");
  case Family::distilbert:
    return name == "embeddings.position_ids" || (c.tied && name == "vocab_projector.weight");
  default:
    return ends_with("rotary_emb.inv_freq") || (c.tied && name == "lm_head.weight");
  }
}

struct Needed {
  std::string name;
  Shape shape;
};

// The tensors a model of `c` reads, in the order its parameters keep them, with its head's.
std::vector<Needed> needed(const Config &c, Head head) {
  const std::size_t H = c.hidden, I = c.intermediate, V = c.vocabulary;
  std::vector<Needed> out;
  const auto add = [&](std::string name, Shape shape) {
    out.push_back({std::move(name), std::move(shape)});
  };
  const auto linear = [&](const std::string &name, std::size_t outputs, std::size_t inputs,
                          bool bias) {
    add(name + ".weight", {outputs, inputs});
    if (bias)
      add(name + ".bias", {outputs});
  };
  const auto norm = [&](const std::string &name, bool bias = true) {
    add(name + ".weight", {H});
    if (bias)
      add(name + ".bias", {H});
  };
  switch (c.family) {
  case Family::gpt2:
    add("wte.weight", {V, H});
    add("wpe.weight", {c.positions, H});
    for (std::size_t l = 0; l < c.layers; ++l) {
      const std::string h = "h." + std::to_string(l) + ".";
      norm(h + "ln_1");
      add(h + "attn.c_attn.weight", {H, 3 * H}); // Conv1D: [in, out]
      add(h + "attn.c_attn.bias", {3 * H});
      add(h + "attn.c_proj.weight", {H, H});
      add(h + "attn.c_proj.bias", {H});
      norm(h + "ln_2");
      add(h + "mlp.c_fc.weight", {H, I});
      add(h + "mlp.c_fc.bias", {I});
      add(h + "mlp.c_proj.weight", {I, H});
      add(h + "mlp.c_proj.bias", {H});
    }
    norm("ln_f");
    if (head == Head::lm && !c.tied)
      add("lm_head.weight", {V, H});
    break;
  case Family::bert:
    add("embeddings.word_embeddings.weight", {V, H});
    add("embeddings.position_embeddings.weight", {c.positions, H});
    add("embeddings.token_type_embeddings.weight", {c.token_types, H});
    norm("embeddings.LayerNorm");
    for (std::size_t l = 0; l < c.layers; ++l) {
      const std::string e = "encoder.layer." + std::to_string(l) + ".";
      linear(e + "attention.self.query", H, H, true);
      linear(e + "attention.self.key", H, H, true);
      linear(e + "attention.self.value", H, H, true);
      linear(e + "attention.output.dense", H, H, true);
      norm(e + "attention.output.LayerNorm");
      linear(e + "intermediate.dense", I, H, true);
      linear(e + "output.dense", H, I, true);
      norm(e + "output.LayerNorm");
    }
    if (head == Head::mlm) {
      linear("cls.predictions.transform.dense", H, H, true);
      norm("cls.predictions.transform.LayerNorm");
      add("cls.predictions.bias", {V});
      if (!c.tied)
        add("cls.predictions.decoder.weight", {V, H});
    }
    break;
  case Family::distilbert:
    add("embeddings.word_embeddings.weight", {V, H});
    add("embeddings.position_embeddings.weight", {c.positions, H});
    norm("embeddings.LayerNorm");
    for (std::size_t l = 0; l < c.layers; ++l) {
      const std::string t = "transformer.layer." + std::to_string(l) + ".";
      for (const char *projection : {"q_lin", "k_lin", "v_lin", "out_lin"})
        linear(t + "attention." + projection, H, H, true);
      norm(t + "sa_layer_norm");
      linear(t + "ffn.lin1", I, H, true);
      linear(t + "ffn.lin2", H, I, true);
      norm(t + "output_layer_norm");
    }
    if (head == Head::mlm) {
      linear("vocab_transform", H, H, true);
      norm("vocab_layer_norm");
      add("vocab_projector.bias", {V});
      if (!c.tied)
        add("vocab_projector.weight", {V, H});
    }
    break;
  case Family::llama:
  case Family::qwen2: {
    const std::size_t q = c.heads * c.head_dim, kv = c.kv_heads * c.head_dim;
    add("embed_tokens.weight", {V, H});
    for (std::size_t l = 0; l < c.layers; ++l) {
      const std::string p = "layers." + std::to_string(l) + ".";
      norm(p + "input_layernorm", false);
      linear(p + "self_attn.q_proj", q, H, c.attention_bias);
      linear(p + "self_attn.k_proj", kv, H, c.attention_bias);
      linear(p + "self_attn.v_proj", kv, H, c.attention_bias);
      linear(p + "self_attn.o_proj", H, q, c.attention_bias && c.family == Family::llama);
      norm(p + "post_attention_layernorm", false);
      linear(p + "mlp.gate_proj", I, H, c.mlp_bias);
      linear(p + "mlp.up_proj", I, H, c.mlp_bias);
      linear(p + "mlp.down_proj", H, I, c.mlp_bias);
    }
    norm("norm", false);
    if (head == Head::lm && !c.tied)
      add("lm_head.weight", {V, H});
    break;
  }
  }
  return out;
}

std::string shape_text(const Shape &shape) {
  return detail::shape_text(shape.data(), shape.size());
}

// A file's name for its tensor, as the engine reads it: without the base model's prefix, and
// LayerNorm's old gamma and beta as weight and bias.
std::string canonical(const Config &c, std::string name) {
  const std::string prefix = base_prefix(c.family);
  if (name.rfind(prefix, 0) == 0)
    name.erase(0, prefix.size());
  for (const auto &[old, now] :
       {std::pair<const char *, const char *>{".gamma", ".weight"}, {".beta", ".bias"}}) {
    const std::size_t n = std::char_traits<char>::length(old);
    if (name.size() > n && name.compare(name.size() - n, n, old) == 0 &&
        name.find("LayerNorm") != std::string::npos)
      return name.substr(0, name.size() - n) + now;
  }
  return name;
}

} // namespace

CheckpointFile read_checkpoint_header(const std::string &name, const std::uint8_t *bytes,
                                      std::size_t available, std::size_t file_size,
                                      const std::string &argument) {
  safetensors::Header header;
  try {
    header = safetensors::parse_header(bytes, available, file_size);
  } catch (const InputError &error) {
    // the parser words a file as "bytes"; here it is one of a checkpoint's files
    std::string message = error.what();
    const std::string bytes_are = "bytes are not";
    if (message.rfind(bytes_are, 0) == 0)
      message = name + " is not" + message.substr(bytes_are.size());
    throw InputError(argument, message);
  }
  CheckpointFile file{name, {}};
  for (const auto &tensor : header.tensors)
    file.tensors.push_back({tensor.name, tensor.dtype, tensor.shape,
                            header.data_begin + tensor.begin, header.data_begin + tensor.end});
  return file;
}

std::vector<std::string> index_files(const std::string &index) {
  const files::JsonValue json = files::parse_json(index, files::JsonDocument::index);
  const files::JsonValue *map = json.find("weight_map");
  if (!map || map->type != files::JsonValue::Type::object || map->members.empty())
    fail(Argument("index"), "the index has no weight_map of tensors to files");
  std::vector<std::string> names;
  for (const auto &[tensor, file] : map->members) {
    if (file.type != files::JsonValue::Type::string)
      fail(Argument("index"), "the index's weight_map names no file for \"", tensor.substr(0, 80),
           "\"");
    if (std::find(names.begin(), names.end(), file.string) == names.end())
      names.push_back(file.string);
  }
  return names;
}

Plan plan_checkpoint(const Config &config, const std::vector<CheckpointFile> &files,
                     const std::string &index) {
  // every tensor of every file, by the name the engine reads it under
  struct Found {
    std::size_t file;
    const FileTensor *tensor;
  };
  std::map<std::string, Found> found;
  for (std::size_t f = 0; f < files.size(); ++f)
    for (const auto &tensor : files[f].tensors) {
      const std::string name = canonical(config, tensor.name);
      if (found.count(name))
        fail(Argument("weights"), "tensor \"", tensor.name.substr(0, 120), "\" is in ",
             files[found.at(name).file].name, " and again in ", files[f].name);
      found.emplace(name, Found{f, &tensor});
    }
  if (!index.empty()) {
    const files::JsonValue json = files::parse_json(index, files::JsonDocument::index);
    for (const auto &[tensor, file] : json.find("weight_map")->members) {
      const auto at = found.find(canonical(config, tensor));
      if (at == found.end())
        fail(Argument("weights"), "the index puts \"", tensor.substr(0, 120), "\" in ",
             file.string.substr(0, 120), ", which does not hold it");
      if (files[at->second.file].name != file.string)
        fail(Argument("index"), "the index puts \"", tensor.substr(0, 120), "\" in ",
             file.string.substr(0, 120), " but it is in ", files[at->second.file].name);
    }
  }

  Plan plan;
  plan.config = config;
  const bool has_head = found.count(head_probe(config.family)) != 0;
  switch (config.family) {
  case Family::bert:
  case Family::distilbert:
    plan.head = has_head ? Head::mlm : Head::none;
    break;
  default:
    plan.head = config.tied || has_head ? Head::lm : Head::none;
  }
  const std::vector<Needed> tensors = needed(config, plan.head);

  auto layout = std::make_shared<std::vector<ParameterInfo>>();
  std::size_t offset = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const Needed &want = tensors[i];
    const auto at = found.find(want.name);
    if (at == found.end())
      fail(Argument("weights"), "the checkpoint lacks tensor \"", want.name, "\" (",
           shape_text(want.shape), ") that a ", family_name(config.family), " model of this ",
           "config.json needs");
    const FileTensor &tensor = *at->second.tensor;
    if (tensor.shape != want.shape) {
      // the first tensor, the token embedding, says the vocabulary and hidden size themselves
      if (i == 0)
        fail(Argument("config"), "config.json contradicts the weights: its vocabulary and hidden ",
             "size make ", want.name, " ", shape_text(want.shape), " but the file's is ",
             shape_text(tensor.shape));
      fail(Argument("weights"), "tensor \"", tensor.name.substr(0, 120), "\" is ",
           shape_text(tensor.shape), " but this config.json makes it ", shape_text(want.shape));
    }
    if (tensor.dtype != "F32" && tensor.dtype != "F16" && tensor.dtype != "BF16" &&
        tensor.dtype != "F64")
      fail(Argument("weights"), "tensor \"", tensor.name.substr(0, 120), "\" is ", tensor.dtype,
           ", none of the dtypes the engine widens: F64, F32, F16, BF16");
    std::size_t size = 1;
    for (const std::size_t extent : want.shape)
      size *= extent;
    layout->push_back({want.name, want.shape, offset, size});
    offset += size;
    plan.sources.push_back({at->second.file, tensor.dtype, tensor.begin, tensor.end});
    found.erase(at);
  }
  for (const auto &[name, where] : found)
    if (!ignored(config, name))
      fail(Argument("weights"), "tensor \"", where.tensor->name.substr(0, 120), "\" (",
           shape_text(where.tensor->shape), ") in ", files[where.file].name, " is none a ",
           family_name(config.family), " model of this config.json reads");
  plan.layout = std::move(layout);
  for (const auto &file : files)
    plan.files.push_back(file.name);
  return plan;
}

Estimate estimate(const Config &config, std::size_t value_bytes) {
  const Head head =
      config.family == Family::bert || config.family == Family::distilbert ? Head::mlm : Head::lm;
  Estimate out; // in doubles: a config's sizes may overflow WebAssembly's 32-bit size_t
  for (const auto &tensor : needed(config, head)) {
    double size = 1;
    for (const std::size_t extent : tensor.shape)
      size *= static_cast<double>(extent);
    out.parameters += size;
  }
  out.bytes = out.parameters * static_cast<double>(value_bytes);
  out.working = std::max(out.bytes / 8, 32.0 * (1 << 20));
  return out;
}

} // namespace attention::pretrained
