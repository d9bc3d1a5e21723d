#include "core/decimal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace attention::detail {

namespace {

// An unsigned integer of any size (32-bit limbs, least significant first, no leading zero limbs):
// just the operations exact conversion needs.
class Big {
public:
  explicit Big(std::uint64_t value) {
    for (; value != 0; value >>= 32)
      limbs_.push_back(static_cast<std::uint32_t>(value));
  }

  Big &multiply(std::uint32_t factor) {
    std::uint64_t carry = 0;
    for (auto &limb : limbs_) {
      carry += std::uint64_t(limb) * factor;
      limb = static_cast<std::uint32_t>(carry);
      carry >>= 32;
    }
    if (carry != 0)
      limbs_.push_back(static_cast<std::uint32_t>(carry));
    return *this;
  }

  Big &times_power_of_2(int n) {
    for (; n >= 31; n -= 31)
      multiply(std::uint32_t(1) << 31);
    return multiply(std::uint32_t(1) << n);
  }

  Big &times_power_of_5(int n) {
    for (; n >= 13; n -= 13)
      multiply(1220703125); // 5^13
    for (; n > 0; --n)
      multiply(5);
    return *this;
  }

  Big &times_power_of_10(int n) { return times_power_of_5(n).times_power_of_2(n); }

  // The decimal digits, most significant first, without leading zeros.
  std::string digits() const {
    std::vector<std::uint32_t> rest = limbs_;
    std::string reversed;
    while (!rest.empty()) {
      std::uint64_t remainder = 0;
      for (std::size_t i = rest.size(); i-- > 0;) {
        const std::uint64_t current = (remainder << 32) | rest[i];
        rest[i] = static_cast<std::uint32_t>(current / 1000000000);
        remainder = current % 1000000000;
      }
      while (!rest.empty() && rest.back() == 0)
        rest.pop_back();
      for (int i = 0; i < 9; ++i, remainder /= 10)
        reversed += static_cast<char>('0' + remainder % 10);
    }
    while (!reversed.empty() && reversed.back() == '0')
      reversed.pop_back();
    return {reversed.rbegin(), reversed.rend()};
  }

  friend int compare(const Big &a, const Big &b) {
    if (a.limbs_.size() != b.limbs_.size())
      return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
    for (std::size_t i = a.limbs_.size(); i-- > 0;)
      if (a.limbs_[i] != b.limbs_[i])
        return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
    return 0;
  }

private:
  std::vector<std::uint32_t> limbs_;
};

// |value| = mantissa * 2^exponent for a finite, non-zero value; mantissa in [2^52, 2^53).
struct Binary {
  std::uint64_t mantissa;
  int exponent;
};

Binary binary(double value) {
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(value), &exponent);
  return {static_cast<std::uint64_t>(std::ldexp(fraction, 53)), exponent - 53};
}

// The exact decimal value of a binary: |value| = 0.digits * 10^point.
struct Decimal {
  std::string digits;
  int point;
};

Decimal exact_decimal(Binary b) {
  Big n(b.mantissa);
  if (b.exponent >= 0)
    n.times_power_of_2(b.exponent);
  else
    n.times_power_of_5(-b.exponent); // m 2^-k = m 5^k / 10^k
  std::string digits = n.digits();
  const int point = static_cast<int>(digits.size()) + std::min(b.exponent, 0);
  return {std::move(digits), point};
}

// The first count digits of d rounded half to even (count >= 1); a carry out of the first digit
// moves d.point up by one.
std::string rounded(const Decimal &d, std::size_t count, int &point) {
  point = d.point;
  if (d.digits.size() <= count)
    return d.digits + std::string(count - d.digits.size(), '0');
  std::string out = d.digits.substr(0, count);
  const char next = d.digits[count];
  const bool tie = next == '5' && d.digits.find_first_not_of('0', count + 1) == std::string::npos;
  const bool up = next > '5' || (next == '5' && !tie) || (tie && (out.back() - '0') % 2 == 1);
  if (up) {
    std::size_t i = count;
    while (i > 0 && out[i - 1] == '9')
      out[--i] = '0';
    if (i > 0) {
      ++out[i - 1];
    } else { // 99.9 -> 100
      out.insert(out.begin(), '1');
      out.pop_back();
      ++point;
    }
  }
  return out;
}

std::string special(double value) {
  return std::string(std::signbit(value) ? "-" : "") + (std::isnan(value) ? "nan" : "inf");
}

