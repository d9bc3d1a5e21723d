// One maker per scoring function, defined in its file (dot's and general's in dot.cpp; additive's,
// which takes its widths and names, in scoring.hpp); make_scoring_function picks one.
#pragma once

#include "nn/scoring.hpp"

namespace attention::nn {
template <class T> std::unique_ptr<ScoringFunction<T>> make_dot(std::size_t hidden);
template <class T> std::unique_ptr<ScoringFunction<T>> make_general(std::size_t hidden);
template <class T> std::unique_ptr<ScoringFunction<T>> make_concat(std::size_t hidden);
} // namespace attention::nn
