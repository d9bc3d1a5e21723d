// The tokens of text a reader brings (pasted sentence pairs in any script), the same in every
// browser and in Node: the Unicode tables are the engine's own (unicode_tables.cpp, generated
// from Node by scripts/unicode-tables.js), not the platform's.
//
// Each code point has a class:
//   space     White_Space (tab, CR, LF, NBSP, U+3000 …) and U+200B ZERO WIDTH SPACE, which Thai
//             and Khmer text puts between words: separates tokens.
//   extend    marks (\p{M}: combining accents, variation selectors), skin tones (Emoji_Modifier),
//             tags (U+E0020..E007F) and U+200D ZERO WIDTH JOINER: joins the character before it
//             (with nothing before it, at the start or after a space, it starts a token that
//             takes only extenders). The next character after a ZWJ joins too, unless a space
//             comes first: an emoji ZWJ sequence (👨‍👩‍👧) is one token.
//   unspaced  letters and numbers of scripts written without spaces (Script_Extensions Han,
//             Hiragana, Katakana, Thai, Lao, Khmer, Myanmar; not ʼ U+02BC, a Latin letter too):
//             a token each, words being invisible ("我爱你" -> 我 爱 你).
//   word      other letters and numbers (\p{L}, \p{N}): a run of them is one token.
//   symbol    punctuation and symbols (\p{P}, \p{S}, emoji among them): a token each ("don't" ->
//             don ' t). A regional indicator joins a single one before it: a flag (🇫🇷) is one
//             token, three indicators a flag and a single one.
//   ignored   everything else (controls, format characters such as the BOM U+FEFF, unassigned
//             and private-use code points): dropped as if absent, separating nothing.
// Unit::word gives these tokens. Unit::character splits words into their characters too (each
// with its extenders), and writes a run of spaces between tokens as one "▁" token (U+2581, as
// SentencePiece writes it); spaces at either end give nothing.
// Lower case is the simple mapping, one code point to one: İ (U+0130, whose lower case is
// i + U+0307) stays, Σ is σ even at a word's end. No normalisation: a precomposed "é" and
// "e" + U+0301 are different tokens.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "attention/translation_tasks.hpp" // Unit

namespace attention::tasks {

// The byte offset of the first byte that is not part of valid UTF-8 (overlong forms, surrogates,
// code points above U+10FFFF and truncated sequences are invalid), or std::string_view::npos.
std::size_t invalid_utf8_at(std::string_view text);

// The tokens of a text as a model reads them, lower-cased when `lowercase`. Text should be valid
// UTF-8; an ill-formed sequence reads as U+FFFD (a symbol), as TextDecoder reads it.
std::vector<std::string> split_text(std::string_view text, Unit unit, bool lowercase);

} // namespace attention::tasks
