// The seq2seq models and their tasks. A model lives in the core's model store under a handle, a
// number the wrapper keeps; the wrapper's dispose() frees it. Each export takes the handle first.
#include "attention/model_store.hpp"
#include "attention/score_function.hpp"
#include "convert.hpp"

namespace binding {
namespace {

// ---- translation tasks -------------------------------------------------------------------------

const char *unit_name(const at::tasks::Task &task) {
  return task.unit == at::tasks::Unit::word ? "word" : "character";
}

val links_to_js(const std::vector<std::vector<std::size_t>> &links) {
  val out = val::array();
  for (const auto &positions : links) {
    val row = val::array();
    for (std::size_t position : positions)
      row.call<void>("push", position);
    out.call<void>("push", row);
  }
  return out;
}

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

// The precision a model is made in unless the caller picks one: the page trains in float32.
constexpr const char *default_precision = "float32";

// The words (or characters) of `ids`, without <eos>.
val words_of(const at::tasks::Task &task, const std::vector<at::TokenId> &ids) {
  val out = val::array();
  for (auto id : ids)
    if (id != static_cast<at::TokenId>(at::tasks::Vocabulary::eos))
      out.call<void>("push", task.target.tokens[id]);
  return out;
}

template <class T> val seq2seq_info(int handle, const at::Seq2seqSession<T> &session) {
  const auto &config = session.config();
  val out = val::object();
  out.set("handle", handle);
  out.set("task", config.task);
  out.set("scoring", at::score_function_name(config.scoring));
  out.set("encoder", at::encoder_name(config.encoder));
  out.set("layers", config.layers);
  out.set("guide", config.guide);
  out.set("embedding", config.embedding);
  out.set("hidden", config.hidden);
  out.set("seed", static_cast<double>(config.seed));
  out.set("validation", config.validation);
  out.set("precision", sizeof(T) == 4 ? "float32" : "float64");
  out.set("source", strings(session.task().source.tokens));
  out.set("target", strings(session.task().target.tokens));
  out.set("unit", unit_name(session.task()));
  out.set("maxSourceLength", session.task().max_source_length);
  out.set("maxTargetLength", session.task().max_target_length);
  return out;
}

// The store holds seq2seq models only so far; `kind` tells the wrapper which model object to make.
val info_of(int handle) {
  val info =
      at::stored_model(handle).visit([&](auto &session) { return seq2seq_info(handle, session); });
  info.set("kind", "seq2seq");
  return info;
}

// options: { task, scoring?, encoder?, layers?, embedding?, hidden?, seed?, validation?,
// precision? }, checked
// for type by the wrapper; what is not given takes the core's default (Seq2seqSessionConfig; the
// encoder default_encoder of the scoring)
val seq2seq_create(val options) {
  return guarded([&] {
    at::Seq2seqSessionConfig config;
    const auto given = [&](const char *key) { return !options[key].isUndefined(); };
    config.task = options["task"].as<std::string>();
    if (given("scoring"))
      config.scoring = at::parse_score_function(options["scoring"].as<std::string>(), "scoring");
    config.encoder = given("encoder")
                         ? at::parse_encoder(options["encoder"].as<std::string>(), "encoder")
                         : at::default_encoder(config.scoring);
    if (given("layers"))
      config.layers = options["layers"].as<std::size_t>();
    if (given("embedding"))
      config.embedding = options["embedding"].as<std::size_t>();
    if (given("hidden"))
      config.hidden = options["hidden"].as<std::size_t>();
    if (given("seed"))
      config.seed = static_cast<std::int64_t>(options["seed"].as<double>());
    if (given("validation"))
      config.validation = options["validation"].as<std::size_t>();
    return info_of(at::create_model(
        config, given("precision") ? options["precision"].as<std::string>() : default_precision));
  });
}

val model_load(val bytes) {
  return guarded([&] {
    const auto data = bytes_of(bytes);
    return info_of(at::load_model(data.data(), data.size()));
  });
}

val seq2seq_dispose(int handle) {
  return guarded([&] {
    at::dispose_model(handle);
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
    return at::stored_model(handle).visit(
        [](auto &session) { return named_tensors(session.model().parameters()); });
  });
}

// named: [[name, shape (number[]), data (a typed array of the model's precision)], …]
val seq2seq_set_parameters(int handle, val named) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
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
    return at::stored_model(handle).visit([&](auto &session) {
      val out = val::array();
      for (auto id : session.tokenize(sentence, side == "target" ? at::tasks::Side::target
                                                                 : at::tasks::Side::source))
        out.call<void>("push", id);
      return out;
    });
  });
}

// pairs: [[source, target], …] sentences; guide: guided alignment's weight
val seq2seq_gradients(int handle, val pairs, double guide) {
  return guarded([&] {
    std::vector<std::pair<std::string, std::string>> sentences;
    const auto n = pairs["length"].as<std::size_t>();
    for (std::size_t i = 0; i < n; ++i)
      sentences.emplace_back(pairs[i][0].as<std::string>(), pairs[i][1].as<std::string>());
    return at::stored_model(handle).visit([&](auto &session) {
      auto gradients = session.model().make_gradients();
      const double loss = session.gradients(sentences, gradients, guide);
      val out = val::object();
      out.set("loss", loss);
      out.set("gradients", named_tensors(gradients));
      return out;
    });
  });
}

