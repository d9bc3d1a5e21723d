// The only C++ that knows about Emscripten: converts between JavaScript values and the core's
// xtensor containers. Exports take and return plain JS values (typed arrays, objects), except
// attentionInto and matmulInto, which work on memory the wrapper owns in the WebAssembly heap; no
// Embind handle reaches the user. Bad input comes back as a JS Error *value* (not thrown across the
// wasm boundary, which would skip C++ destructors and leak); web/engine/engine.js throws it.
//
// Each numeric export exists twice, suffixed _f64 and _f32; the wrapper picks by input type.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <new>
#include <string>

#include <xtensor/xadapt.hpp>

#include "attention/instances.hpp"
#include "attention/numerics.hpp"
#include "attention/numpy_random.hpp"
#include "attention/seq2seq_session.hpp"
#include "attention/seq2seq_tasks.hpp"
#include "attention/seq2seq_walkthrough.hpp"
#include "attention/tensor_files.hpp"
#include "attention/walkthrough.hpp"

using emscripten::typed_memory_view;
using emscripten::val;
namespace at = attention;

// The glue converts values and checks them; the arithmetic happens in the core's numeric API,
// instantiated for speed in cpp/src/core/instances.cpp (attention/instances.hpp). This file is
// compiled for size (CMakeLists.txt), which keeps the module small.

