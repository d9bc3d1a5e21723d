// Tasks from the reader's text (translation_tasks.hpp says what they are): reading the lines,
// holding validation and test pairs out, the vocabularies, and the tasks kept by id.
#include <algorithm>
#include <map>
#include <utility>

#include "attention/translation_tasks.hpp"
#include "tasks/text.hpp"
#include "tasks/text_reading.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

using namespace reading;

const TextNames pair_names{"pairs", "pair", "source<TAB>target"};

// A Pharaoh alignment ("0-0 1-2 2?1": source-target positions, "-" sure, "?" possible).
struct Link {
  std::size_t source, target;
  bool sure;
};

std::optional<std::vector<Link>> parse_links(std::string_view cell) {
  std::vector<Link> links;
  std::size_t i = 0;
  const auto number = [&](std::size_t &value) {
    const std::size_t start = i;
    value = 0;
    while (i < cell.size() && cell[i] >= '0' && cell[i] <= '9' && i - start < 6)
      value = value * 10 + static_cast<std::size_t>(cell[i++] - '0');
    return i > start;
  };
  while (true) {
    while (i < cell.size() && cell[i] == ' ')
      ++i;
    if (i == cell.size())
      return links;
    Link link{};
    if (!number(link.source) || i == cell.size() || (cell[i] != '-' && cell[i] != '?'))
      return std::nullopt;
    link.sure = cell[i++] == '-';
    if (!number(link.target) || (i < cell.size() && cell[i] != ' '))
      return std::nullopt;
    links.push_back(link);
  }
}

void check_pair_options(const TextTaskOptions &options) {
  reading::check_options(options);
  if (options.source_column > 1)
    fail(Argument("sourceColumn"), "sourceColumn (", options.source_column,
         ") must be 0 or 1: the other of the first two columns is the target");
  if (options.alignment && *options.alignment < 2)
    fail(Argument("alignmentColumn"), "alignmentColumn (", *options.alignment,
         ") must be 2 or more: columns 0 and 1 are the sentences");
}

// A pair read from a line: its tokens as text, and its links.
struct ReadPair {
  std::size_t line;
  std::string_view source_text, target_text;
  std::vector<std::string> source, target;
  std::vector<Link> links;
};

Example example_of(const ReadPair &pair, const Ids &source_ids, const Ids &target_ids) {
  Example example;
  for (const auto &token : pair.source)
    example.source.push_back(source_ids(token));
  example.source.push_back(Vocabulary::eos);
  for (const auto &token : pair.target)
    example.target.push_back(target_ids(token));
  example.target.push_back(Vocabulary::eos);
  example.alignment.resize(example.target.size());
  example.possible.resize(example.target.size());
  for (const Link &link : pair.links)
    (link.sure ? example.alignment : example.possible)[link.target].push_back(link.source);
  for (std::size_t t = 0; t < pair.target.size(); ++t) {
    std::sort(example.alignment[t].begin(), example.alignment[t].end());
    std::sort(example.possible[t].begin(), example.possible[t].end());
  }
  example.alignment.back() = {pair.source.size()}; // <eos> from <eos>, as a grammar's
  example.categories.assign(pair.target.size(), WordCategory::word);
  example.categories.push_back(WordCategory::end);
  example.source_text = pair.source_text;
  example.target_text = pair.target_text;
  example.reference = pair.target;
  return example;
}

KeptTasks<Task> &kept_tasks() {
  static KeptTasks<Task> kept;
  return kept;
}

} // namespace

