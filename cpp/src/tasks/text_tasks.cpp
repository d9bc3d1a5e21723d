// Tasks from the reader's text (translation_tasks.hpp says what they are): reading the lines,
// holding validation and test pairs out, the vocabularies, and the tasks kept by id.
#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <utility>

#include "attention/numpy_random.hpp"
#include "attention/translation_tasks.hpp"
#include "tasks/text.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

// Lines at fault, as "line 3" or "lines 3, 8, 12" (the first few of them, and how many more).
class Offenders {
public:
  void add(std::size_t line) {
    if (lines_.size() < shown)
      lines_.push_back(line);
    ++count_;
  }
  bool any() const { return count_ > 0; }
  std::string text() const {
    std::string out = count_ == 1 ? "line " : "lines ";
    for (std::size_t i = 0; i < lines_.size(); ++i)
      out += (i ? ", " : "") + std::to_string(lines_[i]);
    if (count_ > lines_.size())
      out += " and " + std::to_string(count_ - lines_.size()) + " more";
    return out;
  }

private:
  static constexpr std::size_t shown = 5;
  std::vector<std::size_t> lines_;
  std::size_t count_ = 0;
};

struct Line {
  std::size_t number; // 1-based
  std::vector<std::string_view> columns;
};

// The text's non-blank lines, split at tabs (a BOM before the first, a CR ending any, dropped).
std::vector<Line> lines_of(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);
  std::vector<Line> lines;
  std::size_t number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
      continue;
    Line &entry = lines.emplace_back(Line{number, {}});
    for (std::size_t from = 0;;) {
      const std::size_t tab = line.find('\t', from);
      entry.columns.push_back(line.substr(from, tab - from));
      if (tab == std::string_view::npos)
        break;
      from = tab + 1;
    }
  }
  return lines;
}

std::size_t line_of_offset(std::string_view text, std::size_t offset) {
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n')) + 1;
}

void check_text(std::string_view text) {
  if (text.size() > max_text_bytes)
    fail(Argument("pairs"), "pairs holds ", text.size(), " bytes; at most ", max_text_bytes,
         " (20 MB) are read");
  if (const std::size_t at = invalid_utf8_at(text); at != std::string_view::npos)
    fail(Argument("pairs"), "pairs is not UTF-8 text: line ", line_of_offset(text, at),
         " holds bytes that are not UTF-8 (save the file as UTF-8)");
  if (const std::size_t at = text.find('\0'); at != std::string_view::npos)
    fail(Argument("pairs"), "pairs holds a NUL character on line ", line_of_offset(text, at),
         ": it is not a text file");
}

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

std::size_t held_out(double share, std::size_t pairs, const char *argument) {
  if (!(share >= 0) || share > double(max_held_out) ||
      (share >= 0.5 && share != static_cast<double>(static_cast<std::size_t>(share))))
    fail(Argument(argument), argument, " (", share,
         ") must be a share from 0 to below 0.5, or a whole number of pairs up to ", max_held_out);
  const auto count =
      share < 0.5
          ? std::max<std::size_t>(share > 0, static_cast<std::size_t>(share * double(pairs)))
          : static_cast<std::size_t>(share);
  return std::min(count, max_held_out);
}

void check_options(const TextTaskOptions &options) {
  const std::string &name = options.name;
  if (name.empty() || name.size() > 60 || name.find_first_of(" \t\r\n/\\") != std::string::npos ||
      invalid_utf8_at(name) != std::string::npos)
    fail(Argument("name"), "name must be 1 to 60 bytes of UTF-8 without spaces, \"/\" or \"\\\"");
  if (options.source_column > 1)
    fail(Argument("sourceColumn"), "sourceColumn (", options.source_column,
         ") must be 0 or 1: the other of the first two columns is the target");
  if (options.alignment && *options.alignment < 2)
    fail(Argument("alignmentColumn"), "alignmentColumn (", *options.alignment,
         ") must be 2 or more: columns 0 and 1 are the sentences");
  if (options.min_count < 1)
    fail(Argument("minCount"), "minCount must be at least 1");
  if (options.max_vocabulary < 1 || options.max_vocabulary > max_text_vocabulary)
    fail(Argument("maxVocabulary"), "maxVocabulary (", options.max_vocabulary,
         ") must be from 1 to ", max_text_vocabulary);
  if (options.max_length < 1 || options.max_length > max_text_length)
    fail(Argument("maxLength"), "maxLength (", options.max_length, ") must be from 1 to ",
         max_text_length);
  if (options.seed < 0 || options.seed > max_seed)
    fail(Argument("seed"), "seed (", options.seed, ") must be from 0 to ", max_seed);
}

// FNV-1a, 64 bits: the task's identity, from its options and text.
std::string hash_of(std::string_view text, const TextTaskOptions &options) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto add = [&](std::string_view bytes) {
    for (const char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ULL;
    }
    hash ^= 0xff; // a separator no UTF-8 byte is
    hash *= 0x100000001b3ULL;
  };
  const auto &r = options.rules;
  for (const double value :
       {double(options.source_column), options.alignment ? double(*options.alignment) : -1.0,
        double(options.find_alignment), double(r.source_unit), double(r.target_unit),
        double(r.lowercase), double(options.min_count), double(options.max_vocabulary),
        double(options.max_length), options.validation, options.test, double(options.seed)})
    add(std::to_string(value));
  add(text);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

// A pair read from a line: its tokens as text, and its links.
struct ReadPair {
  std::size_t line;
  std::string_view source_text, target_text;
  std::vector<std::string> source, target;
  std::vector<Link> links;
};