namespace {

// One try/catch for every export (not one per export): the core's exceptions become JS Error
// values, bad input with the `argument` it is about.
__attribute__((noinline)) val guard_call(val (*compute)(void *), void *context) {
  const char *kind = "Error";
  std::string message, argument;
  try {
    return compute(context);
  } catch (const at::InputError &error) {
    message = error.what();
    argument = error.argument();
  } catch (const std::bad_alloc &) {
    kind = "RangeError";
    message = "out of memory: the inputs are too large for WebAssembly memory";
  } catch (const std::exception &error) {
    message = error.what();
  }
  val error = val::global(kind).new_(val(message));
  if (!argument.empty())
    error.set("argument", argument);
  return error;
}

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

at::MaskMatrix to_mask(const val &mask) {
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

val strings(const std::vector<std::string> &items) {
  val out = val::array();
  for (const auto &item : items)
    out.call<void>("push", item);
  return out;
}

// ---- numeric API, per precision --------------------------------------------------------------

template <class T> val dot_score(val query, val key) {
  return guarded([&] { return val(at::dot_score(to_vector<T>(query), to_vector<T>(key))); });
}

template <class T> val dot_scores(val query, val keys) {
  return guarded(
      [&] { return typed_copy(at::dot_scores(to_vector<T>(query), to_matrix<T>(keys))); });
}

template <class T> val general_scores(val query, val keys, val wa) {
  return guarded([&] {
    return typed_copy(
        at::general_scores(to_vector<T>(query), to_matrix<T>(keys), to_matrix<T>(wa)));
  });
}

template <class T> val concat_scores(val query, val keys, val wa, val va) {
  return guarded([&] {
    return typed_copy(at::concat_scores(to_vector<T>(query), to_matrix<T>(keys), to_matrix<T>(wa),
                                        to_vector<T>(va)));
  });
}

template <class T> val additive_scores(val query, val keys, val wa, val ua, val va) {
  return guarded([&] {
    return typed_copy(at::additive_scores(to_vector<T>(query), to_matrix<T>(keys), to_matrix<T>(wa),
                                          to_matrix<T>(ua), to_vector<T>(va)));
  });
}

template <class T, bool log> val softmax(val x, val scale, val mask) {
  return guarded([&] {
    const T s = optional_number<T>(scale).value_or(T(1));
    const at::Mask m =
        mask.isNull() || mask.isUndefined() ? at::Mask{} : to_vector<std::uint8_t>(mask);
    const auto values = to_vector<T>(x);
    return typed_copy(log ? at::log_softmax(values, s, m) : at::softmax(values, s, m));
  });
}

template <class T> val apply_weights(val weights, val annotations) {
  return guarded([&] {
    return from_matrix(at::apply_weights(to_vector<T>(weights), to_matrix<T>(annotations)));
  });
}

template <class T> val context_vector(val weighted) {
  return guarded([&] { return typed_copy(at::context_vector(to_matrix<T>(weighted))); });
}

template <class T> val attentional_hidden_state(val context, val state, val wc) {
  return guarded([&] {
    return typed_copy(
        at::attentional_hidden_state(to_vector<T>(context), to_vector<T>(state), to_matrix<T>(wc)));
  });
}

template <class T> at::AttentionOptions<T> attention_options(const val &options) {
  at::AttentionOptions<T> out;
  out.scale = optional_number<T>(options["scale"]);
  out.causal = options["causal"].as<bool>();
  out.mask = to_mask(options["mask"]);
  return out;
}

template <class T> val matrices(const std::vector<at::Matrix<T>> &items) {
  val out = val::array();
  for (const auto &item : items)
    out.call<void>("push", from_matrix(item));
  return out;
}

// The hot path: attention over memory the JS wrapper owns and reuses across calls (its scratch
// in the WebAssembly heap), so neither side allocates inputs or outputs per call. Pointers are
// byte offsets; scale is NaN for the default; a mask of 0 rows is none.
template <class T>
val attention_into(std::uintptr_t q, std::size_t q_rows, std::size_t q_cols, std::uintptr_t k,
                   std::size_t k_rows, std::size_t k_cols, std::uintptr_t v, std::size_t v_rows,
                   std::size_t v_cols, std::size_t heads, double scale, bool causal,
                   std::uintptr_t mask, std::size_t mask_rows, std::size_t mask_cols,
                   bool with_weights, std::uintptr_t out, std::uintptr_t weights) {
  return guarded([&] {
    at::AttentionOptions<T> options;
    if (!std::isnan(scale))
      options.scale = static_cast<T>(scale);
    options.causal = causal;
    options.weights = with_weights;
    if (mask_rows)
      options.mask =
          xt::adapt(reinterpret_cast<const std::uint8_t *>(mask), mask_rows * mask_cols,
                    xt::no_ownership(), std::array<std::size_t, 2>{mask_rows, mask_cols});
    const auto at = [](std::uintptr_t offset) { return reinterpret_cast<T *>(offset); };
    at::attention_into<T>(at(q), q_rows, q_cols, at(k), k_rows, k_cols, at(v), v_rows, v_cols,
                          heads, options, at(out), weights ? at(weights) : nullptr);
    return val::null();
  });
}

// A B over buffers the wrapper placed in the WebAssembly heap, as attention_into.
template <class T>
val matmul_into(std::uintptr_t a, std::size_t m, std::size_t k, std::uintptr_t b, std::size_t k2,
                std::size_t n, std::uintptr_t out) {
  return guarded([&] {
    at::matmul_into(reinterpret_cast<const T *>(a), m, k, reinterpret_cast<const T *>(b), k2, n,
                    reinterpret_cast<T *>(out));
    return val::null();
  });
}

template <class T> val self_attention(val x, val wq, val wk, val wv, val options) {
  return guarded([&] {
    const auto r = at::self_attention(to_matrix<T>(x), to_matrix<T>(wq), to_matrix<T>(wk),
                                      to_matrix<T>(wv), attention_options<T>(options));
    val out = val::object();
    out.set("queries", from_matrix(r.queries));
    out.set("keys", from_matrix(r.keys));
    out.set("values", from_matrix(r.values));
    out.set("scores", from_matrix(r.scores));
    out.set("weights", from_matrix(r.weights));
    out.set("output", from_matrix(r.output));
    return out;
  });
}

template <class T> val multi_head_attention(val x, val params) {
  return guarded([&] {
    at::MultiHeadParams<T> p;
    p.heads = params["heads"].as<std::size_t>();
    p.wq = to_matrix<T>(params["Wq"]);
    p.wk = to_matrix<T>(params["Wk"]);
    p.wv = to_matrix<T>(params["Wv"]);
    p.wo = to_matrix<T>(params["Wo"]);
    for (auto [bias, name] : {std::pair{&p.bq, "bq"}, {&p.bk, "bk"}, {&p.bv, "bv"}, {&p.bo, "bo"}})
      if (!params[name].isUndefined() && !params[name].isNull())
        *bias = to_vector<T>(params[name]);
    p.causal = params["causal"].as<bool>();
    p.mask = to_mask(params["mask"]);
    const auto r = at::multi_head_attention(to_matrix<T>(x), p);
    val out = val::object();
    out.set("output", from_matrix(r.output));
    out.set("weights", matrices(r.weights));
    return out;
  });
}

// ---- one precision, emulated (the numerics lab)
// ---------------------------------------------------

// Values of a precision: { precision, data (the doubles), exact (the text of float128 values a
// double cannot hold, '' elsewhere), bits ('sign exponent mantissa') }, as a panel carries them.
void set_precise(val &out, const at::numerics::Values &values, const char *data = "data") {
  out.set("precision", at::numerics::precision_name(values.precision));
  out.set(data, typed_copy(values.values));
  std::vector<std::string> exact = values.exact;
  exact.resize(values.values.size());
  out.set("exact", strings(exact));
  out.set("bits", strings(values.bits));
}

val precise_matrix(std::size_t rows, std::size_t cols, const at::numerics::Values &values) {
  val out = val::object();
  out.set("rows", rows);
  out.set("cols", cols);
  set_precise(out, values);
  return out;
}

// mask: Uint8Array or null; scale: NaN for 1
val softmax_precision(val x, std::string precision, bool log, double scale, val mask) {
  return guarded([&] {
    namespace nx = at::numerics;
    nx::SoftmaxOptions options;
    options.form = log ? nx::Form::log : nx::Form::shifted;
    options.scale = std::isnan(scale) ? 1 : scale;
    if (!mask.isNull() && !mask.isUndefined())
      options.keep = emscripten::convertJSArrayToNumberVector<std::uint8_t>(mask);
    const auto scores = emscripten::convertJSArrayToNumberVector<double>(x);
    const auto steps = nx::softmax_steps(nx::parse_precision(precision), scores, options);
    val out = val::object();
    set_precise(out, steps.weights, "values");
    return out;
  });
}

// scale: NaN for 1 / sqrt(d_k); mask: { rows, cols, data } or null
val attention_precision(val q, val k, val v, std::string precision, double scale, bool causal,
                        val mask) {
  return guarded([&] {
    const auto Q = to_matrix<double>(q), K = to_matrix<double>(k), V = to_matrix<double>(v);
    const double s = std::isnan(scale) ? 1 / std::sqrt(double(Q.shape()[1])) : scale;
    const auto result = at::numerics::attention(at::numerics::parse_precision(precision), Q, K, V,
                                                s, causal, to_mask(mask));
    val out = val::object();
    out.set("output", precise_matrix(result.rows, result.cols, result.output));
    out.set("weights", precise_matrix(result.rows, result.keys, result.weights));
    return out;
  });
}

// ---- numpy's RandomState, its state held by the caller ----------------------------------------

val random_state_to_js(const at::NumpyRandomStateData &state) {
  val out = val::object();
  out.set("key", typed_copy(state.key));
  out.set("pos", state.pos);
  out.set("hasGauss", state.has_gauss);
  out.set("gauss", state.gauss);
  return out;
}

val random_seed(double seed) {
  return guarded([&] {
    return random_state_to_js(at::NumpyRandomState(static_cast<std::int64_t>(seed)).state());
  });
}

val random_draw(val state, std::string kind, double high, std::size_t rows, std::size_t cols) {
  return guarded([&] {
    at::NumpyRandomStateData data;
    fill_from(data.key, state["key"]);
    data.pos = state["pos"].as<std::uint32_t>();
    data.has_gauss = state["hasGauss"].as<bool>();
    data.gauss = state["gauss"].as<double>();
    at::NumpyRandomState random(data);
    const at::Matrix<double> values =
        kind == "randint" ? random.randint(static_cast<std::int64_t>(high), rows, cols)
        : kind == "rand"  ? random.rand(rows, cols)
                          : random.randn(rows, cols);
    val out = val::object();
    out.set("values", from_matrix(values));
    out.set("state", random_state_to_js(random.state()));
    return out;
  });
}

// ---- walkthrough traces -----------------------------------------------------------------------

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
  if (!label.scoring.empty())
    out.set("scoring", label.scoring);
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
  out.set("output", from_matrix(trace.output));
  return out;
}

template <class Field, class Convert>
void read(const val &inputs, const char *name, Field &field, Convert convert) {
  const val value = inputs[name];
  if (!value.isUndefined() && !value.isNull())
    field = convert(value);
}

val walkthrough(std::string name, val inputs) {
  return guarded([&] {
    const auto integer = [](const val &v) { return static_cast<std::int64_t>(v.as<double>()); };
    const auto size = [](const val &v) { return v.as<std::size_t>(); };
    if (name == "basics") {
      at::BasicsInputs in;
      read(inputs, "decoderState", in.decoder_state, to_vector<double>);
      read(inputs, "annotations", in.annotations, to_matrix<double>);
      read(inputs, "seed", in.seed, integer);
      return trace_to_js(at::basics_walkthrough(in));
    }
    if (name == "self-attention") {
      at::SelfAttentionInputs in;
      read(inputs, "embeddings", in.embeddings, to_matrix<double>);
      read(inputs, "seed", in.seed, integer);
      read(inputs, "high", in.high, integer);
      read(inputs, "word", in.word, size);
      read(inputs, "W_Q", in.wq, to_matrix<double>);
      read(inputs, "W_K", in.wk, to_matrix<double>);
      read(inputs, "W_V", in.wv, to_matrix<double>);
      return trace_to_js(at::self_attention_walkthrough(in));
    }
    if (name == "numerics") {
      at::NumericsInputs in;
      read(inputs, "scores", in.scores, to_vector<double>);
      read(inputs, "mask", in.mask, to_vector<double>);
      read(inputs, "seed", in.seed, integer);
      return trace_to_js(at::numerics_walkthrough(in));
    }
    at::walkthrough_inputs(name); // throws the message that lists the walkthroughs
    return val::null();
  });
}

val rows_to_js(const at::Matrix<double> &m) {
  val rows = val::array();
  for (std::size_t i = 0; i < m.shape()[0]; ++i) {
    val row = val::array();
    for (std::size_t j = 0; j < m.shape()[1]; ++j)
      row.call<void>("push", m(i, j));
    rows.call<void>("push", row);
  }
  return rows;
}

// The inputs of a walkthrough: [{ name, kind, min, max, choices, optional, default }], defaults
// as the JavaScript API takes them (a number, number[], number[][], a string or string[]).
val walkthrough_inputs(std::string name) {
  return guarded([&] {
    static const char *const kinds[] = {"vector", "matrix", "integer", "choice", "tokens"};
    val fields = val::array();
    for (const auto &field : at::walkthrough_inputs(name)) {
      val f = val::object();
      f.set("name", field.name);
      f.set("kind", kinds[static_cast<int>(field.kind)]);
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
      case at::InputKind::tokens:
        f.set("default", strings(field.texts));
        break;
      }
      fields.call<void>("push", f);
    }
    return fields;
  });
}

