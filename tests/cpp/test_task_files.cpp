// Tasks from text as bytes and back (tasks/task_files.cpp): every field comes back, the bytes are
// the task's alone (saved again, they are the same), and bytes that are not such a task, or that
// would give its models an id or link outside it, are refused naming "bytes".
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "attention/classification_tasks.hpp"
#include "attention/translation_tasks.hpp"

using namespace attention;
using namespace attention::tasks;

namespace {

// en-dates' pairs with their gold links, by characters: every field of a task from text is set
Task dates_task() {
  const SampleText sample = sample_text("dates");
  TextTaskOptions o;
  o.name = "dates";
  o.rules.source_unit = o.rules.target_unit = sample.unit;
  o.max_length = sample.max_length;
  return make_text_task(sample.text, o);
}

ClassificationTask reviews_task() {
  ClassificationTextOptions o;
  o.name = "reviews";
  return make_classification_text_task(
      classification_sample_text(make_classification_task("reviews", "en")), o);
}

bool same(const Example &a, const Example &b) {
  return a.source == b.source && a.target == b.target && a.alignment == b.alignment &&
         a.possible == b.possible && a.categories == b.categories &&
         a.source_text == b.source_text && a.target_text == b.target_text &&
         a.reference == b.reference;
}

bool same(const ClassificationExample &a, const ClassificationExample &b) {
  return a.tokens == b.tokens && a.label == b.label && a.rationale == b.rationale &&
         a.category == b.category && a.text == b.text;
}

template <class Examples> bool same_splits(const Examples &a, const Examples &b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i]))
      return false;
  return true;
}

// What both kinds of task from text hold alike: their three splits and the share of unknown words.
template <class Task> void check_same_splits_and_stats(const Task &back, const Task &task) {
  CHECK(same_splits(back.train, task.train));
  CHECK(same_splits(back.validation, task.validation));
  CHECK(same_splits(back.test, task.test));
  CHECK(back.stats.unknown_share == task.stats.unknown_share);
}

template <class Load>
void check_refused(const std::vector<std::uint8_t> &bytes, Load load, const std::string &why) {
  try {
    load(bytes.data(), bytes.size());
    FAIL("accepted: ", why);
  } catch (const InputError &error) {
    CHECK(error.argument() == "bytes");
    CHECK_MESSAGE(std::string(error.what()).find(why) != std::string::npos, error.what());
  }
}

} // namespace

TEST_CASE("task files: a translation task from text comes back field for field") {
  const Task task = dates_task();
  REQUIRE(task.gold_links);
  const std::vector<std::uint8_t> bytes = save_text_task(task);
  const Task back = load_text_task(bytes.data(), bytes.size());
  CHECK(back.id == task.id);
  CHECK(back.name == task.name);
  CHECK(back.hash == task.hash);
  CHECK(back.unit == task.unit);
  REQUIRE(back.text);
  CHECK(back.text->source_unit == Unit::character);
  CHECK(back.text->lowercase == task.text->lowercase);
  CHECK(back.source.tokens == task.source.tokens);
  CHECK(back.target.tokens == task.target.tokens);
  CHECK(back.max_source_length == task.max_source_length);
  CHECK(back.max_target_length == task.max_target_length);
  check_same_splits_and_stats(back, task);
  CHECK(back.gold_links == task.gold_links);
  CHECK(back.stats.pairs == task.stats.pairs);
  CHECK(back.stats.dropped == task.stats.dropped);
  // the bytes say nothing but the task: saved again they are the same
  CHECK(save_text_task(back) == bytes);
}

TEST_CASE("task files: a classification task from text comes back field for field") {
  const ClassificationTask task = reviews_task();
  const std::vector<std::uint8_t> bytes = save_classification_text_task(task);
  const ClassificationTask back = load_classification_text_task(bytes.data(), bytes.size());
  CHECK(back.id == task.id);
  CHECK(back.hash == task.hash);
  CHECK(back.labels == task.labels);
  CHECK(back.vocabulary.tokens == task.vocabulary.tokens);
  CHECK(back.max_length == task.max_length);
  CHECK(back.rationales == task.rationales);
  check_same_splits_and_stats(back, task);
  CHECK(save_classification_text_task(back) == bytes);
  // each kind's bytes are its own
  check_refused(bytes, load_text_task, "begin with \"attention-stepper/classification-task\"");
}

TEST_CASE("task files: bytes that are not a task, or would mislead its models, are refused") {
  const Task task = dates_task();
  const std::vector<std::uint8_t> bytes = save_text_task(task);
  check_refused({}, load_text_task, "end too soon");
  check_refused({bytes.begin(), bytes.end() - 1}, load_text_task, "end too soon");
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  check_refused(longer, load_text_task, "bytes follow the task");
  // a length beyond the bytes left
  check_refused({200, 200, 200, 4}, load_text_task, "a length runs past their end");

  // the task changed, then saved: its checks, not the layout, refuse it
  Task renamed = task;
  renamed.name = "other";
  check_refused(save_text_task(renamed), load_text_task, "identity");
  Task far = task;
  far.train.front().source.front() = far.source.tokens.size(); // an id beyond the vocabulary
  check_refused(save_text_task(far), load_text_task, "a token or link its task lacks");
  Task unlinked = task;
  unlinked.train.front().alignment.front() = {unlinked.train.front().source.size()};
  check_refused(save_text_task(unlinked), load_text_task, "a token or link its task lacks");
  Task miscounted = task;
  miscounted.stats.pairs += 1;
  check_refused(save_text_task(miscounted), load_text_task, "statistics");

  ClassificationTask labelled = reviews_task();
  labelled.test.front().label = labelled.labels.size();
  check_refused(save_classification_text_task(labelled), load_classification_text_task,
                "a token or label its task lacks");
}
