#include "attention/numerics.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/precision.hpp"

namespace attention::numerics {

namespace {

// IEEE binary128: WebAssembly's long double is binary128 (software); on x86-64, long double is the
// 80-bit x87 format and binary128 is __float128. Only + - * / and conversions are used, which both
// round correctly, so both builds give the same bits.
#if defined(__EMSCRIPTEN__) || (defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113)
using quad = long double;
#else
using quad = __float128;
#endif
static_assert(sizeof(quad) == 16, "binary128 is 16 bytes");

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
bool is_nan(quad q) { return q != q; }
quad quad_infinity() { return quad_of({0x7fff000000000000ULL, 0}); }
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

// numpy's pairwise summation (blocks of 8, unrolled, below 128 values a plain loop over eight
// partial sums), in the accumulator type T.
template <class T> T pairwise_sum(const T *a, std::size_t n) {
  if (n < 8) {
    T sum = 0;
    for (std::size_t i = 0; i < n; ++i)
      sum += a[i];
    return sum;
  }
  if (n <= 128) {
    T r[8];
    std::copy(a, a + 8, r);
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (std::size_t j = 0; j < 8; ++j)
        r[j] += a[i + j];
    T sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i)
      sum += a[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return pairwise_sum(a, half) + pairwise_sum(a + half, n - half);
}

std::string bit_string(std::uint64_t high, std::uint64_t low, int exponent_bits,
                       int mantissa_bits) {
  // the pattern's bits, most significant first, from a 128-bit value (high:low) holding it
  // in its lowest 1 + exponent_bits + mantissa_bits bits
  const int total = 1 + exponent_bits + mantissa_bits;
  std::string out;
  for (int i = total - 1; i >= 0; --i) {
    const bool bit = i >= 64 ? (high >> (i - 64)) & 1 : (low >> i) & 1;
    out += bit ? '1' : '0';
    if (i == total - 1 || i == mantissa_bits)
      out += ' ';
  }
  return out;
}

// The formats: C is the type a value is computed in, round() stores it in the format, in()
// reads a double as the library does, exp/log/sum are the library's.
struct Half {
  using C = float;
  static C round(C x) {
    return static_cast<float>(precision::float16_to_double(precision::float16_from_double(x)));
  }
  static C in(double x) {
    return static_cast<float>(precision::float16_to_double(precision::float16_from_double(x)));
  }
  // numpy's half loops call the C library's expf and logf on the float32 value
  static C exp(C x) { return round(static_cast<float>(std::exp(double(x)))); }
  static C log(C x) { return round(static_cast<float>(std::log(double(x)))); }
  static C sum(const std::vector<C> &a) { return round(pairwise_sum(a.data(), a.size())); }
  static C lowest() { return -65504.0f; }
  static std::string bits(C x) { return bit_string(0, precision::float16_from_double(x), 5, 10); }
};

struct BFloat {
  using C = float;
  static C round(C x) { return precision::bfloat16_to_float(precision::bfloat16_from_float(x)); }
  static C in(double x) { return round(static_cast<float>(x)); }
  static C exp(C x) { return round(static_cast<float>(std::exp(double(x)))); }
  static C log(C x) { return round(static_cast<float>(std::log(double(x)))); }
  static C sum(const std::vector<C> &a) { // torch accumulates a short row in float32, in order
    float sum = 0;
    for (float x : a)
      sum += x;
    return round(sum);
  }
  static C lowest() { return precision::bfloat16_to_float(0xff7f); }
  static std::string bits(C x) { return bit_string(0, precision::bfloat16_from_float(x), 8, 7); }
};

// float32 and float64: the machine's own types, with numpy's exp, log and pairwise sum.
template <class T, class Bits, int exponent_bits, int mantissa_bits> struct Native {
  using C = T;
  static C round(C x) { return x; }
  static C in(double x) { return static_cast<T>(x); }
  static C exp(C x) { return numpy_exp(x); }
  static C log(C x) { return numpy_log(x); }
  static C sum(const std::vector<C> &a) { return pairwise_sum(a.data(), a.size()); }
  static C lowest() { return std::numeric_limits<T>::lowest(); }
  static std::string bits(C x) {
    Bits b;
    std::memcpy(&b, &x, sizeof b);
    return bit_string(0, b, exponent_bits, mantissa_bits);
  }
};
using Single = Native<float, std::uint32_t, 8, 23>;
using Double = Native<double, std::uint64_t, 11, 52>;

struct Quad {
  using C = quad;
  static C round(C x) { return x; }
  static C in(double x) { return x; }
  static C exp(C x) { return exp_quad(x); }
  static C log(C x) { return log_quad(x); }
  static C sum(const std::vector<C> &a) { return pairwise_sum(a.data(), a.size()); }
  static C lowest() { return quad_of({0xfffeffffffffffffULL, 0xffffffffffffffffULL}); }
  static std::string bits(C x) {
    const Binary128 b = bits_of(x);
    return bit_string(b.high, b.low, 15, 112);
  }
};

template <class F> Values values_of(Precision p, const std::vector<typename F::C> &xs) {
  Values out;
  out.precision = p;
  bool any_exact = false;
  for (auto x : xs) {
    // WebAssembly leaves the sign of a NaN open and x86's depends on the operation that made it:
    // every NaN leaves as x86's default one, negative (PyTorch stores every bfloat16 NaN as 0x7fc0)
    if (x != x)
      x = -static_cast<typename F::C>(std::numeric_limits<double>::quiet_NaN());
    const double d = static_cast<double>(x);
    out.values.push_back(d);
    out.bits.push_back(F::bits(x));
    std::string exact;
    if constexpr (std::is_same_v<F, Quad>) {
      const quad magnitude = x < 0 ? -x : x;
      if (!is_nan(x) && magnitude != 0 && magnitude != quad_infinity() &&
          (magnitude < quad(DBL_MIN) || magnitude > quad(DBL_MAX)))
        exact = binary128_decimal(bits_of(x)), any_exact = true;
    }
    out.exact.push_back(exact);
  }
  if (!any_exact)
    out.exact.clear();
  return out;
}

template <class F> typename F::C max_of(const std::vector<typename F::C> &x) {
  auto m = x.at(0);
  for (const auto v : x)
    if (v > m || v != v)
      m = v;
  return m;
}

// The softmax of x (values of the format) as the library computes it; `weights` receives the
// weights in the compute type, for the caller that goes on computing with them.
template <class F>
SoftmaxSteps steps_of(Precision p, std::vector<typename F::C> x, const SoftmaxOptions &o,
                      std::vector<typename F::C> &weights) {
  using C = typename F::C;
  constexpr bool torch = std::is_same_v<F, BFloat>;
  const std::size_t n = x.size();
  if (o.scale != 1) {
    const C scale = F::in(o.scale);
    for (C &v : x)
      v = F::round(v * scale);
  }
  const auto kept = [&](std::size_t j) { return o.keep.empty() || o.keep[j]; };
  if (o.fill == Fill::remove) {
    std::vector<C> rest;
    for (std::size_t j = 0; j < n; ++j)
      if (kept(j))
        rest.push_back(x[j]);
    x = rest;
  } else {
    const C fill = o.fill == Fill::negative_infinity ? -std::numeric_limits<float>::infinity()
                   : o.fill == Fill::lowest          ? F::lowest()
                                                     : F::in(o.fill_value);
    for (std::size_t j = 0; j < n; ++j)
      if (!kept(j))
        x[j] = fill;
  }

  SoftmaxSteps steps;
  weights.clear();
  if (!x.empty()) {
    std::vector<C> shifted, exps;
    C sum = 0, log_sum = 0;
    if (o.form == Form::naive) {
      for (const C v : x)
        exps.push_back(F::exp(v));
      sum = F::sum(exps);
      // torch divides by a one-value tensor as a product with its reciprocal in float32
      const C inverse = C(1) / sum;
      for (const C e : exps)
        weights.push_back(F::round(torch ? e * inverse : e / sum));
    } else {
      const C max = max_of<F>(x);
      for (const C v : x)
        shifted.push_back(F::round(v - max));
      if (torch && o.form == Form::shifted) {
        // torch.softmax: float32 throughout (x - max unrounded), one rounding of each weight
        for (const C v : x)
          exps.push_back(static_cast<float>(std::exp(double(v - max))));
        for (const C e : exps)
          sum += e;
        for (const C e : exps)
          weights.push_back(F::round(e / sum));
      } else {
        for (const C d : shifted)
          exps.push_back(F::exp(d));
        sum = F::sum(exps);
        if (o.form == Form::log) {
          log_sum = F::log(sum);
          for (const C d : shifted)
            weights.push_back(F::round(d - log_sum));
        } else {
          for (const C e : exps)
            weights.push_back(F::round(e / sum));
        }
      }
      steps.shifted = values_of<F>(p, shifted);
    }
    steps.exps = values_of<F>(p, exps);
    steps.sum = values_of<F>(p, {sum});
    if (o.form == Form::log)
      steps.log_sum = values_of<F>(p, {log_sum});
  }
  steps.scores = values_of<F>(p, x);
  if (o.fill == Fill::remove) { // the removed positions come back with weight 0 (log: -inf)
    std::vector<C> all;
    std::size_t next = 0;
    const C none = o.form == Form::log ? -std::numeric_limits<float>::infinity() : C(0);
    for (std::size_t j = 0; j < n; ++j)
      all.push_back(kept(j) ? weights[next++] : none);
    weights = all;
  }
  steps.weights = values_of<F>(p, weights);
  steps.weights_sum = values_of<F>(p, {F::sum(weights)});
  return steps;
}

template <class F>
AttentionValues attention_in(Precision p, const Matrix<double> &q, const Matrix<double> &k,
                             const Matrix<double> &v, double scale, bool causal,
                             const xt::xtensor<std::uint8_t, 2> &keep) {
  using C = typename F::C;
  const std::size_t rows = q.shape()[0], keys = k.shape()[0], cols = v.shape()[1];
  const auto read = [](const Matrix<double> &m) {
    std::vector<C> out;
    for (std::size_t i = 0; i < m.size(); ++i)
      out.push_back(F::in(m.data()[i]));
    return out;
  };
  const std::vector<C> qs = read(q), ks = read(k), vs = read(v);
  // a dot product summed in order: in the compute type and rounded once (numpy; its float16
  // matmul adds in float32), or rounding every product and partial sum (torch's bfloat16)
  const auto dot = [](const C *a, std::size_t a_step, const C *b, std::size_t b_step,
                      std::size_t n) {
    C sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<F, BFloat>)
        sum = F::round(sum + F::round(a[i * a_step] * b[i * b_step]));
      else
        sum += a[i * a_step] * b[i * b_step];
    }
    return F::round(sum);
  };
  const std::size_t d = q.shape()[1];
  std::vector<C> output, weights, row_weights;
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<C> scores;
    SoftmaxOptions options;
    options.scale = scale;
    for (std::size_t j = 0; j < keys; ++j) {
      scores.push_back(dot(&qs[i * d], 1, &ks[j * d], 1, d));
      const bool masked =
          (causal && j > i) || (keep.size() && !keep(keep.shape()[0] == 1 ? 0 : i, j));
      options.keep.push_back(masked ? 0 : 1);
    }
    steps_of<F>(p, scores, options, row_weights);
    weights.insert(weights.end(), row_weights.begin(), row_weights.end());
    for (std::size_t c = 0; c < cols; ++c)
      output.push_back(dot(row_weights.data(), 1, &vs[c], cols, keys));
  }
  return {rows, keys, cols, values_of<F>(p, output), values_of<F>(p, weights)};
}

