#include <doctest/doctest.h>

#include "attention/scoring.hpp"
#include "check_close.hpp"
#include "reference.hpp"

using namespace attention;
namespace f = fixtures;

TEST_CASE("Attention Basics scores: 927 for one annotation, [927, 397, 148, 929] for all") {
  const Vector<double> s = {5, 1, 20};
  const Matrix<double> h = {{3, 12, 45}, {59, 2, 5}, {1, 43, 5}, {4, 3, 45.3}};
  CHECK(dot_score<double>(s, {3, 12, 45}) == 927);
  check_close(dot_scores(s, h), f::basics_scores, 1e-15);
}

TEST_CASE("dot and scaled dot scores match numpy") {
  check_close(dot_scores(f::scoring_s, f::scoring_H), f::scoring_dot);
  check_close(scaled_dot_scores(f::scoring_s, f::scoring_H), f::scoring_scaled_dot);
}

TEST_CASE("Luong general, Luong concat and Bahdanau additive scores match numpy") {
  check_close(general_scores(f::scoring_s, f::scoring_H, f::scoring_W_general), f::scoring_general);
  check_close(concat_scores(f::scoring_s, f::scoring_H, f::scoring_W_concat, f::scoring_v_concat),
              f::scoring_concat);
  check_close(additive_scores(f::scoring_s, f::scoring_H, f::scoring_W_additive,
                              f::scoring_U_additive, f::scoring_v_additive),
              f::scoring_additive);
}

TEST_CASE("scoring works in float too") {
  const Vector<float> s = xt::cast<float>(f::scoring_s);
  const Matrix<float> h = xt::cast<float>(f::scoring_H);
  check_close(dot_scores(s, h), f::scoring_dot, 1e-5);
  check_close(additive_scores<float>(s, h, xt::cast<float>(f::scoring_W_additive),
                                     xt::cast<float>(f::scoring_U_additive),
                                     xt::cast<float>(f::scoring_v_additive)),
              f::scoring_additive, 1e-5);
}

TEST_CASE("scoring rejects mismatched shapes and non-finite values, naming them") {
  const Vector<double> s = {1, 2, 3};
  const Matrix<double> h = {{1, 2}, {3, 4}};
  check_input_error([&] { dot_scores(s, h); },
                    "query length (3, from [3]) must equal keys columns (2, from [2x2])", "query");
  check_input_error([&] { dot_score<double>(s, {1, 2}); }, "key length (2", "query");
  check_input_error(
      [&] {
        dot_scores<double>({1, NAN}, h);
      },
      "query [2] holds a non-finite value", "query");
  check_input_error([&] { dot_scores<double>({}, h); }, "query [0] is empty");
  check_input_error(
      [&] {
        general_scores<double>({1, 2}, h, xt::ones<double>({3, 2}));
      },
      "query length (2, from [2]) must equal Wa rows (3, from [3x2])");
  check_input_error(
      [&] {
        concat_scores<double>({1, 2}, h, xt::ones<double>({3, 3}), {1, 1, 1});
      },
      "Wa columns (3, from [3x3]) must equal query length + keys columns", "Wa");
  check_input_error(
      [&] {
        additive_scores<double>({1, 2}, h, xt::ones<double>({3, 2}), xt::ones<double>({4, 2}),
                                {1, 1, 1});
      },
      "Ua rows (4, from [4x2]) must equal Wa rows (3, from [3x2])");
}
