// The numerics lab: one softmax or attention row computed in float16, bfloat16, float32, float64
// and float128, each the way its reference library computes it, bit for bit:
//
// - float16, float32, float64, float128: numpy, where softmax is written by hand and every
//   operation rounds to the array's type (np.exp, np.log, np.sum with its pairwise summation;
//   float16 through float32, as numpy's half loops do). np.exp and np.log of float32 and float64
//   follow numpy 1.24's AVX512F kernels (it picks them on machines that have AVX512F, as the one
//   that made the fixtures does, unless its AVX512_SKX ones, Intel's SVML, take over).
// - bfloat16: PyTorch, whose torch.softmax computes in float32 and rounds once, while elementwise
//   operations (torch.exp, sum, division) each round to bfloat16.
// - float128: IEEE binary128 (numpy's float128 on x86 is the 80-bit x87 format instead), with an
//   exp and a log of our own made of + - * / only, so that native and WebAssembly builds give the
//   same bits; within 1 ulp of the exact value on the mpmath fixtures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "errors.hpp"

namespace attention::numerics {

enum class Precision { float16, bfloat16, float32, float64, float128 };
inline constexpr Precision precisions[] = {Precision::float16, Precision::bfloat16,
                                           Precision::float32, Precision::float64,
                                           Precision::float128};

const char *precision_name(Precision precision);
// "float16", …; anything else is an InputError about `argument`.
Precision parse_precision(const std::string &name, const char *argument = "precision");

// Values of one precision as they leave the engine: the double nearest each (the value itself,
// except for float128), the decimal text of a float128 value a double cannot hold (its magnitude
// beyond the double's normal range; "" elsewhere, and all empty for the other precisions), and
// each value's bits as "sign exponent mantissa" ("0 01111 0000000000").
struct Values {
  Precision precision = Precision::float64;
  std::vector<double> values;
  std::vector<std::string> exact;
  std::vector<std::string> bits;
};

enum class Form {
  naive,   // exp(x) / sum(exp(x))
  shifted, // exp(x - max) / sum(exp(x - max)); in bfloat16, torch.softmax
  log,     // (x - max) - log(sum(exp(x - max)))
};

// What a masked score becomes: removed (weight 0, log -inf; every score masked gives all zeros, as
// the engine's softmax does), or filled before the softmax as masked_fill does.
enum class Fill { remove, negative_infinity, lowest, value };

struct SoftmaxOptions {
  Form form = Form::shifted;
  double scale = 1;               // x * scale in the precision first, unless 1
  std::vector<std::uint8_t> keep; // 1 keeps a score, 0 masks it; empty keeps all
  Fill fill = Fill::remove;
  double fill_value = 0; // Fill::value: the fill as a double, rounded to the precision
};

// The rows of one softmax in one precision: the scores as the precision holds them (scaled and
// filled), x - max (the shifted and log forms), the exponentials, their sum (one value), log of
// the sum (log form), and the weights (log-weights in the log form), each rounded as the library
// rounds it. With Fill::remove the rows before the weights hold the kept scores only.
struct SoftmaxSteps {
  Values scores, shifted, exps, sum, log_sum, weights;
  Values weights_sum; // np.sum (or torch's sum) of the weights, in the precision
};

SoftmaxSteps softmax_steps(Precision precision, const std::vector<double> &scores,
                           const SoftmaxOptions &options = {});

// softmax(scale * Q Kᵀ) V row by row in one precision: dot products summed in order (numpy's
// float16 matmul adds in float32 and rounds once; torch's bfloat16 matmul rounds every product and
// partial sum; float32 and float64 in their type, where numpy's BLAS has an order of its own), the
// shifted softmax of softmax_steps over each row, and the weighted sum of the values the same way.
// keep: rows x keys, or 1 x keys for every row, or empty.
struct AttentionValues {
  std::size_t rows = 0, keys = 0, cols = 0;
  Values output, weights; // row-major
};
AttentionValues attention(Precision precision, const Matrix<double> &q, const Matrix<double> &k,
                          const Matrix<double> &v, double scale, bool causal,
                          const xt::xtensor<std::uint8_t, 2> &keep);

// The building blocks, exposed for their tests. numpy 1.24's AVX512F np.exp and np.log:
float numpy_exp(float x);
float numpy_log(float x);
double numpy_exp(double x);
double numpy_log(double x);

// binary128 as two 64-bit halves (high: sign, exponent, top of the mantissa).
struct Binary128 {
  std::uint64_t high = 0, low = 0;
};
Binary128 binary128_exp(Binary128 x);
Binary128 binary128_log(Binary128 x);
Binary128 binary128_from_double(double x);
double binary128_to_double(Binary128 x);
// The decimal text of a binary128 value with `digits` significant digits, as numpy prints one
// ("5.7661442e-340").
std::string binary128_decimal(Binary128 x, int digits = 8);

} // namespace attention::numerics
