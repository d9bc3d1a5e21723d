// Element-wise comparison of xtensor expressions with a relative-plus-absolute tolerance.
#pragma once

#include <doctest/doctest.h>

#include <xtensor/xeval.hpp>
#include <xtensor/xtensor.hpp>

template <class Actual, class Expected>
void check_close(const Actual &actual_expression, const Expected &expected_expression,
                 double tolerance = 1e-12) {
  const auto &actual = xt::eval(actual_expression);
  const auto &expected = xt::eval(expected_expression);
  REQUIRE(actual.dimension() == expected.dimension());
  for (std::size_t d = 0; d < actual.dimension(); ++d)
    REQUIRE(actual.shape()[d] == expected.shape()[d]);
  for (std::size_t i = 0; i < actual.size(); ++i) {
    INFO("flat index ", i);
    CHECK(double(actual.data()[i]) ==
          doctest::Approx(double(expected.data()[i])).epsilon(tolerance));
  }
}

// Runs `call` and checks that it throws attention::InputError whose message contains `words`
// and, when `argument` is given, that blames that argument.
template <class Call>
void check_input_error(Call &&call, const std::string &words, const std::string &argument = "") {
  try {
    call();
    FAIL("expected an InputError mentioning: " << words);
  } catch (const attention::InputError &error) {
    INFO("message: ", std::string(error.what()));
    CHECK(std::string(error.what()).find(words) != std::string::npos);
    if (!argument.empty())
      CHECK(error.argument() == argument);
  }
}