// The words of the training pairs' side, most frequent first (equal counts in order of first
// appearance), seen at least min_count times, at most max_vocabulary of them.
Vocabulary vocabulary_of(const std::vector<const std::vector<std::string> *> &sentences,
                         const TextTaskOptions &options) {
  std::unordered_map<std::string_view, std::size_t> index; // token -> its entry
  std::vector<std::pair<std::string_view, std::size_t>> counts;
  for (const auto *sentence : sentences)
    for (const std::string &token : *sentence) {
      const auto [at, added] = index.emplace(token, counts.size());
      if (added)
        counts.emplace_back(token, 0);
      ++counts[at->second].second;
    }
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  Vocabulary vocabulary;
  vocabulary.tokens = {"<sos>", "<eos>", "<unk>"};
  for (const auto &[token, count] : counts) {
    if (count < options.min_count || vocabulary.tokens.size() - 3 == options.max_vocabulary)
      break;
    vocabulary.tokens.emplace_back(token);
  }
  return vocabulary;
}

class Ids {
public:
  explicit Ids(const Vocabulary &vocabulary) {
    for (std::size_t id = 0; id < vocabulary.tokens.size(); ++id)
      ids_.emplace(vocabulary.tokens[id], id);
  }
  std::size_t operator()(const std::string &token) const {
    const auto found = ids_.find(token);
    return found == ids_.end() ? Vocabulary::unk : found->second;
  }

private:
  std::unordered_map<std::string, std::size_t> ids_;
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

std::map<std::string, std::shared_ptr<const Task>> &kept_tasks() {
  static std::map<std::string, std::shared_ptr<const Task>> kept;
  return kept;
}

} // namespace

Task make_text_task(std::string_view text, const TextTaskOptions &options) {
  check_options(options);
  check_text(text);
  const std::vector<Line> lines = lines_of(text);
  if (lines.empty())
    fail(Argument("pairs"), "pairs is empty: give one pair a line, source<TAB>target");
  if (lines.size() > max_text_pairs)
    fail(Argument("pairs"), "pairs holds ", lines.size(), " lines; at most ", max_text_pairs,
         " pairs are read");
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
  std::map<std::string, std::size_t> dropped;
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
    else
      pairs.push_back(std::move(pair));
  }
  if (bad_links.any())
    fail(Argument("pairs"), "pairs: ", bad_links.text(), " of column ", *alignment,
         " hold no alignment in Pharaoh's form (\"0-0 1-2 2?1\": source-target token positions "
         "from 0, within the tokens read)");
  if (pairs.empty()) {
    std::string why;
    for (const auto &[reason, count] : dropped)
      why += (why.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
    fail(Argument("pairs"), "pairs: every one of the ", lines.size(), " pairs was dropped (", why,
         "; maxLength is ", options.max_length, ")");
  }

  const std::size_t test = held_out(options.test, pairs.size(), "test");
  const std::size_t validation = held_out(options.validation, pairs.size(), "validation");
  if (test + validation >= pairs.size())
    fail(Argument(options.validation > 0 ? "validation" : "test"), "holding out ", validation,
         " validation and ", test, " test pairs leaves none of the ", pairs.size(), " to train on");
  const std::vector<std::size_t> order = NumpyRandomState(options.seed).shuffled(pairs.size());
  // order[0 .. test) is the test split, then validation, then training (in the text's order).
  std::vector<std::size_t> training(order.begin() + static_cast<std::ptrdiff_t>(test + validation),
                                    order.end());
  std::sort(training.begin(), training.end());

  Task task;
  task.text = rules;
  task.name = options.name;
  task.hash = hash_of(text, options);
  task.id = task.name + "-" + task.hash.substr(0, 8);
  task.unit = rules.source_unit;
  task.gold_links = alignment.has_value();
  task.max_source_length = task.max_target_length = options.max_length;
  std::vector<const std::vector<std::string> *> sources, targets;
  for (const std::size_t i : training) {
    sources.push_back(&pairs[i].source);
    targets.push_back(&pairs[i].target);
  }
  task.source = vocabulary_of(sources, options);
  task.target = vocabulary_of(targets, options);
  const Ids source_ids(task.source), target_ids(task.target);
  const auto add = [&](std::vector<Example> &split, std::size_t i) {
    split.push_back(example_of(pairs[i], source_ids, target_ids));
  };
  for (std::size_t i = 0; i < test; ++i)
    add(task.test, order[i]);
  for (std::size_t i = test; i < test + validation; ++i)
    add(task.validation, order[i]);
  for (const std::size_t i : training)
    add(task.train, i);

  task.stats.pairs = pairs.size();
  task.stats.dropped.assign(dropped.begin(), dropped.end());
  std::size_t tokens = 0, unknown = 0;
  for (const Example &example : task.validation.empty() ? task.test : task.validation)
    for (const auto *ids : {&example.source, &example.target}) {
      tokens += ids->size() - 1; // not <eos>
      unknown += static_cast<std::size_t>(std::count(ids->begin(), ids->end(), Vocabulary::unk));
    }
  task.stats.unknown_share = tokens ? double(unknown) / double(tokens) : 0.0;
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

std::shared_ptr<const Task> keep_task(Task task) {
  auto &kept = kept_tasks()[task.id];
  if (!kept)
    kept = std::make_shared<const Task>(std::move(task));
  return kept;
}

void forget_task(const std::string &id) { kept_tasks().erase(id); }

std::shared_ptr<const Task> kept_task(const std::string &id) {
  const auto found = kept_tasks().find(id);
  return found == kept_tasks().end() ? nullptr : found->second;
}

std::shared_ptr<const Task> find_task(const std::string &id, std::int64_t seed) {
  if (auto kept = kept_task(id))
    return kept;
  return std::make_shared<const Task>(make_task(id, seed));
}

} // namespace attention::tasks
