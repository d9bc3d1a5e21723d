// The sentence classifiers and their task, reviews with the words that decide them. A model lives
// in the core's model store under a handle (models.cpp: loading, and what every kind does alike);
// each export takes the handle first, and refuses a model of another kind (blaming "model").
#include <cmath>

#include "attention/classifier_session.hpp"
#include "models.hpp"
#include "text_tasks.hpp"

namespace binding {
namespace {

namespace tasks = at::tasks;

template <class F> val with_classifier(int handle, F &&f) {
  return with_session<at::ClassifierSession>(handle, f);
}

// [[text, label, rationale (a 0 or 1 per word)], …]
val classification_examples(const tasks::ClassificationTask &task,
                            const std::vector<tasks::ClassificationExample> &examples) {
  val out = val::array();
  for (const auto &example : examples) {
    val rationale = val::array();
    for (const auto marked : example.rationale)
      rationale.call<void>("push", int(marked));
    val entry = val::array();
    entry.call<void>("push", tasks::detokenize(task, example.tokens));
    entry.call<void>("push", task.labels[example.label]);
    entry.call<void>("push", rationale);
    out.call<void>("push", entry);
  }
  return out;
}

// Every task in every language with its seed-0 split: { id, language, labels, vocab, maxLength,
// examples (the training split), test }.
val classification_tasks() {
  return guarded([&] {
    val out = val::array();
    for (const auto &id : tasks::classification_task_ids())
      for (const auto &language : tasks::classification_languages()) {
        const tasks::ClassificationTask task = tasks::make_classification_task(id, language);
        val t = val::object();
        t.set("id", task.id);
        t.set("language", task.language);
        t.set("labels", strings(task.labels));
        t.set("vocab", strings(task.vocabulary.tokens));
        t.set("maxLength", task.max_length);
        t.set("examples", classification_examples(task, task.train));
        t.set("test", classification_examples(task, task.test));
        out.call<void>("push", t);
      }
    return out;
  });
}

// A classifier's info besides its fields: its task's labels, vocabulary and limits.
template <class T> void classifier_info(const at::ClassifierSession<T> &session, val &out) {
  const tasks::ClassificationTask &task = session.task();
  out.set("labels", strings(task.labels));
  out.set("vocab", strings(task.vocabulary.tokens));
  out.set("maxLength", task.max_length);
  out.set("rationales", task.rationales);
}

template <class T>
val classifier_evaluation(at::ClassifierSession<T> &session, const std::string &split) {
  const auto result = session.evaluate(tasks::classification_split(session.task(), split));
  val out = val::object();
  out.set("accuracy", result.accuracy);
  if (result.rationale_share)
    out.set("rationaleShare", *result.rationale_share);
  out.set("majority", result.majority);
  val confusion = val::array();
  for (const auto &row : result.confusion) {
    val counts = val::array();
    for (const auto count : row)
      counts.call<void>("push", count);
    confusion.call<void>("push", counts);
  }
  out.set("confusion", confusion);
  val categories = val::array();
  for (const auto &category : result.categories) {
    val entry = val::object();
    entry.set("category", val(tasks::review_category_name(category.category)));
    entry.set("count", category.count);
    entry.set("correct", category.correct);
    categories.call<void>("push", entry);
  }
  out.set("byCategory", categories);
  if (result.negation_contrast_accuracy)
    out.set("negationContrastAccuracy", *result.negation_contrast_accuracy);
  return out;
}

val classifier_tokenize(int handle, std::string sentence) {
  return guarded([&] {
    return with_classifier(handle, [&](auto &session) {
      val out = val::array();
      for (const auto id : session.tokenize(sentence))
        out.call<void>("push", id);
      return out;
    });
  });
}

// examples: [[sentence, label (an index), rationale (a 0 or 1 per word, or empty)], …], checked
// for type by the wrapper; rationale: the weight of its term
val classifier_gradients(int handle, val examples, val rationale) {
  return guarded([&] {
    std::vector<at::LabelledSentence> sentences;
    const auto n = examples["length"].as<std::size_t>();
    for (std::size_t i = 0; i < n; ++i) {
      const val example = examples[i];
      auto &sentence = sentences.emplace_back();
      sentence.sentence = example[0].as<std::string>();
      sentence.label = example[1].as<std::size_t>();
      sentence.rationale.resize(example[2]["length"].as<std::size_t>());
      fill_from(sentence.rationale, example[2]);
    }
    return with_classifier(handle, [&](auto &session) {
      auto gradients = session.model().make_gradients();
      const double loss =
          session.gradients(sentences, gradients, loss_weight<decltype(session)>(rationale));
      return loss_and_gradients(loss, gradients);
    });
  });
}

// { label, probabilities, weights, tokens, states, scores }
val classifier_classify(int handle, std::string sentence) {
  return guarded([&] {
    return with_classifier(handle, [&](auto &session) {
      const auto result = session.classify(sentence);
      const auto &trace = result.trace;
      val out = val::object();
      out.set("label", session.task().labels[result.label]);
      out.set("probabilities", typed_copy(trace.probabilities));
      out.set("weights", typed_copy(trace.weights));
      out.set("tokens", words_of(session.task().vocabulary.tokens, trace.tokens));
      out.set("states", from_matrix(trace.states));
      out.set("scores", typed_copy(trace.scores));
      return out;
    });
  });
}

// { leaveOneOut, gradients, permutation, tau: { leaveOneOut, gradients } }; a τ the core leaves
// undefined (NaN: a ranking is constant, as uniform attention's) is null
val classifier_explain(int handle, std::string sentence) {
  return guarded([&] {
    return with_classifier(handle, [&](auto &session) {
      const at::Explanation explanation = session.explain(sentence);
      const auto tau = [](double value) { return std::isnan(value) ? val::null() : val(value); };
      val taus = val::object();
      taus.set("leaveOneOut", tau(explanation.tau_leave_one_out));
      taus.set("gradients", tau(explanation.tau_gradients));
      val out = val::object();
      out.set("leaveOneOut", typed_copy(explanation.leave_one_out));
      out.set("gradients", typed_copy(explanation.gradients));
      out.set("permutation", explanation.permutation);
      out.set("tau", taus);
      return out;
    });
  });
}

// ---- classification tasks from the reader's labelled sentences --------------------------------

const tasks::ClassificationTask &kept(const std::string &id) {
  return kept_text_task(id, tasks::kept_classification_task);
}

// { id, name, hash, unit, lowercase, maxLength, labels, stats, vocabulary (lines) }
val sentences_task_info(const tasks::ClassificationTask &task) {
  val out = text_task_info(task, "sentences", task.max_length, {{"vocabulary", &task.vocabulary}});
  out.set("unit", val(tasks::unit_name(task.text->source_unit)));
  out.set("labels", strings(task.labels));
  return out;
}

// text: the text's bytes (UTF-8 is the core's to check); options: given ones only (the wrapper
// checks their types), the rest the core's defaults.
val classification_task_create(val text, val options) {
  return guarded([&] {
    const std::vector<std::uint8_t> bytes = bytes_of(text);
    tasks::ClassificationTextOptions o;
    read_text_options(options, o, o.lowercase);
    if (auto v = given_option(options, "labelColumn"))
      o.label_column = v->as<std::size_t>();
    if (auto v = given_option(options, "unit"))
      o.unit = tasks::parse_unit(v->as<std::string>(), "unit");
    return sentences_task_info(*tasks::keep_classification_task(
        tasks::make_classification_text_task(text_view(bytes), o)));
  });
}

// The task's bytes (tasks::save_classification_text_task), and a task of such bytes, kept as
// classificationTaskCreate keeps one.
val classification_task_save(std::string id) {
  return guarded([&] { return typed_copy(tasks::save_classification_text_task(kept(id))); });
}
val classification_task_load(val bytes) {
  return guarded([&] {
    const std::vector<std::uint8_t> file = bytes_of(bytes);
    return sentences_task_info(*tasks::keep_classification_task(
        tasks::load_classification_text_task(file.data(), file.size())));
  });
}

// The split's sentences as given, with their labels: [[text, label], …].
val classification_task_examples(std::string id, std::string split) {
  return guarded([&] {
    const tasks::ClassificationTask &task = kept(id);
    val out = val::array();
    for (const auto &example : tasks::classification_split(task, split))
      out.call<void>("push", strings({example.text, task.labels[example.label]}));
    return out;
  });
}

// The tokens of `text` as the task reads it, before <unk>.
val classification_task_tokenize(std::string id, std::string text) {
  return guarded([&] { return strings(tasks::sentence_tokens(kept(id), text)); });
}

void classification_task_forget(std::string id) { tasks::forget_classification_task(id); }

// A grammar's task (its id and language) as labelled sentences, and the options that read them:
// { text, unit, maxLength }, which classificationTaskCreate takes.
val classification_task_sample(std::string id, std::string language) {
  return guarded([&] {
    val out = val::object();
    out.set("text",
            tasks::classification_sample_text(tasks::make_classification_task(id, language)));
    out.set("unit", val(tasks::unit_name(tasks::Unit::word)));
    out.set("maxLength", tasks::max_text_length);
    return out;
  });
}

// The classifiers' own facts: { tasks, languages, maxLabels, maxLength, permutations, text: the
// defaults and limits of tasks from text }.
val classifier_facts() {
  const tasks::ClassificationTextOptions o;
  val text = text_task_facts(o, o.lowercase, "maxSentences");
  val defaults = text["defaults"];
  defaults.set("labelColumn", o.label_column);
  defaults.set("unit", val(tasks::unit_name(o.unit)));
  text.set("minLabels", tasks::min_text_labels);
  text.set("maxLabels", tasks::max_text_labels);
  text.set("maxLabelColumn", tasks::max_label_column);
  val out = val::object();
  out.set("text", text);
  out.set("tasks", strings(tasks::classification_task_ids()));
  out.set("languages", strings(tasks::classification_languages()));
  out.set("maxLabels", at::max_labels);
  out.set("maxLength", at::max_classifier_length);
  out.set("permutations", at::explanation_permutations);
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(classifier) {
  using namespace binding;
  bind_kind<at::ClassifierSession>(
      [](const auto &session, val &out) { classifier_info(session, out); },
      [](auto &session, const std::string &split) { return classifier_evaluation(session, split); },
      &classifier_facts);
  emscripten::function("classificationTasks", &classification_tasks);
  emscripten::function("classifierTokenize", &classifier_tokenize);
  emscripten::function("classifierGradients", &classifier_gradients);
  emscripten::function("classifierClassify", &classifier_classify);
  emscripten::function("classifierExplain", &classifier_explain);
  emscripten::function("classificationTaskCreate", &classification_task_create);
  emscripten::function("classificationTaskSave", &classification_task_save);
  emscripten::function("classificationTaskLoad", &classification_task_load);
  emscripten::function("classificationTaskExamples", &classification_task_examples);
  emscripten::function("classificationTaskTokenize", &classification_task_tokenize);
  emscripten::function("classificationTaskForget", &classification_task_forget);
  emscripten::function("classificationTaskSample", &classification_task_sample);
}
