// Pretrained checkpoints against PyTorch: tiny random models of each family in Hugging Face's
// exact layout and their reference outputs, from a forward written from transformers' modeling
// code (tests/fixtures/make_pretrained_fixtures.py, listed in pretrained/cases.json). Every
// attention, hidden state, logit and traced step within 1e-9 of the largest value at float64, and
// 1e-5 at float32.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "attention/errors.hpp"
#include "attention/pretrained.hpp"
#include "files/json.hpp"
#include "files/safetensors.hpp"
#include "pretrained_fixtures.hpp"

using namespace attention;
namespace pt = attention::pretrained;

namespace {

using namespace pretrained_fixtures;

template <class T> void check_case(const Case &c, double tolerance) {
  const std::string name = c.name;
  CAPTURE(name);
  const pt::Model<T> model = load<T>(name);
  const Reference ref(name);
  pt::RunInput input;
  input.ids = ref.ids("input_ids");
  if (ref.has("token_type_ids"))
    input.token_types = ref.ids("token_type_ids");
  if (ref.has("attention_mask"))
    for (const TokenId m : ref.ids("attention_mask"))
      input.attention_mask.push_back(m);
  const pt::RunOutput<T> out = model.run(input, true, true, pt::Logits::all);
  const pt::Config &config = model.config();
  REQUIRE(out.attentions.size() == config.layers);
  for (std::size_t l = 0; l < config.layers; ++l) {
    std::vector<T> joined;
    for (const auto &head : out.attentions[l])
      joined.insert(joined.end(), head.begin(), head.end());
    CAPTURE(l);
    CHECK(relative_error(joined.data(), joined.size(),
                         ref.values("attentions." + std::to_string(l))) < tolerance);
  }
  REQUIRE(out.hidden_states.size() == config.layers + 1);
  for (std::size_t i = 0; i <= config.layers; ++i) {
    CAPTURE(i);
    CHECK(relative_error(out.hidden_states[i].data(), out.hidden_states[i].size(),
                         ref.values("hidden_states." + std::to_string(i))) < tolerance);
  }
  const std::string head = c.json.find("head")->type == files::JsonValue::Type::string
                               ? c.json.find("head")->string
                               : "none";
  CHECK(pt::head_name(model.head()) == head);
  if (ref.has("logits"))
    CHECK(relative_error(out.logits.data(), out.logits.size(), ref.values("logits")) < tolerance);
  else
    CHECK(out.logits.size() == 0);

  // one head's every step
  const auto layer = static_cast<std::size_t>(c.json.find("layer")->number);
  const auto head_index = static_cast<std::size_t>(c.json.find("head_index")->number);
  const pt::HeadTrace<T> trace = model.trace(input, layer, head_index);
  const std::pair<const char *, const Matrix<T> *> steps[] = {{"q", &trace.q},
                                                              {"k", &trace.k},
                                                              {"v", &trace.v},
                                                              {"q_rotated", &trace.q_rotated},
                                                              {"k_rotated", &trace.k_rotated},
                                                              {"scores", &trace.scores},
                                                              {"scaled", &trace.scaled},
                                                              {"masked", &trace.masked},
                                                              {"weights", &trace.weights},
                                                              {"output", &trace.output}};
  for (const auto &entry : steps) {
    const char *step = entry.first; // not a structured binding: clang 14 cannot capture one
    const Matrix<T> *matrix = entry.second;
    CAPTURE(step);
    const std::string key = std::string("trace.") + step;
    if (!ref.has(key)) {
      CHECK(matrix->size() == 0);
      continue;
    }
    CHECK(relative_error(matrix->data(), matrix->size(), ref.values(key)) < tolerance);
  }

  // greedy decoding with the cache: a token at a time after the prompt
  if (ref.has("generate.ids")) {
    typename pt::Model<T>::Cache cache;
    pt::RunOutput<T> step = model.extend(cache, input.ids, false);
    std::vector<TokenId> generated;
    NumpyRandomState random(0);
    for (const TokenId expected : ref.ids("generate.ids")) {
      const TokenId next = pt::next_token(step.logits.data(), config.vocabulary, 0.0, 0, random).id;
      CHECK(next == expected);
      generated.push_back(next);
      step = model.extend(cache, {next}, true);
      // the new token's attention rows span every token so far
      CHECK(step.attentions[0][0].shape()[1] == cache.length());
    }
  }
}

} // namespace

