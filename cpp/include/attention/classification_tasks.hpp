// The classification task `reviews`: short reviews the engine writes from a small grammar (nothing
// is downloaded), in English or Chinese, each labelled negative or positive, with the words that
// decide its label (its rationale), so that the attention a classifier learns can be set beside
// the words it should weigh.
//
// A review is an optional neutral opener ("honestly", "i think"; 说实话, 我 觉得), one clause or
// two joined by "and" / 而且 (both of one polarity) or "but" / 但是 (of opposite polarities), and,
// in English, an optional neutral tail ("last night"). A clause is an aspect, a verb in English, an
// optional "not" / 不, an optional intensifier and an adjective:
//   "the food was very good"  菜 非常 棒       "the staff was not bad"  服务员 不 差
// A clause is positive when its adjective is positive and it is not negated, or its adjective is
// negative and it is ("not bad" is praise). A negated negative adjective takes no intensifier
// ("not very bad" says little), and a negated Chinese clause takes only 太 (不 太 好, not very
// good). The label is the clause's, or, for "but", the second clause's (what follows "but" is
// what the reviewer concludes): "the food was poor but the service was great" is positive.
//
// Rationale: the words that decide the label, 1 per token: the adjective of each deciding clause
// and its "not" (both clauses of "and", the second of "but"); openers, tails, aspects, verbs,
// intensifiers and conjunctions are 0. Category: `contrast` for a review with "but", else
// `negation` when a clause is negated, else `plain`. A bag of words (the mean of the embeddings)
// cannot tell "not good" from "not bad" beside "good" and "bad", nor which clause follows "but":
// the negation and contrast reviews need an encoder that reads the order.
//
// Tokens: words separated by spaces (Chinese too, as the en-zh task writes it), read as the
// translation grammars read them (a word without the punctuation around it, then in lower case);
// no <eos>. The vocabulary starts with <sos> and <eos>, as every grammar's (a classifier reads
// neither), then the grammar's words in the order of its tables.
//
// Splits: grammar indices drawn with numpy's RandomState(seed).randint(size), one call a draw,
// skipping those that break a rule or repeat a review already drawn; the first train_size reviews
// train, the next test_size test (translation_tasks.hpp's sizes). Half the clauses are negated,
// "not good" as often as "not bad": with seed 0 a quarter of the reviews are plain, some 40%
// negation and a third contrast, each category about half positive, in both splits.
//
// Tasks from text: make_classification_text_task reads the reader's own labelled sentences (one a
// line, text<TAB>label, or the label in the column the reader picks), 2 to 10 distinct labels, as
// make_text_task reads translation pairs (translation_tasks.hpp): the same tokenizer and options,
// vocabulary of the training sentences with <unk> (id 2), validation and test sentences held out
// from a seed, the length filter, the identity of a name and a hash, the tasks kept by id. Its
// labels are the distinct ones in byte order; its sentences are all `plain` (the grammar's
// negation and contrast mean nothing there) and mark no rationale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "errors.hpp"
#include "translation_tasks.hpp" // Vocabulary, train_size, test_size

