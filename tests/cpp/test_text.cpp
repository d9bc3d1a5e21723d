#include <doctest/doctest.h>

#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tasks/text.hpp"

using namespace attention::tasks;

namespace {

using Tokens = std::vector<std::string>;

Tokens words(std::string_view text, bool lowercase = false) {
  return split_text(text, Unit::word, lowercase);
}

Tokens characters(std::string_view text, bool lowercase = false) {
  return split_text(text, Unit::character, lowercase);
}

constexpr auto npos = std::string_view::npos;

std::string utf8(char32_t code_point) {
  if (code_point < 0x80)
    return {static_cast<char>(code_point)};
  const std::size_t length = code_point < 0x800 ? 2 : code_point < 0x10000 ? 3 : 4;
  const unsigned char lead_bits[] = {0, 0, 0xC0, 0xE0, 0xF0};
  std::string text(length, '\0');
  text[0] = static_cast<char>(lead_bits[length] | code_point >> 6 * (length - 1));
  for (std::size_t i = 1; i < length; ++i)
    text[i] = static_cast<char>(0x80 | (code_point >> 6 * (length - 1 - i) & 0x3F));
  return text;
}

} // namespace

TEST_CASE("text: nothing but spaces makes no token") {
  for (const char *text : {"", " ", " \t  \n", "\r\n", "\u3000\u00A0", "\uFEFF"}) {
    CHECK(words(text).empty());
    CHECK(characters(text).empty());
  }
}

TEST_CASE("text: whitespace separates words, CR and LF too, and a BOM vanishes") {
  CHECK(words("Hello\r\nworld") == Tokens{"Hello", "world"});
  CHECK(words("\uFEFFGo.") == Tokens{"Go", "."});
  CHECK(words("Go.", true) == Tokens{"go", "."});
  CHECK(words("我\u3000你") == Tokens{"我", "你"});
  CHECK(words("  two\t\twords  ") == Tokens{"two", "words"});
}

TEST_CASE("text: punctuation and symbols are a token each") {
  CHECK(words("Va !") == Tokens{"Va", "!"});
  CHECK(words("Va\u00A0!") == Tokens{"Va", "!"}); // French typography's no-break spaces
  CHECK(words("Va\u202F!") == Tokens{"Va", "!"});
  CHECK(words("I'm OK.") == Tokens{"I", "'", "m", "OK", "."});
  CHECK(words("don't", true) == Tokens{"don", "'", "t"});
  CHECK(words("l'homme") == Tokens{"l", "'", "homme"});
  CHECK(words("3.14") == Tokens{"3", ".", "14"});
  CHECK(words("«Oui»...") == Tokens{"«", "Oui", "»", ".", ".", "."});
  CHECK(words("snake_case") == Tokens{"snake", "_", "case"});
}

TEST_CASE("text: ignored characters vanish without separating") {
  CHECK(words("ab\u00ADcd") == Tokens{"abcd"}); // soft hyphen
  CHECK(words("a\u0007b\U0010FFFF") == Tokens{"ab"});
  CHECK(words("ab\u200Bcd") == Tokens{"ab", "cd"}); // but a zero-width space separates
  CHECK(characters("ก\u200Bข") == Tokens{"ก", "▁", "ข"});
}

TEST_CASE("text: marks join the character before them, and start a token with none before") {
  CHECK(words("e\u0301te\u0301") == Tokens{"e\u0301te\u0301"});
  CHECK(words("\u00E9t\u00E9") != words("e\u0301te\u0301")); // no normalisation
  CHECK(characters("e\u0301te\u0301") == Tokens{"e\u0301", "t", "e\u0301"});
  CHECK(words("\u0301a") == Tokens{"\u0301", "a"});
  CHECK(words("x \u0301\u0302") == Tokens{"x", "\u0301\u0302"});
  CHECK(words("1\uFE0F\u20E3") == Tokens{"1\uFE0F\u20E3"}); // keycap 1
}

