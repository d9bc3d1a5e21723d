// Luong's general scoring: e(s, h_j) = s · Wa h_j, Wa an nn.Linear without bias; Wa h_j is
// computed once per batch of keys.
#include "nn/scoring/dot_scores.hpp"
#include "nn/scoring/kinds.hpp"

namespace attention::nn {

namespace {
template <class T> class General final : public DotProductScoring<T> {
public:
  explicit General(std::size_t h) : DotProductScoring<T>(h, true), h_(h) {}
  std::vector<ParameterSpec> parameters() const override {
    return prefixed("Wa", linear_parameters(h_, h_, false));
  }

private:
  std::size_t h_;
};
} // namespace

template <class T> std::unique_ptr<ScoringFunction<T>> make_general(std::size_t hidden) {
  return std::make_unique<General<T>>(hidden);
}
template std::unique_ptr<ScoringFunction<float>> make_general(std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_general(std::size_t);

} // namespace attention::nn