namespace attention::tasks {

enum class ReviewCategory { plain, negation, contrast };
// Its identifier ("plain", "negation", "contrast").
const char *review_category_name(ReviewCategory category);

struct ClassificationExample {
  std::vector<std::size_t> tokens;     // ids, without <eos>
  std::size_t label = 0;               // index into the task's labels
  std::vector<std::uint8_t> rationale; // per token: 1 for a word that decides the label
  ReviewCategory category = ReviewCategory::plain;
  std::string text; // a task from text's: the sentence as given
};

struct ClassificationTask {
  std::string id, language; // a task from text: "<name>-<hash>", and no language
  Vocabulary vocabulary;
  std::vector<std::string> labels; // reviews: "negative", "positive"
  std::size_t max_length = 0;      // the longest sentence tokenize accepts, in words
  bool rationales = true;          // whether the examples mark their rationale
  std::vector<ClassificationExample> train, validation, test; // validation: a task from text's
  // A task from text's: how it reads a sentence (its unit is rules.source_unit), its name, the
  // hash its id ends with and what reading kept (TextStats' pairs are its sentences).
  std::optional<TextRules> text;
  std::string name, hash;
  TextStats stats;
};

const std::vector<std::string> &classification_task_ids();  // "reviews"
const std::vector<std::string> &classification_languages(); // "en", "zh"

// The task without its examples (vocabulary, labels, limits), cheaply. InputError blames "task" or
// "language" for an unknown one.
ClassificationTask empty_classification_task(const std::string &id, const std::string &language);
// The task with its split for `seed` (0 … 2**32 - 1, as numpy's; InputError blames "seed").
ClassificationTask make_classification_task(const std::string &id, const std::string &language,
                                            std::int64_t seed = 0);

// A sentence's words as ids. InputError blames "sentence" when it is empty, longer than the task's
// max_length, or holds a word the vocabulary lacks (the message suggests the nearest ones); a
// task from text reads a sentence by its rules, and a word its vocabulary lacks as <unk>.
std::vector<std::size_t> tokenize(const ClassificationTask &task, const std::string &sentence);
// What the reviews grammar says of a sentence (its words' ids), as make_review would write it: its
// label, rationale and category, when the sentence reads as the grammar's reviews do (one clause,
// or two joined by its "and" or "but", each with one adjective of its tables; any other words
// around them), so that a review the reader types is judged by the grammar's own rule. Nothing
// for another sentence, or a task of another grammar.
std::optional<ClassificationExample> read_review(const ClassificationTask &task,
                                                 const std::vector<std::size_t> &ids);
// The words of ids, as text joined by spaces; InputError blames "ids" for an id outside the
// vocabulary.
std::string detokenize(const ClassificationTask &task, const std::vector<std::size_t> &ids);
// A grammar's task as the reader's labelled sentences would give it: its training then its test
// sentences, text<TAB>label a line, as make_classification_text_task reads them.
std::string classification_sample_text(const ClassificationTask &task);

// The task's "train", "validation" (a task from text's) or "test" split; InputError blames "split"
// for any other name, for "validation" when the task holds none, and for a task from text that a
// model's file brought without its sentences.
const std::vector<ClassificationExample> &classification_split(const ClassificationTask &task,
                                                               const std::string &name);

// The tokens a task reads a sentence as, before ids (a word outside the vocabulary as itself).
std::vector<std::string> sentence_tokens(const ClassificationTask &task,
                                         const std::string &sentence);

// ---- tasks from text ---------------------------------------------------------------------------

// How make_classification_text_task reads a text: TextReadingOptions (name "sentences"), and its
// own: the label's column (the text is column 0, or 1 when the label is in 0), what a token is and
// whether to lower-case.
struct ClassificationTextOptions : TextReadingOptions {
  ClassificationTextOptions() { name = "sentences"; }
  std::size_t label_column = 1; // labelColumn: 0 to max_label_column
  Unit unit = Unit::word;       // unit
  bool lowercase = true;        // lowercase
};
constexpr std::size_t min_text_labels = 2, max_text_labels = 10, max_label_column = 99;
constexpr std::size_t max_label_bytes = 60;

// A task from the text's labelled sentences. InputError blames "text" for empty text, text that is
// not UTF-8 or holds a NUL, lines without the label column or with an empty or over-long label
// (naming the first lines at fault; "labelColumn" when no line has that column), fewer than 2 or
// more than 10 labels, nothing kept, or beyond max_text_bytes or max_text_pairs; an option by its
// name.
ClassificationTask make_classification_text_task(std::string_view text,
                                                 const ClassificationTextOptions &options);

// Keeps a task from text under its id (one already kept under that id stays) and returns the one
// kept; forget lets it go once each keep of it has been forgotten (models made of it keep it);
// kept: the one under `id`, or nullptr.
std::shared_ptr<const ClassificationTask> keep_classification_task(ClassificationTask task);
void forget_classification_task(const std::string &id);
std::shared_ptr<const ClassificationTask> kept_classification_task(const std::string &id);
// A classification task from text as bytes and back, as save_text_task and load_text_task.
std::vector<std::uint8_t> save_classification_text_task(const ClassificationTask &task);
ClassificationTask load_classification_text_task(const std::uint8_t *bytes, std::size_t size);

// The task `id` in `language` with its split for `seed`, or the task from text kept under that id
// (whose splits are its own, the language and seed unused). InputError as
// make_classification_task's, which also names the tasks from text.
std::shared_ptr<const ClassificationTask>
find_classification_task(const std::string &id, const std::string &language, std::int64_t seed);

} // namespace attention::tasks
