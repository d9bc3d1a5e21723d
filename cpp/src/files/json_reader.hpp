// A strict reader of JSON over bytes that may be hostile (a safetensors header, a checkpoint's
// config.json): objects, arrays, strings, numbers, true, false and null, with a bounded depth, so
// no input can make it read out of bounds or recurse without end. Syntax (a type with a static
// HeaderSyntax `syntax`) says what a refusal blames and how it words the file.
#pragma once

#include <cstdlib>
#include <cstring>
#include <string>

#include "files/header_reader.hpp"

namespace attention::files {

template <class Syntax> class JsonReader : public HeaderReader<JsonReader<Syntax>> {
  using Base = HeaderReader<JsonReader<Syntax>>;
  using Base::at_;
  using Base::end_;

public:
  static constexpr HeaderSyntax syntax = Syntax::syntax;
  static constexpr int max_depth = 64;
  using Base::Base;
  using Base::peek;
  using Base::refuse;

  // Calls member(key) for each member of an object; member reads the value.
  template <class Member> void object(Member &&member) { this->dict(member); }

  template <class Element> void array(Element &&element) { this->list('[', ']', element); }

  std::string string() {
    this->expect('"');
    std::string out;
    while (true) {
      if (at_ == end_)
        refuse("a string in ", syntax.part, " does not end");
      const char c = *at_++;
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20)
        refuse("a control character in a string of ", syntax.part);
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ == end_)
        refuse("a string in ", syntax.part, " does not end");
      const char escaped = *at_++;
      const char *simple = std::strchr("\"\\/bfnrt", escaped);
      if (escaped != '\0' && simple) {
        out += "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
        continue;
      }
      if (escaped != 'u')
        refuse("an unknown escape \\", escaped, " in a string of ", syntax.part);
      append_utf8(out, code_point());
    }
  }

  // A non-negative integer below 2^53 (offsets and sizes; JSON readers hold numbers as doubles).
  std::size_t integer() {
    this->skip_space();
    if (end_ - at_ >= 2 && at_[0] == '0' && at_[1] >= '0' && at_[1] <= '9')
      refuse("a number in ", syntax.part, " has a leading zero");
    const std::size_t value = this->digits(not_integer().c_str(), too_large().c_str());
    if (at_ < end_ && (*at_ == '.' || *at_ == 'e' || *at_ == 'E'))
      refuse("a number in ", syntax.part, " is not an integer");
    return value;
  }

  // Any JSON number, as the nearest double.
  double number() {
    const char *start = scan_number();
    return std::strtod(std::string(start, at_).c_str(), nullptr);
  }

  // `true`, `false` or `null` next, read: 1, 0, or -1 for null; -2 when none is next.
  int literal() {
    this->skip_space();
    if (this->word("true"))
      return 1;
    if (this->word("false"))
      return 0;
    if (this->word("null"))
      return -1;
    return -2;
  }

  // Any JSON value, read and dropped (a member this reader does not use).
  void skip(int depth = 0) {
    if (depth > max_depth)
      refuse(syntax.part, " nests deeper than 64 levels");
    this->skip_space();
    if (at_ == end_)
      refuse(syntax.part, " ends inside a value");
    switch (*at_) {
    case '{':
      return object([&](const std::string &) { skip(depth + 1); });
    case '[':
      return array([&] { skip(depth + 1); });
    case '"':
      string();
      return;
    default:
      if (literal() == -2)
        scan_number(); // read, not converted: a reader that only skips numbers needs no strtod
    }
  }

  void finish() {
    this->skip_space();
    if (at_ != end_)
      refuse(syntax.part, " has text after its JSON object");
  }

private:
  static std::string not_integer() {
    return std::string("a number in ") + syntax.part + " is not a non-negative integer";
  }
  static std::string too_large() {
    return std::string("a number in ") + syntax.part + " is too large";
  }

  // A number's text, read as JSON's grammar has it, -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?: its start.
  const char *scan_number() {
    this->skip_space();
    const char *start = at_;
    if (at_ < end_ && *at_ == '-')
      ++at_;
    if (at_ < end_ && *at_ == '0')
      ++at_;
    else if (!digits_run())
      refuse(syntax.part, "'s ", syntax.name, " is malformed (expected a value)");
    if (at_ < end_ && *at_ == '.') {
      ++at_;
      if (!digits_run())
        refuse("a number in ", syntax.part, " has no digits after its point");
    }
    if (at_ < end_ && (*at_ == 'e' || *at_ == 'E')) {
      ++at_;
      if (at_ < end_ && (*at_ == '+' || *at_ == '-'))
        ++at_;
      if (!digits_run())
        refuse("a number in ", syntax.part, " has no digits in its exponent");
    }
    if (at_ - start > 400)
      refuse("a number in ", syntax.part, " has more than 400 characters");
    return start;
  }

  bool digits_run() {
    const char *start = at_;
    while (at_ < end_ && *at_ >= '0' && *at_ <= '9')
      ++at_;
    return at_ != start;
  }

  unsigned hex4() {
    if (end_ - at_ < 4)
      refuse("a \\u escape in ", syntax.part, " is cut short");
    unsigned value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *at_++;
      const unsigned digit = c >= '0' && c <= '9'   ? unsigned(c - '0')
                             : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                             : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10)
                                                    : 16;
      if (digit == 16)
        refuse("a \\u escape in ", syntax.part, " is not hexadecimal");
      value = value * 16 + digit;
    }
    return value;
  }

  // The code point of a \u escape (its "\u" read), joining a surrogate pair.
  unsigned code_point() {
    const unsigned first = hex4();
    if (first < 0xD800 || first > 0xDFFF)
      return first;
    if (first > 0xDBFF || end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u')
      refuse("a \\u escape in ", syntax.part, " is half a surrogate pair");
    at_ += 2;
    const unsigned second = hex4();
    if (second < 0xDC00 || second > 0xDFFF)
      refuse("a \\u escape in ", syntax.part, " is half a surrogate pair");
    return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
  }

  static void append_utf8(std::string &out, unsigned point) {
    if (point < 0x80) {
      out += static_cast<char>(point);
    } else if (point < 0x800) {
      out += static_cast<char>(0xC0 | (point >> 6));
      out += static_cast<char>(0x80 | (point & 0x3F));
    } else if (point < 0x10000) {
      out += static_cast<char>(0xE0 | (point >> 12));
      out += static_cast<char>(0x80 | ((point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (point & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (point >> 18));
      out += static_cast<char>(0x80 | ((point >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((point >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (point & 0x3F));
    }
  }
};

} // namespace attention::files
