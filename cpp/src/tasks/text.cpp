#include "tasks/text.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "tasks/unicode_tables.hpp"

namespace attention::tasks {

namespace {

using unicode::CodePointClass;

constexpr char32_t replacement = 0xFFFD;
constexpr std::string_view space_token = "▁";

struct Decoded {
  char32_t code_point;
  std::size_t length; // bytes read
  bool valid;
};

// The code point at text[at] (at < text.size()). An ill-formed sequence reads as one U+FFFD over
// its longest prefix that could begin a valid sequence, or over its first byte when none could, as
// the Encoding Standard's decoder (TextDecoder) reads it.
Decoded decode(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80)
    return {lead, 1, true};
  std::size_t length = 0;
  char32_t code_point = 0;
  // The range of the second byte, narrower than 80..BF where the lead would allow an overlong
  // form (E0, F0), a surrogate (ED) or a code point above U+10FFFF (F4).
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code_point = lead & 0x0F;
    low = lead == 0xE0 ? 0xA0 : low;
    high = lead == 0xED ? 0x9F : high;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code_point = lead & 0x07;
    low = lead == 0xF0 ? 0x90 : low;
    high = lead == 0xF4 ? 0x8F : high;
  } else {
    return {replacement, 1, false};
  }
  for (std::size_t i = 1; i < length; ++i) {
    if (at + i >= text.size() || byte(at + i) < low || byte(at + i) > high)
      return {replacement, i, false};
    code_point = code_point << 6 | (byte(at + i) & 0x3F);
    low = 0x80;
    high = 0xBF;
  }
  return {code_point, length, true};
}

void append_utf8(std::string &text, char32_t code_point) {
  const auto put = [&](char32_t bits) { text.push_back(static_cast<char>(bits)); };
  if (code_point < 0x80) {
    put(code_point);
  } else if (code_point < 0x800) {
    put(0xC0 | code_point >> 6);
    put(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    put(0xE0 | code_point >> 12);
    put(0x80 | (code_point >> 6 & 0x3F));
    put(0x80 | (code_point & 0x3F));
  } else {
    put(0xF0 | code_point >> 18);
    put(0x80 | (code_point >> 12 & 0x3F));
    put(0x80 | (code_point >> 6 & 0x3F));
    put(0x80 | (code_point & 0x3F));
  }
}

struct Character {
  CodePointClass code_point_class;
  char32_t lower;
};

Character searched(char32_t code_point) {
  using namespace unicode;
  const auto starts_after = [](char32_t point, const auto &range) { return point < range.first; };
  // The first class range starts at 0, so the one before the first that starts after the point
  // always exists.
  const ClassRange &class_range = std::upper_bound(class_ranges, class_ranges + class_range_count,
                                                   code_point, starts_after)[-1];
  Character character{class_range.code_point_class, code_point};
  const LowerRange *lower_range =
      std::upper_bound(lower_ranges, lower_ranges + lower_range_count, code_point, starts_after);
  if (lower_range != lower_ranges) {
    --lower_range;
    const char32_t step = lower_range->every_other ? 2 : 1,
                   offset = code_point - lower_range->first;
    if (offset % step == 0 && offset / step < lower_range->count)
      character.lower =
          static_cast<char32_t>(static_cast<std::int32_t>(code_point) + lower_range->delta);
  }
  return character;
}

// Most text a reader pastes is mostly ASCII: its characters are looked up once.
Character look_up(char32_t code_point) {
  static const auto ascii = [] {
    std::array<Character, 0x80> characters{};
    for (char32_t c = 0; c < characters.size(); ++c)
      characters[c] = searched(c);
    return characters;
  }();
  return code_point < ascii.size() ? ascii[code_point] : searched(code_point);
}

} // namespace

std::size_t invalid_utf8_at(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const Decoded decoded = decode(text, at);
    if (!decoded.valid)
      return at;
    at += decoded.length;
  }
  return std::string_view::npos;
}

std::vector<std::string> split_text(std::string_view text, Unit unit, bool lowercase) {
  std::vector<std::string> tokens;
  // What joins the last token: nothing (after a space, or before the first token), extenders, or
  // word characters too (when its last character but extenders is one, in Unit::word).
  enum class Takes { nothing, extenders, word_characters } takes = Takes::nothing;
  bool after_joiner = false;       // the last character was a ZWJ: the next one joins
  bool lone_regional = false;      // the last character was a regional indicator yet unpaired
  bool spaces_since_token = false; // Unit::character writes them as "▁"
  for (std::size_t at = 0; at < text.size();) {
    const Decoded decoded = decode(text, at);
    at += decoded.length;
    const auto [code_point_class, lower] = look_up(decoded.code_point);
    if (code_point_class == CodePointClass::ignored)
      continue;
    if (code_point_class == CodePointClass::space) {
      takes = Takes::nothing;
      after_joiner = lone_regional = false;
      spaces_since_token = true;
      continue;
    }
    const bool extends =
        code_point_class == CodePointClass::extend || code_point_class == CodePointClass::joiner;
    const bool regional = code_point_class == CodePointClass::regional;
    const bool word_character = unit == Unit::word && code_point_class == CodePointClass::word;
    const bool joins =
        takes != Takes::nothing && (extends || after_joiner || (regional && lone_regional) ||
                                    (word_character && takes == Takes::word_characters));
    if (!joins) {
      if (unit == Unit::character && spaces_since_token && !tokens.empty())
        tokens.emplace_back(space_token);
      tokens.emplace_back();
      spaces_since_token = false;
    }
    append_utf8(tokens.back(), lowercase ? lower : decoded.code_point);
    if (!extends)
      takes = word_character ? Takes::word_characters : Takes::extenders;
    else if (!joins)
      takes = Takes::extenders;
    after_joiner = code_point_class == CodePointClass::joiner;
    lone_regional = regional && !lone_regional;
  }
  return tokens;
}

} // namespace attention::tasks
