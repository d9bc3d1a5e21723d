// The checks a layer's test makes (test_nn.cpp, test_transformer.cpp): values against PyTorch's
// within 1e-9, and an analytic gradient against central finite differences.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace layer_checks {

using Values = std::vector<double>;

inline Values concatenated(std::initializer_list<Values> parts) {
  Values all;
  for (const auto &part : parts)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Every value within 1e-9 of PyTorch's (relative above 1), -inf where PyTorch has it.
inline void check_matches(const double *actual, const Values &expected, const std::string &what) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO(what, " at flat index ", i, ": ", actual[i], " vs ", expected[i]);
    if (std::isinf(expected[i]))
      CHECK(actual[i] == expected[i]);
    else
      CHECK(std::abs(actual[i] - expected[i]) <= 1e-9 * std::max(1.0, std::abs(expected[i])));
  }
}

// Central differences of loss() by each value of each input against its analytic gradient.
inline void check_finite_differences(const std::vector<std::pair<Values *, const Values *>> &inputs,
                                     const std::function<double()> &loss) {
  constexpr double step = 1e-6;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    // not a structured binding: clang 14 cannot capture one in INFO's lambda
    Values *values = inputs[k].first;
    const Values *gradient = inputs[k].second;
    for (std::size_t i = 0; i < values->size(); ++i) {
      const double kept = (*values)[i];
      (*values)[i] = kept + step;
      const double above = loss();
      (*values)[i] = kept - step;
      const double below = loss();
      (*values)[i] = kept;
      const double numeric = (above - below) / (2 * step);
      INFO("input ", k, " at flat index ", i, ": ", numeric, " vs ", (*gradient)[i]);
      CHECK(std::abs(numeric - (*gradient)[i]) <= 1e-6 * std::max(1.0, std::abs(numeric)));
    }
  }
}

inline double weighted_sum(const double *x, const Values &upstream) {
  double sum = 0;
  for (std::size_t i = 0; i < upstream.size(); ++i)
    if (upstream[i] != 0) // skips masked -inf scores, whose upstream is 0
      sum += x[i] * upstream[i];
  return sum;
}

} // namespace layer_checks
