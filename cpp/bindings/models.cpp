// Models of any kind: loaded from their bytes, and what every kind does alike. A model lives in
// the core's model store under a handle, a number the wrapper keeps; its dispose() frees it. Each
// export takes the handle first.
#include "models.hpp"

namespace binding {

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

val words_of(const std::vector<std::string> &tokens, const std::vector<at::TokenId> &ids) {
  val out = val::array();
  for (auto id : ids)
    if (id != static_cast<at::TokenId>(at::tasks::Vocabulary::eos))
      out.call<void>("push", tokens[id]);
  return out;
}

val source_tokens(const at::tasks::Task &task, const std::vector<at::TokenId> &ids) {
  val out = val::array();
  for (auto id : ids)
    out.call<void>("push", task.source.tokens[id]);
  return out;
}

std::vector<std::pair<std::string, std::string>> sentence_pairs(const val &pairs) {
  std::vector<std::pair<std::string, std::string>> sentences;
  const auto n = pairs["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i)
    sentences.emplace_back(pairs[i][0].as<std::string>(), pairs[i][1].as<std::string>());
  return sentences;
}

val info_of(int handle) {
  at::StoredModel &model = at::stored_model(handle);
  val info = model.visit([](const auto &session) {
    val out = model_info(session);
    out.set("precision", sizeof(precision_t<decltype(session)>) == 4 ? "float32" : "float64");
    return out;
  });
  info.set("handle", handle);
  info.set("kind", model.kind());
  return info;
}

namespace {

val model_load(val bytes) {
  return guarded([&] {
    const auto data = bytes_of(bytes);
    return info_of(at::load_model(data.data(), data.size()));
  });
}

val model_dispose(int handle) {
  return guarded([&] {
    at::dispose_model(handle);
    return val::undefined();
  });
}

val model_parameters(int handle) {
  return guarded([&] {
    return at::stored_model(handle).visit(
        [](auto &session) { return named_tensors(session.model().parameters()); });
  });
}

// named: [[name, shape (number[]), data (a typed array of the model's precision)], …]
val model_set_parameters(int handle, val named) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
      std::vector<at::NamedValues<precision_t<decltype(session)>>> entries;
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

val model_save(int handle, bool float16) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
      using Storage = typename std::decay_t<decltype(session)>::Storage;
      return typed_copy(session.save(float16 ? Storage::float16 : Storage::model));
    });
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(models) {
  using namespace binding;
  emscripten::function("modelLoad", &model_load);
  emscripten::function("modelDispose", &model_dispose);
  emscripten::function("modelParameters", &model_parameters);
  emscripten::function("modelSetParameters", &model_set_parameters);
  emscripten::function("modelSave", &model_save);
}
