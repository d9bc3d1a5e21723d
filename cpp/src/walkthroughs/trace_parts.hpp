// What the walkthrough traces (walkthrough.cpp, seq2seq_walkthrough.cpp) build their panels with,
// so that labels and panels are made one way everywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "attention/walkthrough.hpp"

namespace attention::trace_parts {

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

// Names and palettes are literals: strings are made here, once, not at every call.
inline Panel panel(const char *name, const char *palette, Matrix<double> values,
                   std::vector<Label> rows, std::vector<Label> cols) {
  return {name, palette, std::move(values), std::move(rows), std::move(cols), {}, {}};
}
inline Panel panel(const char *name, const char *palette, Matrix<double> values, const Labels &rows,
                   const Labels &cols) {
  return panel(name, palette, std::move(values), plain(rows), plain(cols));
}

} // namespace attention::trace_parts
