// Input validation shared by every public function of the core.
// Each failure throws InputError with a message that names the argument and the shapes involved,
// so that callers (C++, or JavaScript through the bindings) can tell what to fix.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "detail/kernels.hpp"
#include "types.hpp"

namespace attention {

// Bad input. argument() names the argument at fault as the JavaScript API spells it ("query",
// "mask", "decoderState"), so a form can mark the field without reading the message.
class InputError : public std::invalid_argument {
public:
  InputError(std::string argument, const std::string &message)
      : std::invalid_argument(message), argument_(std::move(argument)) {}
  const std::string &argument() const { return argument_; }

private:
  std::string argument_;
};

namespace detail {
std::string shape_text(const std::size_t *extents, std::size_t rank);
} // namespace detail

template <class E> std::string shape_of(const E &e) {
  return detail::shape_text(e.shape().data(), e.dimension());
}

namespace detail {

// The shape of a container as a message part ("[4x3]"), without building a string first.
struct Shape {
  const std::size_t *extents;
  std::size_t rank;
};
template <class E> Shape shape(const E &e) { return {e.shape().data(), e.dimension()}; }

// One part of an error message, held without allocating: text as it is, an integer as
// std::to_string prints it, a floating-point number as printf's %g does, or a shape. Whatever
// the types of its arguments, every fail() ends in one out-of-line function that builds the
// message, so the many call sites cost little code. (Not iostreams: they would add a third to the
// WebAssembly module.)
class MessagePart {
public:
  enum class Kind : unsigned char {
    text,
    character,
    signed_integer,
    unsigned_integer,
    real,
    shape
  };

  MessagePart(const char *text) : kind_(Kind::text), text_(text), size_(std::strlen(text)) {}
  MessagePart(const std::string &text)
      : kind_(Kind::text), text_(text.data()), size_(text.size()) {}
  MessagePart(char value) : kind_(Kind::character), signed_(value) {}
  MessagePart(Shape shape) : kind_(Kind::shape), extents_(shape.extents), size_(shape.rank) {}
  template <class Number, std::enable_if_t<std::is_arithmetic_v<Number>, int> = 0>
  MessagePart(Number value) {
    if constexpr (std::is_floating_point_v<Number>) {
      kind_ = Kind::real;
      real_ = static_cast<double>(value);
    } else if constexpr (std::is_signed_v<Number>) {
      kind_ = Kind::signed_integer;
      signed_ = value;
    } else {
      kind_ = Kind::unsigned_integer;
      unsigned_ = value;
    }
  }

  void append_to(std::string &message) const;

private:
  Kind kind_;
  const char *text_ = nullptr;
  const std::size_t *extents_ = nullptr;
  std::size_t size_ = 0;
  long long signed_ = 0;
  unsigned long long unsigned_ = 0;
  double real_ = 0;
};

// The argument a failure is about. Explicit, so that fail()'s first message part can never be
// taken for it.
struct Argument {
  explicit Argument(const char *argument) : name(argument) {}
  const char *name;
};

[[noreturn]] void fail_with(const char *argument, std::initializer_list<MessagePart> parts);

template <class... Parts> [[noreturn]] void fail(Argument argument, const Parts &...parts) {
  fail_with(argument.name, {MessagePart(parts)...});
}

template <class E> void require_finite(const E &e, const char *name) {
  const auto *data = e.data();
  if (kernels::all_finite(data, e.size())) // vectorised; the loop below finds the culprit
    return;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (!std::isfinite(data[i]))
      fail(Argument(name), name, " ", shape(e), " holds a non-finite value (", data[i],
           ") at flat index ", i);
}

// Results overflow when finite inputs are too large for the scalar type (1e30 * 1e30 in float).
// They are refused rather than passed on as Infinity or NaN, blaming `argument`.
template <class E> void require_finite_result(const E &e, const char *what, Argument argument) {
  using T = std::decay_t<decltype(*e.data())>;
  const auto *data = e.data();
  for (std::size_t i = 0; i < e.size(); ++i)
    if (!std::isfinite(data[i]))
      fail(argument, what, " ", shape(e), " overflows ", sizeof(T) == 4 ? "float32" : "float64",
           " at flat index ", i, ": scale the inputs down",
           sizeof(T) == 4 ? " or pass Float64Array" : "");
}

// The largest matrix the engine makes: 2^26 elements (512 MB of doubles), well inside the
// 2 GB a WebAssembly module can grow to, so a request that would not fit fails before any work.
constexpr std::size_t max_elements = std::size_t(1) << 26;

inline void require_fits(std::size_t rows, std::size_t cols, const char *what, Argument argument) {
  if (cols != 0 && rows > max_elements / cols)
    fail(argument, what, " would be ", rows, "x", cols, ", more than the ", max_elements,
         " elements the engine allocates for one matrix");
}

template <class E> void require_non_empty(const E &e, const char *name) {
  if (e.size() == 0)
    fail(Argument(name), name, " ", shape(e), " is empty");
}

// Validates the usual argument: finite and not empty.
template <class E> void require_values(const E &e, const char *name) {
  require_non_empty(e, name);
  require_finite(e, name);
}

// `argument` is the one the caller is told to fix: the left-hand one.
template <class A, class B>
void require_equal_length(Argument argument, std::size_t left, const char *left_what, const A &a,
                          std::size_t right, const char *right_what, const B &b) {
  if (left != right)
    fail(argument, left_what, " (", left, ", from ", shape(a), ") must equal ", right_what, " (",
         right, ", from ", shape(b), ")");
}

template <class T> void require_finite_scalar(T value, const char *name) {
  if (!std::isfinite(value))
    fail(Argument(name), name, " must be a finite number, got ", value);
}

} // namespace detail
} // namespace attention
