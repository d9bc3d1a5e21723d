#include "files/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "attention/errors.hpp"
#include "files/header_reader.hpp"

namespace attention::safetensors {

namespace {

// A strict reader of the JSON the header holds: objects, arrays, strings, non-negative integers
// (and, inside values it skips, the rest of JSON), with a bounded depth, so no input can make it
// read out of bounds or recurse without end.
class Json : public files::HeaderReader<Json> {
public:
  static constexpr files::HeaderSyntax syntax{"a safetensors file", "JSON", false};
  using HeaderReader::HeaderReader;

  // Calls member(key) for each member of an object; member reads the value.
  template <class Member> void object(Member &&member) { dict(member); }

  template <class Element> void array(Element &&element) { list('[', ']', element); }

  std::string string() {
    expect('"');
    std::string out;
    while (true) {
      if (at_ == end_)
        refuse("a string in the header does not end");
      const char c = *at_++;
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20)
        refuse("a control character in a header string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ == end_)
        refuse("a string in the header does not end");
      const char escaped = *at_++;
      const char *simple = std::strchr("\"\\/bfnrt", escaped);
      if (escaped != '\0' && simple) {
        out += "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
        continue;
      }
      if (escaped != 'u')
        refuse("an unknown escape \\", escaped, " in a header string");
      append_utf8(out, code_point());
    }
  }

  // A non-negative integer below 2^53 (offsets and sizes; JSON readers hold numbers as doubles).
  std::size_t integer() {
    skip_space();
    if (end_ - at_ >= 2 && at_[0] == '0' && at_[1] >= '0' && at_[1] <= '9')
      refuse("a number in the header has a leading zero");
    const std::size_t value = digits("a number in the header is not a non-negative integer",
                                     "a number in the header is too large");
    if (at_ < end_ && (*at_ == '.' || *at_ == 'e' || *at_ == 'E'))
      refuse("a number in the header is not an integer");
    return value;
  }

  // Any JSON value, read and dropped (a member this reader does not use).
  void skip(int depth = 0) {
    if (depth > 64)
      refuse("the header nests deeper than 64 levels");
    skip_space();
    if (at_ == end_)
      refuse("the header ends inside a value");
    switch (*at_) {
    case '{':
      return object([&](const std::string &) { skip(depth + 1); });
    case '[':
      return array([&] { skip(depth + 1); });
    case '"':
      string();
      return;
    default:
      for (const char *literal : {"true", "false", "null"})
        if (word(literal))
          return;
      number();
    }
  }

  void finish() {
    skip_space();
    if (at_ != end_)
      refuse("the header has text after its JSON object");
  }

private:
  // Any JSON number (in a value that is skipped).
  void number() {
    const char *start = at_;
    if (at_ < end_ && *at_ == '-')
      ++at_;
    while (at_ < end_ && *at_ != '\0' && std::strchr("0123456789.eE+-", *at_))
      ++at_;
    if (at_ == start)
      refuse("the header's JSON is malformed (expected a value)");
  }

  unsigned hex4() {
    if (end_ - at_ < 4)
      refuse("a \\u escape in the header is cut short");
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *at_++;
      const unsigned digit = c >= '0' && c <= '9'   ? unsigned(c - '0')
                             : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                             : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                                    : 16;
      if (digit == 16)
        refuse("a \\u escape in the header is not hexadecimal");
      value = value * 16 + digit;
    }
    return value;
  }

  // The code point of a \u escape (its "\u" read), joining a surrogate pair.
  unsigned code_point() {
    const unsigned first = hex4();
    if (first < 0xD800 || first > 0xDFFF)
      return first;
    if (first > 0xDBFF || end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u')
      refuse("a \\u escape in the header is half a surrogate pair");
    at_ += 2;
    const unsigned second = hex4();
    if (second < 0xDC00 || second > 0xDFFF)
      refuse("a \\u escape in the header is half a surrogate pair");
    return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
  }

  static void append_utf8(std::string &out, unsigned point) {
    if (point < 0x80) {
      out += static_cast<char>(point);
    } else if (point < 0x800) {
      out += static_cast<char>(0xC0 | (point >> 6));
      out += static_cast<char>(0x80 | (point & 0x3F));
    } else if (point < 0x10000) {
      out += static_cast<char>(0xE0 | (point >> 12));
      out += static_cast<char>(0x80 | ((point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (point & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (point >> 18));
      out += static_cast<char>(0x80 | ((point >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (point & 0x3F));
    }
  }
};

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

File parse(const std::uint8_t *bytes, std::size_t size) {
  if (size < 8)
    refuse("it has ", size, " bytes, fewer than the 8 of its header length");
  std::uint64_t header = 0;
  for (int i = 7; i >= 0; --i)
    header = header << 8 | bytes[i];
  if (header > max_header_bytes)
    refuse("its header would be ", header, " bytes, more than ", max_header_bytes);
  if (header > size - 8)
    refuse("its header would be ", header, " bytes but only ", size - 8, " follow");
  const char *text = reinterpret_cast<const char *>(bytes + 8);

  File file;
  file.data = bytes + 8 + header;
  file.data_size = size - 8 - static_cast<std::size_t>(header);
  Json json(text, text + header);
  json.object([&](const std::string &key) {
    if (key == "__metadata__") {
      json.object(
          [&](const std::string &name) { file.metadata.emplace_back(name, json.string()); });
      return;
    }
    if (file.find(key))
      refuse("tensor \"", key, "\" appears twice");
    file.tensors.push_back(read_tensor(json, key));
  });
  json.finish();

  // The tensors cover the data exactly: sorted by offset, each starts where the last ended.
  std::vector<const TensorInfo *> by_offset;
  for (const auto &tensor : file.tensors)
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
  if (covered != file.data_size)
    refuse("the tensors hold ", covered, " bytes but ", file.data_size, " follow the header");
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
