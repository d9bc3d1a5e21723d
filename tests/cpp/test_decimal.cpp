// The printf-free decimal formatting (attention/decimal.hpp) against the C library it replaces:
// every text must equal printf's, and the shortest must be the first precision strtod reads back.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/decimal.hpp"

namespace {

using attention::detail::format_fixed;
using attention::detail::format_general;
using attention::detail::format_shortest;

std::string printf_general(double value, int precision) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", precision, value);
  return text;
}

std::string printf_fixed(double value, int decimals) {
  char text[512];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string strtod_shortest(double value) {
  char text[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value)
      break;
  }
  return text;
}

void check(double value) {
  CAPTURE(value);
  for (int precision : {0, 1, 2, 3, 6, 8, 12, 15, 16, 17, 20})
    REQUIRE(format_general(value, precision) == printf_general(value, precision));
  if (std::fabs(value) < 1e30)
    for (int decimals : {0, 1, 2, 5, 6, 7, 16}) // 6: std::to_string's "%f"
      REQUIRE(format_fixed(value, decimals) == printf_fixed(value, decimals));
  REQUIRE(format_shortest(value) == strtod_shortest(value));
}

std::vector<double> edge_values() {
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.0,
                                0.5,
                                0.25,
                                2.5,
                                0.125,
                                1.5,
                                9.5,
                                0.05,
                                0.95,
                                0.96,
                                9.9999999,
                                99.99,
                                45.3,
                                927,
                                0.1,
                                0.2,
                                0.3,
                                1e-7,
                                1e-5,
                                1e-4,
                                123456.5,
                                1e15,
                                1e16,
                                1e17,
                                1e21,
                                1e22,
                                1e23,
                                5e-324,
                                1e-323,
                                2.2250738585072014e-308,
                                2.2250738585072009e-308,
                                DBL_MAX,
                                -DBL_MAX,
                                DBL_MIN,
                                DBL_EPSILON,
                                9007199254740993.0,
                                0.11920292202211755,
                                0.8807970779778823,
                                5.7661442e-30,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity()};
  for (int e = -1074; e <= 1023; ++e) // every power of two: the lower neighbour is closer
    values.push_back(std::ldexp(1.0, e));
  for (int e = -30; e <= 30; ++e) { // powers of ten and their neighbours
    const double p = std::pow(10.0, e);
    values.push_back(p);
    values.push_back(std::nextafter(p, 0.0));
    values.push_back(std::nextafter(p, 1e300));
  }
  return values;
}

} // namespace

TEST_CASE("decimal text equals printf's %g and %f and the strtod round trip, for edge values") {
  for (double value : edge_values())
    check(value);
  CHECK(format_general(std::nan(""), 6) == printf_general(std::nan(""), 6));
}

TEST_CASE("decimal text equals printf's for random doubles of every magnitude") {
  std::mt19937_64 random(12345);
  for (int i = 0; i < 5000; ++i) {
    std::uint64_t bits = random();
    double value;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value))
      continue;
    check(value);
  }
  std::uniform_real_distribution<double> uniform(-10, 10);
  for (int i = 0; i < 5000; ++i) {
    const double value = uniform(random);
    check(value);
    check(std::round(value * 1000) / 1000); // short decimals, ties at the last place
    check(std::pow(10.0, value));           // the mantissas decimal_from_log formats
  }
}
