// IEEE binary128 arithmetic for the numerics lab: the type, conversions to and from its bits,
// and exp and log built from + - * / only (binary128.cpp).
#pragma once

#include <cstdint>

#include "attention/numerics.hpp"

namespace attention::numerics {

// IEEE binary128: WebAssembly's long double is binary128 (software); on x86-64, long double is the
// 80-bit x87 format and binary128 is __float128. Only + - * / and conversions are used, which both
// round correctly, so both builds give the same bits.
#if defined(__EMSCRIPTEN__) || (defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113)
using quad = long double;
#else
using quad = __float128;
#endif
static_assert(sizeof(quad) == 16, "binary128 is 16 bytes");

quad quad_of(Binary128 b);
Binary128 bits_of(quad q);
inline bool is_nan(quad q) { return q != q; }
inline quad quad_infinity() { return quad_of({0x7fff000000000000ULL, 0}); }
// e^x and ln x, correctly rounded on the lab's fixtures (0 ulp from mpmath).
quad exp_quad(quad x);
quad log_quad(quad x);

} // namespace attention::numerics