TEST_CASE("pretrained: every family and variant equals PyTorch's forward at float64 and float32") {
  for (const Case &c : cases()) {
    check_case<double>(c, 1e-9);
    check_case<float>(c, 1e-5);
  }
}

TEST_CASE("pretrained: variants that must equal another case do, output for output") {
  for (const Case &c : cases()) {
    const files::JsonValue *equals = c.json.find("equals");
    if (!equals || equals->type != files::JsonValue::Type::string)
      continue;
    CAPTURE(c.name);
    const pt::Model<double> a = load<double>(c.name), b = load<double>(equals->string);
    const Reference ref(c.name);
    pt::RunInput input;
    input.ids = ref.ids("input_ids");
    const auto x = a.run(input, true, true, pt::Logits::all);
    const auto y = b.run(input, true, true, pt::Logits::all);
    for (std::size_t i = 0; i < x.hidden_states.size(); ++i)
      CHECK(relative_error(
                x.hidden_states[i].data(), x.hidden_states[i].size(),
                std::vector<double>(y.hidden_states[i].begin(), y.hidden_states[i].end())) < 1e-12);
    CHECK(relative_error(x.logits.data(), x.logits.size(),
                         std::vector<double>(y.logits.begin(), y.logits.end())) < 1e-12);
  }
}

