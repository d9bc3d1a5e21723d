// What the pretrained tests share: the tiny checkpoints of tests/fixtures/pretrained/ (written by
// make_pretrained_fixtures.py, listed in cases.json), loaded as a page loads them, and their
// PyTorch reference outputs.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "attention/pretrained.hpp"
#include "files/json.hpp"
#include "files/safetensors.hpp"

namespace pretrained_fixtures {

using namespace attention;
namespace pt = attention::pretrained;

inline const std::string root = std::string(TENSOR_FIXTURES) + "../pretrained/";

inline std::vector<std::uint8_t> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, path);
  return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string read_text(const std::string &path) {
  const auto bytes = read_file(path);
  return {bytes.begin(), bytes.end()};
}

struct Case {
  std::string name;
  files::JsonValue json;
};

inline std::vector<Case> cases() {
  const files::JsonValue all =
      files::parse_json(read_text(root + "cases.json"), files::JsonDocument::index);
  std::vector<Case> out;
  for (const auto &entry : all.items)
    out.push_back({entry.find("name")->string, entry});
  return out;
}

// A case's checkpoint as a page reads it: its plan from the files' headers, and the files' bytes.
struct Checkpoint {
  pt::Plan plan;
  std::vector<std::vector<std::uint8_t>> bytes;
};
inline Checkpoint checkpoint(const std::string &name) {
  const std::string dir = root + name + "/";
  const pt::Config config = pt::read_config(read_text(dir + "config.json"));
  std::string index;
  std::vector<std::string> names{"model.safetensors"};
  if (std::ifstream(dir + "model.safetensors.index.json")) {
    index = read_text(dir + "model.safetensors.index.json");
    names = pt::index_files(index);
  }
  Checkpoint out;
  std::vector<pt::CheckpointFile> files;
  for (const auto &file : names) {
    out.bytes.push_back(read_file(dir + file));
    const auto &bytes = out.bytes.back();
    files.push_back(
        pt::read_checkpoint_header(file, bytes.data(), bytes.size(), bytes.size(), "weights"));
  }
  out.plan = pt::plan_checkpoint(config, files, index);
  return out;
}

// Every tensor of `checkpoint` into `model`, each in two slices, as a page reads a large tensor.
template <class T> void write_weights(pt::Model<T> &model, const Checkpoint &checkpoint) {
  for (std::size_t i = 0; i < checkpoint.plan.sources.size(); ++i) {
    const pt::TensorSource &source = checkpoint.plan.sources[i];
    const std::uint8_t *bytes = checkpoint.bytes[source.file].data() + source.begin;
    const std::size_t element = safetensors::dtype_size(source.dtype);
    const std::size_t half = (source.end - source.begin) / element / 2 * element;
    model.write(i, 0, bytes, half);
    model.write(i, half, bytes + half, source.end - source.begin - half);
  }
  REQUIRE(model.loaded());
}

// A case's model with all its weights.
template <class T> pt::Model<T> load(const std::string &name) {
  const Checkpoint files = checkpoint(name);
  pt::Model<T> model(files.plan);
  write_weights(model, files);
  return model;
}

struct Reference {
  std::vector<std::uint8_t> bytes;
  safetensors::File file;

  explicit Reference(const std::string &name)
      : bytes(read_file(root + name + "/reference.safetensors")),
        file(safetensors::parse(bytes.data(), bytes.size())) {}

  bool has(const std::string &name) const { return file.find(name) != nullptr; }

  std::vector<double> values(const std::string &name) const {
    const safetensors::TensorInfo *tensor = file.find(name);
    REQUIRE_MESSAGE(tensor, name);
    std::vector<double> out((tensor->end - tensor->begin) / 8);
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (tensor->dtype == "I64") {
        std::int64_t v;
        std::memcpy(&v, file.data + tensor->begin + 8 * i, 8);
        out[i] = static_cast<double>(v);
      } else {
        std::memcpy(&out[i], file.data + tensor->begin + 8 * i, 8);
      }
    }
    return out;
  }

  std::vector<TokenId> ids(const std::string &name) const {
    std::vector<TokenId> out;
    for (const double v : values(name))
      out.push_back(static_cast<TokenId>(v));
    return out;
  }
};

// The largest difference relative to the largest reference value (-inf cells must match).
template <class T>
double relative_error(const T *ours, std::size_t size, const std::vector<double> &expected) {
  REQUIRE(size == expected.size());
  double largest = 0, worst = 0;
  for (const double e : expected)
    if (std::isfinite(e))
      largest = std::max(largest, std::abs(e));
  for (std::size_t i = 0; i < size; ++i) {
    if (!std::isfinite(expected[i])) {
      if (static_cast<double>(ours[i]) != expected[i])
        return INFINITY;
      continue;
    }
    worst = std::max(worst, std::abs(static_cast<double>(ours[i]) - expected[i]));
  }
  return largest > 0 ? worst / largest : worst;
}

} // namespace pretrained_fixtures
