// Bahdanau's additive scoring: e(s, h_j) = va(tanh(Wa s + Ua h_j)), each an nn.Linear with bias;
// the queries and keys may differ in width from each other and from the projections, and the
// modules may have other names and order (AdditiveConfig).
#include "nn/scoring/kinds.hpp"
#include "nn/scoring/tanh_scores.hpp"

namespace attention::nn {

namespace {

template <class T> class Additive final : public TanhScoring<T> {
public:
  explicit Additive(const AdditiveConfig &c)
      : TanhScoring<T>(c.query_width, c.key_width, c.width, layout(c)), c_(c) {}

  std::vector<ParameterSpec> parameters() const override {
    const auto query = prefixed(c_.query, linear_parameters(c_.query_width, c_.width)),
               key = prefixed(c_.key, linear_parameters(c_.key_width, c_.width));
    auto specs = c_.key_first ? key : query;
    for (auto &&part :
         {c_.key_first ? query : key, prefixed(c_.score, linear_parameters(c_.width, 1))})
      specs.insert(specs.end(), part.begin(), part.end());
    return specs;
  }

private:
  // Each nn.Linear's weight then bias: the query's and the key's in their order, then va's.
  static typename TanhScoring<T>::Layout layout(const AdditiveConfig &c) {
    const std::size_t query_size = c.width * (c.query_width + 1),
                      key_size = c.width * (c.key_width + 1);
    const std::size_t query = c.key_first ? key_size : 0, key = c.key_first ? 0 : query_size,
                      va = query_size + key_size;
    return {query,
            c.query_width,
            key,
            c.key_width,
            va,
            true,
            query + c.width * c.query_width,
            key + c.width * c.key_width,
            va + c.width};
  }

  AdditiveConfig c_;
};

} // namespace

template <class T> std::unique_ptr<ScoringFunction<T>> make_additive(const AdditiveConfig &config) {
  return std::make_unique<Additive<T>>(config);
}
template std::unique_ptr<ScoringFunction<float>> make_additive(const AdditiveConfig &);
template std::unique_ptr<ScoringFunction<double>> make_additive(const AdditiveConfig &);

} // namespace attention::nn