namespace {

// The InputError `call` throws: its argument, and that its message holds `why`.
template <class Call>
void check_refused(Call call, const std::string &argument, const std::string &why) {
  try {
    call();
    FAIL("not refused: ", why);
  } catch (const InputError &error) {
    CHECK(error.argument() == argument);
    const std::string message = error.what();
    CHECK_MESSAGE(message.find(why) != std::string::npos, message);
  }
}

// A safetensors file of `header` (JSON) and `data` bytes.
std::vector<std::uint8_t> file_of(const std::string &header, std::size_t data) {
  std::vector<std::uint8_t> out(8 + header.size() + data, 0);
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<std::uint8_t>(std::uint64_t(header.size()) >> (8 * i));
  std::copy(header.begin(), header.end(), out.begin() + 8);
  return out;
}

pt::CheckpointFile header_of(const std::vector<std::uint8_t> &bytes) {
  return pt::read_checkpoint_header("model.safetensors", bytes.data(), bytes.size(), bytes.size(),
                                    "weights");
}

// gpt2's checkpoint with its header's text changed by `edit`.
pt::CheckpointFile gpt2_edited(const std::function<void(std::string &)> &edit) {
  const auto bytes = read_file(root + "gpt2/model.safetensors");
  std::uint64_t length = 0;
  for (int i = 7; i >= 0; --i)
    length = length << 8 | bytes[i];
  std::string header(bytes.begin() + 8, bytes.begin() + 8 + length);
  edit(header);
  return header_of(file_of(header, bytes.size() - 8 - length));
}

void replace(std::string &text, const std::string &from, const std::string &to) {
  const std::size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("pretrained: bad files and configurations are refused, naming the argument") {
  const std::string gpt2_config = read_text(root + "gpt2/config.json");
  const pt::Config config = pt::read_config(gpt2_config);
  const auto plan = [&](const pt::CheckpointFile &file) {
    return pt::plan_checkpoint(config, {file}, "");
  };
  // the file itself: cut short, a header longer than the file, offsets that overlap or overrun
  const auto whole = read_file(root + "gpt2/model.safetensors");
  check_refused(
      [&] { pt::read_checkpoint_header("model.safetensors", whole.data(), 6, 6, "weights"); },
      "weights", "model.safetensors is not a safetensors file: it has 6 bytes");
  check_refused([&] { header_of(std::vector<std::uint8_t>(whole.begin(), whole.end() - 10)); },
                "weights", "follow the header");
  check_refused(
      [&] {
        header_of(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", 4));
      },
      "weights", "the tensors hold 8 bytes but 4 follow");
  std::vector<std::uint8_t> long_header = file_of("{}", 0);
  long_header[0] = 200;
  check_refused([&] { header_of(long_header); }, "weights", "bytes but only");
  check_refused(
      [&] {
        header_of(file_of("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                          "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                          12));
      },
      "weights", "starts at byte 4, not at 8");
  check_refused(
      [&] {
        header_of(file_of("{\"a\":{\"dtype\":\"Q4\",\"shape\":[2],\"data_offsets\":[0,8]}}", 8));
      },
      "weights", "unknown dtype \"Q4\"");
  // the tensors against the configuration: missing, extra, mis-shaped, of a dtype not widened
  check_refused(
      [&] {
        plan(gpt2_edited([](std::string &h) { replace(h, "\"ln_f.bias\"", "\"ln_f.biax\""); }));
      },
      "weights", "lacks tensor \"ln_f.bias\" ([16])");
  check_refused(
      [&] {
        plan(gpt2_edited(
            [](std::string &h) { replace(h, "\"h.0.attn.bias\"", "\"h.0.attn.extra\""); }));
      },
      "weights", "tensor \"h.0.attn.extra\" ([1x1x32x32]) in model.safetensors is none");
  const pt::CheckpointFile good = header_of(whole);
  pt::CheckpointFile reshaped = good;
  for (auto &tensor : reshaped.tensors)
    if (tensor.name == "h.1.mlp.c_fc.weight")
      tensor.shape = {64, 16};
  check_refused([&] { plan(reshaped); }, "weights",
                "tensor \"h.1.mlp.c_fc.weight\" is [64x16] but this config.json makes it [16x64]");
  pt::CheckpointFile integers = good;
  for (auto &tensor : integers.tensors)
    if (tensor.name == "ln_f.weight")
      tensor.dtype = "I32";
  check_refused([&] { plan(integers); }, "weights", "\"ln_f.weight\" is I32, none of the dtypes");
  // a configuration that contradicts the tensors, or that the engine does not read
  std::string other = gpt2_config;
  replace(other, "\"vocab_size\": 304", "\"vocab_size\": 300");
  check_refused([&] { pt::plan_checkpoint(pt::read_config(other), {good}, ""); }, "config",
                "config.json contradicts the weights");
  check_refused(
      [] { pt::read_config("{\"model_type\": \"mamba\"}"); }, "config",
      "model_type \"mamba\" is none the engine computes: it reads gpt2, bert, distilbert, "
      "llama, qwen2");
  check_refused([] { pt::read_config("{\"model_type\": \"gpt2\", \"n_embd\": 1.5}"); }, "config",
                "\"n_embd\" must be a whole number");
  check_refused([] { pt::read_config("{\"model_type\": \"gpt2\",}"); }, "config",
                "config is not a config.json: the file's JSON is malformed");
  check_refused([] { pt::read_config("[1, 2]"); }, "config", "must hold a JSON object");
  check_refused(
      [] {
        pt::read_config("{\"model_type\": \"llama\", \"rope_scaling\": {\"rope_type\": \"yarn\", "
                        "\"factor\": 4}}");
      },
      "config", "rope_scaling's type \"yarn\" is none the engine computes");
  // the index: a tensor it places in a file that does not hold it
  check_refused(
      [&] {
        pt::plan_checkpoint(config, {good},
                            "{\"weight_map\": {\"wte.weight\": \"model-00002.safetensors\"}}");
      },
      "index", "but it is in model.safetensors");
}

TEST_CASE("pretrained: a model's inputs are checked against its limits") {
  const pt::Model<float> model = load<float>("gpt2");
  pt::RunInput input;
  check_refused([&] { model.run(input, true, false, pt::Logits::none); }, "input", "no tokens");
  input.ids = {1, 303, 304};
  check_refused([&] { model.run(input, true, false, pt::Logits::none); }, "input",
                "token id 304 is past the model's embedding table of 304 rows (ids 0 to 303)");
  input.ids.assign(33, 1);
  check_refused([&] { model.run(input, true, false, pt::Logits::none); }, "input",
                "33 tokens are more than the model's 32 positions");
  input.ids = {1, 2};
  input.attention_mask = {0, 1};
  check_refused([&] { model.run(input, true, false, pt::Logits::none); }, "attentionMask",
                "hides token 0");
  input.attention_mask = {};
  input.token_types = {0, 0};
  check_refused([&] { model.run(input, true, false, pt::Logits::none); }, "tokenTypes",
                "a gpt2 model has no token types");
  input.token_types = {};
  check_refused([&] { model.trace(input, 2, 0); }, "layer", "layer 2 is past the model's 2 layers");
  check_refused([&] { model.trace(input, 0, 4); }, "head", "head 4 is past the model's 4 heads");
  // weights come whole values at a time, in order
  pt::Model<float> empty(pt::plan_checkpoint(
      model.config(), {header_of(read_file(root + "gpt2/model.safetensors"))}, ""));
  const std::uint8_t bytes[8] = {};
  check_refused([&] { empty.write(0, 0, bytes, 3); }, "bytes", "whole values of 4 bytes");
  check_refused([&] { empty.write(0, 4, bytes, 4); }, "bytes", "4 bytes at 4 after 0");
  check_refused([&] { empty.run(input, false, false, pt::Logits::none); }, "model",
                "not all loaded: wte.weight lacks some");
  // finite weights as large as a float holds overflow the forward pass: refused, not NaN weights
  pt::Model<float> huge = load<float>("gpt2");
  float *table = huge.parameters().values("wte.weight");
  std::fill(table, table + 304 * 16, 3e38f);
  check_refused([&] { huge.run(input, true, false, pt::Logits::all); }, "weights",
                "the model's values overflow at layer 0");
}

TEST_CASE(
    "pretrained: the next token: greedy, or drawn from numpy's RandomState as np.random.choice") {
  const double logits[] = {0.5, 2.0, -1.0, 2.0, 1.0};
  NumpyRandomState random(7);
  // greedy: the likeliest, the lower id of a tie, with its softmax probability
  const pt::TokenChoice greedy = pt::next_token(logits, 5, 0.0, 0, random);
  double sum = 0;
  for (const double x : logits)
    sum += std::exp(x);
  CHECK(greedy.id == 1);
  CHECK(greedy.probability == doctest::Approx(std::exp(2.0) / sum).epsilon(1e-12));
  // top_k 2 at temperature 1: ids 1 and 3, half and half: the draw decides, as numpy's first
  // rand() after seed 7 (0.0763) < 0.5 picks the first
  CHECK(pt::next_token(logits, 5, 1.0, 2, random).id == 1);
  // a seed reproduces a sequence of draws; another gives another
  const auto draws = [&](std::int64_t seed) {
    NumpyRandomState r(seed);
    std::vector<TokenId> out;
    for (int i = 0; i < 40; ++i)
      out.push_back(pt::next_token(logits, 5, 2.0, 0, r).id);
    return out;
  };
  CHECK(draws(3) == draws(3));
  CHECK(draws(3) != draws(4));
  const auto top = pt::likeliest(logits, 5, 3);
  REQUIRE(top.size() == 3);
  CHECK((top[0].id == 1 && top[1].id == 3 && top[2].id == 4));
  check_refused([&] { pt::next_token(logits, 5, -1.0, 0, random); }, "temperature", ">= 0");
}