template <class Visit> auto with_format(Precision p, Visit &&visit) {
  switch (p) {
  case Precision::float16:
    return visit(Half{});
  case Precision::bfloat16:
    return visit(BFloat{});
  case Precision::float32:
    return visit(Single{});
  case Precision::float128:
    return visit(Quad{});
  case Precision::float64:
    break;
  }
  return visit(Double{});
}

} // namespace

const char *precision_name(Precision precision) {
  static const char *const names[] = {"float16", "bfloat16", "float32", "float64", "float128"};
  return names[static_cast<int>(precision)];
}

Precision parse_precision(const std::string &name, const char *argument) {
  for (const Precision p : precisions)
    if (name == precision_name(p))
      return p;
  detail::fail(detail::Argument(argument), argument,
               " must be one of float16, bfloat16, float32, float64, float128, got \"", name, "\"");
}

SoftmaxSteps softmax_steps(Precision precision, const std::vector<double> &scores,
                           const SoftmaxOptions &options) {
  for (std::size_t j = 0; j < scores.size(); ++j)
    if (std::isnan(scores[j]))
      detail::fail(detail::Argument("x"), "x[", j, "] is NaN");
  if (!options.keep.empty() && options.keep.size() != scores.size())
    detail::fail(detail::Argument("mask"), "mask length (", options.keep.size(),
                 ") must equal x length (", scores.size(), ")");
  if (!std::isfinite(options.scale))
    detail::fail(detail::Argument("scale"), "scale (", options.scale, ") must be finite");
  if (options.fill == Fill::value && std::isnan(options.fill_value))
    detail::fail(detail::Argument("fill"), "the mask fill is NaN");
  return with_format(precision, [&](auto format) {
    using F = decltype(format);
    std::vector<typename F::C> x, weights;
    for (const double score : scores)
      x.push_back(F::in(score));
    return steps_of<F>(precision, x, options, weights);
  });
}