// ---- translation tasks -------------------------------------------------------------------------

val examples_to_js(const at::tasks::Task &task, const std::vector<at::tasks::Example> &examples) {
  namespace tasks = at::tasks;
  val out = val::array();
  for (const auto &example : examples) {
    val alignment = val::array();
    for (const auto &positions : example.alignment) {
      val row = val::array();
      for (std::size_t position : positions)
        row.call<void>("push", position);
      alignment.call<void>("push", row);
    }
    val pair = val::array();
    pair.call<void>("push", tasks::detokenize(task, example.source, tasks::Side::source));
    pair.call<void>("push", tasks::detokenize(task, example.target, tasks::Side::target));
    pair.call<void>("push", alignment);
    out.call<void>("push", pair);
  }
  return out;
}

// Every task with its seed-0 split: { id, unit, source, target (the vocabularies), maxSourceLength,
// maxTargetLength, examples (the training pairs), test }, each pair [source, target, alignment].
val seq2seq_tasks() {
  return guarded([&] {
    val out = val::array();
    for (const auto &id : at::tasks::task_ids()) {
      const at::tasks::Task task = at::tasks::make_task(id);
      val t = val::object();
      t.set("id", task.id);
      t.set("unit", task.unit == at::tasks::Unit::word ? "word" : "character");
      t.set("source", strings(task.source.tokens));
      t.set("target", strings(task.target.tokens));
      t.set("maxSourceLength", task.max_source_length);
      t.set("maxTargetLength", task.max_target_length);
      t.set("examples", examples_to_js(task, task.train));
      t.set("test", examples_to_js(task, task.test));
      out.call<void>("push", t);
    }
    return out;
  });
}

