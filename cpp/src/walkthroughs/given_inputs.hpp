// What the walkthroughs' entries in the table (walkthroughs(), registry.cpp) share: their input
// fields with limits and defaults, and the reading of the inputs a caller gives (GivenInputs),
// each field taking its default where it is not given.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "attention/model_store.hpp"
#include "attention/translation_tasks.hpp"
#include "attention/walkthrough.hpp"
#include "core/decimal.hpp"

namespace attention::inputs {

inline Matrix<double> row_matrix(const Vector<double> &v) {
  auto out = Matrix<double>::from_shape({1, v.size()});
  std::copy(v.begin(), v.end(), out.data());
  return out;
}

inline InputField integer_field(const char *name, std::int64_t value, std::int64_t min,
                                std::int64_t max) {
  auto number = Matrix<double>::from_shape({1, 1});
  number(0, 0) = double(value);
  return {name, InputKind::integer, min, max, {}, false, std::move(number), {}};
}
inline InputField numbers_field(const char *name, InputKind kind, Matrix<double> value) {
  return {name, kind, 0, 0, {}, false, std::move(value), {}};
}
inline InputField texts_field(const char *name, InputKind kind, Labels value, Labels choices = {}) {
  return {name, kind, 0, 0, std::move(choices), false, {}, std::move(value)};
}
inline InputField optional_matrix(const char *name) {
  return {name, InputKind::matrix, 0, 0, {}, true, {}, {}};
}
inline InputField model_field(const char *name, InputKind kind, bool optional = false) {
  return {name, kind, 0, 0, {}, optional, {}, {}};
}

inline InputField task_field() {
  return texts_field("task", InputKind::choice, Labels(1, tasks::task_ids().front()),
                     tasks::task_ids());
}
// en-fr's "la voiture rouge est petite"
// The names of an enumeration's values (name_of(value) for each), a choice field's choices.
template <class Values, class NameOf> Labels names_of(const Values &values, NameOf name_of) {
  Labels names;
  for (const auto value : values)
    names.push_back(name_of(value));
  return names;
}

inline InputField sample_sentence() {
  return texts_field("sentence", InputKind::text, {"the red car is small"});
}

template <class Value>
const Value *find(const std::vector<std::pair<std::string, Value>> &given, const char *name) {
  for (const auto &[key, value] : given)
    if (key == name)
      return &value;
  return nullptr;
}

inline void read(const GivenInputs &given, const char *name, Matrix<double> &out) {
  if (const auto *value = find(given.numbers, name))
    out = *value;
}
inline void read(const GivenInputs &given, const char *name, std::optional<Matrix<double>> &out) {
  if (const auto *value = find(given.numbers, name))
    out = *value;
}
inline void read(const GivenInputs &given, const char *name, Vector<double> &out) {
  if (const auto *value = find(given.numbers, name)) {
    out = Vector<double>::from_shape({value->size()});
    std::copy(value->data(), value->data() + value->size(), out.data());
  }
}
template <class Integer>
inline void read(const GivenInputs &given, const char *name, Integer &out) {
  if (const auto *value = find(given.numbers, name))
    out = static_cast<Integer>((*value)(0, 0));
}

inline const InputField &field_of(const std::vector<InputField> &fields, const char *name) {
  return *std::find_if(fields.begin(), fields.end(), [&](const auto &f) { return f.name == name; });
}
// A text or integer input, or its default.
inline Labels texts(const GivenInputs &given, const char *name,
                    const std::vector<InputField> &fields) {
  const auto *value = find(given.texts, name);
  return value ? *value : field_of(fields, name).texts;
}
inline std::size_t size(const GivenInputs &given, const char *name,
                        const std::vector<InputField> &fields) {
  const auto *value = find(given.numbers, name);
  return static_cast<std::size_t>((value ? *value : field_of(fields, name).numbers)(0, 0));
}
// A choice input, or its default; InputError blames the field for a text not among its choices.
inline std::string choice(const GivenInputs &given, const char *name,
                          const std::vector<InputField> &fields) {
  const Labels &choices = field_of(fields, name).choices;
  const std::string value = texts(given, name, fields).at(0);
  if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
    std::string names;
    for (const auto &each : choices)
      names += (names.empty() ? "" : ", ") + each;
    detail::fail(detail::Argument(name), name, " (\"", value.substr(0, 40), "\") must be one of ",
                 names);
  }
  return value;
}
// The sentence as typed (a text field: the model's tokenizer reads it).
inline std::string sentence(const GivenInputs &given, const std::vector<InputField> &fields) {
  return texts(given, "sentence", fields).at(0);
}
inline std::vector<int> handles(const GivenInputs &given, const char *name) {
  std::vector<int> out;
  if (const auto *value = find(given.numbers, name))
    for (std::size_t i = 0; i < value->size(); ++i)
      out.push_back(static_cast<int>(value->data()[i]));
  return out;
}

// The identity's inputs given with a model must be the model's, each field its kind marks
// `identity` but `skipped` (the field compared): a text as the field names its value (a number as
// format_shortest writes it, "default" for a field whose default the others imply), or a number.
template <class Session>
inline void require_models_own(const GivenInputs &given, const Session &session,
                               const std::string &skipped = "") {
  using Kind = typename KindOfSession<Session>::type;
  const auto &config = session.config();
  for (const auto &field : Kind::fields()) {
    if (!field.is(FieldRole::identity) || field.name == skipped)
      continue;
    const FieldValue own = field.get(config);
    const auto refuse = [&](const std::string &value) {
      const std::string own_text = std::holds_alternative<std::string>(own)
                                       ? std::get<std::string>(own)
                                       : detail::format_shortest(std::get<double>(own));
      detail::fail(detail::Argument(field.name), "inputs.", field.name, " (", value,
                   ") is not the model's (", own_text, ")");
    };
    if (const auto *texts = find(given.texts, field.name); texts && !texts->empty()) {
      const std::string &text = texts->front();
      if (text == "default" && field.unsaid)
        continue;
      if (std::holds_alternative<std::string>(own)) {
        auto parsed = config; // a choice's name is checked as create checks it
        field.set(parsed, text, field.name);
        if (field.get(parsed) != own)
          refuse(text);
      } else if (text != detail::format_shortest(std::get<double>(own))) {
        refuse(text);
      }
    } else if (const auto *numbers = find(given.numbers, field.name);
               numbers && numbers->size() && (*numbers)(0, 0) != std::get<double>(own)) {
      refuse(detail::format_shortest((*numbers)(0, 0)));
    }
  }
}

// The one model `inputs.model` holds (its handle); InputError blames "model" otherwise, saying
// `what` it must be ("one <kind> model").
inline int one_model(const GivenInputs &given, const char *what) {
  const std::vector<int> model = handles(given, "model");
  if (model.size() != 1)
    detail::fail(detail::Argument("model"), "inputs.model must be ", what);
  return model[0];
}

// trace(session, others) of the one model `inputs.model` holds (one_model: `what` it must be), a
// session of Session's kind in its own precision whose identity's inputs given are its own
// (require_models_own), and `others` the sessions of `inputs.<compared>` (sessions_of: the same
// kind and precision).
template <template <class> class Session, class Traced>
Trace trace_of_model(const GivenInputs &given, const char *what, const char *compared,
                     Traced trace) {
  return stored_model(one_model(given, what)).template as<Session>().visit([&](auto &session) {
    using T = typename precision_of<std::decay_t<decltype(session)>>::type;
    require_models_own(given, session);
    return trace(session, sessions_of<Session, T>(handles(given, compared), compared));
  });
}

} // namespace attention::inputs
