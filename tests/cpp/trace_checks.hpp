// Lookups the doctest cases share: a trace's stage and a stage's panel by name (the case fails
// where one is missing), a model label's field, and the argument an InputError blames.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "attention/errors.hpp"
#include "attention/walkthrough.hpp"

inline const attention::Stage &stage_of(const attention::Trace &trace, const std::string &id) {
  const auto found = std::find_if(trace.stages.begin(), trace.stages.end(),
                                  [&](const attention::Stage &stage) { return stage.id == id; });
  REQUIRE(found != trace.stages.end());
  return *found;
}

inline bool has_panel(const attention::Stage &stage, const std::string &name) {
  return std::any_of(stage.panels.begin(), stage.panels.end(),
                     [&](const attention::Panel &panel) { return panel.name == name; });
}

inline const attention::Panel &panel_of(const attention::Stage &stage, const std::string &name) {
  const auto found =
      std::find_if(stage.panels.begin(), stage.panels.end(),
                   [&](const attention::Panel &panel) { return panel.name == name; });
  REQUIRE(found != stage.panels.end());
  return *found;
}

inline const attention::Panel &panel_of(const attention::Trace &trace, const std::string &stage,
                                        const std::string &name) {
  return panel_of(stage_of(trace, stage), name);
}

// A model label's field `name` (Label::model), as the field gives it: text, or a number; what
// `absent` says when the label does not say it.
inline attention::FieldValue field_of(const attention::Label &label, const std::string &name,
                                      attention::FieldValue absent = std::string("(absent)")) {
  const attention::FieldValue *value = label.field(name);
  return value ? *value : absent;
}

// The argument `f`'s InputError names, or "(no error)".
inline std::string argument_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const attention::InputError &error) {
    return error.argument();
  }
  return "(no error)";
}
