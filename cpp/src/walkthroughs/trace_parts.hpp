// What the walkthrough traces build their stages and panels with and check their inputs with, so
// that labels, panels and errors are made one way everywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention/translation_tasks.hpp"
#include "attention/walkthrough.hpp"

namespace attention::trace_parts {

// A model as a label of the fields `names` of its kind's `fields` (ModelKind::fields()), in the
// kind's order, each as the field gives it from `config`: what the page words for any kind alike.
template <class Config>
Label model_label(const Config &config, const std::vector<ConfigField<Config>> &fields,
                  std::initializer_list<std::string_view> names) {
  Label label;
  for (const auto &field : fields)
    if (std::find(names.begin(), names.end(), field.name) != names.end())
      label.model.emplace_back(field.name, field.get(config));
  return label;
}

// `label` with only the model's fields `names`.
inline Label only_fields(const Label &label, std::initializer_list<std::string_view> names) {
  Label out;
  for (const auto &entry : label.model)
    if (std::find(names.begin(), names.end(), entry.first) != names.end())
      out.model.push_back(entry);
  return out;
}

inline void require_size(std::size_t value, const char *what, std::size_t max,
                         const char *argument) {
  if (value == 0 || value > max)
    detail::fail(detail::Argument(argument), what, " (", value, ") must be between 1 and ", max);
}

inline void require_integer(std::int64_t value, const char *name, std::int64_t min,
                            std::int64_t max) {
  if (value < min || value > max)
    detail::fail(detail::Argument(name), name, " (", value, ") must be between ", min, " and ",
                 max);
}

// The core's functions name their own arguments ("query", "keys"); a walkthrough's caller knows
// only its inputs. Runs `build` and passes an error on as one about the walkthrough input it came
// from: `query_input` for the scored state, `other_input` for everything else.
template <class Build>
Trace blaming_inputs(Build &&build, const char *query_input, const char *other_input,
                     std::initializer_list<const char *> own_inputs) {
  try {
    return build();
  } catch (const InputError &error) {
    for (const char *input : own_inputs)
      if (error.argument() == input)
        throw;
    throw InputError(error.argument() == "query" ? query_input : other_input, error.what());
  }
}

// A whole-number input from 1 to `high` (a beam, a layer, a head), blamed on its name; `limit`
// says what bounds it (", the model's heads").
inline void check_from_one(std::size_t value, std::size_t high, const char *argument,
                           const char *limit = "") {
  if (value < 1 || value > high)
    detail::fail(detail::Argument(argument), argument, " (", value, ") must be between 1 and ",
                 high, limit);
}

// Plain loops rather than xtensor expressions: each expression type instantiates its own
// assignment machinery, and the traces are compiled for size.
inline Matrix<double> shaped(std::size_t rows, std::size_t cols, const double *data) {
  auto out = Matrix<double>::from_shape({rows, cols});
  std::copy(data, data + rows * cols, out.data());
  return out;
}
inline Matrix<double> filled(std::size_t rows, std::size_t cols, double value) {
  auto out = Matrix<double>::from_shape({rows, cols});
  std::fill(out.data(), out.data() + rows * cols, value);
  return out;
}

// Rows first … first + count - 1 of `m`, as doubles.
template <class T>
Matrix<double> rows_of(const Matrix<T> &m, std::size_t first, std::size_t count) {
  const std::size_t cols = m.shape()[1];
  auto out = Matrix<double>::from_shape({count, cols});
  std::copy(m.data() + first * cols, m.data() + (first + count) * cols, out.data());
  return out;
}

// prefix + first, prefix + (first + 1), …: "x1", "x2", …
inline Labels numbered(const std::string &prefix, std::size_t count, std::size_t first = 0) {
  Labels labels;
  for (std::size_t i = 0; i < count; ++i)
    labels.push_back(prefix + std::to_string(first + i));
  return labels;
}

// Texts as plain labels.
inline std::vector<Label> plain(const Labels &texts) { return {texts.begin(), texts.end()}; }

// Appends a stage; a stage repeated per time step passes its kind and step.
inline void add_stage(Trace &trace, const char *id, std::vector<Panel> panels) {
  trace.stages.push_back({id, id, 0, std::move(panels)});
}

// Names and palettes are literals: strings are made here, once, not at every call.
inline Panel panel(const char *name, const char *palette, Matrix<double> values,
                   std::vector<Label> rows, std::vector<Label> cols) {
  return {name, palette, std::move(values), std::move(rows), std::move(cols), {}, {}};
}
inline Panel panel(const char *name, const char *palette, Matrix<double> values, const Labels &rows,
                   const Labels &cols) {
  return panel(name, palette, std::move(values), plain(rows), plain(cols));
}

// The tokens of `ids` in `vocabulary`: a panel's labels.
template <class Id>
Labels tokens_of(const tasks::Vocabulary &vocabulary, const std::vector<Id> &ids) {
  Labels tokens;
  for (auto id : ids)
    tokens.push_back(vocabulary.tokens[static_cast<std::size_t>(id)]);
  return tokens;
}

// A step's likeliest tokens (a session's `top`) as the "top" panel: a column, the likeliest first,
// so that a word per row has room for its label.
template <class Id, class T>
Panel top_panel(const std::vector<std::pair<Id, T>> &top, const tasks::Vocabulary &vocabulary) {
  auto probabilities = Matrix<double>::from_shape({top.size(), 1});
  Labels tokens;
  for (std::size_t i = 0; i < top.size(); ++i) {
    probabilities(i, 0) = static_cast<double>(top[i].second);
    tokens.push_back(vocabulary.tokens[static_cast<std::size_t>(top[i].first)]);
  }
  return panel("top", "weights", std::move(probabilities), tokens, Labels(1, "p"));
}

// A beam search's hypotheses (a session's `beams`, best first) as the "beams" panel: each one's
// text, text(its output's ids), beside its log-probability.
template <class Beams, class Text> Panel beams_panel(const Beams &beams, Text text) {
  auto scores = Matrix<double>::from_shape({beams.size(), 1});
  Labels hypotheses;
  for (std::size_t i = 0; i < beams.size(); ++i) {
    const auto &output = beams[i].output;
    scores(i, 0) = beams[i].log_probability;
    hypotheses.push_back(text(std::vector<std::size_t>(output.begin(), output.end())));
  }
  return panel("beams", "scores", std::move(scores), hypotheses, Labels(1, "log p"));
}

// A gold panel's row for target token `row`: 1 at its sure links, 0.5 at its possible ones (drawn
// lighter), 0 elsewhere (already).
inline void mark_links(const tasks::Example &gold, std::size_t row, double *out) {
  for (auto column : gold.alignment[row])
    out[column] = 1;
  for (auto column : gold.possible[row])
    out[column] = 0.5;
}

// The gold alignment of `output` (m tokens) over n source tokens, for the tokens up to where they
// leave the grammar's translation (the rest 0).
template <class Id>
Matrix<double> gold_links(const tasks::Example &gold, const std::vector<Id> &output,
                          std::size_t n) {
  const std::size_t m = output.size();
  auto linked = Matrix<double>::from_shape({m, n});
  std::fill(linked.data(), linked.data() + m * n, 0.0);
  for (std::size_t row = 0; row < std::min(m, gold.target.size()); ++row) {
    if (gold.target[row] != static_cast<std::size_t>(output[row]))
      break;
    mark_links(gold, row, &linked(row, 0));
  }
  return linked;
}

} // namespace attention::trace_parts