// ---- seq2seq models ----------------------------------------------------------------------------
// A model lives in the core (Seq2seqSession) under a handle, a number the wrapper keeps; the
// wrapper's dispose() frees it. Each export takes the handle first.

struct Seq2seqModel {
  std::unique_ptr<at::Seq2seqSession<float>> f32;
  std::unique_ptr<at::Seq2seqSession<double>> f64;
  template <class F> val visit(F &&f) { return f32 ? f(*f32) : f(*f64); }
};

std::map<int, Seq2seqModel> &seq2seq_models() {
  static std::map<int, Seq2seqModel> models;
  return models;
}

Seq2seqModel &seq2seq_model(int handle) {
  auto &models = seq2seq_models();
  auto it = models.find(handle);
  if (it == models.end())
    throw at::InputError("model", "this seq2seq model was disposed");
  return it->second;
}

template <class T> val seq2seq_info(int handle, const at::Seq2seqSession<T> &session) {
  const auto &config = session.config();
  val out = val::object();
  out.set("handle", handle);
  out.set("task", config.task);
  out.set("scoring", at::score_function_name(config.scoring));
  out.set("embedding", config.embedding);
  out.set("hidden", config.hidden);
  out.set("seed", static_cast<double>(config.seed));
  out.set("precision", sizeof(T) == 4 ? "float32" : "float64");
  out.set("source", strings(session.task().source.tokens));
  out.set("target", strings(session.task().target.tokens));
  out.set("unit", session.task().unit == at::tasks::Unit::word ? "word" : "character");
  out.set("maxSourceLength", session.task().max_source_length);
  out.set("maxTargetLength", session.task().max_target_length);
  return out;
}

