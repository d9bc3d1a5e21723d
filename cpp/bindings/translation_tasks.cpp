// Translation tasks from the reader's text: made and kept by the core (tasks::make_text_task,
// keep_task) under an id that a model's configuration names, as it names a grammar's task, and
// saved as bytes that make the task again without reading its text (tasks::save_text_task).
#include "attention/translation_tasks.hpp"
#include "text_tasks.hpp"

namespace binding {
namespace {

namespace tasks = at::tasks;

const tasks::Task &kept(const std::string &id) { return kept_text_task(id, tasks::kept_task); }

val task_info(const tasks::Task &task) {
  val out =
      text_task_info(task, "pairs", task.max_source_length,
                     {{"sourceVocabulary", &task.source}, {"targetVocabulary", &task.target}});
  val unit = val::object();
  unit.set("source", val(tasks::unit_name(task.text->source_unit)));
  unit.set("target", val(tasks::unit_name(task.text->target_unit)));
  out.set("unit", unit);
  out.set("goldLinks", task.gold_links);
  return out;
}

// text: the text's bytes (UTF-8 is the core's to check); options: given ones only (the wrapper
// checks their types), the rest the core's defaults.
val translation_task_create(val text, val options) {
  return guarded([&] {
    const std::vector<std::uint8_t> bytes = bytes_of(text);
    tasks::TextTaskOptions o;
    read_text_options(options, o, o.rules.lowercase);
    const auto given = [&](const char *key) { return given_option(options, key); };
    if (auto v = given("sourceColumn"))
      o.source_column = v->as<std::size_t>();
    if (auto v = given("alignmentColumn")) {
      o.find_alignment = !v->isNull();
      if (!v->isNull())
        o.alignment = v->as<std::size_t>();
    }
    if (auto v = given("sourceUnit"))
      o.rules.source_unit = tasks::parse_unit(v->as<std::string>(), "unit");
    if (auto v = given("targetUnit"))
      o.rules.target_unit = tasks::parse_unit(v->as<std::string>(), "unit");
    return task_info(*tasks::keep_task(tasks::make_text_task(text_view(bytes), o)));
  });
}

// The task's bytes (tasks::save_text_task), and a task of such bytes, kept as
// translationTaskCreate keeps one.
val translation_task_save(std::string id) {
  return guarded([&] { return typed_copy(tasks::save_text_task(kept(id))); });
}
val translation_task_load(val bytes) {
  return guarded([&] {
    const std::vector<std::uint8_t> file = bytes_of(bytes);
    return task_info(*tasks::keep_task(tasks::load_text_task(file.data(), file.size())));
  });
}

// The split's pairs as given: [[source, target], …].
val translation_task_pairs(std::string id, std::string split) {
  return guarded([&] {
    val out = val::array();
    for (const auto &example : tasks::split(kept(id), split))
      out.call<void>("push", strings({example.source_text, example.target_text}));
    return out;
  });
}

// The tokens of `text` as the task reads it on `side` ("source" or "target"), before <unk>.
val translation_task_tokenize(std::string id, std::string text, std::string side) {
  return guarded([&] {
    return strings(tasks::sentence_tokens(
        kept(id), text, side == "target" ? tasks::Side::target : tasks::Side::source));
  });
}

void translation_task_forget(std::string id) { tasks::forget_task(id); }

// A grammar's task as text with its gold links: { text, unit, maxLength }.
val translation_task_sample(std::string id) {
  return guarded([&] {
    const tasks::SampleText sample = tasks::sample_text(id);
    val out = val::object();
    out.set("text", sample.text);
    out.set("unit", val(tasks::unit_name(sample.unit)));
    out.set("maxLength", sample.max_length);
    return out;
  });
}

// The defaults and limits of tasks from text.
val translation_task_facts() {
  const tasks::TextTaskOptions o;
  val out = text_task_facts(o, o.rules.lowercase, "maxPairs");
  val defaults = out["defaults"];
  defaults.set("sourceColumn", o.source_column);
  defaults.set("unit", val(tasks::unit_name(o.rules.source_unit)));
  out.set("samples", strings(tasks::task_ids())); // translationTaskSample's tasks
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(translation_tasks) {
  using namespace binding;
  emscripten::function("translationTaskCreate", &translation_task_create);
  emscripten::function("translationTaskSave", &translation_task_save);
  emscripten::function("translationTaskLoad", &translation_task_load);
  emscripten::function("translationTaskPairs", &translation_task_pairs);
  emscripten::function("translationTaskTokenize", &translation_task_tokenize);
  emscripten::function("translationTaskForget", &translation_task_forget);
  emscripten::function("translationTaskFacts", &translation_task_facts);
  emscripten::function("translationTaskSample", &translation_task_sample);
}
