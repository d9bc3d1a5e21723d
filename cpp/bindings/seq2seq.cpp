// The seq2seq models and their translation tasks (which the Transformer shares). A model lives in
// the core's model store under a handle (models.cpp: loading, and what every kind does alike);
// each export takes the handle first, and refuses a model of another kind (blaming "model").
#include "attention/score_function.hpp"
#include "models.hpp"

namespace binding {
namespace {

// ---- translation tasks -------------------------------------------------------------------------

val examples_to_js(const at::tasks::Task &task, const std::vector<at::tasks::Example> &examples) {
  namespace tasks = at::tasks;
  val out = val::array();
  for (const auto &example : examples) {
    val categories = val::array();
    for (const auto category : example.categories)
      categories.call<void>("push", val(tasks::word_category_name(category)));
    val pair = val::array();
    pair.call<void>("push", tasks::detokenize(task, example.source, tasks::Side::source));
    pair.call<void>("push", tasks::detokenize(task, example.target, tasks::Side::target));
    pair.call<void>("push", links_to_js(example.alignment));
    pair.call<void>("push", links_to_js(example.possible));
    pair.call<void>("push", categories);
    out.call<void>("push", pair);
  }
  return out;
}

// Every task with its seed-0 split: { id, unit, source, target (the vocabularies), maxSourceLength,
// maxTargetLength, examples (the training pairs), test }, each pair [source, target, sure links,
// possible links, categories].
val seq2seq_tasks() {
  return guarded([&] {
    val out = val::array();
    for (const auto &id : at::tasks::task_ids()) {
      const at::tasks::Task task = at::tasks::make_task(id);
      val t = val::object();
      t.set("id", task.id);
      t.set("unit", unit_name(task));
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

// f(session) on the seq2seq model of `handle`, in its precision.
template <class F> val with_seq2seq(int handle, F &&f) {
  return with_session<at::Seq2seqSession>(handle, f);
}

// A seq2seq model's info besides its fields: its vocabularies and limits.
template <class T> void seq2seq_info(const at::Seq2seqSession<T> &session, val &out) {
  translation_info(out, session);
}

val seq2seq_tokenize(int handle, std::string sentence, std::string side) {
  return guarded([&] {
    return with_seq2seq(handle, [&](auto &session) { return tokenized(session, sentence, side); });
  });
}

// pairs: [[source, target], …] sentences; guide: guided alignment's weight
val seq2seq_gradients(int handle, val pairs, double guide) {
  return guarded([&] {
    const auto sentences = sentence_pairs(pairs);
    return with_seq2seq(handle, [&](auto &session) {
      auto gradients = session.model().make_gradients();
      const double loss = session.gradients(sentences, gradients, guide);
      return loss_and_gradients(loss, gradients);
    });
  });
}

template <class T>
val seq2seq_evaluation(at::Seq2seqSession<T> &session, const std::string &split) {
  const auto result = session.evaluate(session.split(split));
  val out = val::object();
  out.set("exactMatch", result.exact_match);
  out.set("tokenAccuracy", result.token_accuracy);
  out.set("alignmentAccuracy", result.alignment_accuracy);
  out.set("aer", result.aer);
  out.set("alignedShare", result.aligned_share);
  val categories = val::array();
  for (const auto &category : result.categories) {
    val entry = val::object();
    entry.set("category", val(at::tasks::word_category_name(category.category)));
    entry.set("count", category.count);
    entry.set("aligned", double(category.aligned) / double(category.count));
    val instead = val::null();
    if (category.instead) {
      instead = val::object();
      instead.set("token", session.task().source.tokens[*category.instead]);
      instead.set("share", double(category.instead_count) / double(category.count));
    }
    entry.set("instead", instead);
    categories.call<void>("push", entry);
  }
  out.set("categories", categories);
  return out;
}

val seq2seq_translate(int handle, std::string sentence, int beam) {
  return guarded([&] {
    return with_seq2seq(handle, [&](auto &session) {
      const auto &task = session.task();
      const auto source = session.tokenize(sentence, at::tasks::Side::source);
      const auto translation = session.translate(source, static_cast<std::size_t>(beam));
      const auto &trace = translation.trace;
      val out = val::object();
      out.set("source", source_tokens(task, source));
      out.set("target", words_of(task.target.tokens, trace.output));
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
        step.set("top", top_tokens(translation.top[t], task.target.tokens));
        steps.call<void>("push", step);
      }
      out.set("steps", steps);
      out.set("beams", beams_to_js(translation.beams, [&](const auto &ids) {
                return words_of(task.target.tokens, ids);
              }));
      return out;
    });
  });
}

// The seq2seq models' own facts: { tasks, scorings, encoders, maxLayers, maxValidation, maxBeam }.
val seq2seq_facts() {
  val scorings = val::array();
  for (const auto score : at::score_functions)
    scorings.call<void>("push", val(at::score_function_name(score)));
  val encoders = val::array();
  for (const auto encoder : at::encoders)
    encoders.call<void>("push", val(at::encoder_name(encoder)));
  val out = val::object();
  out.set("tasks", strings(at::tasks::task_ids()));
  out.set("scorings", scorings);
  out.set("encoders", encoders);
  out.set("maxLayers", at::max_layers);
  out.set("maxValidation", at::max_validation);
  out.set("maxBeam", at::max_beam_width);
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(seq2seq) {
  using namespace binding;
  emscripten::function("seq2seqTasks", &seq2seq_tasks);
  bind_kind<at::Seq2seqSession>(
      [](const auto &session, val &out) { seq2seq_info(session, out); },
      [](auto &session, const std::string &split) { return seq2seq_evaluation(session, split); },
      &seq2seq_facts);
  emscripten::function("seq2seqTokenize", &seq2seq_tokenize);
  emscripten::function("seq2seqGradients", &seq2seq_gradients);
  emscripten::function("seq2seqTranslate", &seq2seq_translate);
}
