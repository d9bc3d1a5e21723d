// The `reviews` classification task: its en and zh grammars, the split and the tokenizer
// (classification_tasks.hpp says what each is).
#include <algorithm>
#include <iterator>
#include <set>
#include <string_view>

#include "attention/classification_tasks.hpp"
#include "attention/numpy_random.hpp"
#include "tasks/grammar.hpp"
#include "tasks/task_parts.hpp"
#include "tasks/text.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

constexpr std::size_t negative = 0, positive = 1; // the labels' indices
constexpr std::size_t max_review_length = 30;     // room for a reader's longer review

// A language's words. Openers and tails may be several words, separated by spaces; article and
// verb are English's only.
struct Words {
  std::vector<std::string_view> openers, tails;
  std::string_view article, verb;
  std::vector<std::string_view> aspects, intensifiers;
  std::vector<std::string_view> negated_intensifiers; // those a negated positive clause may take
  std::vector<std::string_view> positives, negatives;
  std::string_view no, both, contrast; // "not", "and", "but"
};

const Words english{
    {"honestly", "overall", "i think", "we felt", "to be fair"},
    {"this time", "last night", "on friday", "for dinner"},
    "the",
    "was",
    {"food", "service", "staff", "room", "music", "coffee", "wine", "view", "menu", "pizza"},
    {"very", "really", "so", "quite"},
    {"very", "really", "so"},
    {"good", "great", "excellent", "wonderful", "lovely", "perfect"},
    {"bad", "awful", "terrible", "poor", "horrible", "disappointing"},
    "not",
    "and",
    "but"};
const Words chinese{
    {"说实话", "总的来说", "我 觉得", "我们 觉得", "这 次", "昨天 晚上", "老实 说", "其实"},
    {},
    {},
    {},
    {"菜", "服务", "服务员", "房间", "音乐", "咖啡", "酒", "风景", "菜单", "披萨"},
    {"很", "非常", "真", "特别"},
    {"太"},
    {"好", "棒", "出色", "完美", "精彩", "优秀"},
    {"差", "糟糕", "可怕", "差劲", "无聊", "一般"},
    "不",
    "而且",
    "但是"};

const Words &words_of(const std::string &language) { return language == "zh" ? chinese : english; }

// Grammar index digits, lowest first: the structure, the opener (0: none), the tail (0: none),
// then each clause's. Two clauses pass the polarity rule of their conjunction half the time, so
// the structure digit asks for them twice as often as for one clause.
enum Structure { single, joined, contrasted };
constexpr Structure structures[] = {single, joined, joined, contrasted, contrasted};
constexpr std::size_t structure_count = std::size(structures);

// A clause's digits: aspect, negated or not, intensifier (0: none), adjective (positives, then
// negatives). A negated negative adjective takes no intensifier and a negated positive one only
// the negated intensifiers (the digit modulo their count and none), so that "not good" and "not
// bad" come as often as "good" and "bad".
struct Clause {
  std::size_t aspect, intensifier, adjective;
  bool negated;
};

std::size_t clause_count(const Words &w) {
  return w.aspects.size() * 2 * (w.intensifiers.size() + 1) *
         (w.positives.size() + w.negatives.size());
}

std::uint64_t grammar_size(const Words &w) {
  const std::uint64_t clauses = clause_count(w);
  return structure_count * (w.openers.size() + 1) * (w.tails.size() + 1) * clauses * clauses;
}

Clause clause_of(const Words &w, std::uint64_t &index) {
  Clause c;
  const auto digit = [&](std::size_t base) {
    const auto value = static_cast<std::size_t>(index % base);
    index /= base;
    return value;
  };
  c.aspect = digit(w.aspects.size());
  c.negated = digit(2);
  c.intensifier = digit(w.intensifiers.size() + 1);
  c.adjective = digit(w.positives.size() + w.negatives.size());
  if (c.negated)
    c.intensifier =
        c.adjective < w.positives.size() ? c.intensifier % (w.negated_intensifiers.size() + 1) : 0;
  return c;
}

bool is_positive(const Words &w, const Clause &c) {
  return (c.adjective < w.positives.size()) != c.negated;
}

// A review as the grammar writes it: its words (views of the tables) and rationale.
struct Review {
  std::vector<std::string_view> words;
  std::vector<std::uint8_t> rationale;
  std::size_t label = 0;
  ReviewCategory category = ReviewCategory::plain;

