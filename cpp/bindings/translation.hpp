// What the bindings of the translation models (seq2seq.cpp, transformer.cpp) share over their
// tasks: tokens, sentence pairs, a model's vocabularies and limits, the tokenize, gradients and
// translate exports, and what an evaluation and a translation say alike.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models.hpp"

namespace binding {

inline const char *unit_name(const at::tasks::Task &task) {
  return task.unit_of(at::tasks::Side::source) == at::tasks::Unit::word ? "word" : "character";
}

// The tokens of `ids` on the source side.
inline val source_tokens(const at::tasks::Task &task, const std::vector<at::TokenId> &ids) {
  val out = val::array();
  for (auto id : ids)
    out.call<void>("push", task.source.tokens[id]);
  return out;
}

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
inline std::vector<std::pair<std::string, std::string>> sentence_pairs(const val &pairs) {
  std::vector<std::pair<std::string, std::string>> sentences;
  const auto n = pairs["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i)
    sentences.emplace_back(pairs[i][0].as<std::string>(), pairs[i][1].as<std::string>());
  return sentences;
}

// What a translation model says of itself besides its fields: vocabularies, limits.
template <class Session> void translation_info(val &info, const Session &session) {
  info.set("source", strings(session.task().source.tokens));
  info.set("target", strings(session.task().target.tokens));
  info.set("unit", unit_name(session.task()));
  info.set("maxSourceLength", session.task().max_source_length);
  info.set("maxTargetLength", session.task().max_target_length);
}

// The exports both kinds have, over the model of `handle` as Session's kind.
template <template <class> class Session>
val translation_tokenize(int handle, std::string sentence, std::string side) {
  return guarded([&] {
    return with_session<Session>(handle,
                                 [&](auto &session) { return tokenized(session, sentence, side); });
  });
}

// pairs: [[source, target], …] sentences; guide: guided alignment's weight
template <template <class> class Session>
val translation_gradients(int handle, val pairs, val guide) {
  return guarded([&] {
    const auto sentences = sentence_pairs(pairs);
    return with_session<Session>(handle, [&](auto &session) {
      auto gradients = session.model().make_gradients();
      const double loss =
          session.gradients(sentences, gradients, loss_weight<decltype(session)>(guide));
      return loss_and_gradients(loss, gradients);
    });
  });
}

// What a translation model's evaluation says alike: { exactMatch, tokenAccuracy, bleu, loss }.
template <class Evaluation> val translation_evaluation(const Evaluation &result) {
  val out = val::object();
  out.set("exactMatch", result.exact_match);
  out.set("tokenAccuracy", result.token_accuracy);
  out.set("bleu", result.bleu);
  out.set("loss", result.loss);
  return out;
}

// `sentence` translated by the session (greedy, or a beam search of width `beam`): { source,
// target, …what own(out) adds, steps: [{ token, …what step(t, entry) adds, top }], beams }.
template <class Session, class Own, class Step>
val translation_to_js(Session &session, const std::string &sentence, int beam, Own own, Step step) {
  const auto &task = session.task();
  const auto source = session.tokenize(sentence, at::tasks::Side::source);
  const auto translation = session.translate(source, static_cast<std::size_t>(beam));
  const auto &trace = translation.trace;
  const auto words = [&](const auto &ids) { return words_of(task.target.tokens, ids); };
  val out = val::object();
  out.set("source", source_tokens(task, source));
  out.set("target", words(trace.output));
  own(trace, out);
  val steps = val::array();
  for (std::size_t t = 0; t < trace.output.size(); ++t) {
    val entry = val::object();
    entry.set("token", task.target.tokens[trace.output[t]]);
    step(trace, t, entry);
    entry.set("top", top_tokens(translation.top[t], task.target.tokens));
    steps.call<void>("push", entry);
  }
  out.set("steps", steps);
  out.set("beams", beams_to_js(translation.beams, words));
  return out;
}

// The translate export of Session's kind: translation_to_js of the model of `handle`.
template <template <class> class Session, class Own, class Step>
val translate_model(int handle, const std::string &sentence, int beam, Own own, Step step) {
  return guarded([&] {
    return with_session<Session>(handle, [&](auto &session) {
      return translation_to_js(session, sentence, beam, own, step);
    });
  });
}

} // namespace binding
