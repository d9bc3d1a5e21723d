#include "core/precision.hpp"

#include <cmath>
#include <cstring>

namespace attention::precision {

std::uint16_t float16_from_double(double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mantissa = bits & ((std::uint64_t(1) << 52) - 1);
  if (exponent == 0x7ff)
    return sign | (mantissa ? 0x7e00 : 0x7c00);
  if (exponent == 0) // zero, or a double subnormal: far below half of binary16's smallest value
    return sign;
  // The significand with its leading 1, shifted down to binary16's 10 fraction bits, or further
  // for a binary16 subnormal (below 2^-14), rounded to nearest, ties to even.
  const int unbiased = exponent - 1023;
  const std::uint64_t significand = mantissa | (std::uint64_t(1) << 52);
  const int shift = 42 + (unbiased < -14 ? -14 - unbiased : 0);
  std::uint64_t rounded = 0;
  if (shift < 64) {
    rounded = significand >> shift;
    const std::uint64_t rest = significand & ((std::uint64_t(1) << shift) - 1);
    const std::uint64_t half = std::uint64_t(1) << (shift - 1);
    if (rest > half || (rest == half && (rounded & 1)))
      ++rounded;
  }
  // A carry out of the fraction moves into the exponent by itself; past the largest exponent it
  // is infinity.
  const std::uint64_t magnitude =
      unbiased >= -14 ? (std::uint64_t(unbiased + 15) << 10) + rounded - 1024 : rounded;
  return sign | static_cast<std::uint16_t>(magnitude >= 0x7c00 ? 0x7c00 : magnitude);
}

double float16_to_double(std::uint16_t bits) {
  const double sign = bits & 0x8000 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int fraction = bits & 0x3ff;
  if (exponent == 0x1f)
    return fraction ? std::nan("") * sign : sign * INFINITY;
  if (exponent == 0)
    return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(fraction + 1024, exponent - 25);
}

std::uint16_t bfloat16_from_float(float value) {
  if (std::isnan(value))
    return 0x7fc0;
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  // Adding 0x7fff, plus one when the kept half is odd, carries into it exactly when the dropped
  // half is above one half, or equal to it and the kept half is odd.
  return static_cast<std::uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

float bfloat16_to_float(std::uint16_t bits) {
  const std::uint32_t wide = std::uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof value);
  return value;
}

} // namespace attention::precision