AttentionValues attention(Precision precision, const Matrix<double> &q, const Matrix<double> &k,
                          const Matrix<double> &v, double scale, bool causal,
                          const xt::xtensor<std::uint8_t, 2> &keep) {
  detail::require_values(q, "Q");
  detail::require_values(k, "K");
  detail::require_values(v, "V");
  if (q.shape()[1] != k.shape()[1])
    detail::fail(detail::Argument("K"), "K columns (", k.shape()[1], ") must equal Q columns (",
                 q.shape()[1], ")");
  if (v.shape()[0] != k.shape()[0])
    detail::fail(detail::Argument("V"), "V rows (", v.shape()[0], ") must equal K rows (",
                 k.shape()[0], ")");
  if (keep.size() && (keep.shape()[1] != k.shape()[0] ||
                      (keep.shape()[0] != 1 && keep.shape()[0] != q.shape()[0])))
    detail::fail(detail::Argument("mask"), "mask must be 1 x ", k.shape()[0], " or ", q.shape()[0],
                 " x ", k.shape()[0]);
  if (!std::isfinite(scale))
    detail::fail(detail::Argument("scale"), "scale (", scale, ") must be finite");
  return with_format(precision, [&](auto format) {
    return attention_in<decltype(format)>(precision, q, k, v, scale, causal, keep);
  });
}

