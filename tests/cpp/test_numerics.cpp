#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "attention/numerics.hpp"
#include "core/precision.hpp"
#include "numerics_reference.hpp"

using namespace attention::numerics;

namespace {

template <class To, class From> To cast(From from) {
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

// binary128 bits from "s eeeeeeeeeeeeeee mmm…" text
Binary128 parse(const std::string &text) {
  Binary128 b;
  int i = 0;
  for (char c : text) {
    if (c == ' ')
      continue;
    const std::uint64_t bit = c == '1';
    if (i < 64)
      b.high |= bit << (63 - i);
    else
      b.low |= bit << (127 - i);
    ++i;
  }
  return b;
}

// The distance in ulps of two binary128 values of one sign (their bit patterns, as integers).
double ulps(Binary128 a, Binary128 b) {
  const double high = double(a.high) - double(b.high);
  return std::fabs(high * 18446744073709551616.0 + (double(a.low) - double(b.low)));
}

const char *const form_names[] = {"naive", "shifted", "log"};

std::string bits_only(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  return text;
}

// "s eee… mmm…" with the exponent all ones and a mantissa not zero
bool is_nan_text(const std::string &text) {
  const std::size_t a = text.find(' '), b = text.find(' ', a + 1);
  const std::string exponent = text.substr(a + 1, b - a - 1), mantissa = text.substr(b + 1);
  return exponent.find('0') == std::string::npos && mantissa.find('1') != std::string::npos;
}

double float64_of(const std::string &text) {
  std::uint64_t bits = 0;
  for (char c : text)
    if (c != ' ')
      bits = bits << 1 | (c == '1');
  return cast<double>(bits);
}

} // namespace

TEST_CASE("numpy's float32 and float64 np.exp and np.log (AVX512F kernels), bit for bit") {
  for (const auto &c : fixtures::float32_exp) {
    CAPTURE(cast<float>(c[0]));
    CHECK(cast<std::uint32_t>(numpy_exp(cast<float>(c[0]))) == c[1]);
  }
  for (const auto &c : fixtures::float32_log) {
    CAPTURE(cast<float>(c[0]));
    CHECK(cast<std::uint32_t>(numpy_log(cast<float>(c[0]))) == c[1]);
  }
  for (const auto &c : fixtures::float64_exp) {
    CAPTURE(cast<double>(c[0]));
    CHECK(cast<std::uint64_t>(numpy_exp(cast<double>(c[0]))) == c[1]);
  }
  for (const auto &c : fixtures::float64_log) {
    CAPTURE(cast<double>(c[0]));
    CHECK(cast<std::uint64_t>(numpy_log(cast<double>(c[0]))) == c[1]);
  }
}

TEST_CASE("float16 np.exp and np.log over every finite float16, bit for bit") {
  using namespace attention::precision;
  for (const bool log : {false, true}) {
    std::uint64_t hash = 0xcbf29ce484222325u;
    for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
      const double x = float16_to_double(static_cast<std::uint16_t>(bits));
      if (!std::isfinite(x) || (log && !(x > 0)))
        continue;
      const float y = static_cast<float>(log ? std::log(x) : std::exp(x));
      hash = (hash ^ float16_from_double(y)) * 0x100000001b3u;
    }
    CHECK(hash == (log ? fixtures::float16_log_hash : fixtures::float16_exp_hash));
  }
}

TEST_CASE("binary128 exp and log within 1 ulp of mpmath's, from + - * / only") {
  double worst = 0;
  for (const auto &c : fixtures::binary128_exp) {
    CAPTURE(c.first);
    const double error = ulps(binary128_exp(binary128_from_double(c.first)), parse(c.second));
    CHECK(error <= 1);
    worst = std::max(worst, error);
  }
  for (const auto &c : fixtures::binary128_log) {
    CAPTURE(c.first);
    const double error = ulps(binary128_log(binary128_from_double(c.first)), parse(c.second));
    CHECK(error <= 1);
    worst = std::max(worst, error);
  }
  MESSAGE("largest error: ", worst, " ulp");
}

TEST_CASE("softmax rows in every precision as numpy and PyTorch compute them, bit for bit") {
  for (const auto &c : fixtures::softmax_cases) {
    SoftmaxOptions options;
    options.form = static_cast<Form>(c.form);
    options.scale = c.scale;
    options.keep = c.keep;
    options.fill = static_cast<Fill>(c.fill);
    options.fill_value = c.fill_value;
    const Precision precision = parse_precision(c.precision);
    const auto steps = softmax_steps(precision, c.scores, options);
    CAPTURE(std::string(c.precision));
    CAPTURE(std::string(form_names[c.form]));
    CAPTURE(c.scores.size());
    CAPTURE(c.scores[0]);
    CAPTURE(c.fill);
    REQUIRE(steps.weights.bits.size() == c.weights.size());
    if (!c.sum.empty() && !is_nan_text(c.sum)) // the sum of the weights, as the library adds them
      CHECK(steps.weights_sum.bits[0] == c.sum);
    for (std::size_t j = 0; j < c.weights.size(); ++j) {
      CAPTURE(j);
      CAPTURE(steps.weights.bits[j]);
      CAPTURE(c.weights[j]);
      if (precision == Precision::float128 && options.form == Form::log)
        // (x - max) - log(sum) cancels digits: within 4 ulps of the log of the sum, near 1
        CHECK(ulps(parse(steps.weights.bits[j]), parse(c.weights[j])) <=
              4 * std::max(1.0, 1 / std::fabs(binary128_to_double(parse(c.weights[j])))));
      else if (precision == Precision::float128)
        CHECK(ulps(parse(steps.weights.bits[j]), parse(c.weights[j])) <= 4);
      else if (is_nan_text(c.weights[j])) // a NaN: its sign is not kept
        CHECK(std::isnan(steps.weights.values[j]));
      else
        CHECK(steps.weights.bits[j] == c.weights[j]);
    }
  }
}

