// The captioners and their task, scenes the engine draws. A model lives in the core's model store
// under a handle (models.cpp: loading, and what every kind does alike); each export takes the
// handle first, and refuses a model of another kind (blaming "model").
#include "attention/captioning_walkthrough.hpp"
#include "models.hpp"

namespace binding {
namespace {

namespace tasks = at::tasks;

// f(session) on the captioner of `handle`, in its precision.
template <class F> val with_captioner(int handle, F &&f) {
  return with_session<at::CaptionerSession>(handle, f);
}

// ---- scenes and images -------------------------------------------------------------------------

// scene: { objects: [{ shape, colour, size, row, column }] }, checked for type by the wrapper;
// make_scene checks the rest.
tasks::Scene scene_of(const val &scene) {
  std::vector<tasks::ObjectDescription> objects;
  const val list = scene["objects"];
  const auto n = list["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) {
    const val object = list[i];
    objects.push_back({object["shape"].as<std::string>(), object["colour"].as<std::string>(),
                       object["size"].as<std::string>(),
                       static_cast<std::int64_t>(object["row"].as<double>()),
                       static_cast<std::int64_t>(object["column"].as<double>())});
  }
  return tasks::make_scene(objects);
}

val scene_to_js(const tasks::Scene &scene) {
  val objects = val::array();
  for (const auto &object : scene.objects) {
    val o = val::object();
    o.set("shape", tasks::shape_names()[static_cast<std::size_t>(object.shape)]);
    o.set("colour", tasks::colour_names()[static_cast<std::size_t>(object.colour)]);
    o.set("size", tasks::size_names()[static_cast<std::size_t>(object.size)]);
    o.set("row", object.row);
    o.set("column", object.column);
    objects.call<void>("push", o);
  }
  val out = val::object();
  out.set("objects", objects);
  return out;
}

// image: { channels, height, width, data (a Float32Array) }, CHW
tasks::Image image_of(const val &image) {
  tasks::Image out;
  out.channels = image["channels"].as<std::size_t>();
  out.height = image["height"].as<std::size_t>();
  out.width = image["width"].as<std::size_t>();
  out.data.resize(image["data"]["length"].as<std::size_t>());
  fill_from(out.data, image["data"]);
  return out;
}

val image_to_js(std::size_t channels, std::size_t height, std::size_t width,
                const std::vector<float> &data) {
  val out = val::object();
  out.set("channels", channels);
  out.set("height", height);
  out.set("width", width);
  out.set("data", typed_copy(data));
  return out;
}

val render_scene(val scene) {
  return guarded([&] {
    const tasks::Image image = tasks::render(scene_of(scene));
    return image_to_js(image.channels, image.height, image.width, image.data);
  });
}

// text: a scene as a form field holds it, checked for type by the wrapper; the core reads it (and
// blames "scene") as the captioning walkthrough does
val parse_scene(std::string text) {
  return guarded([&] { return scene_to_js(at::parse_scene(text)); });
}

// text: as parse_scene's; its objects' words as written and every fault, described
val read_scene(std::string text) {
  return guarded([&] {
    const tasks::WrittenScene scene = tasks::read_scene(text);
    val objects = val::array();
    for (const auto &words : scene.objects)
      objects.call<void>("push", strings(words));
    val faults = val::array();
    for (const auto &fault : scene.faults) {
      val f = val::object();
      f.set("kind", std::string(tasks::scene_fault_name(fault.kind)));
      if (fault.kind != tasks::SceneFault::Kind::count)
        f.set("object", fault.object);
      if (fault.kind == tasks::SceneFault::Kind::slot)
        f.set("other", fault.other);
      if (!fault.part.empty())
        f.set("part", fault.part);
      f.set("message", tasks::describe(fault, scene));
      faults.call<void>("push", f);
    }
    val out = val::object();
    out.set("objects", objects);
    out.set("faults", faults);
    return out;
  });
}

// ---- the task ----------------------------------------------------------------------------------

val caption_examples(const tasks::CaptionTask &task,
                     const std::vector<tasks::CaptionExample> &examples) {
  val out = val::array();
  for (const auto &example : examples) {
    val categories = val::array();
    for (const auto category : example.categories)
      categories.call<void>("push", val(tasks::caption_category_name(category)));
    val e = val::object();
    e.set("scene", scene_to_js(example.scene));
    e.set("caption", tasks::detokenize_caption(task, example.caption));
    e.set("regions", links_to_js(example.cells));
    e.set("possible", links_to_js(example.possible));
    e.set("categories", categories);
    out.call<void>("push", e);
  }
  return out;
}

// Every task in every language with its seed-0 split: { id, language, vocab, imageSize,
// maxCaptionLength, examples (the training scenes), test }, each example { scene, caption,
// regions (per token, <eos> last: its sure cells), possible (cells), categories }.
val caption_tasks() {
  return guarded([&] {
    val out = val::array();
    for (const auto &id : tasks::caption_task_ids())
      for (const auto &language : tasks::caption_languages()) {
        const tasks::CaptionTask task = tasks::make_caption_task(id, language);
        val t = val::object();
        t.set("id", task.id);
        t.set("language", task.language);
        t.set("vocab", strings(task.vocabulary.tokens));
        t.set("imageSize", task.image_size);
        t.set("maxCaptionLength", task.max_caption_length);
        t.set("examples", caption_examples(task, task.train));
        t.set("test", caption_examples(task, task.test));
        out.call<void>("push", t);
      }
    return out;
  });
}

// A captioner's info besides its fields: its vocabulary and sizes.
template <class T> void captioner_info(const at::CaptionerSession<T> &session, val &out) {
  out.set("vocab", strings(session.task().vocabulary.tokens));
  out.set("imageSize", session.task().image_size);
  out.set("maxCaptionLength", session.task().max_caption_length);
}

// examples: [[scene, caption (words separated by spaces)], …]
val captioner_gradients(int handle, val examples, val regularization) {
  return guarded([&] {
    std::vector<std::pair<tasks::Scene, std::string>> pairs;
    const auto n = examples["length"].as<std::size_t>();
    for (std::size_t i = 0; i < n; ++i)
      pairs.emplace_back(scene_of(examples[i][0]), examples[i][1].as<std::string>());
    return with_captioner(handle, [&](auto &session) {
      auto gradients = session.model().make_gradients();
      const double loss =
          session.gradients(pairs, gradients, loss_weight<decltype(session)>(regularization));
      return loss_and_gradients(loss, gradients);
    });
  });
}

template <class T>
val captioner_evaluation(at::CaptionerSession<T> &session, const std::string &split) {
  const auto result = session.evaluate(tasks::caption_split(session.task(), split));
  val out = val::object();
  out.set("exactMatch", result.exact_match);
  out.set("tokenAccuracy", result.token_accuracy);
  out.set("regionAccuracy", result.region_accuracy);
  val categories = val::array();
  for (const auto &category : result.categories) {
    val entry = val::object();
    entry.set("category", val(tasks::caption_category_name(category.category)));
    entry.set("count", category.count);
    entry.set("aligned", double(category.aligned) / double(category.count));
    categories.call<void>("push", entry);
  }
  out.set("byCategory", categories);
  return out;
}

// input: a scene ({ objects }) or an image ({ channels, height, width, data })
val captioner_caption(int handle, val input, int beam) {
  return guarded([&] {
    return with_captioner(handle, [&](auto &session) {
      const auto result = input["objects"].isUndefined()
                              ? session.caption(image_of(input), static_cast<std::size_t>(beam))
                              : session.caption(scene_of(input), static_cast<std::size_t>(beam));
      const auto &tokens = session.task().vocabulary.tokens;
      const auto &trace = result.trace;
      const auto &model = session.model();
      const auto words = [&](const std::vector<at::TokenId> &ids) { return words_of(tokens, ids); };
      // a row of the m x L matrices as the grid's rows x cols
      const auto grid = [&](const auto &matrix, std::size_t t) {
        val out = val::object();
        out.set("rows", model.grid_rows());
        out.set("cols", model.grid_columns());
        out.set("data", matrix_row(matrix, t));
        return out;
      };
      val out = val::object();
      out.set("words", words(trace.output));
      val steps = val::array();
      for (std::size_t t = 0; t < trace.output.size(); ++t) {
        val step = val::object();
        step.set("token", tokens[trace.output[t]]);
        step.set("state", matrix_row(trace.states, t));
        step.set("scores", grid(trace.scores, t));
        step.set("weights", grid(trace.weights, t));
        step.set("gate", matrix_row(trace.gates, t));
        step.set("top", top_tokens(result.top[t], tokens));
        steps.call<void>("push", step);
      }
      out.set("steps", steps);
      out.set("annotations", from_matrix(trace.annotations));
      out.set("image", image_to_js(tasks::image_channels, model.config().height,
                                   model.config().width, result.image));
      out.set("beams", beams_to_js(result.beams, words));
      return out;
    });
  });
}

// The captioners' own facts, what a scene is made of: { tasks, languages, shapes, colours, sizes,
// layout: { rows, columns }, maxObjects, imageSize, grid: { rows, cols }, maxBeam }.
val captioner_facts() {
  val layout = val::object();
  layout.set("rows", tasks::layout_rows);
  layout.set("columns", tasks::layout_columns);
  val grid = val::object();
  grid.set("rows", tasks::region_rows);
  grid.set("cols", tasks::region_columns);
  val out = val::object();
  out.set("tasks", strings(tasks::caption_task_ids()));
  out.set("languages", strings(tasks::caption_languages()));
  out.set("shapes", strings(tasks::shape_names()));
  out.set("colours", strings(tasks::colour_names()));
  out.set("sizes", strings(tasks::size_names()));
  out.set("layout", layout);
  out.set("maxObjects", tasks::max_scene_objects);
  out.set("imageSize", tasks::scene_image_size);
  out.set("grid", grid);
  out.set("maxBeam", at::max_caption_beam);
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(captioner) {
  using namespace binding;
  bind_kind<at::CaptionerSession>(
      [](const auto &session, val &out) { captioner_info(session, out); },
      [](auto &session, const std::string &split) { return captioner_evaluation(session, split); },
      &captioner_facts);
  emscripten::function("captionTasks", &caption_tasks);
  emscripten::function("renderScene", &render_scene);
  emscripten::function("parseScene", &parse_scene);
  emscripten::function("readScene", &read_scene);
  emscripten::function("captionerGradients", &captioner_gradients);
  emscripten::function("captionerCaption", &captioner_caption);
}