float numpy_exp(float x) {
  if (std::isnan(x))
    return std::numeric_limits<float>::quiet_NaN();
  if (x >= 88.72283935546875f)
    return std::numeric_limits<float>::infinity();
  if (x <= -103.97208404541015625f)
    return 0.0f;
  // Cody-Waite reduction by ln 2, then a rational minimax approximation, then the power of two
  float quadrant = x * 1.44269504088896340736f;
  quadrant = quadrant + 0x1.8p23f;
  quadrant = quadrant - 0x1.8p23f;
  float r = std::fma(quadrant, -6.93145752e-1f, x);
  r = std::fma(quadrant, -1.42860677e-6f, r);
  r = std::fma(quadrant, 0.0f, r);
  float num = std::fma(5.082762527590693718096e-04f, r, 6.757896990527504603057e-03f);
  num = std::fma(num, r, 5.114512081637298353406e-02f);
  num = std::fma(num, r, 2.473615434895520810817e-01f);
  num = std::fma(num, r, 7.257664613233124478488e-01f);
  num = std::fma(num, r, 9.999999999980870924916e-01f);
  float den = std::fma(2.159509375685829852307e-02f, r, -2.742335390411667452936e-01f);
  den = std::fma(den, r, 1.0f);
  return std::ldexp(num / den, static_cast<int>(quadrant));
}

