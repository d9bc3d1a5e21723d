// What the readers of the reader's own text share (text_tasks.cpp: translation pairs;
// classification_text.cpp: labelled sentences): the lines and their columns, the checks of the
// text and of the options every such task takes, the split held out from a numpy seed, the
// vocabulary of the training lines with <unk>, the identity (a name and a hash of the text and
// options), and the tasks kept by id.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attention/translation_tasks.hpp"

namespace attention::tasks::reading {

// Lines at fault, as "line 3" or "lines 3, 8, 12" (the first few of them, and how many more).
class Offenders {
public:
  void add(std::size_t line);
  bool any() const { return count_ > 0; }
  std::string text() const;

private:
  static constexpr std::size_t shown = 5;
  std::vector<std::size_t> lines_;
  std::size_t count_ = 0;
};

struct Line {
  std::size_t number; // 1-based
  std::vector<std::string_view> columns;
};

// How a reader names its text in errors: the option at fault (`argument`: "pairs", "text"), what a
// line of it is ("pair", "sentence") and how one is written ("source<TAB>target").
struct TextNames {
  const char *argument, *line, *form;
};

// The text's non-blank lines, split at tabs (a BOM before the first, a CR ending any, dropped).
// InputError blames names.argument for text beyond max_text_bytes, not UTF-8 or holding a NUL, for
// no line, or for more than max_text_pairs lines.
std::vector<Line> read_lines(std::string_view text, const TextNames &names);

// The options every reader takes (InputError blames each by its name).
void check_options(const TextReadingOptions &options);

// The identity's hash: FNV-1a, 64 bits, of the options' values (each as std::to_string writes it)
// then the text; 16 hex digits. A task's id is its name, "-" and the hash's first 8.
std::string hash_of(std::string_view text, std::initializer_list<double> options);
std::string id_of(const std::string &name, const std::string &hash);

// Reasons for lines dropped (read as the stats' "dropped") -> lines; fails, blaming
// names.argument, when every one of `lines` was dropped.
using Dropped = std::map<std::string, std::size_t>;
void check_kept(std::size_t kept, std::size_t lines, const Dropped &dropped,
                const TextReadingOptions &options, const TextNames &names);

// The lines read before, by what a task keeps of each (its tokens, a label): a line that repeats
// one is dropped as "duplicate", so that no line held out is also one trained on.
class SeenLines {
public:
  // Whether a line of these parts came before (and notes it). Each part is kept with its length,
  // so that no two lines' parts run together alike.
  bool repeats(std::initializer_list<const std::vector<std::string> *> token_lists,
               std::string_view label = {}) {
    std::string key = std::to_string(label.size()) + ':' + std::string(label);
    for (const auto *tokens : token_lists) {
      key += '|';
      for (const std::string &token : *tokens)
        key += std::to_string(token.size()) + ':' + token;
    }
    return !seen_.insert(std::move(key)).second;
  }

private:
  std::set<std::string> seen_;
};

// The lines held out and trained on, from `count` kept: options.test, then options.validation,
// drawn by numpy's RandomState(seed).permutation order; the training lines in the text's order.
// InputError blames "validation" or "test" for a share out of range or for leaving none to train.
struct Split {
  std::vector<std::size_t> test, validation, train;
};
Split split_lines(std::size_t count, const TextReadingOptions &options, const TextNames &names);

// The words of the training sentences, most frequent first (equal counts in order of first
// appearance), seen at least min_count times, at most max_vocabulary of them, after <sos>, <eos>
// and <unk>.
Vocabulary vocabulary_of(const std::vector<const std::vector<std::string> *> &sentences,
                         const TextReadingOptions &options);

// Tokens to ids; <unk> for what the vocabulary lacks.
class Ids {
public:
  explicit Ids(const Vocabulary &vocabulary);
  std::size_t operator()(const std::string &token) const;

private:
  std::unordered_map<std::string, std::size_t> ids_;
};

// The share of tokens read as <unk>, over sentences of ids (`ends`: ids at each one's end that are
// not tokens, as <eos>).
class UnknownShare {
public:
  void add(const std::vector<std::size_t> &ids, std::size_t ends);
  double share() const { return tokens_ ? double(unknown_) / double(tokens_) : 0.0; }

private:
  std::size_t tokens_ = 0, unknown_ = 0;
};

// The task's test, validation and training examples, make(i) of each of the split's lines.
template <class Task, class Make> void fill_splits(Task &task, const Split &split, Make make) {
  for (const std::size_t i : split.test)
    task.test.push_back(make(i));
  for (const std::size_t i : split.validation)
    task.validation.push_back(make(i));
  for (const std::size_t i : split.train)
    task.train.push_back(make(i));
}

// What reading kept and dropped, and the share of <unk> in the validation split (the test split
// when none is held out), whose examples add(example, share) adds.
template <class Task, class Add>
TextStats stats_of(const Task &task, std::size_t kept, const Dropped &dropped, Add add) {
  TextStats stats;
  stats.pairs = kept;
  stats.dropped.assign(dropped.begin(), dropped.end());
  UnknownShare unknown;
  for (const auto &example : task.validation.empty() ? task.test : task.validation)
    add(example, unknown);
  stats.unknown_share = unknown.share();
  return stats;
}

// Tasks kept by id (one already kept under an id stays: the same text and options made it), each
// keep() a holder of it and each forget() one holder less: a task goes with its last holder, so
// that two holders of one id (the page's task and a run's made of its bytes) never take it from
// each other.
template <class Task> class KeptTasks {
public:
  std::shared_ptr<const Task> keep(Task task) {
    Entry &kept = tasks_[task.id];
    if (!kept.task)
      kept.task = std::make_shared<const Task>(std::move(task));
    ++kept.holders;
    return kept.task;
  }
  void forget(const std::string &id) {
    const auto found = tasks_.find(id);
    if (found != tasks_.end() && --found->second.holders == 0)
      tasks_.erase(found);
  }
  std::shared_ptr<const Task> find(const std::string &id) const {
    const auto found = tasks_.find(id);
    return found == tasks_.end() ? nullptr : found->second.task;
  }

private:
  struct Entry {
    std::shared_ptr<const Task> task;
    std::size_t holders = 0;
  };
  std::map<std::string, Entry> tasks_;
};

} // namespace attention::tasks::reading