// %g's text for the digits of a value rounded to precision digits (= digits.size()).
std::string general_text(bool negative, const std::string &digits, int point) {
  const int precision = static_cast<int>(digits.size()), exponent = point - 1;
  std::string whole, fraction;
  const bool fixed = exponent >= -4 && exponent < precision;
  if (fixed && exponent >= 0) {
    whole = digits.substr(0, exponent + 1);
    fraction = digits.substr(exponent + 1);
  } else if (fixed) {
    whole = "0";
    fraction = std::string(-exponent - 1, '0') + digits;
  } else {
    whole = digits.substr(0, 1);
    fraction = digits.substr(1);
  }
  fraction.erase(fraction.find_last_not_of('0') + 1);
  std::string out = (negative ? "-" : "") + whole + (fraction.empty() ? "" : ".") + fraction;
  if (!fixed) {
    const int magnitude = std::abs(exponent);
    out += exponent < 0 ? "e-" : "e+";
    out += (magnitude < 10 ? "0" : "") + std::to_string(magnitude);
  }
  return out;
}

// Whether the decimal digits * 10^(point - digits.size()) reads back (round to nearest, ties to
// even) as the binary b: whether it lies between the midpoints to b's neighbours.
bool reads_back(const std::string &digits, int point, Binary b) {
  // b = m 2^g with g no lower than the subnormal spacing 2^-1074.
  const int g = std::max(b.exponent, -1074);
  const std::uint64_t m = b.mantissa >> (g - b.exponent);
  // Midpoints as c 2^(g - 2); below a power of two the lower neighbour is half as far.
  const bool closer_below = m == (std::uint64_t(1) << 52) && g > -1074;
  const std::uint64_t low = closer_below ? 4 * m - 1 : 4 * m - 2, high = 4 * m + 2;
  // Compare digits * 10^q with c * 2^e, both scaled up to integers.
  const int q = point - static_cast<int>(digits.size()), e = g - 2;
  std::uint64_t significand = 0; // at most 17 digits
  for (const char digit : digits)
    significand = significand * 10 + static_cast<std::uint64_t>(digit - '0');
  Big value(significand);
  value.times_power_of_10(std::max(q, 0)).times_power_of_2(std::max(-e, 0));
  const auto midpoint = [&](std::uint64_t c) {
    Big out(c);
    out.times_power_of_2(std::max(e, 0)).times_power_of_10(std::max(-q, 0));
    return out;
  };
  const bool even = m % 2 == 0;
  const int above_low = compare(value, midpoint(low)), below_high = compare(value, midpoint(high));
  return (above_low > 0 || (above_low == 0 && even)) &&
         (below_high < 0 || (below_high == 0 && even));
}

} // namespace

std::string format_general(double value, int precision) {
  if (!std::isfinite(value))
    return special(value);
  const bool negative = std::signbit(value);
  if (value == 0)
    return negative ? "-0" : "0";
  int point = 0;
  const std::string digits = rounded(exact_decimal(binary(value)),
                                     static_cast<std::size_t>(std::max(precision, 1)), point);
  return general_text(negative, digits, point);
}

std::string format_fixed(double value, int decimals) {
  if (!std::isfinite(value))
    return special(value);
  std::string out = std::signbit(value) ? "-" : "";
  Decimal d = value == 0 ? Decimal{"0", 1} : exact_decimal(binary(value));
  int count = d.point + decimals; // digits up to the last decimal
  if (count < 1) {                // below the last decimal: round at a leading zero
    d.digits.insert(0, static_cast<std::size_t>(1 - count), '0');
    d.point += 1 - count;
    count = 1;
  }
  int point = 0;
  std::string digits = rounded(d, static_cast<std::size_t>(count), point);
  if (point > d.point) // the carry added a digit in front
    digits += '0';
  if (point > 0)
    out += digits.substr(0, point);
  else
    out += "0";
  if (decimals > 0)
    out += "." + (point > 0 ? digits.substr(point) : std::string(-point, '0') + digits);
  return out;
}

std::string format_shortest(double value) {
  if (!std::isfinite(value) || value == 0)
    return format_general(value, 17);
  const Binary b = binary(value);
  const Decimal exact = exact_decimal(b);
  std::string digits;
  int point = 0;
  for (std::size_t precision = 1; precision <= 17; ++precision) {
    digits = rounded(exact, precision, point);
    if (reads_back(digits, point, b))
      break;
  }
  return general_text(std::signbit(value), digits, point);
}

} // namespace attention::detail
