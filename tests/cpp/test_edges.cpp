// Numbers at the edges: documented results, never NaN.
#include <doctest/doctest.h>

#include "attention/attention.hpp"
#include "attention/scoring.hpp"
#include "check_close.hpp"

using namespace attention;

TEST_CASE("scores of +-1e308 and all-equal scores give finite, documented weights") {
  check_close(softmax<double>({1e308, -1e308, 1e308}), Vector<double>{0.5, 0, 0.5});
  check_close(log_softmax<double>({1e308, 1e308}), Vector<double>{-std::log(2.0), -std::log(2.0)});
  check_close(softmax<double>({-1e308, -1e308}), Vector<double>{0.5, 0.5});
  check_close(softmax<float>({7, 7, 7, 7}), Vector<float>{0.25f, 0.25f, 0.25f, 0.25f});
}

TEST_CASE("products that overflow the scalar type are refused, naming it") {
  check_input_error(
      [] {
        dot_scores<float>({1e30f, 1}, {{1e30f, 1}});
      },
      "scores [1] overflows float32 at flat index 0: scale the inputs down or pass "
      "Float64Array");
  check_input_error([] { dot_score<double>({1e200}, {1e200}); }, "score [1] overflows float64");
  check_input_error(
      [] {
        attention::attention<float>({{1e20f, 1e20f}}, {{1e20f, 1e20f}}, {{1}});
      },
      "the scaled scores Q K^T [1x1] overflows float32");
  // inf - inf: a NaN score followed by a finite one, on both paths
  for (bool weights : {true, false}) {
    AttentionOptions<float> options;
    options.weights = weights;
    check_input_error(
        [&] {
          attention::attention<float>({{3e38f, 3e38f}}, {{3e38f, -3e38f}, {1e-38f, 1e-38f}},
                                      {{1}, {2}}, options);
        },
        "the scaled scores Q K^T [1x2] overflows float32 at flat index 0");
  }
  check_input_error([] { apply_weights<double>({1e300}, {{1e300}}); },
                    "weighted annotations [1x1] overflows float64");
  check_input_error(
      [] {
        context_vector<double>({{1e308}, {1e308}});
      },
      "context vector [1] overflows float64");
}

TEST_CASE("matrices that would not fit are refused before any work") {
  const Matrix<float> tall = xt::zeros<float>({std::size_t(9000), std::size_t(1)});
  check_input_error([&] { attention::attention(tall, tall, tall); },
                    "the attention weights (queries x keys) would be 9000x9000, more than the "
                    "67108864 elements");
}

TEST_CASE("a causal mask with more keys than queries, and masks that remove whole rows") {
  AttentionOptions<double> causal;
  causal.causal = true;
  auto r = attention::attention<double>({{1}, {1}}, {{1}, {1}, {1}}, {{1}, {2}, {3}}, causal);
  check_close(r.weights, Matrix<double>{{1, 0, 0}, {0.5, 0.5, 0}});
  AttentionOptions<double> none;
  none.mask = MaskMatrix{{0, 0, 0}};
  r = attention::attention<double>({{1}, {1}}, {{1}, {1}, {1}}, {{1}, {2}, {3}}, none);
  check_close(r.output, Matrix<double>{{0}, {0}});
}
