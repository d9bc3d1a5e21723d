#include "attention/translation_tasks.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <iterator>
#include <set>
#include <utility>

#include "attention/numpy_random.hpp"
#include "tasks/grammar.hpp"
#include "tasks/task_parts.hpp"
#include "tasks/text.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

const Grammar *const grammars[] = {&en_fr_grammar, &en_zh_grammar, &dates_grammar};

const Grammar &find_grammar(const std::string &id) {
  for (const Grammar *grammar : grammars)
    if (id == grammar->id)
      return *grammar;
  std::string known;
  for (const std::string &each : task_ids())
    known += (known.empty() ? "" : ", ") + each;
  fail(Argument("task"), "unknown task \"", id, "\": the tasks are ", known,
       ", or a task from text kept under its id");
}

Example to_example(const Task &task, const Pair &pair) {
  Example example;
  for (std::string_view token : pair.source)
    example.source.push_back(task.source.find(token).value());
  example.source.push_back(Vocabulary::eos);
  for (std::string_view token : pair.target)
    example.target.push_back(task.target.find(token).value());
  example.target.push_back(Vocabulary::eos);
  const auto positions = [](Span span) {
    std::vector<std::size_t> list;
    for (std::size_t position = span.first; position < span.last; ++position)
      list.push_back(position);
    return list;
  };
  for (std::size_t t = 0; t < pair.target.size(); ++t) {
    example.alignment.push_back(positions(pair.alignment[t]));
    example.possible.push_back(positions(pair.possible[t]));
  }
  example.categories = pair.categories;
  example.alignment.push_back({pair.source.size()}); // <eos> from <eos>
  example.possible.emplace_back();
  example.categories.push_back(WordCategory::end);
  return example;
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The Unicode characters of UTF-8 text, each as its bytes (a stray byte stands alone).
std::vector<std::string_view> characters_of(std::string_view text) {
  std::vector<std::string_view> characters;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    characters.push_back(text.substr(i, length));
    i += std::min(length, text.size() - i);
  }
  return characters;
}

std::vector<std::string_view> split(std::string_view sentence, Unit unit) {
  std::vector<std::string_view> tokens;
  bool space_before = false;
  for (std::string_view character : characters_of(sentence)) {
    if (character.size() == 1 && is_space(character[0])) {
      space_before = true;
      continue;
    }
    if (unit == Unit::character) {
      if (space_before && !tokens.empty())
        tokens.push_back(space);
      tokens.push_back(character);
    } else if (space_before || tokens.empty()) {
      tokens.push_back(character);
    } else { // the next character of the same word
      tokens.back() = {tokens.back().data(), tokens.back().size() + character.size()};
    }
    space_before = false;
  }
  return tokens;
}

// The edit distance counted in characters, a swap of neighbours ("hrose") being one edit as an
// insertion, a deletion or a substitution is (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto x = characters_of(a), y = characters_of(b);
  const std::size_t width = y.size() + 1;
  std::vector<std::size_t> d((x.size() + 1) * width); // d[i * width + j]: x[..i) to y[..j)
  for (std::size_t i = 0; i <= x.size(); ++i)
    for (std::size_t j = 0; j <= y.size(); ++j) {
      std::size_t &cell = d[i * width + j];
      if (i == 0 || j == 0) {
        cell = i + j;
        continue;
      }
      cell = std::min({d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1,
                       d[(i - 1) * width + j - 1] + (x[i - 1] != y[j - 1])});
      if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
        cell = std::min(cell, d[(i - 2) * width + j - 2] + 1);
    }
  return d.back();
}

std::string lower_case(std::string_view text) {
  std::string lower(text);
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

[[noreturn]] void fail_unknown(const Task &task, const Vocabulary &vocabulary,
                               std::string_view token, const char *side) {
  const std::string text(token);
  if (task.unit == Unit::character) {
    std::string known;
    for (std::size_t id = 2; id < vocabulary.tokens.size(); ++id)
      known += vocabulary.tokens[id];
    fail(Argument("sentence"), "unknown character \"", text, "\" in the ", task.id, " ", side,
         ", which takes only \"", known, "\"");
  }
  std::string suggestions;
  for (const std::string &word : nearest_words(vocabulary, token))
    suggestions += (suggestions.empty() ? ": did you mean \"" : ", \"") + word + "\"";
  if (!suggestions.empty())
    fail(Argument("sentence"), "unknown word \"", text, "\" in the ", task.id, " ", side,
         suggestions, "?");
  // Nothing spelt like it: a word of a kind the source has gets the words of that kind.
  if (&vocabulary == &task.source)
    for (const WordKind &kind : find_grammar(task.id).word_kinds())
      if (std::find(kind.others.begin(), kind.others.end(), lower_case(token)) !=
          kind.others.end()) {
        std::string words;
        for (std::string_view word : kind.words)
          words += (words.empty() ? "\"" : ", \"") + std::string(word) + "\"";
        fail(Argument("sentence"), "unknown word \"", text, "\" in the ", task.id, " ", side,
             ": it is a ", kind.name, " the task does not know; its words of that kind are ",
             words);
      }
  fail(Argument("sentence"), "unknown word \"", text, "\" in the ", task.id, " ", side);
}

// A word as a reader types it, when the vocabulary lacks it as it is: without the punctuation
// around it, then in lower case ("Red", "small." -> "red", "small"; the vocabulary's own capitals,
// "I" or "TV", match first). Empty for punctuation alone. Tasks of characters take text as it is.
std::string typed_word(const Vocabulary &vocabulary, std::string_view token) {
  constexpr std::string_view marks = ".,;:!?\"'()[]";
  const std::size_t first = token.find_first_not_of(marks);
  if (first == std::string_view::npos)
    return {};
  const std::string_view bare = token.substr(first, token.find_last_not_of(marks) - first + 1);
  return vocabulary.find(bare) ? std::string(bare) : lower_case(bare);
}

} // namespace

