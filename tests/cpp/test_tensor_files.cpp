#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "attention/errors.hpp"
#include "attention/tensor_files.hpp"
#include "check_close.hpp"

using namespace attention;

namespace {

// Files numpy wrote (tests/fixtures/make_tensor_fixtures.py).
std::vector<std::uint8_t> fixture(const std::string &name) {
  std::ifstream in(std::string(TENSOR_FIXTURES) + name, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A version 1.0 .npy file with `header` (padded as numpy pads it) and `data`.
std::vector<std::uint8_t> npy_of(std::string header, const std::vector<std::uint8_t> &data) {
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::vector<std::uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.push_back(static_cast<std::uint8_t>(header.size()));
  out.push_back(static_cast<std::uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<NamedTensor> read(const std::vector<std::uint8_t> &bytes) {
  return read_tensors(bytes.data(), bytes.size());
}

void check_refused(const std::vector<std::uint8_t> &bytes, const std::string &words) {
  check_input_error([&] { read(bytes); }, words, "bytes");
}

} // namespace

TEST_CASE("npy: numpy's files read with their dtype, shape and values in C order") {
  const auto f64 = read(fixture("float64.npy"));
  REQUIRE(f64.size() == 1);
  CHECK(f64[0].name == "arr_0");
  CHECK(f64[0].dtype == "float64");
  CHECK(f64[0].shape == std::vector<std::size_t>{2, 3});
  CHECK(f64[0].data == std::vector<double>{0.1, -2.5, 1e-300, 3.0, 1e300, -0.0});

  // Fortran order: np.arange(24).reshape(2, 3, 4) - 12, stored column-major
  const auto fortran = read(fixture("int32_fortran.npy"))[0];
  CHECK(fortran.dtype == "int32");
  CHECK(fortran.shape == std::vector<std::size_t>{2, 3, 4});
  for (std::size_t i = 0; i < 24; ++i)
    CHECK(fortran.data[i] == double(i) - 12);

  const auto big = read(fixture("uint16_big_endian.npy"))[0];
  CHECK(big.dtype == "uint16");
  CHECK(big.data == std::vector<double>{1, 65535, 256});

  const auto half = read(fixture("float16.npy"))[0];
  CHECK(half.dtype == "float16");
  CHECK(half.data[2] == -65504.0);
  CHECK(half.data[1] == 0.0999755859375); // float16's nearest to 0.1

  CHECK(read(fixture("scalar.npy"))[0].shape.empty());
  CHECK(read(fixture("scalar.npy"))[0].data == std::vector<double>{4.5});
  CHECK(read(fixture("empty.npy"))[0].data.empty());
  CHECK(read(fixture("version2.npy"))[0].data == std::vector<double>{1, 2});
  CHECK(read(fixture("version3.npy"))[0].data == std::vector<double>{3, 4});
  CHECK(read(fixture("bool.npy"))[0].data == std::vector<double>{1, 0, 1});
}

TEST_CASE("safetensors files read as named tensors in the header's order") {
  const auto tensors = read(fixture("model.safetensors"));
  REQUIRE(tensors.size() == 5);
  CHECK(tensors[0].name == "W_Q");
  CHECK(tensors[0].dtype == "float32");
  CHECK(tensors[2].dtype == "float16");
  CHECK(tensors[4].dtype == "bool");
  const auto bf16 = read(fixture("bfloat16.safetensors"))[0];
  CHECK(bf16.dtype == "bfloat16");
  CHECK(bf16.data == std::vector<double>{1.0, -2.5, 0.15625, std::ldexp(1.5, 127)});
}

TEST_CASE("npy: unsupported dtypes are refused by name") {
  check_refused(fixture("complex.npy"), "dtype '<c16' is not supported");
  check_refused(fixture("strings.npy"), "dtype '<U1' is not supported");
  check_refused(fixture("longdouble.npy"), "dtype '<f16' is not supported");
  check_refused(fixture("structured.npy"), "structured");
}

TEST_CASE("npy: truncated, corrupt and hostile files are refused") {
  const auto good = fixture("float64.npy");
  for (std::size_t size :
       {std::size_t(0), std::size_t(5), std::size_t(9), std::size_t(100), good.size() - 1})
    CHECK_THROWS_AS(read({good.begin(), good.begin() + std::ptrdiff_t(size)}), InputError);
  check_refused({good.begin(), good.end() - 8}, "(the file is cut short)");
  auto longer = good;
  longer.push_back(0);
  check_refused(longer, "needs 48 bytes of data but 49 follow");

  auto version = good;
  version[6] = 4;
  check_refused(version, "format version 4.0");
  auto huge = good;
  huge[6] = 2;
  huge[8] = huge[9] = huge[10] = huge[11] = 0xff;
  check_refused(huge, "more than numpy's limit of 10000");

  check_refused(npy_of("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", {}),
                "non-negative integers");
  check_refused(npy_of("{'descr': '<f8', 'fortran_order': 0, 'shape': (1,), }", {}),
                "neither True nor False");
  check_refused(npy_of("{'descr': '<f8', 'shape': (1,), }", {}),
                "needs descr, fortran_order and shape");
  check_refused(npy_of("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}", {}),
                "unknown key 'x'");
  check_refused(npy_of("{'descr': '<f8', 'fortran_order': False, 'shape': (1,)", {}), "malformed");
  check_refused(npy_of("{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 65536), }", {}),
                "elements the engine reads");
  check_refused(
      npy_of("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", {}),
      "too large");
  check_refused({'x', 'y', 'z'}, "neither a .npy, .npz nor safetensors file");
}
