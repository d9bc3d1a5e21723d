// The tokenizer's Unicode tables (text.hpp states its rules), generated from Node by
// scripts/unicode-tables.js into unicode_tables.cpp: text.cpp alone reads them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attention::tasks::unicode {

// What a code point is to the tokenizer; text.hpp says how each kind splits text.
enum class CodePointClass : std::uint8_t {
  ignored,
  space,
  extend,
  joiner, // U+200D ZERO WIDTH JOINER: extends, and joins the next character too
  regional,
  unspaced,
  word,
  symbol
};

// Sorted by `first`, the first from 0: the code points from `first` up to the next range's first
// have class `code_point_class`. Packed in 4 bytes, as the tables ship in the engine.
struct ClassRange {
  std::uint32_t first : 21;
  CodePointClass code_point_class : 3;
};
static_assert(sizeof(ClassRange) == 4);

// Sorted by `first`, disjoint: `count` code points from `first` (every other one when
// `every_other`, the ones between keeping their case) lower-case to the code point + `delta`.
// Every other code point is its own lower case.
struct LowerRange {
  std::uint32_t first : 21, count : 10, every_other : 1;
  std::int32_t delta;
};
static_assert(sizeof(LowerRange) == 8);

extern const ClassRange class_ranges[];
extern const std::size_t class_range_count;
extern const LowerRange lower_ranges[];
extern const std::size_t lower_range_count;

} // namespace attention::tasks::unicode
