// Luong's dot scoring: e(s, h_j) = s · h_j, no parameters.
#include "nn/scoring/dot_scores.hpp"
#include "nn/scoring/kinds.hpp"

namespace attention::nn {

namespace {
template <class T> class Dot final : public DotProductScoring<T> {
public:
  explicit Dot(std::size_t h) : DotProductScoring<T>(h, false) {}
  std::vector<ParameterSpec> parameters() const override { return {}; }
};
} // namespace

template <class T> std::unique_ptr<ScoringFunction<T>> make_dot(std::size_t hidden) {
  return std::make_unique<Dot<T>>(hidden);
}
template std::unique_ptr<ScoringFunction<float>> make_dot(std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_dot(std::size_t);

} // namespace attention::nn
