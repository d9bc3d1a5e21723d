// Attention scoring functions e(query, key) over a batch: Bahdanau's additive, Luong's dot,
// general and concat. Each is a class in a file of nn/scoring/ (dot and general one class, with or
// without Wa), its forward and backward side by side; a model picks one by ScoreFunction and calls
// it through this interface.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attention/score_function.hpp"
#include "nn/attention.hpp"
#include "nn/parameter_spec.hpp"

namespace attention::nn {

// A scoring function's parameters are one block in state_dict order (parameters()): `weights`
// points at its first value, `gradients` at the same place of a gradient buffer.
template <class T> class ScoringFunction {
public:
  virtual ~ScoringFunction() = default;
  // Names within the attention module ("Wa.weight"), shapes, initial bounds.
  virtual std::vector<ParameterSpec> parameters() const = 0;

  // Starts a batch of keys (n x batch x H, time-major; read until end_backward) against which up
  // to `rows` query rows will be scored: computes what depends on the keys alone (projections).
  virtual void begin(const T *weights, const T *keys, const KeyMask &mask, std::size_t rows) = 0;
  // scores (rows x n, -inf at masked keys) of query rows [first, first + rows), rows x H; row r
  // belongs to item r % batch. Keeps what backward needs.
  virtual void forward(const T *weights, std::size_t first, std::size_t rows, const T *queries,
                       T *scores) = 0;
  // From the scores' gradient of those rows: writes the queries' (rows x H), adds to the
  // parameters' gradients, and keeps the keys' side until end_backward.
  virtual void backward(const T *weights, std::size_t first, std::size_t rows, const T *d_scores,
                        T *d_queries, T *gradients) = 0;
  // After the backward of every row forwarded since begin: adds the keys' gradient to d_keys
  // (n x batch x H) and the key-side parameters' gradients.
  virtual void end_backward(const T *weights, T *d_keys, T *gradients) = 0;
};

template <class T>
std::unique_ptr<ScoringFunction<T>> make_scoring_function(ScoreFunction kind, std::size_t hidden);

// Additive scoring of queries and keys of their own widths, both projected to `width` values:
// e(q, k_j) = score(tanh(query(q) + key(k_j))), three nn.Linear modules with biases named as
// given, in state_dict order query, key, score, or key first when key_first.
struct AdditiveConfig {
  std::size_t query_width, key_width, width;
  std::string query = "Wa", key = "Ua", score = "va";
  bool key_first = false;
};

template <class T> std::unique_ptr<ScoringFunction<T>> make_additive(const AdditiveConfig &config);

extern template std::unique_ptr<ScoringFunction<float>> make_scoring_function(ScoreFunction,
                                                                              std::size_t);
extern template std::unique_ptr<ScoringFunction<double>> make_scoring_function(ScoreFunction,
                                                                               std::size_t);
extern template std::unique_ptr<ScoringFunction<float>> make_additive(const AdditiveConfig &);
extern template std::unique_ptr<ScoringFunction<double>> make_additive(const AdditiveConfig &);

} // namespace attention::nn
