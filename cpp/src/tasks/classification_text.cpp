// Classification tasks from the reader's labelled sentences (classification_tasks.hpp says what
// they are), read as the translation pairs from text are (text_reading.hpp).
#include <algorithm>
#include <set>
#include <utility>

#include "attention/classification_tasks.hpp"
#include "tasks/text.hpp"
#include "tasks/text_reading.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

using namespace reading;

const TextNames sentence_names{"text", "sentence", "text<TAB>label"};

void check_sentence_options(const ClassificationTextOptions &options) {
  reading::check_options(options);
  if (options.label_column > max_label_column)
    fail(Argument("labelColumn"), "labelColumn (", options.label_column, ") must be from 0 to ",
         max_label_column);
}

std::string_view trimmed(std::string_view cell) {
  const std::size_t first = cell.find_first_not_of(' ');
  if (first == std::string_view::npos)
    return {};
  return cell.substr(first, cell.find_last_not_of(' ') - first + 1);
}

// A sentence read from a line: its text, its tokens and its label.
struct ReadSentence {
  std::string_view text, label;
  std::vector<std::string> tokens;
};

KeptTasks<ClassificationTask> &kept_tasks() {
  static KeptTasks<ClassificationTask> kept;
  return kept;
}

} // namespace

ClassificationTask make_classification_text_task(std::string_view text,
                                                 const ClassificationTextOptions &options) {
  check_sentence_options(options);
  const std::vector<Line> lines = read_lines(text, sentence_names);
  const std::size_t label_column = options.label_column, text_column = label_column == 0 ? 1 : 0;
  const std::size_t needed = std::max(label_column, text_column) + 1;
  Offenders short_lines, unlabelled;
  for (const Line &line : lines)
    if (line.columns.size() < needed)
      short_lines.add(line.number);
    else if (const auto label = trimmed(line.columns[label_column]);
             label.empty() || label.size() > max_label_bytes)
      unlabelled.add(line.number);
  if (short_lines.any()) {
    const bool none = std::all_of(lines.begin(), lines.end(),
                                  [&](const Line &line) { return line.columns.size() < needed; });
    fail(Argument(none ? "labelColumn" : "text"), "text: ", short_lines.text(), " without column ",
         std::max(label_column, text_column), " (labelColumn is ", label_column,
         "); each line is text<TAB>label");
  }
  if (unlabelled.any())
    fail(Argument("text"), "text: ", unlabelled.text(), " of column ", label_column,
         " hold no label, or one of more than ", max_label_bytes, " bytes");

  const Unit unit = options.unit;
  std::vector<ReadSentence> sentences;
  Dropped dropped;
  SeenLines seen;
  for (const Line &line : lines) {
    ReadSentence sentence{line.columns[text_column], trimmed(line.columns[label_column]), {}};
    sentence.tokens = split_text(sentence.text, unit, options.lowercase);
    if (sentence.tokens.empty())
      ++dropped["empty"];
    else if (sentence.tokens.size() > options.max_length)
      ++dropped["tooLong"];
    else if (seen.repeats({&sentence.tokens}, sentence.label))
      ++dropped["duplicate"];
    else
      sentences.push_back(std::move(sentence));
  }
  check_kept(sentences.size(), lines.size(), dropped, options, sentence_names);

  std::set<std::string_view> distinct;
  for (const ReadSentence &sentence : sentences)
    distinct.insert(sentence.label);
  if (distinct.size() < min_text_labels || distinct.size() > max_text_labels) {
    std::string some;
    for (const auto label : distinct) {
      if (some.size() > 60) {
        some += ", …";
        break;
      }
      some += (some.empty() ? "\"" : ", \"") + std::string(label.substr(0, 40)) + "\"";
    }
    fail(Argument("text"), "text holds ", distinct.size(),
         distinct.size() == 1 ? " label" : " labels", " (", some, ") in column ", label_column,
         "; a task takes ", min_text_labels, " to ", max_text_labels,
         distinct.size() == 1 ? "" : ": is labelColumn the labels' column?");
  }
  const Split split = split_lines(sentences.size(), options, sentence_names);

  ClassificationTask task;
  task.text = TextRules{unit, unit, options.lowercase};
  task.name = options.name;
  task.hash = hash_of(text, {double(options.label_column), double(unit), double(options.lowercase),
                             double(options.min_count), double(options.max_vocabulary),
                             double(options.max_length), options.validation, options.test,
                             double(options.seed)});
  task.id = id_of(task.name, task.hash);
  task.labels.assign(distinct.begin(), distinct.end());
  task.max_length = options.max_length;
  task.rationales = false;
  std::vector<const std::vector<std::string> *> training;
  for (const std::size_t i : split.train)
    training.push_back(&sentences[i].tokens);
  task.vocabulary = vocabulary_of(training, options);
  const Ids ids(task.vocabulary);
  fill_splits(task, split, [&](std::size_t i) {
    const ReadSentence &sentence = sentences[i];
    ClassificationExample example;
    for (const std::string &token : sentence.tokens)
      example.tokens.push_back(ids(token));
    example.label = static_cast<std::size_t>(
        std::lower_bound(task.labels.begin(), task.labels.end(), sentence.label) -
        task.labels.begin());
    example.text = sentence.text;
    return example;
  });
  task.stats = stats_of(task, sentences.size(), dropped,
                        [](const ClassificationExample &example, UnknownShare &unknown) {
                          unknown.add(example.tokens, 0);
                        });
  return task;
}

std::shared_ptr<const ClassificationTask> keep_classification_task(ClassificationTask task) {
  return kept_tasks().keep(std::move(task));
}

void forget_classification_task(const std::string &id) { kept_tasks().forget(id); }

std::shared_ptr<const ClassificationTask> kept_classification_task(const std::string &id) {
  return kept_tasks().find(id);
}

std::shared_ptr<const ClassificationTask>
find_classification_task(const std::string &id, const std::string &language, std::int64_t seed) {
  if (auto kept = kept_classification_task(id))
    return kept;
  return std::make_shared<const ClassificationTask>(make_classification_task(id, language, seed));
}

} // namespace attention::tasks
