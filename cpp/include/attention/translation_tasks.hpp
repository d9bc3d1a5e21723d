// Translation tasks for the encoder–decoder, made by the engine from small grammars (nothing is
// downloaded), each pair with its gold word alignment, so that the attention a model learns can be
// set beside the one it should learn:
//   en-fr  English -> French: adjectives of colour and state follow the noun, and every adjective
//          agrees with the noun ("the red car is small" -> "la voiture rouge est petite").
//   en-zh  English -> Chinese: time and place come before the verb ("I eat rice at home today" ->
//          "我 今天 在 家 吃 饭"); Chinese words are separated by spaces.
//   dates  dates as people write them ("Nov 23, 2026", "23rd of November 2026", "23/11/2026") ->
//          ISO 8601 ("2026-11-23"), character by character.
//
// Tokens. en-fr and en-zh: words, split on whitespace. dates: characters (Unicode code points);
// on the source side a run of whitespace is one "▁" token (U+2581, as SentencePiece writes it) and
// whitespace at either end is dropped. Case counts ("The" is not "the"). A token outside the
// vocabulary is an error: there is no <unk>.
//
// Ids are indices into a vocabulary. Both vocabularies of a task start with <sos> (0) and <eos>
// (1), then the grammar's words in the order of its tables. A source is the words followed by
// <eos>: the encoder reads that <eos> and never <sos>, and the target's <eos> aligns to it (the
// attention has somewhere to look while the decoder ends). A target is the words followed by
// <eos>; the decoder starts from <sos>, which is not part of it.
//
// Alignment: for each target token, its sure links (the source positions it translates, in
// increasing order) and its possible links (positions it may be linked to without being their
// translation: Och & Ney's P, which holds the sure links S too), as the field scores alignments.
//   en-fr  sure, one to one: le/la/les <- "the", est/sont <- "is"/"are", et <- "and", each
//          adjective form <- its English adjective, each noun <- its noun. Possible: the noun, for
//          the article and every adjective: their gender and number agree with the noun's, which
//          English shows on no other word (its gender on none at all).
//   en-zh  sure: 在 <- "at"/"in", 不 <- "not", a time word <- every word of its English phrase
//          (每天 <- "every day"), each other word <- its English word. Possible: 不 <- "do"/"does"
//          (the auxiliary exists only to carry the negation) and a place <- its "the" (part of
//          the English noun phrase). English "the" and "do"/"does" translate to nothing.
//   dates  sure: a year digit <- the same digit; a month or day digit <- its digit, or the whole
//          month name ("November", "Nov") for both month digits. A padding zero translates no
//          character ("3" -> "03"), so its one link, to the digit it pads, is possible only. The
//          ISO hyphens link to nothing: they come from the output format, as the source's
//          separators, spaces, ordinal suffixes and "of" translate to nothing.
// Each target token also has its word category, from the grammar (WordCategory).
//
// Datasets. Grammar index i (0 <= i < the grammar's size) is one sentence, or none when i breaks a
// rule of the grammar (an adjective category used twice; 31 April). make_task draws indices with
// numpy's RandomState(seed).randint(size), one call per draw, skips the ones that make no sentence
// or repeat a source already drawn, and keeps the first train_size sentences for training and the
// next test_size for testing: a sample without replacement, in random order, reproducible in numpy.
// 2000 training pairs show every word some twenty times or more, in varied contexts (the rarest
// for seed 0: en-zh's "cooks", 19 times; en-fr's "house", 90), while an epoch stays small for
// training in a browser (14000 to 22000 decoder steps); 400 test pairs (a sixth) measure accuracy
// to within about 2.5 points (one standard error).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp" // InputError

namespace attention::tasks {

enum class Side { source, target };
enum class Unit { word, character }; // what one token of a task is

struct Vocabulary {
  static constexpr std::size_t sos = 0, eos = 1;
  std::vector<std::string> tokens; // id = index

