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
// Tasks from text: make_text_task reads the reader's own pairs (one a line, source<TAB>target,
// as Tatoeba's files are) into a task of the same shape, with the tokenizer of tasks/text.hpp,
// vocabularies of the training split's words (rarer ones read as <unk>, id 2), validation and test
// splits held out from a seed, and gold alignments when a column gives them (Pharaoh's "0-0 1-2",
// "i?j" for a possible link). Its identity is a name and a hash of the text and options, so models
// trained on it, and their files, say which data they learnt. Such tasks are kept by id
// (add_task) until removed, so that a model's configuration names them as it names a grammar's.
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
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "errors.hpp" // InputError

namespace attention::tasks {

enum class Side { source, target };
enum class Unit { word, character }; // what one token of a task is

struct Vocabulary {
  static constexpr std::size_t sos = 0, eos = 1;
  static constexpr std::size_t unk = 2; // in a task from text: any token the vocabulary lacks
  std::vector<std::string> tokens;      // id = index

  // The id of a token, or nothing when the vocabulary lacks it.
  std::optional<std::size_t> find(std::string_view token) const;
  // A task from text's id of a token typed: <unk> for what the vocabulary lacks (typed specials
  // are words like any, so "<eos>" typed is <unk> too).
  std::size_t read(std::string_view token) const;
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
  end,
  word // a task from text, which has no grammar to say more
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
  // A task from text: the pair as given, and the target's tokens before <unk> replaced them (BLEU's
  // reference: a word outside the vocabulary stays itself, so an output <unk> never scores).
  std::string source_text, target_text;
  std::vector<std::string> reference;
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

// How a task from text reads a sentence (a grammar's task has its own rules, above).
struct TextRules {
  Unit source_unit = Unit::word, target_unit = Unit::word;
  bool lowercase = true;
};

// What reading a text kept and dropped. dropped: reason ("empty": a side without tokens;
// "sourceTooLong", "targetTooLong") -> pairs; unknown_share: the share of the validation split's
// tokens (both sides, <eos> not counted; the test split's when none is held out) read as <unk>.
struct TextStats {
  std::size_t pairs = 0; // kept, in all splits
  std::vector<std::pair<std::string, std::size_t>> dropped;
  double unknown_share = 0;
};

// BLEU-4 over a corpus of sentences of tokens, as sacreBLEU computes it with tokenize='none' and
// smooth_method='none' (Papineni et al. 2002): each n-gram order's matches clipped by the
// reference's counts and summed over the corpus; the geometric mean of the four precisions (0 when
// any is 0); times the brevity penalty exp(1 - r/c) when the outputs' c tokens are fewer than the
// references' r (0 when c is 0). One reference a sentence.
class Bleu {
public:
  void add(const std::vector<std::string> &output, const std::vector<std::string> &reference);
  double score() const; // 0 … 100

private:
  std::size_t matches_[4] = {}, totals_[4] = {};
  std::size_t output_length_ = 0, reference_length_ = 0;
};

struct Task {
  std::string id; // a grammar's ("en-fr"), or a task from text's "<name>-<hash>"
  Unit unit = Unit::word;
  std::optional<TextRules> text; // a task from text's
  Vocabulary source, target;
  // The longest sentence tokenize accepts on each side, in words or characters before <eos>. Every
  // sentence the grammar makes is within them.
  std::size_t max_source_length = 0, max_target_length = 0;
  // A grammar's task holds no validation split (a model holds its own out of train).
  std::vector<Example> train, validation, test;
  bool gold_links = true; // false: a task from text without an alignment column
  // A task from text's: its name, the hash its id ends with (16 hex digits), what reading kept.
  std::string name, hash;
  TextStats stats;

