// Decimal text of doubles, digit for digit as C's printf and strtod give it, without them: in the
// WebAssembly module, printf's floating-point formatting and strtod bring musl's long-double
// (binary128, software) arithmetic along, about a tenth of the module. Every digit here comes from
// the exact binary value with integer arithmetic, rounded half to even as printf rounds.
#pragma once

#include <string>

namespace attention::detail {

// printf("%.*g", precision, value); precision 0 counts as 1, as in C.
std::string format_general(double value, int precision);

// printf("%.*f", decimals, value).
std::string format_fixed(double value, int decimals);

// The shortest "%.*g" text (precision 1 to 17) that strtod reads back as value: Python's repr
// digits ("45.3", "1e-07"). Not-a-number and infinities print as printf prints them.
std::string format_shortest(double value);

} // namespace attention::detail
