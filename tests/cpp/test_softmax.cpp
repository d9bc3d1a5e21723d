#include <doctest/doctest.h>

#include <cfloat>

#include "attention/softmax.hpp"
#include "check_close.hpp"
#include "reference.hpp"

using namespace attention;
namespace f = fixtures;

TEST_CASE("softmax of the Attention Basics scores: 0.119 and 0.881, logs exact below DBL_MIN") {
  const Vector<double> w = softmax(f::basics_scores);
  CHECK(w(0) == doctest::Approx(0.11920292202211755));
  CHECK(w(1) == doctest::Approx(7.9471515e-232).epsilon(1e-7));
  CHECK(w(2) == 0); // 5.7661442e-340 is below the smallest double
  CHECK(w(3) == doctest::Approx(0.8807970779778824));
  check_close(log_softmax(f::basics_scores), f::basics_log_weights, 1e-14);
}

TEST_CASE("softmax and log-softmax match scipy, with scale and mask") {
  const Mask mask = xt::cast<std::uint8_t>(f::softmax_mask);
  check_close(softmax(f::softmax_x), f::softmax_plain);
  check_close(log_softmax(f::softmax_x), f::softmax_log, 1e-12);
  check_close(softmax(f::softmax_x, 0.5, mask), f::softmax_scaled_masked);
  const Vector<double> log_masked = log_softmax(f::softmax_x, 0.5, mask);
  for (std::size_t j = 0; j < mask.size(); ++j)
    if (mask(j))
      CHECK(log_masked(j) == doctest::Approx(f::softmax_log_scaled_masked(j)));
    else
      CHECK(log_masked(j) == -INFINITY);
}

TEST_CASE("softmax never overflows and handles edges without NaN") {
  const Vector<double> huge = softmax<double>({1e308, -1e308, 1e308});
  check_close(huge, Vector<double>{0.5, 0, 0.5});
  check_close(softmax<double>({3, 3, 3, 3}), Vector<double>{0.25, 0.25, 0.25, 0.25});
  const Vector<float> f32 = softmax<float>({1e30f, 0.f});
  CHECK(f32(0) == 1.f);
  CHECK(f32(1) == 0.f);
  // every position masked: zero weights, -inf log-weights
  const Mask none = {0, 0};
  check_close(softmax<double>({1, 2}, 1, none), Vector<double>{0, 0});
  CHECK(log_softmax<double>({1, 2}, 1, none)(0) == -INFINITY);
}

TEST_CASE("softmax rejects bad input with the argument named") {
  check_input_error(
      [] {
        softmax<double>({1, 2}, 1, Mask{1});
      },
      "mask length (1, from [1]) must equal x length (2, from [2])", "mask");
  check_input_error([] { softmax<double>({1, INFINITY}); }, "x [2] holds a non-finite value");
  check_input_error([] { softmax<double>({1, 2}, NAN); }, "scale must be a finite number", "scale");
  check_input_error([] { softmax<double>({1e308, 2}, 10); }, "scale * x overflows at index 0");
  check_input_error([] { softmax<double>({}); }, "x [0] is empty", "x");
}
