// The numeric API (each export twice, suffixed _f64 and _f32; the wrapper picks by input type),
// the numerics lab's emulated precisions, and the module's own state (threads, memory).
#include <emscripten/heap.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include <xtensor/xadapt.hpp>

#include "attention/instances.hpp"
#include "attention/numerics.hpp"
#include "attention/walkthrough.hpp"
#include "convert.hpp"

// The glue converts values; the arithmetic happens in the core's numeric API, instantiated for
// speed in cpp/src/core/instances.cpp (attention/instances.hpp). The bindings are compiled for
// size (CMakeLists.txt), which keeps the module small.

namespace binding {
namespace {

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

// The precisions the numerics lab emulates, in its order.
val numerics_precisions() {
  val out = val::array();
  for (const auto precision : at::numerics::precisions)
    out.call<void>("push", val(at::numerics::precision_name(precision)));
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(numeric) {
  using namespace binding;
  register_precision<double>("_f64");
  register_precision<float>("_f32");
  emscripten::function("decimalFromLog", &decimal_from_log);
  emscripten::function("softmaxPrecision", &softmax_precision);
  emscripten::function("attentionPrecision", &attention_precision);
  emscripten::function("memoryStats", &memory_stats);
  emscripten::function("setThreads", &set_threads);
  emscripten::function("numericsPrecisions", &numerics_precisions);
}
