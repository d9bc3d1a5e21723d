#include "nn/scoring/kinds.hpp"

namespace attention::nn {

template <class T>
std::unique_ptr<ScoringFunction<T>> make_scoring_function(ScoreFunction kind, std::size_t hidden) {
  switch (kind) {
  case ScoreFunction::additive:
    return make_additive<T>({hidden, hidden, hidden});
  case ScoreFunction::dot:
    return make_dot<T>(hidden);
  case ScoreFunction::general:
    return make_general<T>(hidden);
  case ScoreFunction::concat:
    break;
  }
  return make_concat<T>(hidden);
}

template std::unique_ptr<ScoringFunction<float>> make_scoring_function(ScoreFunction, std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_scoring_function(ScoreFunction, std::size_t);

} // namespace attention::nn
