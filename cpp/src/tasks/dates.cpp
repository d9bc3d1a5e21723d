// The dates task's grammar.
#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "tasks/grammar.hpp"

namespace attention::tasks {

// ---- dates: "23rd of November 2026" -> "2026-11-23", character by character ----
namespace dates {

// Two centuries, so that 1900 (not a leap year) and 2000 (a leap year) are both in.
constexpr int first_year = 1900, years = 200;
constexpr const char *month_names[] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};
constexpr const char *month_abbreviations[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
// The ways people write a date, with strftime's codes: %Y the year, %B the month's name, %b its
// abbreviation, %m and %d the month and day in two digits, %n and %e without padding, %o the day
// with its ordinal suffix (23rd). Anything else stands for itself. Day before month when both are
// numbers, as in most of the world: there is no month-first numeric format, which would make
// "3/4/2026" ambiguous.
constexpr const char *formats[] = {"%e %B %Y",    "%e %b %Y", "%B %e, %Y", "%b %e, %Y", "%B %o %Y",
                                   "%o of %B %Y", "%d/%m/%Y", "%e/%n/%Y",  "%Y.%m.%d"};
constexpr std::string_view digits = "0123456789";

bool leap(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int days_in_month(int year, int month) {
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return days[month - 1] + (month == 2 && leap(year));
}

std::string_view ordinal_suffix(int day) {
  if (day / 10 != 1) // but 11th, 12th, 13th
    switch (day % 10) {
    case 1:
      return "st";
    case 2:
      return "nd";
    case 3:
      return "rd";
    }
  return "th";
}

// One token per character of ASCII text.
Span read_text(Pair &pair, std::string_view text) {
  Span span{pair.source.size(), pair.source.size()};
  for (std::size_t i = 0; i < text.size(); ++i)
    span.last = pair.read(text[i] == ' ' ? space : text.substr(i, 1)) + 1;
  return span;
}

// `value` in decimal digits, padded with zeros to `width`.
Span read_number(Pair &pair, int value, int width) {
  char text[4];
  int length = 0;
  for (; value > 0 || length < width; value /= 10)
    text[length++] = static_cast<char>(value % 10);
  Span span{pair.source.size(), pair.source.size()};
  while (length > 0)
    span.last = pair.read(digits.substr(static_cast<std::size_t>(text[--length]), 1)) + 1;
  return span;
}

// Writes `value` in `width` digits, each from its source digit, or all from `from` when the source
// wrote a name (`named`); a padding zero translates nothing, its possible link the first digit it
// pads.
void write_number(Pair &pair, int value, int width, Span from, bool named, WordCategory category) {
  char text[4];
  for (int i = width; i-- > 0; value /= 10)
    text[i] = static_cast<char>(value % 10);
  for (int i = 0; i < width; ++i) {
    const std::string_view digit = digits.substr(static_cast<std::size_t>(text[i]), 1);
    const int padding = width - static_cast<int>(from.last - from.first);
    if (named)
      pair.write(digit, from, category);
    else if (i < padding)
      pair.write(digit, Span{}, category, {from.first, from.first + 1});
    else
      pair.write(digit, from.first + static_cast<std::size_t>(i - padding), category);
  }
}

constexpr std::uint64_t per_year = 31 * 12 * std::size(formats);
constexpr std::uint64_t size() { return per_year * years; }

// Index digits: day (1 … 31; past the month's end makes no date), month, format, year. The year
// comes last, so that one year's dates are one run of indices (see indices_for).
bool make(std::uint64_t index, Pair &pair) {
  const int day = 1 + static_cast<int>(index % 31);
  index /= 31;
  const int month = 1 + static_cast<int>(index % 12);
  index /= 12;
  const char *format = formats[index % std::size(formats)];
  const int year = first_year + static_cast<int>(index / std::size(formats));
  if (day > days_in_month(year, month))
    return false;

  pair.clear();
  Span year_from, month_from, day_from;
  bool month_named = false;
  for (const char *c = format; *c; ++c) {
    if (*c != '%') {
      read_text(pair, {c, 1});
      continue;
    }
    switch (*++c) {
    case 'Y':
      year_from = read_number(pair, year, 4);
      break;
    case 'B':
    case 'b':
      month_from = read_text(pair, (*c == 'B' ? month_names : month_abbreviations)[month - 1]);
      month_named = true;
      break;
    case 'm':
    case 'n':
      month_from = read_number(pair, month, *c == 'm' ? 2 : 1);
      break;
    default: // d, e, o
      day_from = read_number(pair, day, *c == 'd' ? 2 : 1);
      if (*c == 'o')
        read_text(pair, ordinal_suffix(day));
    }
  }
  write_number(pair, year, 4, year_from, false, WordCategory::year);
  pair.write("-", Span{}, WordCategory::separator);
  write_number(pair, month, 2, month_from, month_named, WordCategory::month);
  pair.write("-", Span{}, WordCategory::separator);
  write_number(pair, day, 2, day_from, false, WordCategory::day);
  return true;
}

void list_words(Vocabulary &source, Vocabulary &target) {
  for (std::size_t i = 0; i < digits.size(); ++i) {
    add(source, digits.substr(i, 1));
    add(target, digits.substr(i, 1));
  }
  add(target, "-");
  Pair characters;
  for (const char *format : formats)
    for (const char *c = format; *c; ++c)
      if (*c == '%')
        ++c;
      else
        read_text(characters, {c, 1});
  for (const char *suffix : {"st", "nd", "rd", "th"})
    read_text(characters, suffix);
  for (const char *name : month_names)
    read_text(characters, name);
  for (std::string_view character : characters.source)
    add(source, character);
}

// Every format writes the year as the source's only run of four digits: only that year's indices
// can make the source, so gold_example searches those (4000 of them rather than 670000).
Range indices_for(const std::vector<std::string_view> &source) {
  int value = 0, digits_in_run = 0;
  for (std::string_view token : source) {
    const bool digit = token.size() == 1 && token[0] >= '0' && token[0] <= '9';
    value = digit ? 10 * value + (token[0] - '0') : 0;
    digits_in_run = digit ? digits_in_run + 1 : 0;
    if (digits_in_run == 4)
      break;
  }
  if (digits_in_run < 4 || value < first_year || value >= first_year + years)
    return {0, 0};
  const std::uint64_t first = static_cast<std::uint64_t>(value - first_year) * per_year;
  return {first, first + per_year};
}

} // namespace dates

const Grammar dates_grammar{"dates",
                            Unit::character,
                            24,
                            10,
                            dates::size(),
                            dates::make,
                            dates::list_words,
                            dates::indices_for,
                            [] { return std::vector<WordKind>{}; }};

} // namespace attention::tasks