float numpy_log(float x) {
  if (std::isnan(x))
    return std::numeric_limits<float>::quiet_NaN();
  if (x < 0)
    return -std::numeric_limits<float>::quiet_NaN();
  if (x == 0)
    return -std::numeric_limits<float>::infinity();
  if (std::isinf(x))
    return x;
  int e = 0;
  float m = std::frexp(x, &e); // [0.5, 1)
  float exponent = static_cast<float>(e);
  if (m <= 0.707106781186547524400844362104849039f) {
    m = m + m;
    exponent = exponent - 1.0f;
  }
  m = m - 1.0f;
  float num = std::fma(2.589979117907922693523e-02f, m, 3.808837741388407920751e-01f);
  num = std::fma(num, m, 1.480000633576506585156e+00f);
  num = std::fma(num, m, 2.112677543073053063722e+00f);
  num = std::fma(num, m, 9.999999999999998702752e-01f);
  num = std::fma(num, m, 0.0f);
  float den = std::fma(5.875095403124574342950e-03f, m, 1.546476374983906719538e-01f);
  den = std::fma(den, m, 9.864942958519418960339e-01f);
  den = std::fma(den, m, 2.453006071784736363091e+00f);
  den = std::fma(den, m, 2.612677543073109236779e+00f);
  den = std::fma(den, m, 1.0f);
  return std::fma(exponent, 0.693147180559945309417232121458176568f, num / den);
}

double numpy_exp(double x) {
  // Tang's table-driven method: x = (32 m + j) ln2 / 32 + r, exp(x) = 2^m 2^(j/32) (1 + p(r))
  static const std::uint64_t top[32] = {
      0x3FF0000000000000, 0x3FF059B0D3158540, 0x3FF0B5586CF98900, 0x3FF11301D0125B40,
      0x3FF172B83C7D5140, 0x3FF1D4873168B980, 0x3FF2387A6E756200, 0x3FF29E9DF51FDEC0,
      0x3FF306FE0A31B700, 0x3FF371A7373AA9C0, 0x3FF3DEA64C123400, 0x3FF44E0860618900,
      0x3FF4BFDAD5362A00, 0x3FF5342B569D4F80, 0x3FF5AB07DD485400, 0x3FF6247EB03A5580,
      0x3FF6A09E667F3BC0, 0x3FF71F75E8EC5F40, 0x3FF7A11473EB0180, 0x3FF82589994CCE00,
      0x3FF8ACE5422AA0C0, 0x3FF93737B0CDC5C0, 0x3FF9C49182A3F080, 0x3FFA5503B23E2540,
      0x3FFAE89F995AD380, 0x3FFB7F76F2FB5E40, 0x3FFC199BDD855280, 0x3FFCB720DCEF9040,
      0x3FFD5818DCFBA480, 0x3FFDFC97337B9B40, 0x3FFEA4AFA2A490C0, 0x3FFF50765B6E4540};
  static const std::uint64_t tail[32] = {
      0x0000000000000000, 0x3D0A1D73E2A475B4, 0x3CEEC5317256E308, 0x3CF0A4EBBF1AED93,
      0x3D0D6E6FBE462876, 0x3D053C02DC0144C8, 0x3D0C3360FD6D8E0B, 0x3D009612E8AFAD12,
      0x3CF52DE8D5A46306, 0x3CE54E28AA05E8A9, 0x3D011ADA0911F09F, 0x3D068189B7A04EF8,
      0x3D038EA1CBD7F621, 0x3CBDF0A83C49D86A, 0x3D04AC64980A8C8F, 0x3CD2C7C3E81BF4B7,
      0x3CE921165F626CDD, 0x3D09EE91B8797785, 0x3CDB5F54408FDB37, 0x3CF28ACF88AFAB35,
      0x3CFB5BA7C55A192D, 0x3D027A280E1F92A0, 0x3CF01C7C46B071F3, 0x3CFC8B424491CAF8,
      0x3D06AF439A68BB99, 0x3CDBAA9EC206AD4F, 0x3CFC2220CB12A092, 0x3D048A81E5E8F4A5,
      0x3CDC976816BAD9B8, 0x3CFEB968CAC39ED3, 0x3CF9858F73A18F5E, 0x3C99D3E12DD8A18B};
  const auto as_double = [](std::uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  };
  if (std::isnan(x))
    return std::numeric_limits<double>::quiet_NaN();
  if (x > 0x1.62e42fefa39efp+9)
    return std::numeric_limits<double>::infinity();
  if (x < -0x1.74910d52d3053p+9)
    return 0.0;
  if (std::fabs(x) < 0x1p-54)
    return 1.0 + x;
  const double z = x * 0x1.71547652b82fep+5;
  double kd = z + 0x1.8p52;
  std::uint64_t ki;
  std::memcpy(&ki, &kd, sizeof ki);
  kd = kd - 0x1.8p52;
  const double r1 = std::fma(kd, -0x1.62e42fefp-6, x);
  const double r2 = kd * -0x1.473de6af278edp-39;
  const double r = r1 + r2;
  double q = std::fma(0x1.6c1728d739765p-10, r, 0x1.11115b7aa905ep-7);
  q = std::fma(q, r, 0x1.5555555545d4ep-5);
  q = std::fma(q, r, 0x1.5555555548f7cp-3);
  q = std::fma(q, r, 0x1p-1);
  q = q * r;
  double p = std::fma(r, q, r2);
  p = r1 + p;
  const std::size_t j = ki & 0x1f;
  const double t = as_double(top[j]), u = as_double(tail[j]);
  const double s = t + u;
  double result = std::fma(s, p, u);
  result = result + t;
  return std::ldexp(result, static_cast<int>(std::floor(kd / 32)));
}