  // Each space-separated word of `text`.
  void write(std::string_view text, bool decides = false) {
    for (std::size_t from = 0; from <= text.size();) {
      const std::size_t end = std::min(text.find(' ', from), text.size());
      if (end > from) {
        words.push_back(text.substr(from, end - from));
        rationale.push_back(decides);
      }
      from = end + 1;
    }
  }
  void clause(const Words &w, const Clause &c, bool decides) {
    if (!w.article.empty())
      write(w.article);
    write(w.aspects[c.aspect]);
    if (!w.verb.empty())
      write(w.verb);
    if (c.negated)
      write(w.no, decides);
    if (c.intensifier)
      write((c.negated ? w.negated_intensifiers : w.intensifiers)[c.intensifier - 1]);
    const std::size_t p = w.positives.size();
    write(c.adjective < p ? w.positives[c.adjective] : w.negatives[c.adjective - p], decides);
  }
};

// Writes review `index`; false when the index breaks a rule of the grammar (two clauses of one
// aspect, or of polarities their conjunction does not join). One clause ignores the second
// clause's digits.
bool make_review(const Words &w, std::uint64_t index, Review &review) {
  const Structure structure = structures[index % structure_count];
  index /= structure_count;
  const auto opener = static_cast<std::size_t>(index % (w.openers.size() + 1));
  index /= w.openers.size() + 1;
  const auto tail = static_cast<std::size_t>(index % (w.tails.size() + 1));
  index /= w.tails.size() + 1;
  const Clause first = clause_of(w, index), second = clause_of(w, index);
  if (structure != single &&
      (second.aspect == first.aspect ||
       (is_positive(w, first) == is_positive(w, second)) != (structure == joined)))
    return false;
  review = Review{};
  if (opener)
    review.write(w.openers[opener - 1]);
  review.clause(w, first, structure != contrasted);
  if (structure != single) {
    review.write(structure == joined ? w.both : w.contrast);
    review.clause(w, second, true);
  }
  if (tail)
    review.write(w.tails[tail - 1]);
  review.label = is_positive(w, structure == contrasted ? second : first) ? positive : negative;
  review.category = structure == contrasted ? ReviewCategory::contrast
                    : first.negated || (structure != single && second.negated)
                        ? ReviewCategory::negation
                        : ReviewCategory::plain;
  return true;
}

void list_words(const Words &w, Vocabulary &vocabulary) {
  Review all; // every table's words, in order, through the one word splitter
  for (const auto *table : {&w.openers, &w.tails})
    for (std::string_view text : *table)
      all.write(text);
  for (std::string_view word : {w.article, w.verb})
    all.write(word);
  for (const auto *table :
       {&w.aspects, &w.intensifiers, &w.negated_intensifiers, &w.positives, &w.negatives})
    for (std::string_view word : *table)
      all.write(word);
  for (std::string_view word : {w.no, w.both, w.contrast})
    all.write(word);
  for (std::string_view word : all.words)
    add(vocabulary, word);
}

void check_task(const std::string &id, const std::string &language) {
  if (id != "reviews")
    fail(Argument("task"), "unknown classification task \"", id.substr(0, 40),
         "\": the task is reviews, or a task from text kept under its id");
  check_grammar_language(language);
}

} // namespace

const char *review_category_name(ReviewCategory category) {
  constexpr const char *names[] = {"plain", "negation", "contrast"};
  return names[static_cast<std::size_t>(category)];
}

const std::vector<std::string> &classification_task_ids() {
  static const std::vector<std::string> ids = {"reviews"};
  return ids;
}

const std::vector<std::string> &classification_languages() { return grammar_languages(); }

ClassificationTask empty_classification_task(const std::string &id, const std::string &language) {
  check_task(id, language);
  ClassificationTask task;
  task.id = id;
  task.language = language;
  task.vocabulary.tokens = {"<sos>", "<eos>"};
  list_words(words_of(language), task.vocabulary);
  task.labels = {"negative", "positive"};
  task.max_length = max_review_length;
  return task;
}

ClassificationTask make_classification_task(const std::string &id, const std::string &language,
                                            std::int64_t seed) {
  ClassificationTask task = empty_classification_task(id, language);
  if (seed < 0 || seed > max_seed)
    fail(Argument("seed"), "seed (", seed, ") must be between 0 and 2**32 - 1, as numpy's");
  const Words &w = words_of(language);
  const auto size = static_cast<std::int64_t>(grammar_size(w));
  NumpyRandomState random(seed);
  std::set<std::vector<std::size_t>> drawn;
  Review review;
  while (task.test.size() < test_size) {
    const auto index = static_cast<std::uint64_t>(random.randint(size, 1, 1)(0, 0));
    if (!make_review(w, index, review))
      continue;
    ClassificationExample example{{}, review.label, review.rationale, review.category, {}};
    for (std::string_view word : review.words)
      example.tokens.push_back(task.vocabulary.find(word).value());
    if (drawn.insert(example.tokens).second)
      (task.train.size() < train_size ? task.train : task.test).push_back(std::move(example));
  }
  return task;
}

