#include "attention/numerics.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/precision.hpp"
#include "numerics/quad.hpp"

namespace attention::numerics {

namespace {

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

} // namespace attention::numerics