  Unit unit_of(Side side) const {
    return text ? (side == Side::source ? text->source_unit : text->target_unit) : unit;
  }
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

// The task `id`: a grammar's with its split for `seed`, or the task from text kept under that id
// (whose splits are its own). InputError blames "task" for an id of neither.
std::shared_ptr<const Task> find_task(const std::string &id, std::int64_t seed = 0);

// The task's "train", "validation" (a task from text's) or "test" split; InputError blames "split"
// for any other name, or for "validation" when the task holds none.
const std::vector<Example> &split(const Task &task, const std::string &name);

// ---- tasks from text ---------------------------------------------------------------------------

// What every task from the reader's text takes (the translation tasks' TextTaskOptions and the
// classification tasks' ClassificationTextOptions), under the JavaScript API's names, which their
// errors blame. Shares below 0.5 are of the lines kept; whole numbers from 1 are counts.
struct TextReadingOptions {
  std::string name;                      // name: 1 to 60 bytes, no whitespace, "/" or "\"
  std::size_t min_count = 2;             // minCount: a word seen fewer times in training is <unk>
  std::size_t max_vocabulary = 10000;    // maxVocabulary: words kept, the most frequent
  std::size_t max_length = 20;           // maxLength: tokens a sentence; longer lines are dropped
  double validation = 0.05, test = 0.05; // validation, test: each at most max_held_out lines
  std::int64_t seed = 0;                 // seed: which lines are held out
};

// Names a task after the file its text came from, the one rule for it: the file's name without
// its folders and its extension, each run of whitespace a "-", at most 40 bytes of whole
// characters ("eng-fra.txt" → "eng-fra", "my pairs.tsv" → "my-pairs"). A file name that leaves
// nothing ("", ".tsv") leaves `options.name` as it is.
void name_from_file(TextReadingOptions &options, std::string_view file);

// How make_text_task reads a text: the options above (name "pairs", lengths and vocabularies per
// side), and its own.
struct TextTaskOptions : TextReadingOptions {
  TextTaskOptions() { name = "pairs"; }
  std::size_t source_column = 0;        // sourceColumn: 0 or 1, the other of the two the target
  std::optional<std::size_t> alignment; // alignmentColumn (from 2); unset: the third column
  bool find_alignment = true;           //   when it holds Pharaoh links; false: none
  TextRules rules;                      // unit (per side), lowercase
};

// A unit's name ("word", "character"), and the unit of a name (InputError blames `argument` for
// any other).
const char *unit_name(Unit unit);
Unit parse_unit(const std::string &name, const char *argument);

// The limits of a text (more is refused, never cut) and of the options.
constexpr std::size_t max_text_bytes = 20'000'000, max_text_pairs = 200'000;
constexpr std::size_t max_held_out = 1000, max_text_length = 100, max_text_vocabulary = 100'000;

// A task from the text's pairs. InputError blames "pairs" for empty text, text that is not UTF-8
// or holds a NUL, a line without a tab, a malformed alignment, or nothing kept, naming the first
// lines at fault; "pairs" too beyond max_text_bytes or max_text_pairs; and an option by its name.
Task make_text_task(std::string_view text, const TextTaskOptions &options);

// A grammar's task `id` (seed 0, training pairs then test pairs) as a text make_text_task reads
// back: one pair a line, source<TAB>target<TAB>gold links in Pharaoh's form, the links between
// the tokens make_text_task's tokenizer reads with `unit` (each of a grammar's tokens links
// through every token it reads as: en-zh's 今天 is 今 and 天). InputError blames "task" for an
// unknown id. The options that read it all: the grammar's unit, and its longest sentence as
// max_length.
struct SampleText {
  std::string text;
  Unit unit;
  std::size_t max_length;
};
SampleText sample_text(const std::string &id);

// Keeps a task from text under its id (one already kept under that id stays: the same text and
// options made it) and returns the one kept; forget_task lets it go once each keep_task of it has
// been forgotten (models made of it keep it).
std::shared_ptr<const Task> keep_task(Task task);
void forget_task(const std::string &id);
// The task from text kept under `id`, or nullptr.
std::shared_ptr<const Task> kept_task(const std::string &id);

// A task from text as bytes, every field as reading left it (tasks/task_files.cpp), and back: a
// task read once travels (to a training worker) and is kept (for a later visit) without its text
// being read again. InputError blames "bytes" for bytes that are not a task saved so, or that
// hold an id or link the task's models could not read.
std::vector<std::uint8_t> save_text_task(const Task &task);
Task load_text_task(const std::uint8_t *bytes, std::size_t size);

// A sentence as the encoder reads it (Side::source) or as the decoder must produce it
// (Side::target), both ending with <eos>. InputError blames "sentence" when it is empty, longer
// than the task's maximum, or holds a token the vocabulary lacks (the message names it and, for
// words, suggests up to three of the nearest by edit distance). A task from text reads a sentence
// by its rules, and a token its vocabulary lacks as <unk>.
std::vector<std::size_t> tokenize(const Task &task, const std::string &sentence, Side side);

// The tokens tokenize reads a sentence as, before ids (a word outside the vocabulary as itself).
std::vector<std::string> sentence_tokens(const Task &task, const std::string &sentence, Side side);

// The tokens of a sentence a task from text reads as <unk>, each with the vocabulary's nearest
// words (up to three, as tokenize's message suggests them for a grammar's task); none for a
// grammar's task, whose tokenize refuses such a word instead.
struct UnknownWord {
  std::string word;
  std::vector<std::string> nearest;
};
std::vector<UnknownWord> unknown_words(const Task &task, const std::string &sentence, Side side);

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
