// The 16-bit floating-point formats the numerics lab shows beside float32, float64 and float128,
// emulated bit for bit as the reference libraries store them: IEEE binary16 (numpy's float16) and
// bfloat16 (PyTorch's, the top half of a float32). Values travel as their 16 bits.
#pragma once

#include <cstdint>

namespace attention::precision {

// IEEE binary16 nearest to `value`, ties to even, as numpy's np.float16(value) rounds a float64 (in
// one step: not through float32, which would round twice). Overflow gives ±inf; NaN gives the
// quiet NaN 0x7e00 with its sign.
std::uint16_t float16_from_double(double value);
// The exact value of binary16 `bits`.
double float16_to_double(std::uint16_t bits);

// bfloat16 nearest to `value`, ties to even, as PyTorch's c10::BFloat16 rounds a float32; NaN gives
// 0x7fc0, as PyTorch does. (PyTorch rounds a float64 to float32 first, then to bfloat16.)
std::uint16_t bfloat16_from_float(float value);
// The exact value of bfloat16 `bits`.
float bfloat16_to_float(std::uint16_t bits);

} // namespace attention::precision
