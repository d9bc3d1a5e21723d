// What the bindings of the model kinds share (seq2seq.cpp, transformer.cpp, captioner.cpp): the
// conversions of named parameters, training results and likeliest tokens, the translation tasks'
// words, and each kind's model info, which models.cpp's exports (modelLoad and what every kind
// does alike: parameters, setParameters, save, dispose) hand back whatever the kind.
#pragma once

#include <string>
#include <tuple>
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

// Each kind's info (its configuration, vocabularies, limits), made in its own file.
template <class T> val model_info(const at::Seq2seqSession<T> &session);
template <class T> val model_info(const at::TransformerSession<T> &session);
template <class T> val model_info(const at::CaptionerSession<T> &session);
// The model's info with its handle, kind and precision: what the wrapper makes the model object
// from (web/engine/models.js).
val info_of(int handle);

// The precision chosen in options.precision (a string), or the default.
inline std::string precision_option(const val &options) {
  return options["precision"].isUndefined() ? default_precision
                                            : options["precision"].as<std::string>();
}

// One field of a kind's session configuration under its JavaScript name. Each kind lists its
// fields once: its create export reads them from the options, its facts give their defaults, and
// a model's info their values.
template <class Config, class V> struct Field {
  const char *name;
  V Config::*member;
};
template <class Config, class V> Field<Config, V> field(const char *name, V Config::*member) {
  return {name, member};
}
template <class Config, class... V> using Fields = std::tuple<Field<Config, V>...>;

// Sets each field the options give (the wrapper checked their types); what is not given keeps the
// core's default.
template <class Config, class... V>
void read_fields(const val &options, const Fields<Config, V...> &fields, Config &config) {
  std::apply(
      [&](const auto &...field) {
        const auto read = [&](const auto &f) {
          const val value = options[f.name];
          if (value.isUndefined())
            return;
          auto &member = config.*(f.member);
          using M = std::decay_t<decltype(member)>;
          if constexpr (std::is_same_v<M, std::string>)
            member = value.as<std::string>();
          else
            member = static_cast<M>(value.as<double>()); // seeds reach 2^32 - 1
        };
        (read(field), ...);
      },
      fields);
}

// out[name] = each field's value in `config`.
template <class Config, class... V>
void write_fields(val &out, const Fields<Config, V...> &fields, const Config &config) {
  std::apply(
      [&](const auto &...field) {
        const auto write = [&](const auto &f) {
          const auto &member = config.*(f.member);
          if constexpr (std::is_integral_v<std::decay_t<decltype(member)>>)
            out.set(f.name, static_cast<double>(member)); // seeds reach 2^32 - 1
          else
            out.set(f.name, member);
        };
        (write(field), ...);
      },
      fields);
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

// ---- the translation tasks (seq2seq and Transformer models) ------------------------------------

inline const char *unit_name(const at::tasks::Task &task) {
  return task.unit == at::tasks::Unit::word ? "word" : "character";
}

// The words (or characters) of `ids` in a vocabulary's `tokens`, without <eos>.
val words_of(const std::vector<std::string> &tokens, const std::vector<at::TokenId> &ids);
// The tokens of `ids` on the source side.
val source_tokens(const at::tasks::Task &task, const std::vector<at::TokenId> &ids);
// A sentence as the session's token ids, on the "source" or "target" side.
template <class Session>
val tokenized(const Session &session, const std::string &sentence, const std::string &side) {
  val out = val::array();
  for (auto id : session.tokenize(sentence, side == "target" ? at::tasks::Side::target
                                                             : at::tasks::Side::source))
    out.call<void>("push", id);
  return out;
}
// [source, target] sentence pairs as the sessions take them.
std::vector<std::pair<std::string, std::string>> sentence_pairs(const val &pairs);
// What both kinds of translation model say of themselves besides their fields: vocabularies,
// limits.
template <class Session> void translation_info(val &info, const Session &session) {
  info.set("source", strings(session.task().source.tokens));
  info.set("target", strings(session.task().target.tokens));
  info.set("unit", unit_name(session.task()));
  info.set("maxSourceLength", session.task().max_source_length);
  info.set("maxTargetLength", session.task().max_target_length);
}

} // namespace binding
