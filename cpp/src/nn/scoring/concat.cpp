// Luong's concat scoring: e(s, h_j) = va(tanh(Wa [s; h_j])), no biases. Wa [s; h_j] is
// Wa[:, :H] s + Wa[:, H:] h_j, so the keys' half is computed once per batch.
#include "nn/scoring/kinds.hpp"
#include "nn/scoring/tanh_scores.hpp"

namespace attention::nn {

namespace {

template <class T> class Concat final : public TanhScoring<T> {
public:
  // Wa.weight (H x 2H), va.weight (1 x H).
  explicit Concat(std::size_t h)
      : TanhScoring<T>(
            h, h, h, {/*query_weight*/ 0, 2 * h, /*key_weight*/ h, 2 * h, /*va*/ 2 * h * h, false}),
        h_(h) {}

  std::vector<ParameterSpec> parameters() const override {
    auto specs = prefixed("Wa", linear_parameters(2 * h_, h_, false));
    const auto va = prefixed("va", linear_parameters(h_, 1, false));
    specs.insert(specs.end(), va.begin(), va.end());
    return specs;
  }

private:
  std::size_t h_;
};

} // namespace

template <class T> std::unique_ptr<ScoringFunction<T>> make_concat(std::size_t hidden) {
  return std::make_unique<Concat<T>>(hidden);
}
template std::unique_ptr<ScoringFunction<float>> make_concat(std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_concat(std::size_t);

} // namespace attention::nn
