// Matrices of standard normal floats from a seed, for tests that need inputs of any shape.
#pragma once

#include <random>

#include "attention/errors.hpp"

inline attention::Matrix<float> random_float(std::size_t rows, std::size_t cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  auto m = attention::Matrix<float>::from_shape({rows, cols});
  for (auto &x : m)
    x = normal(rng);
  return m;
}