// batch and learningRate: undefined for the core's defaults; guide: guided alignment's weight
val seq2seq_train(int handle, double steps, val batch, val learning_rate, double guide) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
      const auto result = session.train(
          static_cast<std::size_t>(steps),
          batch.isUndefined() ? at::default_batch : batch.as<std::size_t>(),
          learning_rate.isUndefined() ? at::default_learning_rate : learning_rate.as<double>(),
          at::default_max_norm, guide);
      val out = val::object();
      out.set("step", static_cast<double>(result.step));
      out.set("loss", static_cast<double>(result.loss));
      return out;
    });
  });
}

// The largest guided-alignment weight its training has used (train() may have raised it).
val seq2seq_guide(int handle) {
  return guarded([&] {
    return at::stored_model(handle).visit(
        [](auto &session) { return val(session.config().guide); });
  });
}

val seq2seq_evaluate(int handle, std::string split) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
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
    return at::stored_model(handle).visit([&](auto &session) {
      const auto &task = session.task();
      const auto source = session.tokenize(sentence, at::tasks::Side::source);
      const auto translation = session.translate(source, static_cast<std::size_t>(beam));
      const auto &trace = translation.trace;
      val out = val::object();
      val source_tokens = val::array();
      for (auto id : source)
        source_tokens.call<void>("push", task.source.tokens[id]);
      out.set("source", source_tokens);
      out.set("target", words_of(task, trace.output));
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
        entry.set("target", words_of(task, hypothesis.output));
        entry.set("logProbability", hypothesis.log_probability);
        beams.call<void>("push", entry);
      }
      out.set("beams", beams);
      return out;
    });
  });
}

val seq2seq_save(int handle, bool float16) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
      using Storage = typename std::decay_t<decltype(session)>::Storage;
      return typed_copy(session.save(float16 ? Storage::float16 : Storage::model));
    });
  });
}

// What the seq2seq models take and do when an option is not given: { tasks, scorings, encoders,
// precisions, maxBeam, maxSteps, maxLayers, maxValidation, defaults: { scoring, encoder (by
// scoring), layers, embedding, hidden, seed, precision, batch, learningRate, guide } }.
val seq2seq_facts() {
  const at::Seq2seqSessionConfig config;
  val defaults = val::object();
  defaults.set("scoring", at::score_function_name(config.scoring));
  val encoder = val::object();
  for (const auto score : at::score_functions)
    encoder.set(at::score_function_name(score), val(at::encoder_name(at::default_encoder(score))));
  defaults.set("encoder", encoder);
  defaults.set("layers", config.layers);
  defaults.set("embedding", config.embedding);
  defaults.set("hidden", config.hidden);
  defaults.set("seed", static_cast<double>(config.seed));
  defaults.set("validation", config.validation);
  defaults.set("precision", default_precision);
  defaults.set("batch", at::default_batch);
  defaults.set("learningRate", at::default_learning_rate);
  defaults.set("guide", 0);
  val scorings = val::array();
  for (const auto score : at::score_functions)
    scorings.call<void>("push", val(at::score_function_name(score)));
  val out = val::object();
  out.set("tasks", strings(at::tasks::task_ids()));
  out.set("scorings", scorings);
  val encoders = val::array();
  for (const auto encoder : at::encoders)
    encoders.call<void>("push", val(at::encoder_name(encoder)));
  out.set("encoders", encoders);
  out.set("maxLayers", at::max_layers);
  out.set("maxValidation", at::max_validation);
  out.set("precisions", strings({"float32", "float64"}));
  out.set("maxBeam", at::max_beam_width);
  out.set("maxSteps", at::max_train_steps);
  out.set("defaults", defaults);
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(seq2seq) {
  using namespace binding;
  emscripten::function("seq2seqTasks", &seq2seq_tasks);
  emscripten::function("seq2seqFacts", &seq2seq_facts);
  emscripten::function("seq2seqCreate", &seq2seq_create);
  emscripten::function("modelLoad", &model_load);
  emscripten::function("seq2seqDispose", &seq2seq_dispose);
  emscripten::function("seq2seqParameters", &seq2seq_parameters);
  emscripten::function("seq2seqSetParameters", &seq2seq_set_parameters);
  emscripten::function("seq2seqTokenize", &seq2seq_tokenize);
  emscripten::function("seq2seqGradients", &seq2seq_gradients);
  emscripten::function("seq2seqTrain", &seq2seq_train);
  emscripten::function("seq2seqGuide", &seq2seq_guide);
  emscripten::function("seq2seqEvaluate", &seq2seq_evaluate);
  emscripten::function("seq2seqTranslate", &seq2seq_translate);
  emscripten::function("seq2seqSave", &seq2seq_save);
}