std::vector<std::string> sentence_tokens(const ClassificationTask &task,
                                         const std::string &sentence) {
  if (task.text)
    return split_text(sentence, task.text->source_unit, task.text->lowercase);
  return grammar_words(task.vocabulary, sentence, Unit::word);
}

std::vector<std::size_t> tokenize(const ClassificationTask &task, const std::string &sentence) {
  const std::vector<std::string> words = sentence_tokens(task, sentence);
  const char *unit =
      task.text && task.text->source_unit == Unit::character ? " characters" : " words";
  if (words.empty())
    fail(Argument("sentence"), "sentence is empty");
  if (words.size() > task.max_length)
    fail(Argument("sentence"), "sentence has ", words.size(), unit, "; the ", task.id,
         task.text ? "" : " ", task.language, " task takes at most ", task.max_length);
  std::vector<std::size_t> ids;
  for (const std::string &word : words) {
    if (task.text) {
      ids.push_back(task.vocabulary.read(word));
      continue;
    }
    const auto id = task.vocabulary.find(word);
    if (!id || *id == Vocabulary::sos || *id == Vocabulary::eos) { // specials are not typed
      std::string suggestions;
      for (const std::string &near : nearest_words(task.vocabulary, word))
        suggestions += (suggestions.empty() ? ": did you mean \"" : ", \"") + near + "\"";
      fail(Argument("sentence"), "unknown word \"", word.substr(0, 40), "\" in the ", task.id, " ",
           task.language, " task", suggestions, suggestions.empty() ? "" : "?");
    }
    ids.push_back(*id);
  }
  return ids;
}

std::optional<ClassificationExample> read_review(const ClassificationTask &task,
                                                 const std::vector<std::size_t> &ids) {
  if (task.id != "reviews" || !task.rationales)
    return std::nullopt;
  const Words &w = words_of(task.language);
  const auto is_one_of = [](const std::vector<std::string_view> &table, std::string_view word) {
    return std::find(table.begin(), table.end(), word) != table.end();
  };
  ClassificationExample review{ids, 0, std::vector<std::uint8_t>(ids.size(), 0)};
  // the clauses [begin, end) and the conjunction between them
  std::vector<std::pair<std::size_t, std::size_t>> clauses{{0, ids.size()}};
  std::string_view conjunction;
  for (std::size_t j = 0; j < ids.size(); ++j) {
    const std::string_view word = task.vocabulary.tokens.at(ids[j]);
    if (word == w.both || word == w.contrast) {
      if (clauses.size() > 1)
        return std::nullopt;
      clauses = {{0, j}, {j + 1, ids.size()}};
      conjunction = word;
    }
  }
  std::vector<bool> positives;
  bool negated = false;
  for (std::size_t k = 0; k < clauses.size(); ++k) {
    const auto [begin, end] = clauses[k];
    std::optional<std::size_t> adjective, no;
    for (std::size_t j = begin; j < end; ++j) {
      const std::string_view word = task.vocabulary.tokens.at(ids[j]);
      if (is_one_of(w.positives, word) || is_one_of(w.negatives, word)) {
        if (adjective)
          return std::nullopt;
        adjective = j;
      } else if (word == w.no && !adjective) {
        no = j;
      }
    }
    if (!adjective)
      return std::nullopt;
    const bool positive =
        is_one_of(w.positives, task.vocabulary.tokens.at(ids[*adjective])) != bool(no);
    positives.push_back(positive);
    negated = negated || no;
    // the deciding clauses: both of "and", the second of "but"
    if (conjunction != w.contrast || k == 1)
      for (auto j : {std::optional<std::size_t>(adjective), no})
        if (j)
          review.rationale[*j] = 1;
  }
  if (conjunction == w.both && positives[0] != positives[1])
    return std::nullopt; // "and" joins clauses of one polarity
  review.label = positives.back() ? positive : negative;
  review.category = conjunction == w.contrast ? ReviewCategory::contrast
                    : negated                 ? ReviewCategory::negation
                                              : ReviewCategory::plain;
  return review;
}

std::string detokenize(const ClassificationTask &task, const std::vector<std::size_t> &ids) {
  std::string text;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    check_id(ids, i, task.vocabulary, task.id, task.language);
    text += (text.empty() ? "" : " ") + task.vocabulary.tokens[ids[i]];
  }
  return text;
}

std::string classification_sample_text(const ClassificationTask &task) {
  std::string text;
  for (const auto *examples : {&task.train, &task.test})
    for (const ClassificationExample &example : *examples)
      text += (text.empty() ? "" : "\n") + detokenize(task, example.tokens) + "\t" +
              task.labels[example.label];
  return text;
}

const std::vector<ClassificationExample> &classification_split(const ClassificationTask &task,
                                                               const std::string &name) {
  return split_named(task, name, task.text.has_value(), "vocabulary and labels", "sentences");
}

} // namespace attention::tasks
