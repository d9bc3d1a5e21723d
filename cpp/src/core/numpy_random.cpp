#include "attention/numpy_random.hpp"

#include <cmath>
#include <utility>
#include <vector>

namespace attention {

namespace {
// Sizes are checked before anything is drawn, so a bad call leaves the stream untouched.
void check_size(std::size_t rows, std::size_t cols) {
  if (rows == 0 || cols == 0)
    detail::fail(detail::Argument("rows"), "size (", rows, ", ", cols, ") must be positive");
  detail::require_fits(rows, cols, "size", detail::Argument("rows"));
}

// A rows x cols matrix of draw()'s values in numpy's order, row by row.
template <class Draw> Matrix<double> drawn(std::size_t rows, std::size_t cols, Draw draw) {
  check_size(rows, cols);
  auto out = Matrix<double>::from_shape({rows, cols});
  for (auto &value : out)
    value = draw();
  return out;
}
} // namespace

NumpyRandomState::NumpyRandomState(std::int64_t seed) {
  if (seed < 0 || seed > max_seed)
    detail::fail(detail::Argument("seed"), "seed (", seed,
                 ") must be between 0 and 2**32 - 1, as numpy requires");
  // numpy's mt19937_seed, the reference init_genrand.
  std::uint32_t value = static_cast<std::uint32_t>(seed);
  for (std::uint32_t i = 0; i < 624; ++i) {
    state_.key[i] = value;
    value = 1812433253U * (value ^ (value >> 30)) + i + 1;
  }
  state_.pos = 624;
}

NumpyRandomState::NumpyRandomState(const NumpyRandomStateData &state) : state_(state) {
  if (state_.pos > 624)
    detail::fail(detail::Argument("state"), "random state position (", state_.pos,
                 ") must be at most 624");
}

// The reference MT19937 generator (Matsumoto and Nishimura), as in numpy's mt19937.c.
std::uint32_t NumpyRandomState::next_uint32() {
  auto &key = state_.key;
  if (state_.pos == 624) {
    constexpr std::uint32_t upper = 0x80000000U, lower = 0x7fffffffU, matrix_a = 0x9908b0dfU;
    for (std::size_t i = 0; i < 624; ++i) {
      const std::uint32_t y = (key[i] & upper) | (key[(i + 1) % 624] & lower);
      key[i] = key[(i + 397) % 624] ^ (y >> 1) ^ ((y & 1U) ? matrix_a : 0U);
    }
    state_.pos = 0;
  }
  std::uint32_t y = key[state_.pos++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

std::uint64_t NumpyRandomState::next_uint64() {
  const std::uint64_t high = next_uint32();
  return (high << 32) | next_uint32();
}

// numpy's mt19937_next_double: 27 + 26 bits.
double NumpyRandomState::next_double() {
  const std::int32_t a = static_cast<std::int32_t>(next_uint32() >> 5);
  const std::int32_t b = static_cast<std::int32_t>(next_uint32() >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

// numpy's legacy_gauss: the polar method, keeping the second value for the next call.
double NumpyRandomState::next_gauss() {
  if (state_.has_gauss) {
    state_.has_gauss = false;
    return state_.gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * next_double() - 1.0;
    x2 = 2.0 * next_double() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  state_.gauss = f * x1;
  state_.has_gauss = true;
  return f * x2;
}

// numpy's masked rejection sampling (the legacy randint path): draw, mask to the smallest
// all-ones number >= max, retry while above max. 32-bit draws when max fits in 32 bits.
std::uint64_t NumpyRandomState::bounded(std::uint64_t max) {
  if (max == 0)
    return 0;
  std::uint64_t mask = max;
  for (int shift = 1; shift <= 32; shift *= 2)
    mask |= mask >> shift;
  if (max <= 0xFFFFFFFFULL) {
    if (max == 0xFFFFFFFFULL)
      return next_uint32();
    std::uint64_t value;
    while ((value = (next_uint32() & mask)) > max) {
    }
    return value;
  }
  std::uint64_t value;
  while ((value = (next_uint64() & mask)) > max) {
  }
  return value;
}

Matrix<double> NumpyRandomState::randint(std::int64_t high, std::size_t rows, std::size_t cols) {
  // Drawn values travel as doubles (exact below 2**53), so high is limited to that range.
  if (high < 1 || high > (std::int64_t(1) << 53))
    detail::fail(detail::Argument("high"), "high (", high, ") must be between 1 and 2**53");
  return drawn(rows, cols,
               [&] { return static_cast<double>(bounded(static_cast<std::uint64_t>(high - 1))); });
}

std::vector<std::size_t> NumpyRandomState::shuffled(std::size_t n) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  for (std::size_t i = n; i-- > 1;) // randint(i + 1) draws as bounded(i)
    std::swap(order[i], order[static_cast<std::size_t>(bounded(i))]);
  return order;
}

Matrix<double> NumpyRandomState::rand(std::size_t rows, std::size_t cols) {
  return drawn(rows, cols, [this] { return next_double(); });
}

Matrix<double> NumpyRandomState::randn(std::size_t rows, std::size_t cols) {
  return drawn(rows, cols, [this] { return next_gauss(); });
}

Matrix<double> NumpyRandomState::draw(const std::string &kind, std::int64_t high, std::size_t rows,
                                      std::size_t cols) {
  if (kind == "randint")
    return randint(high, rows, cols);
  if (kind == "rand")
    return rand(rows, cols);
  if (kind == "randn")
    return randn(rows, cols);
  detail::fail(detail::Argument("kind"), "kind must be randint, rand or randn, got \"",
               kind.substr(0, 40), "\"");
}

} // namespace attention
