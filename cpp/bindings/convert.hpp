// The binding's conversions between JavaScript values and the core's containers, shared by the
// files of cpp/bindings/ (one a domain). Exports take and return plain JS values (typed arrays,
// objects), except attentionInto and matmulInto, which work on memory the wrapper owns in the
// WebAssembly heap; no Embind handle reaches the user. Bad input comes back as a JS Error *value*
// (not thrown across the wasm boundary, which would skip C++ destructors and leak);
// web/engine/engine.js throws it. The binding converts and declares, nothing more: the checks and
// the logic are the core's.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "attention/attention.hpp"

namespace binding {

using emscripten::typed_memory_view;
using emscripten::val;
namespace at = attention;

// One try/catch for every export (not one per export): the core's exceptions become JS Error
// values, bad input with the `argument` it is about.
val guard_call(val (*compute)(void *), void *context);

template <class F> val guarded(F &&compute) {
  return guard_call(
      [](void *context) { return (*static_cast<std::remove_reference_t<F> *>(context))(); },
      &compute);
}

// Copies a JS typed array into a container in one bulk TypedArray.set (no per-element calls).
template <class Container> void fill_from(Container &out, const val &typed_array) {
  val(typed_memory_view(out.size(), out.data())).call<void>("set", typed_array);
}

template <class T> at::Vector<T> to_vector(const val &typed_array) {
  auto out = at::Vector<T>::from_shape({typed_array["length"].as<std::size_t>()});
  fill_from(out, typed_array);
  return out;
}

// {rows, cols, data}; the wrapper has checked that data.length == rows * cols.
template <class T> at::Matrix<T> to_matrix(const val &matrix) {
  auto out = at::Matrix<T>::from_shape(
      {matrix["rows"].as<std::size_t>(), matrix["cols"].as<std::size_t>()});
  fill_from(out, matrix["data"]);
  return out;
}

inline at::MaskMatrix to_mask(const val &mask) {
  if (mask.isNull() || mask.isUndefined())
    return {};
  return to_matrix<std::uint8_t>(mask);
}

template <class E> val typed_copy(const E &e) {
  return val(typed_memory_view(e.size(), e.data())).call<val>("slice");
}

template <class T> val from_matrix(const at::Matrix<T> &m) {
  val out = val::object();
  out.set("rows", m.shape()[0]);
  out.set("cols", m.shape()[1]);
  out.set("data", typed_copy(m));
  return out;
}

template <class T> std::optional<T> optional_number(const val &v) {
  if (v.isUndefined() || v.isNull())
    return std::nullopt;
  return v.as<T>();
}

inline val strings(const std::vector<std::string> &items) {
  val out = val::array();
  for (const auto &item : items)
    out.call<void>("push", item);
  return out;
}

template <class T> val matrices(const std::vector<at::Matrix<T>> &items) {
  val out = val::array();
  for (const auto &item : items)
    out.call<void>("push", from_matrix(item));
  return out;
}

// A matrix as an array of rows of numbers (the defaults of the walkthroughs' inputs).
val rows_to_js(const at::Matrix<double> &m);

// Bytes given as a Uint8Array.
std::vector<std::uint8_t> bytes_of(const val &bytes);

} // namespace binding