// The nearest words of the vocabulary, up to three, nearest first (ties in vocabulary order),
// within half the word's length (at least 1): farther ones would be noise. Specials are skipped.
std::vector<std::string> nearest_words(const Vocabulary &vocabulary, std::string_view token) {
  const std::size_t within = std::max<std::size_t>(1, characters_of(token).size() / 2);
  std::vector<std::string> nearest;
  for (std::size_t distance = 1; distance <= within; ++distance)
    for (std::size_t id = 2; id < vocabulary.tokens.size() && nearest.size() < 3; ++id)
      if (vocabulary.tokens[id] != "<unk>" &&
          edit_distance(token, vocabulary.tokens[id]) == distance)
        nearest.push_back(vocabulary.tokens[id]);
  return nearest;
}

std::vector<std::string> grammar_words(const Vocabulary &vocabulary, std::string_view sentence,
                                       Unit unit) {
  std::vector<std::string> tokens;
  for (std::string_view token : split(sentence, unit)) {
    if (unit == Unit::character || vocabulary.find(token))
      tokens.emplace_back(token);
    else if (const std::string word = typed_word(vocabulary, token); !word.empty())
      tokens.push_back(vocabulary.find(word) ? word : std::string(token)); // unknown: as typed
  }
  return tokens;
}

const char *word_category_name(WordCategory category) {
  constexpr const char *names[] = {"article", "noun", "adjective", "verb",        "conjunction",
                                   "subject", "time", "negation",  "preposition", "place",
                                   "object",  "year", "month",     "day",         "separator",
                                   "end",     "word"};
  return names[static_cast<std::size_t>(category)];
}

void AlignmentScore::add(std::size_t predicted, std::size_t predicted_token,
                         const std::vector<std::size_t> &sure,
                         const std::vector<std::size_t> &possible, WordCategory category) {
  if (sure.empty() && possible.empty())
    return;
  const auto has = [](const std::vector<std::size_t> &links, std::size_t j) {
    return std::find(links.begin(), links.end(), j) != links.end();
  };
  const bool is_sure = has(sure, predicted), is_possible = is_sure || has(possible, predicted);
  ++links_;
  sure_ += sure.size();
  in_sure_ += is_sure;
  in_possible_ += is_possible;
  const auto index = static_cast<std::size_t>(category);
  if (categories_.size() <= index) {
    categories_.resize(index + 1);
    missed_.resize(index + 1);
  }
  categories_[index].category = category;
  ++categories_[index].count;
  categories_[index].aligned += is_possible;
  if (!is_possible)
    ++missed_[index][predicted_token];
}

double AlignmentScore::aer() const {
  return links_ ? 1 - double(in_sure_ + in_possible_) / double(links_ + sure_) : 0.0;
}

double AlignmentScore::aligned_share() const {
  return links_ ? double(in_possible_) / double(links_) : 0.0;
}

std::vector<AlignmentScore::Category> AlignmentScore::categories() const {
  std::vector<Category> result;
  for (std::size_t i = 0; i < categories_.size(); ++i) {
    if (!categories_[i].count)
      continue;
    Category &category = result.emplace_back(categories_[i]);
    for (const auto &[token, count] : missed_[i]) // by token id: the first of equal counts wins
      if (count > category.instead_count) {
        category.instead = token;
        category.instead_count = count;
      }
  }
  return result;
}

std::optional<std::size_t> Vocabulary::find(std::string_view token) const {
  const auto at = std::find(tokens.begin(), tokens.end(), token);
  if (at == tokens.end())
    return std::nullopt;
  return static_cast<std::size_t>(at - tokens.begin());
}

std::size_t Vocabulary::read(std::string_view token) const {
  const auto id = find(token);
  return id && *id > unk ? *id : unk;
}