TEST_CASE("text: emoji sequences are one token") {
  CHECK(words("👍🏽") == Tokens{"👍🏽"});
  CHECK(words("ok👍🏽!") == Tokens{"ok", "👍🏽", "!"});
  CHECK(words("👨‍👩‍👧") == Tokens{"👨‍👩‍👧"});
  CHECK(characters("a 👨‍👩‍👧 b") == Tokens{"a", "▁", "👨‍👩‍👧", "▁", "b"});
  CHECK(words("👨\u200D 👩") == Tokens{"👨\u200D", "👩"}); // a space ends the sequence
  CHECK(words("🇫🇷") == Tokens{"🇫🇷"});
  CHECK(words("🇫🇷🇩🇪") == Tokens{"🇫🇷", "🇩🇪"});
  CHECK(words("🇫🇷🇩") == Tokens{"🇫🇷", "🇩"});
  CHECK(words("🏴󠁧󠁢󠁥󠁮󠁧󠁿") ==
        Tokens{"🏴󠁧󠁢󠁥󠁮󠁧󠁿"}); // England: a flag and tags
  CHECK(words("I ❤️ NY") == Tokens{"I", "❤️", "NY"});
  CHECK(words("I ❤️ NY", true) == Tokens{"i", "❤️", "ny"});
}

TEST_CASE("text: scripts written without spaces give a token per character") {
  CHECK(words("我爱你") == Tokens{"我", "爱", "你"});
  CHECK(words("AI模型2026年", true) == Tokens{"ai", "模", "型", "2026", "年"});
  CHECK(words("これはペンです。") == Tokens{"こ", "れ", "は", "ペ", "ン", "で", "す", "。"});
  CHECK(words("ラーメン") == Tokens{"ラ", "ー", "メ", "ン"});
  CHECK(words("人々") == Tokens{"人", "々"});
  // Thai's vowel marks above and below join their consonant
  CHECK(words("สวัสดีครับ") == Tokens{"ส", "วั", "ส", "ดี", "ค", "รั", "บ"});
  CHECK(words("пʼять") == Tokens{"пʼять"}); // U+02BC is a Cyrillic letter too, not unspaced
}

TEST_CASE("text: lower case maps each code point to one") {
  CHECK(words("Hello WORLD", true) == Tokens{"hello", "world"});
  CHECK(words("Hello WORLD") == Tokens{"Hello", "WORLD"});
  CHECK(words("ÉCOLE", true) == Tokens{"école"});
  CHECK(words("ΣΟΦΊΑ ΟΔΟΣ", true) == Tokens{"σοφία", "οδοσ"}); // no final sigma
  CHECK(words("İstanbul", true) == Tokens{"İstanbul"});        // İ's lower case is two
  CHECK(words("МОСКВА", true) == Tokens{"москва"});
  CHECK(words("ŁÓDŹ Ǆ", true) == Tokens{"łódź", "ǆ"}); // alternating capitals and small letters
  CHECK(words("ＡＢＣ", true) == Tokens{"ａｂｃ"});
  CHECK(words("\U00010400", true) == Tokens{"\U00010428"}); // Deseret, beyond the BMP
  CHECK(words("ß ẞ", true) == Tokens{"ß", "ß"});
}

TEST_CASE("text: characters, with a run of spaces as one ▁") {
  CHECK(characters("Nov 23") == Tokens{"N", "o", "v", "▁", "2", "3"});
  CHECK(characters("Nov 23", true) == Tokens{"n", "o", "v", "▁", "2", "3"});
  CHECK(characters("  a \t\r\n b  ") == Tokens{"a", "▁", "b"});
  CHECK(characters("Go.") == Tokens{"G", "o", "."});
  CHECK(characters("我爱 你") == Tokens{"我", "爱", "▁", "你"});
  CHECK(characters("👍🏽 ok") == Tokens{"👍🏽", "▁", "o", "k"});
  CHECK(characters("🇫🇷🇩🇪") == Tokens{"🇫🇷", "🇩🇪"});
}

