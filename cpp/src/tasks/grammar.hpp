// What the translation tasks' grammars share (grammar.hpp): how a grammar writes a sentence pair
// with its alignment, and the table entry each grammar (en_fr.cpp, en_zh.cpp, dates.cpp) provides.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "attention/translation_tasks.hpp"

namespace attention::tasks {

// The source positions [first, last) a target token translates. Every alignment of these grammars
// is one run of neighbouring positions, or none, so a grammar makes a pair without allocating: the
// search of gold_example makes hundreds of thousands.
struct Span {
  std::size_t first = 0, last = 0;
};

// A pair as a grammar makes it: tokens as text (views of the grammar's tables), without <eos>.
struct Pair {
  std::vector<std::string_view> source, target;
  std::vector<Span> alignment, possible; // sure links, and possible ones beside them
  std::vector<WordCategory> categories;

  void clear() {
    source.clear();
    target.clear();
    alignment.clear();
    possible.clear();
    categories.clear();
  }
  // Appends a source token and returns its position.
  std::size_t read(std::string_view token) {
    source.push_back(token);
    return source.size() - 1;
  }
  Span read_all(std::initializer_list<std::string_view> tokens) {
    Span span{source.size(), source.size()};
    for (std::string_view token : tokens)
      if (!token.empty())
        span.last = read(token) + 1;
    return span;
  }
  void write(std::string_view token, Span from, WordCategory category, Span maybe = {}) {
    target.push_back(token);
    alignment.push_back(from);
    possible.push_back(maybe);
    categories.push_back(category);
  }
  void write(std::string_view token, std::size_t from, WordCategory category) {
    write(token, {from, from + 1}, category);
  }
  void write(std::string_view token, std::size_t from, WordCategory category, std::size_t maybe) {
    write(token, {from, from + 1}, category, {maybe, maybe + 1});
  }
};

// Grammar indices first … last - 1.
// Grammar indices first, first + stride, … below last.
struct Range {
  std::uint64_t first, last, stride = 1;
};

// The token of a space in a sentence of characters.
constexpr std::string_view space = "▁";

inline void add(Vocabulary &vocabulary, std::string_view token) {
  if (!vocabulary.find(token))
    vocabulary.tokens.emplace_back(token);
}

// A kind of source word ("colour"): the grammar's words of that kind, and words of the same kind
// a reader may type that the grammar lacks ("purple"), so that an unknown word nothing is spelt
// like is answered with the words of its kind.
struct WordKind {
  const char *name;
  std::vector<std::string_view> words, others;
};

struct Grammar {
  const char *id;
  Unit unit;
  std::size_t max_source_length, max_target_length; // see Task
  std::uint64_t size;                               // indices 0 … size - 1
  // Writes sentence `index` into `pair`; false when the index breaks a rule of the grammar.
  bool (*make)(std::uint64_t index, Pair &pair);
  // Adds every token the grammar writes on each side, in the order of its tables.
  void (*list_words)(Vocabulary &source, Vocabulary &target);
  // The indices that may make a source (words without <eos>): gold_example searches those.
  Range (*indices_for)(const std::vector<std::string_view> &source);
  // The kinds of its source words (none for a task of characters).
  std::vector<WordKind> (*word_kinds)();
};

// A sentence's tokens as a grammar's task reads them (translation_tasks.cpp): words split on
// whitespace, or characters with "▁" for a space; a word the vocabulary lacks read as typed
// (without the punctuation around it, then in lower case), punctuation alone dropped, an unknown
// word kept as typed for the caller's message.
std::vector<std::string> grammar_words(const Vocabulary &vocabulary, std::string_view sentence,
                                       Unit unit);
// The vocabulary's words nearest a token by edit distance, up to three, nearest first, within
// half its length: what a message about an unknown word suggests.
std::vector<std::string> nearest_words(const Vocabulary &vocabulary, std::string_view token);

// The grammars, in task_ids() order. The longest sentences they make: en-fr 8 words on each side,
// en-zh 10 and 7, dates 22 characters and 10; each entry's limits leave room for a sentence a user
// writes with the same words.
extern const Grammar en_fr_grammar, en_zh_grammar, dates_grammar;

} // namespace attention::tasks
