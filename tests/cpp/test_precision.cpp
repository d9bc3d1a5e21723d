#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "core/precision.hpp"
#include "precision_reference.hpp"

using namespace attention::precision;

TEST_CASE("float16: numpy's rounding of a float64, bit for bit, and the exact value back") {
  for (const auto &c : fixtures::precision_cases) {
    CAPTURE(c.value);
    CHECK(float16_from_double(c.value) == c.float16);
    const double back = float16_to_double(c.float16);
    if (std::isnan(c.value)) {
      CHECK(std::isnan(back));
      continue;
    }
    // the value back is binary16's own: rounding it again changes nothing
    CHECK(float16_from_double(back) == c.float16);
    CHECK(std::signbit(back) == std::signbit(c.value));
  }
  CHECK(float16_to_double(0x7bff) == 65504);                // the largest
  CHECK(float16_to_double(0x0001) == std::ldexp(1.0, -24)); // the smallest subnormal
  CHECK(float16_to_double(0x0400) == std::ldexp(1.0, -14)); // the smallest normal
  CHECK(float16_to_double(0x3555) == 0.333251953125);
}

TEST_CASE("float16: every one of the 65536 patterns reads back to itself") {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const double value = float16_to_double(static_cast<std::uint16_t>(bits));
    if (std::isnan(value))
      continue;
    CHECK(float16_from_double(value) == bits);
  }
}

TEST_CASE("bfloat16: PyTorch's rounding of a float32, bit for bit; 927 and 929 are both 928") {
  for (const auto &c : fixtures::precision_cases) {
    CAPTURE(c.value);
    CHECK(bfloat16_from_float(static_cast<float>(c.value)) == c.bfloat16);
  }
  CHECK(bfloat16_to_float(bfloat16_from_float(927.0f)) == 928.0f);
  CHECK(bfloat16_to_float(bfloat16_from_float(929.0f)) == 928.0f);
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const float value = bfloat16_to_float(static_cast<std::uint16_t>(bits));
    if (!std::isnan(value))
      CHECK(bfloat16_from_float(value) == bits);
  }
}
