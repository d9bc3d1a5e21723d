// What the tasks of several kinds share: the languages the shapes and reviews grammars write, a
// token id checked against a vocabulary, and a split by its name.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "attention/errors.hpp"
#include "attention/translation_tasks.hpp"

namespace attention::tasks {

// The languages of the captioning and classification tasks' grammars (caption_languages(),
// classification_languages()); InputError blames "language" for another.
inline const std::vector<std::string> &grammar_languages() {
  static const std::vector<std::string> languages = {"en", "zh"};
  return languages;
}
inline void check_grammar_language(const std::string &language) {
  const auto &languages = grammar_languages();
  if (std::find(languages.begin(), languages.end(), language) == languages.end())
    detail::fail(detail::Argument("language"), "language must be en or zh, got \"",
                 language.substr(0, 40), "\"");
}

// ids[i] in `vocabulary`, a task's `which` one ("en", "source"): InputError blames "ids" otherwise.
inline void check_id(const std::vector<std::size_t> &ids, std::size_t i,
                     const Vocabulary &vocabulary, const std::string &task,
                     const std::string &which) {
  if (ids[i] >= vocabulary.tokens.size())
    detail::fail(detail::Argument("ids"), "ids[", i, "] (", ids[i], ") is outside the ", task, " ",
                 which, " vocabulary of ", vocabulary.tokens.size(), " tokens");
}

// A task's split by its name: "train", "test", and "validation" where the task has one
// (`validation`). A task that came from a model's file keeps its `kept` (its vocabularies) but not
// its `examples` (its pairs): it has none. InputError blames "split".
template <class Task>
const auto &split_named(const Task &task, const std::string &name, bool validation,
                        const char *kept, const char *examples) {
  if (task.text && task.train.empty())
    detail::fail(detail::Argument("split"), "the ", task.id,
                 " task came from a model's file, which keeps its ", kept, " but not its ",
                 examples, ": make the task from its text again to evaluate");
  if (name == "train")
    return task.train;
  if (name == "test")
    return task.test;
  if (name == "validation" && validation) {
    if (task.validation.empty())
      detail::fail(detail::Argument("split"), "the ", task.id, " task holds no validation ",
                   examples, " out");
    return task.validation;
  }
  detail::fail(detail::Argument("split"), "split must be ",
               validation ? "train, validation" : "train", " or test, got \"", name.substr(0, 40),
               "\"");
}

} // namespace attention::tasks
