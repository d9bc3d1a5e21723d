// The safetensors format (https://github.com/huggingface/safetensors): an 8-byte little-endian
// header length N, N bytes of a JSON header { name: { dtype, shape, data_offsets: [begin, end] },
// "__metadata__": { string: string } }, then the tensors' bytes. The engine saves models in it,
// under PyTorch's parameter names, and reads them back. Reading assumes hostile bytes: every
// length, offset and shape is checked, and anything wrong is an InputError about "bytes".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attention::safetensors {

// The largest header read: the reference implementation's limit.
constexpr std::size_t max_header_bytes = 100'000'000;

struct TensorInfo {
  std::string name;
  std::string dtype; // "F32", "F64", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "BOOL", …
  std::vector<std::size_t> shape;
  std::size_t begin = 0, end = 0; // byte offsets into the data that follows the header
};

struct File {
  std::vector<TensorInfo> tensors; // in the header's order
  std::vector<std::pair<std::string, std::string>> metadata;
  const std::uint8_t *data = nullptr; // the bytes after the header: tensor t is data[begin, end)
  std::size_t data_size = 0;

  // The tensor called `name`, or nullptr.
  const TensorInfo *find(const std::string &name) const;
};

// Bytes per element of a dtype, 0 for one the format does not define.
std::size_t dtype_size(const std::string &dtype);

// A file's header read from its first `available` bytes (which must hold all of it; InputError
// blames "bytes" otherwise) and the file's whole size, against which every offset is checked: a
// file read a slice at a time.
struct Header {
  std::vector<TensorInfo> tensors; // in the header's order
  std::vector<std::pair<std::string, std::string>> metadata;
  std::size_t data_begin = 0; // where the data starts in the file: 8 + the header's length
};
Header parse_header(const std::uint8_t *bytes, std::size_t available, std::size_t file_size);

// Reads a file held in `bytes` (which must outlive the result, as it points into them). The tensors
// must cover the data exactly, without gaps or overlaps, with as many bytes as their shape and
// dtype say, as the format requires.
File parse(const std::uint8_t *bytes, std::size_t size);

struct TensorBytes {
  std::string name, dtype;
  std::vector<std::size_t> shape;
  const std::uint8_t *data; // dtype_size(dtype) * the product of shape bytes, little-endian
};

// A file of `tensors`, stored in the given order, and `metadata`.
std::vector<std::uint8_t> write(const std::vector<TensorBytes> &tensors,
                                const std::vector<std::pair<std::string, std::string>> &metadata);

} // namespace attention::safetensors
