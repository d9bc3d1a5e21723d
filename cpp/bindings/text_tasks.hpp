// What the bindings of the tasks from the reader's text share (translation_tasks.cpp, and the
// labelled sentences' exports beside their kind's): the options every such task takes, read from
// a JS object, and their info and facts.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention/translation_tasks.hpp"
#include "convert.hpp"

namespace binding {

// An option the caller gave (the wrapper checks its type), or nothing.
inline std::optional<val> given_option(const val &options, const char *key) {
  const val value = options[key];
  return value.isUndefined() ? std::optional<val>() : std::optional<val>(value);
}

// The options every task from text takes, `lowercase` (where the task keeps it) among them: given
// ones only, the rest `o`'s defaults.
inline void read_text_options(const val &options, at::tasks::TextReadingOptions &o,
                              bool &lowercase) {
  if (auto v = given_option(options, "lowercase"))
    lowercase = v->as<bool>();
  // a task named after its file, unless it is given a name
  if (auto v = given_option(options, "file"))
    at::tasks::name_from_file(o, v->as<std::string>());
  if (auto v = given_option(options, "name"))
    o.name = v->as<std::string>();
  if (auto v = given_option(options, "minCount"))
    o.min_count = v->as<std::size_t>();
  if (auto v = given_option(options, "maxVocabulary"))
    o.max_vocabulary = v->as<std::size_t>();
  if (auto v = given_option(options, "maxLength"))
    o.max_length = v->as<std::size_t>();
  if (auto v = given_option(options, "validation"))
    o.validation = v->as<double>();
  if (auto v = given_option(options, "test"))
    o.test = v->as<double>();
  if (auto v = given_option(options, "seed"))
    o.seed = static_cast<std::int64_t>(v->as<double>());
}

// The facts of tasks from text: { defaults: { …the options every task takes, lowercase },
// maxBytes, <most> (the most lines: "maxPairs", "maxSentences"), maxHeldOut, maxLength,
// maxVocabulary }; the caller adds its own.
inline val text_task_facts(const at::tasks::TextReadingOptions &o, bool lowercase,
                           const char *most) {
  namespace tasks = at::tasks;
  val defaults = val::object();
  defaults.set("name", o.name);
  defaults.set("lowercase", lowercase);
  defaults.set("minCount", o.min_count);
  defaults.set("maxVocabulary", o.max_vocabulary);
  defaults.set("maxLength", o.max_length);
  defaults.set("validation", o.validation);
  defaults.set("test", o.test);
  defaults.set("seed", static_cast<double>(o.seed));
  val out = val::object();
  out.set("defaults", defaults);
  out.set("maxBytes", tasks::max_text_bytes);
  out.set(most, tasks::max_text_pairs);
  out.set("maxHeldOut", tasks::max_held_out);
  out.set("maxLength", tasks::max_text_length);
  out.set("maxVocabulary", tasks::max_text_vocabulary);
  return out;
}

// The text's bytes as the core reads them.
inline std::string_view text_view(const std::vector<std::uint8_t> &bytes) {
  return {reinterpret_cast<const char *>(bytes.data()), bytes.size()};
}

// What every task from text's info says: { id, name, hash, lowercase, maxLength, stats: {
// <count>: kept, dropped, train, validation, test, unknownShare, <vocabulary>: its size },
// <vocabulary>: its tokens } (`count`: "pairs", "sentences"; each of `vocabularies`
// under its name), maxLength `max_length`; the caller adds its own.
template <class Task>
val text_task_info(
    const Task &task, const char *count, std::size_t max_length,
    std::initializer_list<std::pair<const char *, const at::tasks::Vocabulary *>> vocabularies) {
  val out = val::object();
  out.set("id", task.id);
  out.set("name", task.name);
  out.set("hash", task.hash);
  out.set("lowercase", task.text->lowercase);
  out.set("maxLength", max_length);
  val stats = val::object();
  stats.set(count, task.stats.pairs);
  val dropped = val::object();
  for (const auto &[reason, number] : task.stats.dropped)
    dropped.set(reason, number);
  stats.set("dropped", dropped);
  stats.set("train", task.train.size());
  stats.set("validation", task.validation.size());
  stats.set("test", task.test.size());
  stats.set("unknownShare", task.stats.unknown_share);
  for (const auto &[name, vocabulary] : vocabularies) {
    stats.set(name, vocabulary->tokens.size());
    out.set(name, strings(vocabulary->tokens));
  }
  out.set("stats", stats);
  return out;
}

// The task kept under `id`, found by `kept` (InputError blames "task" once it is forgotten).
template <class Kept> const auto &kept_text_task(const std::string &id, Kept kept) {
  const auto task = kept(id);
  if (!task)
    at::detail::fail(at::detail::Argument("task"), "the task \"", id.substr(0, 80),
                     "\" was forgotten");
  return *task;
}

} // namespace binding