const std::vector<std::string> &task_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> ids;
    for (const Grammar *grammar : grammars)
      ids.emplace_back(grammar->id);
    return ids;
  }();
  return ids;
}

Task empty_task(const std::string &id) {
  const Grammar &grammar = find_grammar(id);
  Task task;
  task.id = grammar.id;
  task.unit = grammar.unit;
  task.source.tokens = task.target.tokens = {"<sos>", "<eos>"};
  grammar.list_words(task.source, task.target);
  task.max_source_length = grammar.max_source_length;
  task.max_target_length = grammar.max_target_length;
  return task;
}

Task make_task(const std::string &id, std::int64_t seed) {
  Task task = empty_task(id);
  const Grammar &grammar = find_grammar(id);
  NumpyRandomState random(seed);
  std::set<std::vector<std::size_t>> drawn; // sources
  Pair pair;
  while (task.test.size() < test_size) {
    const auto index = static_cast<std::uint64_t>(
        random.randint(static_cast<std::int64_t>(grammar.size), 1, 1)(0, 0));
    if (!grammar.make(index, pair))
      continue;
    Example example = to_example(task, pair);
    if (drawn.insert(example.source).second)
      (task.train.size() < train_size ? task.train : task.test).push_back(std::move(example));
  }
  return task;
}

const std::vector<Example> &split(const Task &task, const std::string &name) {
  return split_named(task, name, true, "vocabularies", "pairs");
}

std::vector<std::string> sentence_tokens(const Task &task, const std::string &sentence, Side side) {
  if (task.text)
    return split_text(sentence, task.unit_of(side), task.text->lowercase);
  return grammar_words(side == Side::source ? task.source : task.target, sentence, task.unit);
}

std::vector<std::size_t> tokenize(const Task &task, const std::string &sentence, Side side) {
  const bool source = side == Side::source;
  const Vocabulary &vocabulary = source ? task.source : task.target;
  const std::size_t max_length = source ? task.max_source_length : task.max_target_length;
  const char *side_name = source ? "source" : "target";
  const std::vector<std::string> tokens = sentence_tokens(task, sentence, side);
  if (tokens.empty())
    fail(Argument("sentence"), "sentence is empty");
  if (tokens.size() > max_length)
    fail(Argument("sentence"), "sentence has ", tokens.size(),
         task.unit_of(side) == Unit::word ? " words" : " characters", "; the ", task.id, " ",
         side_name, " takes at most ", max_length);
  std::vector<std::size_t> ids;
  for (const std::string &token : tokens) {
    if (task.text) {
      ids.push_back(vocabulary.read(token));
      continue;
    }
    const auto id = vocabulary.find(token);
    if (!id || *id == Vocabulary::sos || *id == Vocabulary::eos) // specials are not typed
      fail_unknown(task, vocabulary, token, side_name);
    ids.push_back(*id);
  }
  ids.push_back(Vocabulary::eos);
  return ids;
}

std::vector<UnknownWord> unknown_words(const Task &task, const std::string &sentence, Side side) {
  const Vocabulary &vocabulary = side == Side::source ? task.source : task.target;
  std::vector<UnknownWord> unknown;
  if (!task.text)
    return unknown;
  for (const std::string &token : sentence_tokens(task, sentence, side))
    if (vocabulary.read(token) == Vocabulary::unk)
      unknown.push_back({token, nearest_words(vocabulary, token)});
  return unknown;
}

std::string detokenize(const Task &task, const std::vector<std::size_t> &ids, Side side) {
  const Vocabulary &vocabulary = side == Side::source ? task.source : task.target;
  for (std::size_t i = 0; i < ids.size(); ++i)
    check_id(ids, i, vocabulary, task.id, side == Side::source ? "source" : "target");
  std::string text;
  for (std::size_t id : ids) {
    if (id == Vocabulary::eos)
      break;
    if (id == Vocabulary::sos)
      continue;
    const std::string &token = vocabulary.tokens[id];
    if (task.unit_of(side) == Unit::character)
      text += token == space ? " " : token;
    else
      text += (text.empty() ? "" : " ") + token;
  }
  return text;
}

std::optional<Example> gold_example(const Task &task, const std::string &sentence) {
  if (task.text)
    return std::nullopt;
  const Grammar &grammar = find_grammar(task.id);
  const std::vector<std::size_t> ids = tokenize(task, sentence, Side::source);
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i + 1 < ids.size(); ++i) // all but <eos>
    words.push_back(task.source.tokens[ids[i]]);
  const Range range = grammar.indices_for(words);
  Pair pair;
  for (std::uint64_t index = range.first; index < range.last; index += range.stride)
    if (grammar.make(index, pair) && pair.source == words)
      return to_example(task, pair);
  return std::nullopt;
}

} // namespace attention::tasks
