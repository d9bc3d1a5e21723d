// The walkthroughs: their names, inputs and traces, through the core's one table of them
// (walkthrough.hpp): an input is read by its kind, whichever walkthrough it belongs to.
#include <variant>

#include "attention/walkthrough.hpp"
#include "convert.hpp"

namespace binding {
namespace {

// A plain label as its text; a structured one as an object of the fields it sets:
// { precision: "float16", allMasked: true }, { total: true }, { metric: "exactMatch" }, …
val label_to_js(const at::Label &label) {
  if (!label.structured())
    return val(label.text);
  val out = val::object();
  if (!label.precision.empty())
    out.set("precision", label.precision);
  if (label.all_masked)
    out.set("allMasked", true);
  if (label.width)
    out.set("width", static_cast<double>(*label.width));
  if (label.temperature)
    out.set("temperature", *label.temperature);
  if (label.total)
    out.set("total", true);
  if (!label.metric.empty())
    out.set("metric", label.metric);
  for (const auto &[field, value] : label.model)
    std::visit([&, name = field.c_str()](const auto &v) { out.set(name, v); }, value);
  if (!label.category.empty())
    out.set("category", label.category);
  if (label.count)
    out.set("count", static_cast<double>(*label.count));
  if (!label.instead.empty())
    out.set("instead", label.instead);
  return out;
}

val labels_to_js(const std::vector<at::Label> &labels) {
  val out = val::array();
  for (const auto &label : labels)
    out.call<void>("push", label_to_js(label));
  return out;
}

val trace_to_js(const at::Trace &trace) {
  val labels = val::object();
  for (const auto &[name, list] : trace.labels)
    labels.set(name, strings(list));
  val stages = val::array();
  for (const auto &stage : trace.stages) {
    val panels = val::array();
    for (const auto &panel : stage.panels) {
      val p = from_matrix(panel.values);
      p.set("name", panel.name);
      p.set("palette", panel.palette);
      p.set("rowLabels", labels_to_js(panel.row_labels));
      p.set("colLabels", labels_to_js(panel.col_labels));
      if (!panel.exact.empty())
        p.set("exact", strings(panel.exact));
      if (!panel.bits.empty())
        p.set("bits", strings(panel.bits));
      panels.call<void>("push", p);
    }
    val s = val::object();
    s.set("id", stage.id);
    s.set("kind", stage.kind);
    if (stage.step)
      s.set("step", stage.step);
    s.set("panels", panels);
    stages.call<void>("push", s);
  }
  val out = val::object();
  out.set("walkthrough", trace.walkthrough);
  out.set("labels", labels);
  out.set("stages", stages);
  if (!trace.models.empty())
    out.set("models", labels_to_js(trace.models));
  out.set("output", from_matrix(trace.output));
  return out;
}

const char *const kind_names[] = {"vector", "matrix", "integer", "choice", "tokens",
                                  "text",   "model",  "models",  "ids"};

// inputs: { name: value } as the wrapper converted them for the fields' kinds: a vector a
// Float64Array, a matrix { rows, cols, data }, an integer a number, a choice or a text a string,
// tokens an array of strings, models an array of handles, ids an Int32Array.
val walkthrough(std::string name, val inputs) {
  return guarded([&] {
    at::GivenInputs given;
    for (const auto &field : at::walkthrough_inputs(name)) {
      const val value = inputs[field.name];
      if (value.isUndefined() || value.isNull())
        continue;
      switch (field.kind) {
      case at::InputKind::vector: {
        const auto vector = to_vector<double>(value);
        auto row = at::Matrix<double>::from_shape({1, vector.size()});
        std::copy(vector.begin(), vector.end(), row.data());
        given.numbers.emplace_back(field.name, std::move(row));
        break;
      }
      case at::InputKind::matrix:
        given.numbers.emplace_back(field.name, to_matrix<double>(value));
        break;
      case at::InputKind::integer:
      case at::InputKind::model:
        given.numbers.emplace_back(field.name, at::Matrix<double>{{value.as<double>()}});
        break;
      case at::InputKind::models:
      case at::InputKind::ids: {
        const auto handles = emscripten::convertJSArrayToNumberVector<double>(value);
        auto row = at::Matrix<double>::from_shape({1, handles.size()});
        std::copy(handles.begin(), handles.end(), row.data());
        given.numbers.emplace_back(field.name, std::move(row));
        break;
      }
      case at::InputKind::choice:
      case at::InputKind::text:
        given.texts.emplace_back(field.name, at::Labels{value.as<std::string>()});
        break;
      case at::InputKind::tokens:
        given.texts.emplace_back(field.name, emscripten::vecFromJSArray<std::string>(value));
        break;
      }
    }
    return trace_to_js(at::walkthrough(name, given));
  });
}

// The inputs of a walkthrough: [{ name, kind, min, max, choices, optional, default }], defaults
// as the JavaScript API takes them (a number, number[], number[][], a string or string[]); a
// model input has none.
val walkthrough_inputs(std::string name) {
  return guarded([&] {
    val fields = val::array();
    for (const auto &field : at::walkthrough_inputs(name)) {
      val f = val::object();
      f.set("name", field.name);
      f.set("kind", kind_names[static_cast<int>(field.kind)]);
      f.set("optional", field.optional);
      switch (field.kind) {
      case at::InputKind::integer:
        f.set("min", static_cast<double>(field.min));
        f.set("max", static_cast<double>(field.max));
        f.set("default", field.numbers(0, 0));
        break;
      case at::InputKind::vector:
        f.set("default", rows_to_js(field.numbers)[0]);
        break;
      case at::InputKind::matrix:
        f.set("default", field.optional ? val::null() : rows_to_js(field.numbers));
        break;
      case at::InputKind::choice:
        f.set("choices", strings(field.choices));
        f.set("default", field.texts.at(0));
        break;
      case at::InputKind::text:
        f.set("default", field.texts.at(0));
        break;
      case at::InputKind::tokens:
        f.set("default", strings(field.texts));
        break;
      case at::InputKind::model:
      case at::InputKind::models:
      case at::InputKind::ids:
        break;
      }
      fields.call<void>("push", f);
    }
    return fields;
  });
}

val walkthrough_names() { return strings(at::walkthrough_names()); }

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(walkthroughs) {
  emscripten::function("walkthrough", &binding::walkthrough);
  emscripten::function("walkthroughInputs", &binding::walkthrough_inputs);
  emscripten::function("walkthroughNames", &binding::walkthrough_names);
}
