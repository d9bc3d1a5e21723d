#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attention/errors.hpp"
#include "check_close.hpp"
#include "files/safetensors.hpp"

using namespace attention;
namespace st = attention::safetensors;

namespace {

// A file as the format describes it: the header length, the header, the data.
std::vector<std::uint8_t> file_of(const std::string &header,
                                  const std::vector<std::uint8_t> &data) {
  std::vector<std::uint8_t> out;
  out.reserve(8 + header.size() + data.size());
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<std::uint8_t>(std::uint64_t(header.size()) >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

st::File parse(const std::vector<std::uint8_t> &bytes) {
  return st::parse(bytes.data(), bytes.size());
}

void check_refused(const std::vector<std::uint8_t> &bytes, const std::string &words) {
  check_input_error([&] { parse(bytes); }, words, "bytes");
}

} // namespace

TEST_CASE("safetensors: the format's own example reads as it says") {
  // from the format's README: one I32 tensor of shape [2, 2] and a metadata entry
  const std::int32_t values[4] = {1, -2, 3, 2147483647};
  std::vector<std::uint8_t> data(16);
  std::memcpy(data.data(), values, 16); // little-endian, as wasm and x86 are
  const auto bytes = file_of(
      R"({"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]},"__metadata__":{"foo":"bar"}})",
      data);
  const st::File file = parse(bytes);
  REQUIRE(file.tensors.size() == 1);
  const st::TensorInfo &test = file.tensors[0];
  CHECK(test.name == "test");
  CHECK(test.dtype == "I32");
  CHECK(test.shape == std::vector<std::size_t>{2, 2});
  CHECK(file.data_size == 16);
  std::int32_t read[4];
  std::memcpy(read, file.data + test.begin, 16);
  CHECK(read[3] == 2147483647);
  CHECK(file.metadata == decltype(file.metadata){{"foo", "bar"}});
  CHECK(file.find("test") == &test);
  CHECK(file.find("other") == nullptr);
}

TEST_CASE("safetensors: what write makes, parse reads back, names and metadata escaped") {
  const std::vector<float> weight = {0.5f, -1.25f, 3e-38f, 1e30f, 0, -0.0f};
  const std::vector<double> bias = {1.0 / 3, -2};
  const std::string odd = "decoder.\"quoted\"\\name\n\xe4\xbd\xa0"; // quote, backslash, newline, 你
  const auto bytes =
      st::write({{"encoder.gru.weight_ih_l0",
                  "F32",
                  {3, 2},
                  reinterpret_cast<const std::uint8_t *>(weight.data())},
                 {odd, "F64", {2}, reinterpret_cast<const std::uint8_t *>(bias.data())}},
                {{"task", "en-fr"}, {"sizes", "{\"hidden\": 64}"}});
  std::uint64_t header = 0;
  std::memcpy(&header, bytes.data(), 8);
  CHECK((8 + header) % 8 == 0); // the data starts aligned
  const st::File file = parse(bytes);
  REQUIRE(file.tensors.size() == 2);
  CHECK(file.tensors[0].shape == std::vector<std::size_t>{3, 2});
  CHECK(file.tensors[1].name == odd);
  CHECK(file.tensors[1].dtype == "F64");
  CHECK(std::memcmp(file.data + file.tensors[0].begin, weight.data(), 24) == 0);
  CHECK(std::memcmp(file.data + file.tensors[1].begin, bias.data(), 16) == 0);
  CHECK(file.metadata == decltype(file.metadata){{"task", "en-fr"}, {"sizes", "{\"hidden\": 64}"}});
  CHECK(parse(st::write({}, {})).tensors.empty());
  check_input_error(
      [] {
        st::write({{"x", "F7", {1}, nullptr}}, {});
      },
      "unknown dtype \"F7\"", "tensors");
}

TEST_CASE("safetensors: JSON escapes, unknown members and whitespace are read as JSON says") {
  const auto bytes =
      file_of("  {\"a\\u00e9\\ud83d\\ude00\\t\" : {\"shape\": [1], \"extra\": [{\"x\": null}, "
              "true, -1.5e3],"
              " \"dtype\": \"U8\", \"data_offsets\": [0, 1]}, \"__metadata__\": {}}   ",
              {7});
  const st::File file = parse(bytes);
  REQUIRE(file.tensors.size() == 1);
  CHECK(file.tensors[0].name == "a\xc3\xa9\xf0\x9f\x98\x80\t");
  CHECK(file.data[0] == 7);
}

TEST_CASE("safetensors: truncated, corrupted and hostile files are refused, naming the problem") {
  const std::string good = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  const std::vector<std::uint8_t> eight(8, 0);
  CHECK(parse(file_of(good, eight)).tensors.size() == 1);

  check_refused({1, 2, 3}, "fewer than the 8 of its header length");
  auto huge = file_of(good, eight);
  huge[6] = 1; // a header length of 2^48
  check_refused(huge, "more than 100000000");
  auto cut = file_of(good, eight);
  cut.resize(8 + good.size() - 3); // the header is cut short
  check_refused(cut, "only");
  check_refused(file_of(good, std::vector<std::uint8_t>(4)), "hold 8 bytes but 4 follow"); // short
  check_refused(file_of(good, std::vector<std::uint8_t>(12)), "hold 8 bytes but 12 follow");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", eight),
                "12 bytes by its shape");
  check_refused(file_of(R"({"w":{"dtype":"F33","shape":[2],"data_offsets":[0,8]}})", eight),
                "unknown dtype \"F33\"");
  check_refused(file_of(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[4,8]},)"
                        R"("b":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}})",
                        eight),
                "starts at byte 4, not at 0"); // a gap at the start, and an overlap
  check_refused(file_of(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},)"
                        R"("a":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}})",
                        eight),
                "\"a\" appears twice");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[2]}})", {}), "needs dtype, shape and");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8,9]}})", eight),
                "more than two data_offsets");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}})", eight),
                "not an integer");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", eight),
                "not a non-negative integer");
  check_refused(
      file_of(R"({"w":{"dtype":"F32","shape":[99999999999999999999],"data_offsets":[0,8]}})",
              eight),
      "too large");
  check_refused(file_of(R"({"w":{"dtype":"U8","shape":[4294967296,4294967296,4294967296],)"
                        R"("data_offsets":[0,8]}})",
                        eight),
                "too large"); // the shape's product overflows
  check_refused(file_of(good + "x", eight), "text after its JSON object");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})", eight),
                "expected '}'");
  check_refused(file_of("{\"w\\q\":{}}", {}), "unknown escape \\q");
  check_refused(file_of("{\"\\ud800\":{}}", {}), "half a surrogate pair");
  check_refused(file_of("{\"\\u12zz\"", {}), "not hexadecimal");
  check_refused(file_of("{\"\\u12", {}), "cut short");
  check_refused(file_of(std::string("{\"a\nb\":{}}"), {}), "control character");
  check_refused(file_of(R"({"w":{"dtype":"F32","shape":[2],"x":)" + std::string(100, '[') +
                            std::string(100, ']') + R"(,"data_offsets":[0,8]}})",
                        eight),
                "deeper than 64 levels");
  check_refused(file_of(R"({"__metadata__":{"k":1}})", {}), "expected '\"'");
}
