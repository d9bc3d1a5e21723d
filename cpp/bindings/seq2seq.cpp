// The seq2seq models and their translation tasks (which the Transformer shares). A model lives in
// the core's model store under a handle (models.cpp: loading, and what every kind does alike);
// each export takes the handle first, and refuses a model of another kind (blaming "model").
#include "attention/score_function.hpp"
#include "translation.hpp"

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

template <class T>
val seq2seq_evaluation(at::Seq2seqSession<T> &session, const std::string &split) {
  const auto result = session.evaluate(session.split(split));
  val out = translation_evaluation(result);
  if (!session.task().gold_links) // no gold links: no alignment to score
    return out;
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
  return translate_model<at::Seq2seqSession>(
      handle, sentence, beam,
      [](const auto &trace, val &out) {
        out.set("alignment", from_matrix(trace.weights));
        val encoder = val::object();
        encoder.set("embeddings", from_matrix(trace.source_embeddings));
        encoder.set("states", from_matrix(trace.encoder_states));
        out.set("encoder", encoder);
      },
      [](const auto &trace, std::size_t t, val &step) {
        step.set("state", matrix_row(trace.decoder_states, t));
        step.set("scores", matrix_row(trace.scores, t));
        step.set("weights", matrix_row(trace.weights, t));
        step.set("context", matrix_row(trace.contexts, t));
        step.set("attentional", matrix_row(trace.attentional, t));
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
      [](const auto &session, val &out) { translation_info(out, session); },
      [](auto &session, const std::string &split) { return seq2seq_evaluation(session, split); },
      &seq2seq_facts);
  emscripten::function("seq2seqTokenize", &translation_tokenize<at::Seq2seqSession>);
  emscripten::function("seq2seqGradients", &translation_gradients<at::Seq2seqSession>);
  emscripten::function("seq2seqTranslate", &seq2seq_translate);
}
