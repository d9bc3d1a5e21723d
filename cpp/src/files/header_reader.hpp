// What the readers of a tensor file's text header share (safetensors' JSON, .npy's Python dict
// literal; and the JSON of a checkpoint's config.json): a cursor over the header's bytes that never
// reads past their end, its punctuation, lists, dicts, words and integers, and the refusal of the
// file, an InputError blaming the syntax's argument ("bytes" for a tensor file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "attention/errors.hpp"

namespace attention::files {

// A header's syntax as its reader refuses and reads it.
struct HeaderSyntax {
  const char *not_a;    // what bytes it refuses are not ("a safetensors file")
  const char *name;     // its name in "the header's <name> is malformed"
  bool trailing_commas; // whether a list may end in a comma (Python's literals; JSON's may not)
  const char *argument = "bytes";  // the argument a refusal blames
  const char *part = "the header"; // the part of the file read ("the header's JSON is malformed")
};

// Reader, the reader of one syntax (CRTP), gives string(), the keys of its dicts, and its
// HeaderSyntax, `syntax`.
template <class Reader> class HeaderReader {
public:
  HeaderReader(const char *begin, const char *end) : at_(begin), end_(end) {}

  // The file refused, by the reader or by what reads the rest of the file: "<argument> is not
  // <not_a>: <parts…>" ("bytes are not" for bytes), blaming the syntax's argument.
  template <class... Parts> [[noreturn]] static void refuse(const Parts &...parts) {
    const char *argument = Reader::syntax.argument;
    detail::fail(detail::Argument(argument), argument,
                 std::strcmp(argument, "bytes") == 0 ? " are not " : " is not ",
                 Reader::syntax.not_a, ": ", parts...);
  }

  // open item, item, … close: item() reads each.
  template <class Item> void list(char open, char close, Item &&item) {
    expect(open);
    if (consume(close))
      return;
    while (true) {
      item();
      if (!consume(',')) {
        expect(close);
        return;
      }
      if (Reader::syntax.trailing_commas && consume(close))
        return;
    }
  }

  // { key: value, … }: member(key) reads each value.
  template <class Member> void dict(Member &&member) {
    list('{', '}', [&] {
      const std::string key = static_cast<Reader &>(*this).string();
      expect(':');
      member(key);
    });
  }

  bool peek(char c) {
    skip_space();
    return at_ < end_ && *at_ == c;
  }

protected:
  void skip_space() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\n' || *at_ == '\r'))
      ++at_;
  }

  bool consume(char c) {
    if (!peek(c))
      return false;
    ++at_;
    return true;
  }

  void expect(char c) {
    if (!consume(c))
      refuse(Reader::syntax.part, "'s ", Reader::syntax.name, " is malformed (expected '", c, "')");
  }

  // `word` next, read if it is.
  bool word(const char *word) {
    const std::size_t length = std::strlen(word);
    if (static_cast<std::size_t>(end_ - at_) < length || std::memcmp(at_, word, length) != 0)
      return false;
    at_ += length;
    return true;
  }

  // The digits next (after any space) as a non-negative integer up to 2^53 (sizes; JSON readers
  // hold numbers as doubles): `not_digits` and `too_large` say what is wrong otherwise.
  std::size_t digits(const char *not_digits, const char *too_large) {
    skip_space();
    if (at_ == end_ || *at_ < '0' || *at_ > '9')
      refuse(not_digits);
    std::uint64_t value = 0;
    while (at_ < end_ && *at_ >= '0' && *at_ <= '9') {
      value = value * 10 + static_cast<std::uint64_t>(*at_++ - '0');
      if (value > (std::uint64_t(1) << 53))
        refuse(too_large);
    }
    return static_cast<std::size_t>(value);
  }

  const char *at_;
  const char *end_;
};

} // namespace attention::files