  // The id of a token, or nothing when the vocabulary lacks it.
  std::optional<std::size_t> find(std::string_view token) const;
};

// What a target token is, for the alignment's breakdown by category: en-fr's article, noun,
// adjective, verb, conjunction; en-zh's subject, time, negation, preposition (在), place, verb,
// object; dates' year, month and day digits and the separator (the hyphens); <eos> is `end`.
enum class WordCategory {
  article,
  noun,
  adjective,
  verb,
  conjunction,
  subject,
  time,
  negation,
  preposition,
  place,
  object,
  year,
  month,
  day,
  separator,
  end
};
// Its identifier ("article", …), which a page words in its own language.
const char *word_category_name(WordCategory category);

struct Example {
  std::vector<std::size_t> source; // ends with <eos>
  std::vector<std::size_t> target; // ends with <eos>
  // One entry per target token (<eos> included, linked to the source's <eos>): the sure links.
  std::vector<std::vector<std::size_t>> alignment;
  // One entry per target token: its possible links that are not sure (P = alignment ∪ possible).
  std::vector<std::vector<std::size_t>> possible;
  std::vector<WordCategory> categories; // one per target token
};

// An alignment scored against the gold as Och & Ney (2003) score it, a target word at a time: A,
// the predicted links, is one per word (the source position its attention peaks on); S the sure
// links, P the possible ones with the sure ones, and AER = 1 - (|A∩S| + |A∩P|) / (|A| + |S|).
// Words whose gold links nothing (dates' hyphens, which attention cannot point at nothing for)
// are left out, as is <eos> (the caller's to leave out).
class AlignmentScore {
public:
  struct Category {
    WordCategory category;
    std::size_t count = 0, aligned = 0; // words, and those whose link is in P
    // Where the others look instead: the source token most of them link to (the lowest id of
    // equally many), and how many do; none when every word is aligned.
    std::optional<std::size_t> instead;
    std::size_t instead_count = 0;
  };

  // A word whose predicted link is source position `predicted`, holding token `predicted_token`.
  void add(std::size_t predicted, std::size_t predicted_token, const std::vector<std::size_t> &sure,
           const std::vector<std::size_t> &possible, WordCategory category);
  // 0 when no word was added (nothing to get wrong).
  double aer() const;
  // The share of words whose link is sure or possible (|A∩P| / |A|); 0 when none was added.
  double aligned_share() const;
  // Per category that has words, in WordCategory's order.
  std::vector<Category> categories() const;

private:
  std::size_t links_ = 0, sure_ = 0, in_sure_ = 0, in_possible_ = 0; // |A|, |S|, |A∩S|, |A∩P|
  std::vector<Category> categories_;
  std::vector<std::map<std::size_t, std::size_t>> missed_; // per category: source token -> words
};

struct Task {
  std::string id;
  Unit unit = Unit::word;
  Vocabulary source, target;
  // The longest sentence tokenize accepts on each side, in words or characters before <eos>. Every
  // sentence the grammar makes is within them.
  std::size_t max_source_length = 0, max_target_length = 0;
  std::vector<Example> train, test;
};

constexpr std::size_t train_size = 2000, test_size = 400;

// "en-fr", "en-zh", "dates".
const std::vector<std::string> &task_ids();

// The task `id` without its examples (no split drawn): its vocabularies and limits, cheaply.
// InputError blames "task" for an unknown id.
Task empty_task(const std::string &id);

// The task `id` with its split for `seed` (0 <= seed <= 2**32 - 1, as numpy's). InputError blames
// "task" for an unknown id and "seed" for a seed out of range.
Task make_task(const std::string &id, std::int64_t seed = 0);

// The task's "train" or "test" split; InputError blames "split" for any other name.
const std::vector<Example> &split(const Task &task, const std::string &name);

// A sentence as the encoder reads it (Side::source) or as the decoder must produce it
// (Side::target), both ending with <eos>. InputError blames "sentence" when it is empty, longer
// than the task's maximum, or holds a token the vocabulary lacks (the message names it and, for
// words, suggests up to three of the nearest by edit distance).
std::vector<std::size_t> tokenize(const Task &task, const std::string &sentence, Side side);

// Text for display: the tokens up to the first <eos> (where the decoder stops), <sos> skipped;
// words joined by spaces, characters joined as they are ("▁" as a space). InputError blames "ids"
// for an id outside the vocabulary.
std::string detokenize(const Task &task, const std::vector<std::size_t> &ids, Side side);

// The pair the grammar makes for a source sentence, with its gold alignment, or nothing when the
// grammar does not make that sentence (a page can show the gold translation of what a user types).
// Tokenizes as tokenize does, with the same errors, then searches the grammar's indices that can
// make the source: those of its noun for en-fr (a twentieth), of its subject and verb for en-zh
// (a forty-second), of its year for dates (4000 of 670000).
std::optional<Example> gold_example(const Task &task, const std::string &sentence);

} // namespace attention::tasks
