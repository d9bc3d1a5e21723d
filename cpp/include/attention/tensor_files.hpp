// Reading the tensor files people bring from numpy and PyTorch: numpy's .npy (format versions 1 to
// 3, https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html) and safetensors
// (safetensors.hpp). The .npz container, a zip of .npy members, is opened by the JS wrapper, which
// hands each member here. Reading assumes hostile bytes: every length, shape and dtype is checked
// before use, and anything wrong is an InputError about "bytes".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attention {

namespace npy {

// numpy's own limit on the header it reads (numpy.lib.format's max_header_size).
constexpr std::size_t max_header_bytes = 10'000;

// The element types read, as numpy names them.
enum class Type {
  float16,
  float32,
  float64,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  boolean
};

struct Header {
  Type type = Type::float64;
  bool big_endian = false;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::size_t data_offset = 0; // where the elements start in the file
};

// The header of the .npy file in `bytes`, checked against the bytes that follow it: exactly as many
// as the shape and dtype say, at most max_elements elements.
Header parse(const std::uint8_t *bytes, std::size_t size);

} // namespace npy

// A tensor read from a file: its dtype as numpy names it ("float32", "int64", "bool", "float16",
// "bfloat16"), its shape, and its elements as doubles in C (row-major) order. float16, bfloat16,
// float32 and integers up to 2^53 in magnitude are exact as doubles; larger 64-bit integers round
// to the nearest double, as numpy's astype(np.float64) rounds them.
struct NamedTensor {
  std::string name;
  std::string dtype;
  std::vector<std::size_t> shape;
  std::vector<double> data;
};

// The tensors of a .npy file (one, named `npy_name`) or a safetensors file (in its header's order),
// told apart by the .npy magic string. At most max_elements elements per tensor.
std::vector<NamedTensor> read_tensors(const std::uint8_t *bytes, std::size_t size,
                                      const std::string &npy_name = "arr_0");

} // namespace attention