TEST_CASE(
    "attention rows in each precision: numpy's and PyTorch's weights, bit for bit, and outputs") {
  const auto matrix = [](const std::vector<std::vector<double>> &rows) {
    auto m = attention::Matrix<double>::from_shape({rows.size(), rows[0].size()});
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = 0; j < rows[0].size(); ++j)
        m(i, j) = rows[i][j];
    return m;
  };
  for (const auto &c : fixtures::attention_cases) {
    CAPTURE(c.precision);
    const auto result = attention::numerics::attention(
        parse_precision(c.precision), matrix(fixtures::attention_q), matrix(fixtures::attention_k),
        matrix(fixtures::attention_v), 0.5, false, {});
    CHECK(result.weights.bits == c.weights);
    const std::string precision = c.precision;
    if (precision == "float16" || precision == "bfloat16") {
      CHECK(result.output.bits == c.output);
      continue;
    }
    // numpy's float32 and float64 matmul is BLAS's, which sums in an order of its own: within 2
    // ulps
    const double ulp = precision == "float32" ? 0x1p-23 : 0x1p-52;
    for (std::size_t i = 0; i < c.output.size(); ++i) {
      const std::string text = bits_only(c.output[i]);
      const double expected =
          precision == "float64" ? float64_of(c.output[i])
                                 : double(cast<float>(std::uint32_t(std::stoul(text, nullptr, 2))));
      CHECK(std::fabs(result.output.values[i] - expected) <= 2 * ulp * std::fabs(expected));
    }
  }
}

TEST_CASE("the seed's scores: overflow, underflow and the weight only float128 holds") {
  const std::vector<double> seed{927, 397, 148, 929};
  SoftmaxOptions naive;
  naive.form = Form::naive;
  for (const Precision p :
       {Precision::float16, Precision::bfloat16, Precision::float32, Precision::float64}) {
    CAPTURE(precision_name(p));
    const auto steps = softmax_steps(p, seed, naive);
    CHECK(std::isinf(steps.exps.values[0]));
    CHECK(std::isnan(steps.weights.values[0]));
  }
  const auto quad = softmax_steps(Precision::float128, seed, naive);
  CHECK(quad.weights.values[0] == doctest::Approx(0.11920292202211755));
  CHECK(quad.exps.exact[0].substr(quad.exps.exact[0].size() - 5) == "e+402"); // beyond a double

  const auto shifted = softmax_steps(Precision::float128, seed);
  CHECK(shifted.weights.values[2] == 0);
  CHECK(shifted.weights.exact[2] == "5.7661442e-340");
  CHECK(softmax_steps(Precision::float64, seed).weights.values[2] == 0);
  // bfloat16 holds 927 and 929 both as 928: the weights are one half each
  const auto bf = softmax_steps(Precision::bfloat16, seed);
  CHECK(bf.scores.values[0] == 928);
  CHECK(bf.weights.values[0] == 0.5);
  CHECK(bf.weights.values[3] == 0.5);
  // float16 overflows at exp(11.1): 65504 is its largest value
  CHECK(std::isinf(softmax_steps(Precision::float16, {11.1}, naive).exps.values[0]));
  CHECK(softmax_steps(Precision::float16, {11.0}, naive).exps.values[0] < 65504);
  CHECK(softmax_steps(Precision::float16, {1}).weights.bits[0] == "0 01111 0000000000");
}

TEST_CASE("masking: -inf gives NaN for a row masked whole, -1e9 a uniform row, and is -inf in "
          "float16") {
  SoftmaxOptions all_masked;
  all_masked.keep = {0, 0, 0};
  all_masked.fill = Fill::negative_infinity;
  CHECK(std::isnan(softmax_steps(Precision::float32, {1, 2, 3}, all_masked).weights.values[0]));
  all_masked.fill = Fill::value;
  all_masked.fill_value = -1e9;
  CHECK(softmax_steps(Precision::float32, {1, 2, 3}, all_masked).weights.values[1] ==
        doctest::Approx(1.0 / 3));
  CHECK(std::isnan(softmax_steps(Precision::float16, {1, 2, 3}, all_masked).weights.values[0]));
  all_masked.fill = Fill::lowest;
  const auto quad = softmax_steps(Precision::float128, {1, 2, 3}, all_masked);
  CHECK(quad.scores.exact[0] == "-1.1897315e+4932");
  CHECK(quad.weights.values[0] == doctest::Approx(1.0 / 3));
}

TEST_CASE("numerics: bad input names its argument") {
  const auto argument_of = [](auto &&call) {
    try {
      call();
    } catch (const attention::InputError &error) {
      return error.argument();
    }
    return std::string("none");
  };
  CHECK(argument_of([] { parse_precision("float8"); }) == "precision");
  CHECK(argument_of([] { softmax_steps(Precision::float16, {1, NAN}); }) == "x");
  CHECK(argument_of([] {
          SoftmaxOptions o;
          o.keep = {1};
          softmax_steps(Precision::float16, {1, 2}, o);
        }) == "mask");
}
