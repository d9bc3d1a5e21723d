// binary128 exp, log and decimal text, from + - * / only, so that native and WebAssembly builds
// give the same bits.
#include <cstring>
#include <string>

#include "numerics/quad.hpp"

namespace attention::numerics {

quad quad_of(Binary128 b) {
  quad q;
  const std::uint64_t halves[2] = {b.low, b.high}; // little-endian, as x86-64 and wasm are
  std::memcpy(&q, halves, sizeof q);
  return q;
}
Binary128 bits_of(quad q) {
  std::uint64_t halves[2];
  std::memcpy(halves, &q, sizeof q);
  return {halves[1], halves[0]};
}
namespace {

// 2^k for k in binary128's normal range.
quad pow2(int k) { return quad_of({std::uint64_t(k + 16383) << 48, 0}); }
quad scale2(quad x, int k) { // x * 2^k, rounded once (|x| near 1)
  for (; k > 16000; k -= 16000)
    x *= pow2(16000);
  for (; k < -16000; k += 16000)
    x *= pow2(-16000);
  return x * pow2(k);
}
// Rounds to the nearest integer (|x| < 2^112), ties to even.
quad round_integer(quad x) {
  const quad big = pow2(112);
  return x >= 0 ? (x + big) - big : (x - big) + big;
}

// ln 2 as hi + lo: hi has 98 significant bits, so k * hi is exact for |k| < 2^15.
const quad ln2_hi = quad_of({0x3ffe62e42fefa39eULL, 0xf35793c767300000ULL});
const quad ln2_lo = quad_of({0x3f98f97b57a079a1ULL, 0x93394c5b16c5068cULL});

} // namespace

quad exp_quad(quad x) {
  if (is_nan(x))
    return x;
  if (x > 11357)
    return quad_infinity();
  if (x < -11500)
    return 0;
  const quad k = round_integer(x / (ln2_hi + ln2_lo));
  // |r| <= ln2 / 2; x - k * hi is exact (k * hi is, and the two are close)
  const quad r = (x - k * ln2_hi) - k * ln2_lo;
  // exp(r) = 1 + r (1 + r/2 (1 + r/3 (…))): 30 terms reach 2^-113 for |r| <= 0.35
  quad p = 1;
  for (int n = 30; n >= 1; --n)
    p = 1 + p * r / n;
  return scale2(p, static_cast<int>(k));
}

quad log_quad(quad x) {
  if (is_nan(x) || x < 0)
    return quad_of({0x7fff800000000000ULL, 0});
  if (x == 0)
    return -quad_infinity();
  if (x == quad_infinity())
    return x;
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); the exponent read from the bits (subnormals scaled
  // up)
  int e = 0;
  if (x < pow2(-16382))
    x *= pow2(200), e -= 200;
  Binary128 b = bits_of(x);
  e += static_cast<int>((b.high >> 48) & 0x7fff) - 16383;
  b.high = (b.high & 0x0000ffffffffffffULL) | (std::uint64_t(16383) << 48);
  quad m = quad_of(b); // [1, 2)
  if (m * m > 2)
    m /= 2, ++e;
  // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172: 2 (s + s^3/3 + s^5/5 + …)
  const quad s = (m - 1) / (m + 1), s2 = s * s;
  quad series = 0;
  for (int n = 49; n >= 3; n -= 2)
    series = (series + quad(1) / n) * s2;
  const quad log_m = 2 * s + 2 * s * series;
  return e * ln2_hi + (e * ln2_lo + log_m);
}

Binary128 binary128_exp(Binary128 x) { return bits_of(exp_quad(quad_of(x))); }
Binary128 binary128_log(Binary128 x) { return bits_of(log_quad(quad_of(x))); }
Binary128 binary128_from_double(double x) { return bits_of(quad(x)); }
double binary128_to_double(Binary128 x) { return static_cast<double>(quad_of(x)); }

std::string binary128_decimal(Binary128 bits, int digits) {
  quad x = quad_of(bits);
  if (is_nan(x))
    return "nan";
  const bool negative = bits.high >> 63;
  const quad magnitude = negative ? -x : x;
  if (magnitude == quad_infinity())
    return negative ? "-inf" : "inf";
  if (magnitude == 0)
    return negative ? "-0" : "0";
  // 10^n by squaring; scaling by it in at most two steps keeps every factor in range
  const auto power10 = [](int n) {
    quad result = 1, base = 10;
    for (; n; n >>= 1, base *= base)
      if (n & 1)
        result *= base;
    return result;
  };
  const auto scaled_by = [&](int n) { // magnitude * 10^n
    quad v = magnitude;
    int rest = n;
    while (rest > 4000)
      v *= power10(4000), rest -= 4000;
    while (rest < -4000)
      v /= power10(4000), rest += 4000;
    return rest >= 0 ? v * power10(rest) : v / power10(-rest);
  };
  const int binary_exponent = static_cast<int>((bits.high >> 48) & 0x7fff) - 16383;
  int exponent = static_cast<int>(std::floor(binary_exponent * 0.30102999566398120));
  const quad low = power10(digits - 1), high = power10(digits);
  quad integer = 0;
  for (int tries = 0; tries < 400; ++tries) {
    integer = round_integer(scaled_by(digits - 1 - exponent));
    if (integer >= high)
      ++exponent;
    else if (integer < low)
      --exponent;
    else
      break;
  }
  std::string text = std::to_string(static_cast<unsigned long long>(static_cast<double>(integer)));
  std::string out = text.substr(0, 1);
  std::string fraction = text.substr(1);
  fraction.erase(fraction.find_last_not_of('0') + 1);
  if (!fraction.empty())
    out += "." + fraction;
  const int e = std::abs(exponent);
  return (negative ? "-" : "") + out + (exponent < 0 ? "e-" : "e+") + (e < 10 ? "0" : "") +
         std::to_string(e);
}

} // namespace attention::numerics