val seq2seq_register(Seq2seqModel model) {
  static int next_handle = 0;
  const int handle = ++next_handle;
  auto &stored = seq2seq_models()[handle] = std::move(model);
  return stored.visit([&](auto &session) { return seq2seq_info(handle, session); });
}

// The tasks of the last few models made (a task is read-only, and making one takes some 50 ms):
// a page that makes model after model of one task makes the task once.
std::shared_ptr<const at::tasks::Task> seq2seq_task(const at::Seq2seqSessionConfig &config) {
  static std::vector<std::pair<std::int64_t, std::shared_ptr<const at::tasks::Task>>> recent;
  for (std::size_t i = 0; i < recent.size(); ++i)
    if (recent[i].first == config.seed && recent[i].second->id == config.task) {
      std::rotate(recent.begin(), recent.begin() + i, recent.begin() + i + 1);
      return recent.front().second;
    }
  auto task =
      std::make_shared<const at::tasks::Task>(at::tasks::make_task(config.task, config.seed));
  recent.insert(recent.begin(), {config.seed, task});
  if (recent.size() > 3)
    recent.pop_back();
  return task;
}

// options: { task, scoring?, embedding?, hidden?, seed?, precision? }, checked for type by the
// wrapper; what is not given takes the core's default (Seq2seqSessionConfig)
val seq2seq_create(val options) {
  return guarded([&] {
    at::Seq2seqSessionConfig config;
    const auto given = [&](const char *key) { return !options[key].isUndefined(); };
    config.task = options["task"].as<std::string>();
    if (given("scoring"))
      config.scoring = at::parse_score_function(options["scoring"].as<std::string>(), "scoring");
    if (given("embedding"))
      config.embedding = options["embedding"].as<std::size_t>();
    if (given("hidden"))
      config.hidden = options["hidden"].as<std::size_t>();
    if (given("seed"))
      config.seed = static_cast<std::int64_t>(options["seed"].as<double>());
    const auto precision =
        given("precision") ? options["precision"].as<std::string>() : std::string("float32");
    Seq2seqModel model;
    if (precision != "float32" && precision != "float64")
      throw at::InputError("precision", "precision must be float32 or float64, got \"" +
                                            precision.substr(0, 40) + "\"");
    if (precision == "float32")
      model.f32 = std::make_unique<at::Seq2seqSession<float>>(config, seq2seq_task(config));
    else
      model.f64 = std::make_unique<at::Seq2seqSession<double>>(config, seq2seq_task(config));
    return seq2seq_register(std::move(model));
  });
}

val seq2seq_load(val bytes) {
  return guarded([&] {
    std::vector<std::uint8_t> data(bytes["length"].as<std::size_t>());
    fill_from(data, bytes);
    Seq2seqModel model;
    if (at::read_saved_seq2seq(data.data(), data.size()).precision == "float32")
      model.f32 = std::make_unique<at::Seq2seqSession<float>>(
          at::load_seq2seq_session<float>(data.data(), data.size()));
    else
      model.f64 = std::make_unique<at::Seq2seqSession<double>>(
          at::load_seq2seq_session<double>(data.data(), data.size()));
    return seq2seq_register(std::move(model));
  });
}

