// Input validation shared by every public function of the core.
// Each failure throws InputError with a message that names the argument and the shapes involved,
// so that callers (C++, or JavaScript through the bindings) can tell what to fix.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <xtensor/xtensor.hpp>

namespace attention {

template <class T> using Matrix = xt::xtensor<T, 2>;
template <class T> using Vector = xt::xtensor<T, 1>;

class InputError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

template <class E> std::string shape_of(const E &e) {
  std::string out = "[";
  for (std::size_t i = 0; i < e.dimension(); ++i)
    out += (i ? "x" : "") + std::to_string(e.shape()[i]);
  return out + "]";
}

namespace detail {

// Message parts as text. (Not iostreams: they would add a third to the WebAssembly module.)
inline std::string text(const std::string &value) { return value; }
inline std::string text(const char *value) { return value; }
inline std::string text(char value) { return std::string(1, value); }
template <class Number> std::string text(Number value) {
  static_assert(std::is_arithmetic_v<Number>);
  if constexpr (std::is_floating_point_v<Number>) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(value));
    return buffer;
  } else {
    return std::to_string(value);
  }
}

template <class... Parts> [[noreturn]] void fail(const Parts &...parts) {
  throw InputError((std::string() + ... + text(parts)));
}

template <class E> void require_finite(const E &e, const char *name) {
  const auto *data = e.data();
  for (std::size_t i = 0; i < e.size(); ++i)
    if (!std::isfinite(data[i]))
      fail(name, " ", shape_of(e), " holds a non-finite value (", data[i], ") at flat index ", i);
}

// Results overflow when finite inputs are too large for the scalar type (1e30 * 1e30 in float).
// They are refused rather than passed on as Infinity or NaN.
template <class E> void require_finite_result(const E &e, const char *what) {
  using T = std::decay_t<decltype(*e.data())>;
  const auto *data = e.data();
  for (std::size_t i = 0; i < e.size(); ++i)
    if (!std::isfinite(data[i]))
      fail(what, " ", shape_of(e), " overflows ", sizeof(T) == 4 ? "float32" : "float64",
           " at flat index ", i, ": scale the inputs down",
           sizeof(T) == 4 ? " or pass Float64Array" : "");
}

// The largest matrix the engine makes: 2^26 elements (512 MB of doubles), well inside the
// 2 GB a WebAssembly module can grow to, so a request that would not fit fails before any work.
constexpr std::size_t max_elements = std::size_t(1) << 26;

inline void require_fits(std::size_t rows, std::size_t cols, const char *what) {
  if (cols != 0 && rows > max_elements / cols)
    fail(what, " would be ", rows, "x", cols, ", more than the ", max_elements,
         " elements the engine allocates for one matrix");
}

template <class E> void require_non_empty(const E &e, const char *name) {
  if (e.size() == 0)
    fail(name, " ", shape_of(e), " is empty");
}

// Validates the usual argument: finite and not empty.
template <class E> void require_values(const E &e, const char *name) {
  require_non_empty(e, name);
  require_finite(e, name);
}

template <class A, class B>
void require_equal_length(std::size_t left, const char *left_what, const A &a, std::size_t right,
                          const char *right_what, const B &b) {
  if (left != right)
    fail(left_what, " (", left, ", from ", shape_of(a), ") must equal ", right_what, " (", right,
         ", from ", shape_of(b), ")");
}

template <class T> void require_finite_scalar(T value, const char *name) {
  if (!std::isfinite(value))
    fail(name, " must be a finite number, got ", value);
}

} // namespace detail
} // namespace attention
