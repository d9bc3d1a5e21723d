// Translation tasks from the reader's text: made and kept by the core (tasks::make_text_task,
// keep_task) under an id that a model's configuration names, as it names a grammar's task. Large
// lists cross as one string of lines (no token holds a line break), which the wrapper splits.
#include "attention/translation_tasks.hpp"
#include "convert.hpp"

namespace binding {
namespace {

namespace tasks = at::tasks;

const char *unit_text(tasks::Unit unit) { return unit == tasks::Unit::word ? "word" : "character"; }

tasks::Unit parse_unit(const std::string &name, const char *argument) {
  if (name != "word" && name != "character")
    at::detail::fail(at::detail::Argument(argument), argument, " must be word or character, got \"",
                     name.substr(0, 40), "\"");
  return name == "word" ? tasks::Unit::word : tasks::Unit::character;
}

std::string lines(const std::vector<std::string> &tokens, std::size_t from = 0) {
  std::string out;
  for (std::size_t i = from; i < tokens.size(); ++i)
    out += (i > from ? "\n" : "") + tokens[i];
  return out;
}

const tasks::Task &kept(const std::string &id) {
  const auto task = tasks::kept_task(id);
  if (!task)
    at::detail::fail(at::detail::Argument("task"), "the task \"", id.substr(0, 80),
                     "\" was forgotten");
  return *task;
}

val task_info(const tasks::Task &task) {
  val out = val::object();
  out.set("id", task.id);
  out.set("name", task.name);
  out.set("hash", task.hash);
  val unit = val::object();
  unit.set("source", val(unit_text(task.text->source_unit)));
  unit.set("target", val(unit_text(task.text->target_unit)));
  out.set("unit", unit);
  out.set("lowercase", task.text->lowercase);
  out.set("maxLength", task.max_source_length);
  out.set("goldLinks", task.gold_links);
  val stats = val::object();
  stats.set("pairs", task.stats.pairs);
  val dropped = val::object();
  for (const auto &[reason, count] : task.stats.dropped)
    dropped.set(reason, count);
  stats.set("dropped", dropped);
  stats.set("train", task.train.size());
  stats.set("validation", task.validation.size());
  stats.set("test", task.test.size());
  stats.set("sourceVocabulary", task.source.tokens.size());
  stats.set("targetVocabulary", task.target.tokens.size());
  stats.set("unknownShare", task.stats.unknown_share);
  out.set("stats", stats);
  out.set("sourceVocabulary", lines(task.source.tokens));
  out.set("targetVocabulary", lines(task.target.tokens));
  return out;
}

// text: the text's bytes (UTF-8 is the core's to check); options: given ones only (the wrapper
// checks their types), the rest the core's defaults.
val translation_task_create(val text, val options) {
  return guarded([&] {
    const std::vector<std::uint8_t> bytes = bytes_of(text);
    tasks::TextTaskOptions o;
    const auto given = [&](const char *key) {
      const val value = options[key];
      return value.isUndefined() ? std::optional<val>() : std::optional<val>(value);
    };
    if (auto v = given("name"))
      o.name = v->as<std::string>();
    if (auto v = given("sourceColumn"))
      o.source_column = v->as<std::size_t>();
    if (auto v = given("alignmentColumn")) {
      o.find_alignment = !v->isNull();
      if (!v->isNull())
        o.alignment = v->as<std::size_t>();
    }
    if (auto v = given("sourceUnit"))
      o.rules.source_unit = parse_unit(v->as<std::string>(), "unit");
    if (auto v = given("targetUnit"))
      o.rules.target_unit = parse_unit(v->as<std::string>(), "unit");
    if (auto v = given("lowercase"))
      o.rules.lowercase = v->as<bool>();
    if (auto v = given("minCount"))
      o.min_count = v->as<std::size_t>();
    if (auto v = given("maxVocabulary"))
      o.max_vocabulary = v->as<std::size_t>();
    if (auto v = given("maxLength"))
      o.max_length = v->as<std::size_t>();
    if (auto v = given("validation"))
      o.validation = v->as<double>();
    if (auto v = given("test"))
      o.test = v->as<double>();
    if (auto v = given("seed"))
      o.seed = static_cast<std::int64_t>(v->as<double>());
    const std::string_view view(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    return task_info(*tasks::keep_task(tasks::make_text_task(view, o)));
  });
}

// The split's pairs as given: one string, "source\ttarget" a line.
val translation_task_pairs(std::string id, std::string split) {
  return guarded([&] {
    std::string out;
    for (const auto &example : tasks::split(kept(id), split))
      out += (out.empty() ? "" : "\n") + example.source_text + "\t" + example.target_text;
    return val(out);
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
    out.set("unit", val(unit_text(sample.unit)));
    out.set("maxLength", sample.max_length);
    return out;
  });
}

// The defaults and limits of tasks from text.
val translation_task_facts() {
  const tasks::TextTaskOptions o;
  val defaults = val::object();
  defaults.set("name", o.name);
  defaults.set("sourceColumn", o.source_column);
  defaults.set("unit", val(unit_text(o.rules.source_unit)));
  defaults.set("lowercase", o.rules.lowercase);
  defaults.set("minCount", o.min_count);
  defaults.set("maxVocabulary", o.max_vocabulary);
  defaults.set("maxLength", o.max_length);
  defaults.set("validation", o.validation);
  defaults.set("test", o.test);
  defaults.set("seed", static_cast<double>(o.seed));
  val out = val::object();
  out.set("defaults", defaults);
  out.set("maxBytes", tasks::max_text_bytes);
  out.set("maxPairs", tasks::max_text_pairs);
  out.set("maxHeldOut", tasks::max_held_out);
  out.set("maxLength", tasks::max_text_length);
  out.set("maxVocabulary", tasks::max_text_vocabulary);
  out.set("samples", strings(tasks::task_ids())); // translationTaskSample's tasks
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(translation_tasks) {
  using namespace binding;
  emscripten::function("translationTaskCreate", &translation_task_create);
  emscripten::function("translationTaskPairs", &translation_task_pairs);
  emscripten::function("translationTaskTokenize", &translation_task_tokenize);
  emscripten::function("translationTaskForget", &translation_task_forget);
  emscripten::function("translationTaskFacts", &translation_task_facts);
  emscripten::function("translationTaskSample", &translation_task_sample);
}