// [{ name, dtype, shape, data (Float64Array, C order) }, …] of a .npy or safetensors file; a .npy's
// one tensor is called npyName.
val read_tensors(val bytes, std::string npy_name) {
  return guarded([&] {
    std::vector<std::uint8_t> data(bytes["length"].as<std::size_t>());
    fill_from(data, bytes);
    val out = val::array();
    for (const auto &tensor : at::read_tensors(data.data(), data.size(), npy_name)) {
      val entry = val::object();
      entry.set("name", tensor.name);
      entry.set("dtype", tensor.dtype);
      val shape = val::array();
      for (std::size_t d : tensor.shape)
        shape.call<void>("push", d);
      entry.set("shape", shape);
      entry.set("data",
                val(typed_memory_view(tensor.data.size(), tensor.data.data())).call<val>("slice"));
      out.call<void>("push", entry);
    }
    return out;
  });
}

val seq2seq_dispose(int handle) {
  return guarded([&] {
    seq2seq_model(handle);
    seq2seq_models().erase(handle);
    return val::undefined();
  });
}

template <class T> val named_tensors(const at::ParameterSet<T> &set) {
  val out = val::object();
  for (const auto &info : set.layout()) {
    val tensor = val::object();
    val shape = val::array();
    for (std::size_t d : info.shape)
      shape.call<void>("push", d);
    tensor.set("shape", shape);
    tensor.set("data",
               val(typed_memory_view(info.size, set.data() + info.offset)).call<val>("slice"));
    out.set(info.name, tensor);
  }
  return out;
}

val seq2seq_parameters(int handle) {
  return guarded([&] {
    return seq2seq_model(handle).visit(
        [](auto &session) { return named_tensors(session.model().parameters()); });
  });
}

// named: [[name, shape (number[]), data (a typed array of the model's precision)], …]
val seq2seq_set_parameters(int handle, val named) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      using Session = std::remove_reference_t<decltype(session)>;
      std::vector<typename Session::NamedValues> entries;
      const auto n = named["length"].as<std::size_t>();
      for (std::size_t i = 0; i < n; ++i) {
        val entry = named[i];
        auto &e = entries.emplace_back();
        e.name = entry[0].as<std::string>();
        const auto rank = entry[1]["length"].as<std::size_t>();
        for (std::size_t d = 0; d < rank; ++d)
          e.shape.push_back(entry[1][d].as<std::size_t>());
        e.values.resize(entry[2]["length"].as<std::size_t>());
        fill_from(e.values, entry[2]);
      }
      session.set_parameters(entries);
      return val::undefined();
    });
  });
}

val seq2seq_tokenize(int handle, std::string sentence, std::string side) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      val out = val::array();
      for (auto id : session.tokenize(sentence, side == "target" ? at::tasks::Side::target
                                                                 : at::tasks::Side::source))
        out.call<void>("push", id);
      return out;
    });
  });
}

// pairs: [[source, target], …] sentences
val seq2seq_gradients(int handle, val pairs) {
  return guarded([&] {
    std::vector<std::pair<std::string, std::string>> sentences;
    const auto n = pairs["length"].as<std::size_t>();
    for (std::size_t i = 0; i < n; ++i)
      sentences.emplace_back(pairs[i][0].as<std::string>(), pairs[i][1].as<std::string>());
    return seq2seq_model(handle).visit([&](auto &session) {
      auto gradients = session.model().make_gradients();
      const double loss = session.gradients(sentences, gradients);
      val out = val::object();
      out.set("loss", loss);
      out.set("gradients", named_tensors(gradients));
      return out;
    });
  });
}

// batch and learningRate: undefined for the core's defaults
val seq2seq_train(int handle, double steps, val batch, val learning_rate) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      const auto result = session.train(
          static_cast<std::size_t>(steps),
          batch.isUndefined() ? at::default_batch : batch.as<std::size_t>(),
          learning_rate.isUndefined() ? at::default_learning_rate : learning_rate.as<double>());
      val out = val::object();
      out.set("step", static_cast<double>(result.step));
      out.set("loss", static_cast<double>(result.loss));
      return out;
    });
  });
}