Task make_text_task(std::string_view text, const TextTaskOptions &options) {
  check_pair_options(options);
  const std::vector<Line> lines = read_lines(text, pair_names);
  Offenders untabbed;
  for (const Line &line : lines)
    if (line.columns.size() < 2)
      untabbed.add(line.number);
  if (untabbed.any())
    fail(Argument("pairs"), "pairs: ", untabbed.text(),
         " without a tab; each line is source<TAB>target");

  // The alignment column: the one asked for, or the third when its first cell reads as links.
  std::optional<std::size_t> alignment = options.alignment;
  if (!alignment && options.find_alignment && lines.front().columns.size() > 2 &&
      lines.front().columns[2].find_first_not_of(' ') != std::string_view::npos &&
      parse_links(lines.front().columns[2]))
    alignment = 2;

  const TextRules &rules = options.rules;
  const std::size_t source_column = options.source_column, target_column = 1 - source_column;
  std::vector<ReadPair> pairs;
  Dropped dropped;
  SeenLines seen;
  Offenders bad_links;
  for (const Line &line : lines) {
    ReadPair pair{line.number, line.columns[source_column], line.columns[target_column], {}, {},
                  {}};
    pair.source = split_text(pair.source_text, rules.source_unit, rules.lowercase);
    pair.target = split_text(pair.target_text, rules.target_unit, rules.lowercase);
    if (alignment) {
      const auto links = line.columns.size() > *alignment
                             ? parse_links(line.columns[*alignment])
                             : std::optional<std::vector<Link>>(std::vector<Link>{});
      bool fits = links.has_value();
      if (links)
        for (Link link : *links) {
          if (source_column == 1)
            std::swap(link.source, link.target);
          fits = fits && link.source < pair.source.size() && link.target < pair.target.size();
          pair.links.push_back(link);
        }
      if (!fits) {
        bad_links.add(line.number);
        continue;
      }
    }
    if (pair.source.empty() || pair.target.empty())
      ++dropped["empty"];
    else if (pair.source.size() > options.max_length)
      ++dropped["sourceTooLong"];
    else if (pair.target.size() > options.max_length)
      ++dropped["targetTooLong"];
    else if (seen.repeats({&pair.source, &pair.target}))
      ++dropped["duplicate"];
    else
      pairs.push_back(std::move(pair));
  }
  if (bad_links.any())
    fail(Argument("pairs"), "pairs: ", bad_links.text(), " of column ", *alignment,
         " hold no alignment in Pharaoh's form (\"0-0 1-2 2?1\": source-target token positions "
         "from 0, within the tokens read)");
  check_kept(pairs.size(), lines.size(), dropped, options, pair_names);
  const Split split = split_lines(pairs.size(), options, pair_names);

  Task task;
  task.text = rules;
  task.name = options.name;
  task.hash = hash_of(
      text, {double(options.source_column), options.alignment ? double(*options.alignment) : -1.0,
             double(options.find_alignment), double(rules.source_unit), double(rules.target_unit),
             double(rules.lowercase), double(options.min_count), double(options.max_vocabulary),
             double(options.max_length), options.validation, options.test, double(options.seed)});
  task.id = id_of(task.name, task.hash);
  task.unit = rules.source_unit;
  task.gold_links = alignment.has_value();
  task.max_source_length = task.max_target_length = options.max_length;
  std::vector<const std::vector<std::string> *> sources, targets;
  for (const std::size_t i : split.train) {
    sources.push_back(&pairs[i].source);
    targets.push_back(&pairs[i].target);
  }
  task.source = vocabulary_of(sources, options);
  task.target = vocabulary_of(targets, options);
  const Ids source_ids(task.source), target_ids(task.target);
  fill_splits(task, split,
              [&](std::size_t i) { return example_of(pairs[i], source_ids, target_ids); });
  task.stats =
      stats_of(task, pairs.size(), dropped, [](const Example &example, UnknownShare &unknown) {
        for (const auto *ids : {&example.source, &example.target})
          unknown.add(*ids, 1); // not <eos>
      });
  return task;
}

SampleText sample_text(const std::string &id) {
  const Task task = make_task(id);
  const TextTaskOptions defaults;
  SampleText sample{{}, task.unit, 0};
  // Each grammar token's tokens as read from text: [first, last) of the sentence's.
  const auto spans = [&](const std::vector<std::size_t> &ids, const Vocabulary &vocabulary) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) { // not <eos>
      const std::string &token = vocabulary.tokens[ids[i]];
      const std::size_t read = task.unit == Unit::character
                                   ? 1
                                   : split_text(token, Unit::word, defaults.rules.lowercase).size();
      out.emplace_back(at, at + read);
      at += read;
    }
    return out;
  };
  for (const auto *examples : {&task.train, &task.test})
    for (const Example &example : *examples) {
      const auto source = spans(example.source, task.source);
      const auto target = spans(example.target, task.target);
      std::string links;
      for (std::size_t t = 0; t < target.size(); ++t)
        for (const auto *gold : {&example.alignment[t], &example.possible[t]})
          for (const std::size_t s : *gold)
            for (std::size_t i = source[s].first; i < source[s].second; ++i)
              for (std::size_t j = target[t].first; j < target[t].second; ++j)
                links += (links.empty() ? "" : " ") + std::to_string(i) +
                         (gold == &example.alignment[t] ? "-" : "?") + std::to_string(j);
      sample.max_length = std::max({sample.max_length, source.back().second, target.back().second});
      sample.text += detokenize(task, example.source, Side::source) + "\t" +
                     detokenize(task, example.target, Side::target) + "\t" + links + "\n";
    }
  return sample;
}

std::shared_ptr<const Task> keep_task(Task task) { return kept_tasks().keep(std::move(task)); }

void forget_task(const std::string &id) { kept_tasks().forget(id); }

std::shared_ptr<const Task> kept_task(const std::string &id) { return kept_tasks().find(id); }

std::shared_ptr<const Task> find_task(const std::string &id, std::int64_t seed) {
  if (auto kept = kept_task(id))
    return kept;
  return std::make_shared<const Task>(make_task(id, seed));
}

} // namespace attention::tasks