double numpy_log(double x) {
  // Tang's table-driven method: x = 2^k z, z in [1, 2), c = 1 + i/64 nearest below z,
  // log x = k ln2 + log c + log(z / c), the last from u = 2 (z - c) / (z + c). Near 1, numpy
  // calls the C library's log instead.
  static const std::uint64_t top[64] = {
      0x0000000000000000, 0x3F8FC0A8B1000000, 0x3F9F829B0E780000, 0x3FA77458F6340000,
      0x3FAF0A30C0100000, 0x3FB341D7961C0000, 0x3FB6F0D28AE60000, 0x3FBA926D3A4A0000,
      0x3FBE27076E2A0000, 0x3FC0D77E7CD10000, 0x3FC29552F8200000, 0x3FC44D2B6CCB0000,
      0x3FC5FF3070A80000, 0x3FC7AB8902110000, 0x3FC9525A9CF40000, 0x3FCAF3C94E810000,
      0x3FCC8FF7C79B0000, 0x3FCE27076E2B0000, 0x3FCFB9186D5E0000, 0x3FD0A324E2738000,
      0x3FD1675CABAB8000, 0x3FD22941FBCF8000, 0x3FD2E8E2BAE10000, 0x3FD3A64C55698000,
      0x3FD4618BC21C8000, 0x3FD51AAD872E0000, 0x3FD5D1BDBF580000, 0x3FD686C81E9B0000,
      0x3FD739D7F6BC0000, 0x3FD7EAF83B828000, 0x3FD89A3386C18000, 0x3FD947941C210000,
      0x3FD9F323ECBF8000, 0x3FDA9CEC9A9A0000, 0x3FDB44F77BCC8000, 0x3FDBEB4D9DA70000,
      0x3FDC8FF7C79A8000, 0x3FDD32FE7E010000, 0x3FDDD46A04C20000, 0x3FDE744261D68000,
      0x3FDF128F5FAF0000, 0x3FDFAF588F790000, 0x3FE02552A5A5C000, 0x3FE0723E5C1CC000,
      0x3FE0BE72E4254000, 0x3FE109F39E2D4000, 0x3FE154C3D2F4C000, 0x3FE19EE6B467C000,
      0x3FE1E85F5E704000, 0x3FE23130D7BEC000, 0x3FE2795E1289C000, 0x3FE2C0E9ED448000,
      0x3FE307D7334F0000, 0x3FE34E289D9D0000, 0x3FE393E0D3564000, 0x3FE3D9026A714000,
      0x3FE41D8FE8468000, 0x3FE4618BC21C4000, 0x3FE4A4F85DB04000, 0x3FE4E7D811B74000,
      0x3FE52A2D265BC000, 0x3FE56BF9D5B40000, 0x3FE5AD404C358000, 0x3FE5EE02A9240000};
  static const std::uint64_t tail[64] = {
      0x0000000000000000, 0xBD5FE0E183092C59, 0x3D2980267C7E09E4, 0xBD62303B9CB0D5E1,
      0x3D662A6617CC9717, 0xBD4717B6B33E44F8, 0xBD62968C836CC8C2, 0x3D6AAC6CA17A4554,
      0x3D6E5CBD3D50FFFC, 0xBD6C69A65A23A170, 0xBD35B967F4471DFC, 0x3D6F4799F4F6543E,
      0xBD6B0B0DE3077D7E, 0xBD537B720E4A694B, 0x3D65AD1D904C1D4E, 0xBD600349CC67F9B2,
      0xBD697794F689F843, 0xBD3A342C2AF0003C, 0x3D5F1546AAA3361C, 0x3D50E35F73F7A018,
      0x3D630701CE63EAB9, 0xBD3A6976F5EB0963, 0x3D5D309C2CC91A85, 0xBD6D0B1C68651946,
      0xBD609EC17A426426, 0xBD3F4BD8DB0A7CC1, 0x3D4394A11B1C1EE4, 0x3D54AEC442BE1015,
      0xBD67FCB18ED9D603, 0x3D67E1B259D2F3DA, 0xBD6ED2A52C73BF78, 0x3D56FABA4CDD147D,
      0x3D584BF2B68D766F, 0x3D40931A909FEA5E, 0x3D4EC5197DDB55D3, 0x3D5B7BF7861D37AC,
      0x3D5A21AC25DB1EF3, 0xBD542A9E21373414, 0xBD6DAFA08CECADB1, 0x3D3E1F8DF68DBCF3,
      0x3D3BB2CD720EC44C, 0xBD49C24CA098362B, 0x3D60FEC69C695D7F, 0x3D6F404E57963891,
      0xBD657D49676844CC, 0x3D592DFBC7D93617, 0x3D65E9A98F33A396, 0x3D52DD98B97BAEF0,
      0x3D1A07BD8B34BE7C, 0xBD17AFA4392F1BA7, 0xBD5DCA290F818480, 0x3D5D1772F5386374,
      0x3D60BE1FB590A1F5, 0xBD6E2CE9146D271A, 0xBD65E6563BBD9FC9, 0x3D66FAA404263D0B,
      0xBD5AA33736867A17, 0x3D6EC27D0B7B37B3, 0xBD244FDD840B8591, 0x3D6BB09CB0985646,
      0x3D46ABB9DF22BC57, 0xBD58CD7DC73BD194, 0x3D6F2CFB29AAA5F0, 0x3D66757006095FD2};
  const auto as_double = [](std::uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  };
  if (x < 1 + 0x1.09p-4 && x > 1 - 0x1p-4)
    return std::log(x);
  if (std::isnan(x))
    return std::numeric_limits<double>::quiet_NaN();
  if (x < 0)
    return -std::numeric_limits<double>::quiet_NaN();
  if (x == 0)
    return -std::numeric_limits<double>::infinity();
  if (std::isinf(x))
    return x;
  std::uint64_t ix;
  std::memcpy(&ix, &x, sizeof ix);
  if ((ix & 0xfff0000000000000ULL) == 0) { // subnormal: scaled up, its exponent taken back
    const double scaled = x * 0x1p52;
    std::memcpy(&ix, &scaled, sizeof ix);
    ix -= std::uint64_t(52) << 52;
  }
  const std::int64_t tmp = static_cast<std::int64_t>(ix - 0x3ff0000000000000ULL);
  const std::size_t i = static_cast<std::size_t>((tmp >> 46) & 0x3f);
  const double k = static_cast<double>(tmp >> 52);
  const double z = as_double(ix - (static_cast<std::uint64_t>(tmp) & 0xfff0000000000000ULL));
  const double c = std::fma(static_cast<double>(i), 0x1p-6, 1.0);
  double u = (z - c) / (z + c);
  u = 2.0 * u;
  const double v = u * u;
  double result = std::fma(v, 0x1.c8034c85dfffp-12, 0x1.2492307f1519fp-9);
  result = std::fma(v, result, 0x1.9999999bac6d4p-7);
  result = std::fma(v, result, 0x1.55555555554e6p-4);
  result = v * result;
  result = std::fma(u, result, u);
  double t = std::fma(k, 0x1.62e42fefa4p-1, as_double(top[i]));
  const double t2 = std::fma(k, -0x1.8432a1b0e2634p-43, as_double(tail[i]));
  t = t + t2;
  return t + result;
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