val seq2seq_evaluate(int handle, std::string split) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      if (split != "train" && split != "test")
        throw at::InputError("split",
                             "split must be train or test, got \"" + split.substr(0, 40) + "\"");
      const auto result =
          session.evaluate(split == "train" ? session.task().train : session.task().test);
      val out = val::object();
      out.set("exactMatch", result.exact_match);
      out.set("tokenAccuracy", result.token_accuracy);
      out.set("alignmentAccuracy", result.alignment_accuracy);
      return out;
    });
  });
}

template <class T> val matrix_row(const at::Matrix<T> &m, std::size_t row) {
  if (m.size() == 0)
    return val::null();
  return val(typed_memory_view(m.shape()[1], m.data() + row * m.shape()[1])).call<val>("slice");
}

val seq2seq_translate(int handle, std::string sentence, int beam) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      const auto &task = session.task();
      const auto source = session.tokenize(sentence, at::tasks::Side::source);
      const auto translation = session.translate(source, static_cast<std::size_t>(beam));
      const auto &trace = translation.trace;
      val out = val::object();
      val source_tokens = val::array();
      for (auto id : source)
        source_tokens.call<void>("push", task.source.tokens[id]);
      out.set("source", source_tokens);
      val target = val::array();
      for (auto id : trace.output)
        if (id != static_cast<at::TokenId>(at::tasks::Vocabulary::eos))
          target.call<void>("push", task.target.tokens[id]);
      out.set("target", target);
      out.set("alignment", from_matrix(trace.weights));
      val encoder = val::object();
      encoder.set("embeddings", from_matrix(trace.source_embeddings));
      encoder.set("states", from_matrix(trace.encoder_states));
      out.set("encoder", encoder);
      val steps = val::array();
      for (std::size_t t = 0; t < trace.output.size(); ++t) {
        val step = val::object();
        step.set("token", task.target.tokens[trace.output[t]]);
        step.set("state", matrix_row(trace.decoder_states, t));
        step.set("scores", matrix_row(trace.scores, t));
        step.set("weights", matrix_row(trace.weights, t));
        step.set("context", matrix_row(trace.contexts, t));
        step.set("attentional", matrix_row(trace.attentional, t));
        val top = val::array();
        for (const auto &[id, probability] : translation.top[t]) {
          val entry = val::object();
          entry.set("token", task.target.tokens[id]);
          entry.set("probability", static_cast<double>(probability));
          top.call<void>("push", entry);
        }
        step.set("top", top);
        steps.call<void>("push", step);
      }
      out.set("steps", steps);
      val beams = val::array();
      for (const auto &hypothesis : translation.beams) {
        val entry = val::object();
        val words = val::array();
        for (auto id : hypothesis.output)
          if (id != static_cast<at::TokenId>(at::tasks::Vocabulary::eos))
            words.call<void>("push", task.target.tokens[id]);
        entry.set("target", words);
        entry.set("logProbability", hypothesis.log_probability);
        beams.call<void>("push", entry);
      }
      out.set("beams", beams);
      return out;
    });
  });
}

// The sessions of `handles` (a JS array of model handles), all of the precision of `Session`.
template <class Session>
std::vector<Session *> sessions_of(const val &handles, const char *argument) {
  std::vector<Session *> sessions;
  for (int handle : emscripten::vecFromJSArray<int>(handles)) {
    Seq2seqModel &model = seq2seq_model(handle);
    Session *typed = nullptr;
    if constexpr (std::is_same_v<Session, at::Seq2seqSession<float>>)
      typed = model.f32.get();
    else
      typed = model.f64.get();
    if (!typed)
      throw at::InputError(argument, std::string(argument) + ": the models must share a precision");
    sessions.push_back(typed);
  }
  return sessions;
}

val seq2seq_walkthrough(int handle, std::string sentence, int beam, val compare) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      using Session = std::decay_t<decltype(session)>;
      return trace_to_js(at::seq2seq_walkthrough(session, sentence, static_cast<std::size_t>(beam),
                                                 sessions_of<Session>(compare, "compare")));
    });
  });
}

// handles: at least one (the wrapper checks); the first one's precision is everyone's.
val scoring_walkthrough(val handles, std::string sentence, int step) {
  return guarded([&] {
    return seq2seq_model(handles[0].as<int>()).visit([&](auto &first) {
      using Session = std::decay_t<decltype(first)>;
      return trace_to_js(at::scoring_walkthrough(sessions_of<Session>(handles, "models"), sentence,
                                                 static_cast<std::size_t>(step)));
    });
  });
}

