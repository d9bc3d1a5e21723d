// What the bindings of the model kinds share: the conversions of named parameters, training
// results, likeliest tokens and words, and each kind's registration
// (bind_kind), through which models.cpp's exports (create, load, facts, train, evaluate and what
// every kind does alike: parameters, setParameters, save, dispose) serve any kind.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attention/model_store.hpp"
#include "convert.hpp"

namespace binding {

// The precision a model is made in unless the caller picks one: the page trains in float32.
constexpr const char *default_precision = "float32";

// T of a session.
template <class Session> using precision_t = typename at::precision_of<std::decay_t<Session>>::type;

// What a kind's binding adds to what every kind has (models.cpp): its own info, the evaluation of
// a split, and its own facts. Each kind's file registers them (bind_kind) as the module starts.
struct KindBinding {
  std::function<void(at::StoredModel &, val &info)> info;
  std::function<val(at::StoredModel &, const std::string &split)> evaluate;
  std::function<val()> facts;
};
std::map<std::string, KindBinding> &kind_bindings();

// Registers Session's kind: info(session, out) sets the kind's own keys of a model's info,
// evaluate(session, split) converts its evaluation, facts() gives its own facts ({ tasks, maxBeam,
// …, defaults: { … } }, the defaults merged into those every kind has).
template <template <class> class Session, class Info, class Evaluate, class Facts>
void bind_kind(Info info, Evaluate evaluate, Facts facts) {
  kind_bindings()[at::ModelKind<Session>::name] = {
      [info](at::StoredModel &model, val &out) {
        model.as<Session>().visit([&](const auto &session) { info(session, out); });
      },
      [evaluate](at::StoredModel &model, const std::string &split) {
        return model.as<Session>().visit([&](auto &session) { return evaluate(session, split); });
      },
      facts};
}

// The model's info: its handle, kind, precision, configuration fields and the kind's own keys;
// what the wrapper makes the model object from (web/engine/models.js).
val info_of(int handle);

// f(session) on the model of `handle` as Session's kind (InputError blames "model" otherwise), in
// its precision.
template <template <class> class Session, class F> val with_session(int handle, F &&f) {
  return at::stored_model(handle).as<Session>().visit(f);
}

// { name: { shape, data (a copy, in the model's precision) } } in the set's order.
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

// { loss, gradients } of a model's gradients call.
// A loss term's weight (guide, regularization, rationale) as the caller gave it, else the kind's
// default: the core checks it.
template <class Session> double loss_weight(const val &weight) {
  using Kind = typename at::KindOfSession<std::decay_t<Session>>::type;
  return weight.isUndefined() ? Kind::default_loss_weight : weight.as<double>();
}

template <class T> val loss_and_gradients(double loss, const at::ParameterSet<T> &gradients) {
  val out = val::object();
  out.set("loss", loss);
  out.set("gradients", named_tensors(gradients));
  return out;
}

template <class T> val train_result(const at::TrainResult<T> &result) {
  val out = val::object();
  out.set("step", static_cast<double>(result.step));
  out.set("loss", static_cast<double>(result.loss));
  return out;
}

// Row `row` of a matrix as a typed array (a copy); null for an empty matrix (a trace without it).
template <class T> val matrix_row(const at::Matrix<T> &m, std::size_t row) {
  if (m.size() == 0)
    return val::null();
  return val(typed_memory_view(m.shape()[1], m.data() + row * m.shape()[1])).call<val>("slice");
}

// A step's likeliest tokens: [{ token, probability }], likeliest first.
template <class T>
val top_tokens(const std::vector<std::pair<at::TokenId, T>> &top,
               const std::vector<std::string> &tokens) {
  val out = val::array();
  for (const auto &[id, probability] : top) {
    val entry = val::object();
    entry.set("token", tokens[id]);
    entry.set("probability", static_cast<double>(probability));
    out.call<void>("push", entry);
  }
  return out;
}

// The hypotheses a search ended with: [{ target (words, no <eos>), logProbability }].
template <class Hypothesis, class Words>
val beams_to_js(const std::vector<Hypothesis> &beams, Words words) {
  val out = val::array();
  for (const auto &hypothesis : beams) {
    val entry = val::object();
    entry.set("target", words(hypothesis.output));
    entry.set("logProbability", hypothesis.log_probability);
    out.call<void>("push", entry);
  }
  return out;
}

// Lists of positions (gold links, cells) as arrays of arrays.
val links_to_js(const std::vector<std::vector<std::size_t>> &links);

// The words (or characters) of `ids` in a vocabulary's `tokens`, without <eos>.
val words_of(const std::vector<std::string> &tokens, const std::vector<at::TokenId> &ids);

} // namespace binding