TEST_CASE("text: invalid UTF-8 is found where it starts") {
  CHECK(invalid_utf8_at("") == npos);
  CHECK(invalid_utf8_at("été 👍🏽 我 \xEF\xBF\xBD") == npos);
  CHECK(invalid_utf8_at("\xF4\x8F\xBF\xBF") == npos); // U+10FFFF
  CHECK(invalid_utf8_at("a\x80") == 1);
  CHECK(invalid_utf8_at("ab\xC0\xAF") == 2);        // overlong "/"
  CHECK(invalid_utf8_at("\xE0\x80\xAF") == 0);      // overlong in three bytes
  CHECK(invalid_utf8_at("\xF0\x8F\xBF\xBF") == 0);  // overlong in four bytes
  CHECK(invalid_utf8_at("é\xED\xA0\x80") == 2);     // surrogate U+D800
  CHECK(invalid_utf8_at("x\xF5\x80\x80\x80") == 1); // beyond U+10FFFF
  CHECK(invalid_utf8_at("\xF4\x90\x80\x80") == 0);  // U+110000
  CHECK(invalid_utf8_at("ok \xE2\x82") == 3);       // truncated "€"
  CHECK(invalid_utf8_at("\xE2\x82"
                        "a") == 0);
}

TEST_CASE("text: invalid UTF-8 reads as U+FFFD, as TextDecoder reads it") {
  CHECK(words("a\x80"
              "b") == Tokens{"a", "\uFFFD", "b"});
  CHECK(words("\xE2\x82") == Tokens{"\uFFFD"});           // one for a truncated sequence
  CHECK(words("\xF0\x80") == Tokens{"\uFFFD", "\uFFFD"}); // F0 80 could begin no sequence
  CHECK(words("\xED\xA0\x80") == Tokens{"\uFFFD", "\uFFFD", "\uFFFD"});
}

TEST_CASE("text: random bytes never break the tokenizer, and tokens are always valid UTF-8") {
  std::mt19937 random(2026);
  // Bytes where UTF-8 has its edges: lead bytes, continuation bytes, ASCII spaces and letters.
  const unsigned char edges[] = {0x00, 0x09, 0x20, 0x27, 0x41, 0x7F, 0x80, 0x8F, 0x90,
                                 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE2,
                                 0xED, 0xEF, 0xF0, 0xF3, 0xF4, 0xF5, 0xFF};
  // Characters the tokenizer treats apart: joiner, regional indicator, mark, skin tone, tag,
  // zero-width space, BOM, Han, Thai, İ.
  const char32_t specials[] = {0x200D, 0x1F1EB, 0x0301, 0x1F3FD, 0xE0067,
                               0x200B, 0xFEFF,  0x6211, 0x0E31,  0x0130};
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (std::size_t pieces = random() % 16; pieces > 0; --pieces)
      switch (random() % 4) {
      case 0:
        text += static_cast<char>(random() % 256);
        break;
      case 1:
        text += static_cast<char>(edges[random() % std::size(edges)]);
        break;
      case 2:
        text += utf8(specials[random() % std::size(specials)]);
        break;
      default: // any code point but a surrogate
        const char32_t code_point = random() % 0x10F800;
        text += utf8(code_point < 0xD800 ? code_point : code_point + 0x800);
      }
    const std::size_t invalid = invalid_utf8_at(text);
    REQUIRE((invalid == npos || invalid < text.size()));
    if (invalid != npos)
      REQUIRE(invalid_utf8_at(text.substr(0, invalid)) == npos);
    for (const Unit unit : {Unit::word, Unit::character}) {
      const Tokens tokens = split_text(text, unit, round % 2 == 0);
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        REQUIRE_FALSE(tokens[i].empty());
        REQUIRE(invalid_utf8_at(tokens[i]) == npos);
        if (tokens[i] == "▁" && text.find("▁") == npos) // between tokens, one a run
          REQUIRE((i > 0 && i + 1 < tokens.size() && tokens[i + 1] != "▁"));
      }
    }
  }
}

TEST_CASE("text: every code point encodes and tokenizes back to itself or nothing") {
  // One character at a time: a token holds it alone (or its lower case), or it is dropped.
  for (char32_t code_point = 0; code_point <= 0x10FFFF; code_point += 7) {
    if (code_point >= 0xD800 && code_point <= 0xDFFF)
      continue;
    const std::string text = utf8(code_point);
    REQUIRE(invalid_utf8_at(text) == npos);
    const Tokens tokens = words(text);
    REQUIRE(tokens.size() <= 1);
    if (!tokens.empty())
      REQUIRE(tokens[0] == text);
  }
}