val seq2seq_save(int handle, bool float16) {
  return guarded([&] {
    return seq2seq_model(handle).visit([&](auto &session) {
      using Storage = typename std::decay_t<decltype(session)>::Storage;
      return typed_copy(session.save(float16 ? Storage::float16 : Storage::model));
    });
  });
}

// The WebAssembly heap: its size (it only grows, so it is also the peak), and the top of the
// memory malloc has claimed (static data and stack included), which a leak would push up.
val memory_stats() {
  val out = val::object();
  out.set("heapBytes", static_cast<double>(emscripten_get_heap_size()));
  out.set("arenaBytes", static_cast<double>(reinterpret_cast<std::uintptr_t>(sbrk(0))));
  return out;
}

// Sets how many threads the core uses, the caller included, and returns the count in effect: 1
// in the default build, which has no threads. The threaded builds' wrappers call it once at load.
val set_threads(int threads) {
  return guarded([&] {
    at::parallel::set_threads(static_cast<std::size_t>(std::max(threads, 1)));
    return val(static_cast<double>(at::parallel::threads()));
  });
}

val decimal_from_log(double log_magnitude, bool negative, int digits) {
  return guarded([&] { return val(at::decimal_from_log(log_magnitude, negative, digits)); });
}

template <class T> void register_precision(const std::string &suffix) {
  using emscripten::function;
  const auto name = [&](const char *base) { return std::string(base) + suffix; };
  function(name("dotScore").c_str(), &dot_score<T>);
  function(name("dotScores").c_str(), &dot_scores<T>);
  function(name("generalScores").c_str(), &general_scores<T>);
  function(name("concatScores").c_str(), &concat_scores<T>);
  function(name("additiveScores").c_str(), &additive_scores<T>);
  function(name("softmax").c_str(), &softmax<T, false>);
  function(name("logSoftmax").c_str(), &softmax<T, true>);
  function(name("applyWeights").c_str(), &apply_weights<T>);
  function(name("contextVector").c_str(), &context_vector<T>);
  function(name("attentionalHiddenState").c_str(), &attentional_hidden_state<T>);
  function(name("attentionInto").c_str(), &attention_into<T>);
  function(name("matmulInto").c_str(), &matmul_into<T>);
  function(name("selfAttention").c_str(), &self_attention<T>);
  function(name("multiHeadAttention").c_str(), &multi_head_attention<T>);
}

} // namespace

EMSCRIPTEN_BINDINGS(attention_engine) {
  register_precision<double>("_f64");
  register_precision<float>("_f32");
  emscripten::function("randomSeed", &random_seed);
  emscripten::function("randomDraw", &random_draw);
  emscripten::function("walkthrough", &walkthrough);
  emscripten::function("walkthroughInputs", &walkthrough_inputs);
  emscripten::function("seq2seqTasks", &seq2seq_tasks);
  emscripten::function("seq2seqCreate", &seq2seq_create);
  emscripten::function("seq2seqLoad", &seq2seq_load);
  emscripten::function("seq2seqDispose", &seq2seq_dispose);
  emscripten::function("seq2seqParameters", &seq2seq_parameters);
  emscripten::function("seq2seqSetParameters", &seq2seq_set_parameters);
  emscripten::function("seq2seqTokenize", &seq2seq_tokenize);
  emscripten::function("seq2seqGradients", &seq2seq_gradients);
  emscripten::function("seq2seqTrain", &seq2seq_train);
  emscripten::function("seq2seqEvaluate", &seq2seq_evaluate);
  emscripten::function("seq2seqTranslate", &seq2seq_translate);
  emscripten::function("seq2seqSave", &seq2seq_save);
  emscripten::function("seq2seqWalkthrough", &seq2seq_walkthrough);
  emscripten::function("scoringWalkthrough", &scoring_walkthrough);
  emscripten::function("decimalFromLog", &decimal_from_log);
  emscripten::function("readTensors", &read_tensors);
  emscripten::function("softmaxPrecision", &softmax_precision);
  emscripten::function("attentionPrecision", &attention_precision);
  emscripten::function("memoryStats", &memory_stats);
  emscripten::function("setThreads", &set_threads);
}
