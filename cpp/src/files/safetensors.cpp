#include "files/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "attention/errors.hpp"
#include "files/json_reader.hpp"

namespace attention::safetensors {

namespace {

// The safetensors header's JSON (json_reader.hpp), refused as "bytes are not a safetensors file".
struct HeaderJson {
  static constexpr files::HeaderSyntax syntax{"a safetensors file", "JSON", false};
};
using Json = files::JsonReader<HeaderJson>;

// The rest of the file refused as its header's reader refuses it.
template <class... Parts> [[noreturn]] void refuse(const Parts &...parts) {
  Json::refuse(parts...);
}

TensorInfo read_tensor(Json &json, const std::string &name) {
  TensorInfo tensor;
  tensor.name = name;
  bool dtype = false, shape = false, offsets = false;
  json.object([&](const std::string &key) {
    if (key == "dtype") {
      tensor.dtype = json.string();
      dtype = true;
    } else if (key == "shape") {
      json.array([&] {
        if (tensor.shape.size() == 32)
          refuse("tensor \"", name, "\" has more than 32 dimensions");
        tensor.shape.push_back(json.integer());
      });
      shape = true;
    } else if (key == "data_offsets") {
      std::vector<std::size_t> ends;
      json.array([&] {
        if (ends.size() == 2)
          refuse("tensor \"", name, "\" has more than two data_offsets");
        ends.push_back(json.integer());
      });
      if (ends.size() != 2)
        refuse("tensor \"", name, "\" needs data_offsets [begin, end]");
      tensor.begin = ends[0];
      tensor.end = ends[1];
      offsets = true;
    } else {
      json.skip();
    }
  });
  if (!dtype || !shape || !offsets)
    refuse("tensor \"", name, "\" needs dtype, shape and data_offsets");
  const std::size_t element = dtype_size(tensor.dtype);
  if (element == 0)
    refuse("tensor \"", name, "\" has an unknown dtype \"", tensor.dtype, "\"");
  std::size_t bytes = element;
  for (std::size_t extent : tensor.shape) {
    if (extent != 0 && bytes > std::numeric_limits<std::size_t>::max() / extent)
      refuse("tensor \"", name, "\" is too large");
    bytes *= extent;
  }
  if (tensor.end < tensor.begin || tensor.end - tensor.begin != bytes)
    refuse("tensor \"", name, "\" has ", bytes, " bytes by its shape and dtype but data_offsets [",
           tensor.begin, ", ", tensor.end, "]");
  return tensor;
}

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[(c >> 4) & 0xF];
      out += hex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace

const TensorInfo *File::find(const std::string &name) const {
  for (const auto &tensor : tensors)
    if (tensor.name == name)
      return &tensor;
  return nullptr;
}

std::size_t dtype_size(const std::string &dtype) {
  static const std::pair<const char *, std::size_t> sizes[] = {
      {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8}, {"I32", 4}, {"I16", 2},
      {"I8", 1},  {"U64", 8}, {"U32", 4}, {"U16", 2},  {"U8", 1},  {"BOOL", 1}};
  for (const auto &[name, size] : sizes)
    if (dtype == name)
      return size;
  return 0;
}

Header parse_header(const std::uint8_t *bytes, std::size_t available, std::size_t file_size) {
  if (file_size < 8 || available < 8)
    refuse("it has ", file_size, " bytes, fewer than the 8 of its header length");
  std::uint64_t length = 0;
  for (int i = 7; i >= 0; --i)
    length = length << 8 | bytes[i];
  if (length > max_header_bytes)
    refuse("its header would be ", length, " bytes, more than ", max_header_bytes);
  if (length > file_size - 8)
    refuse("its header would be ", length, " bytes but only ", file_size - 8, " follow");
  if (length > available - 8)
    detail::fail(detail::Argument("bytes"), "the first ", available,
                 " bytes of the file are not all of its header: it needs ", 8 + length);
  const char *text = reinterpret_cast<const char *>(bytes + 8);

  Header header;
  header.data_begin = 8 + static_cast<std::size_t>(length);
  Json json(text, text + length);
  json.object([&](const std::string &key) {
    if (key == "__metadata__") {
      json.object(
          [&](const std::string &name) { header.metadata.emplace_back(name, json.string()); });
      return;
    }
    for (const auto &tensor : header.tensors)
      if (tensor.name == key)
        refuse("tensor \"", key, "\" appears twice");
    header.tensors.push_back(read_tensor(json, key));
  });
  json.finish();

  // The tensors cover the data exactly: sorted by offset, each starts where the last ended.
  std::vector<const TensorInfo *> by_offset;
  for (const auto &tensor : header.tensors)
    by_offset.push_back(&tensor);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const TensorInfo *a, const TensorInfo *b) { return a->begin < b->begin; });
  std::size_t covered = 0;
  for (const TensorInfo *tensor : by_offset) {
    if (tensor->begin != covered)
      refuse("tensor \"", tensor->name, "\" starts at byte ", tensor->begin, ", not at ", covered,
             " where the data before it ends");
    covered = tensor->end;
  }
  if (covered != file_size - header.data_begin)
    refuse("the tensors hold ", covered, " bytes but ", file_size - header.data_begin,
           " follow the header");
  return header;
}

File parse(const std::uint8_t *bytes, std::size_t size) {
  Header header = parse_header(bytes, size, size);
  File file;
  file.tensors = std::move(header.tensors);
  file.metadata = std::move(header.metadata);
  file.data = bytes + header.data_begin;
  file.data_size = size - header.data_begin;
  return file;
}

std::vector<std::uint8_t> write(const std::vector<TensorBytes> &tensors,
                                const std::vector<std::pair<std::string, std::string>> &metadata) {
  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (std::size_t i = 0; i < metadata.size(); ++i)
      header +=
          (i ? "," : "") + json_string(metadata[i].first) + ":" + json_string(metadata[i].second);
    header += "}";
  }
  std::size_t offset = 0;
  std::vector<std::size_t> sizes;
  for (const auto &tensor : tensors) {
    std::size_t bytes = dtype_size(tensor.dtype);
    if (bytes == 0)
      detail::fail(detail::Argument("tensors"), "tensor \"", tensor.name,
                   "\" has an unknown dtype \"", tensor.dtype, "\"");
    std::string shape;
    for (std::size_t extent : tensor.shape) {
      shape += (shape.empty() ? "" : ",") + std::to_string(extent);
      bytes *= extent;
    }
    header += (header.size() > 1 ? "," : "") + json_string(tensor.name) + ":{\"dtype\":\"" +
              tensor.dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" +
              std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
    offset += bytes;
    sizes.push_back(bytes);
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' '); // the data starts 8-byte aligned, as the
                                                   // reference writer does

  std::vector<std::uint8_t> out(8 + header.size() + offset);
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<std::uint8_t>(std::uint64_t(header.size()) >> (8 * i));
  std::copy(header.begin(), header.end(), out.begin() + 8);
  std::uint8_t *data = out.data() + 8 + header.size();
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    std::copy(tensors[i].data, tensors[i].data + sizes[i], data);
    data += sizes[i];
  }
  return out;
}

} // namespace attention::safetensors
