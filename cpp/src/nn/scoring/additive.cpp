// Bahdanau's additive scoring: e(s, h_j) = va(tanh(Wa s + Ua h_j)), each an nn.Linear with bias.
#include "nn/scoring/kinds.hpp"
#include "nn/scoring/tanh_scores.hpp"

namespace attention::nn {

namespace {

template <class T> class Additive final : public TanhScoring<T> {
public:
  // Wa.weight, Wa.bias, Ua.weight, Ua.bias, va.weight, va.bias, each H wide.
  explicit Additive(std::size_t h)
      : TanhScoring<T>(h, {/*query_weight*/ 0, h, /*key_weight*/ h * h + h, h,
                           /*va*/ 2 * h * h + 2 * h, true, /*query_bias*/ h * h,
                           /*key_bias*/ 2 * h * h + h, /*va_bias*/ 2 * h * h + 3 * h}),
        h_(h) {}

  std::vector<ParameterSpec> parameters() const override {
    auto specs = prefixed("Wa", linear_parameters(h_, h_));
    for (auto &&part :
         {prefixed("Ua", linear_parameters(h_, h_)), prefixed("va", linear_parameters(h_, 1))})
      specs.insert(specs.end(), part.begin(), part.end());
    return specs;
  }

private:
  std::size_t h_;
};

} // namespace

template <class T> std::unique_ptr<ScoringFunction<T>> make_additive(std::size_t hidden) {
  return std::make_unique<Additive<T>>(hidden);
}
template std::unique_ptr<ScoringFunction<float>> make_additive(std::size_t);
template std::unique_ptr<ScoringFunction<double>> make_additive(std::size_t);

} // namespace attention::nn
