// Pretrained checkpoints (pretrained_session.hpp): their config.json read, their estimate, a model
// made from its files' headers and given its weights a slice at a time, and its forward pass, one
// head's trace and its key/value cache. Conversions only: the core checks and computes.
#include <emscripten/heap.h>
#include <malloc.h>

#include "attention/pretrained_session.hpp"
#include "models.hpp"

namespace binding {
namespace {

namespace pt = at::pretrained;

val config_to_js(const pt::Config &c) {
  val out = val::object();
  out.set("family", std::string(pt::family_name(c.family)));
  out.set("name", c.name);
  out.set("layers", c.layers);
  out.set("heads", c.heads);
  out.set("kvHeads", c.kv_heads);
  out.set("hidden", c.hidden);
  out.set("headDim", c.head_dim);
  out.set("intermediate", c.intermediate);
  out.set("vocabulary", c.vocabulary);
  out.set("positions", c.positions);
  out.set("tokenTypes", c.token_types);
  out.set("causal", c.causal);
  out.set("tied", c.tied);
  val ends = val::array();
  for (const auto id : c.end_tokens)
    ends.call<void>("push", id);
  out.set("endTokens", ends);
  return out;
}

std::vector<at::TokenId> ids_of(const val &array) {
  if (array.isNull() || array.isUndefined())
    return {};
  std::vector<at::TokenId> out(array["length"].as<std::size_t>());
  fill_from(out, array);
  return out;
}

pt::RunInput input_of(const val &ids, const val &token_types, const val &mask) {
  pt::RunInput input;
  input.ids = ids_of(ids);
  input.token_types = ids_of(token_types);
  const std::vector<at::TokenId> m = ids_of(mask);
  input.attention_mask.assign(m.begin(), m.end());
  return input;
}

template <class T> val run_to_js(const pt::RunOutput<T> &run) {
  val out = val::object();
  val attentions = val::array();
  for (const auto &layer : run.attentions)
    attentions.call<void>("push", matrices(layer));
  out.set("attentions", attentions);
  out.set("hiddenStates", matrices(run.hidden_states));
  out.set("logits", run.logits.size() ? from_matrix(run.logits) : val::null());
  return out;
}

val choices_to_js(const std::vector<pt::TokenChoice> &choices) {
  val out = val::array();
  for (const auto &choice : choices) {
    val entry = val::object();
    entry.set("id", choice.id);
    entry.set("probability", choice.probability);
    out.call<void>("push", entry);
  }
  return out;
}

val read_config(std::string text) {
  return guarded([&] { return config_to_js(pt::read_config(text)); });
}

// { family, parameters, bytes, working, limit, inUse }: limit, the most memory the module can grow
// to; inUse, what malloc holds now
val estimate(std::string text, std::string precision) {
  return guarded([&] {
    at::check_precision(precision);
    const pt::Config config = pt::read_config(text);
    const pt::Estimate estimate = pt::estimate(config, precision == "float32" ? 4 : 8);
    val out = val::object();
    out.set("family", std::string(pt::family_name(config.family)));
    out.set("parameters", estimate.parameters);
    out.set("bytes", estimate.bytes);
    out.set("working", estimate.working);
    out.set("limit", static_cast<double>(emscripten_get_heap_max()));
    out.set("inUse", static_cast<double>(mallinfo().uordblks));
    return out;
  });
}

// files: [{ name, header (the file's first bytes: all its header), size }] → the new model's info
val create(std::string config_text, val files, std::string index, std::string precision) {
  return guarded([&] {
    const pt::Config config = pt::read_config(config_text);
    std::vector<pt::CheckpointFile> headers;
    const auto count = files["length"].as<std::size_t>();
    for (std::size_t i = 0; i < count; ++i) {
      const val file = files[i];
      const std::vector<std::uint8_t> header = bytes_of(file["header"]);
      headers.push_back(pt::read_checkpoint_header(file["name"].as<std::string>(), header.data(),
                                                   header.size(), file["size"].as<std::size_t>(),
                                                   "weights"));
    }
    return info_of(at::create_pretrained(pt::plan_checkpoint(config, headers, index), precision));
  });
}

// The files an index names, in order.
val index_files(std::string index) {
  return guarded([&] { return strings(pt::index_files(index)); });
}

// [{ name, file, begin, end, dtype }]: where each of the model's tensors lies in its files
val sources(int handle) {
  return guarded([&] {
    return with_session<at::PretrainedSession>(handle, [&](const auto &session) {
      val out = val::array();
      const auto &model = session.model();
      for (std::size_t i = 0; i < model.sources().size(); ++i) {
        const pt::TensorSource &source = model.sources()[i];
        val entry = val::object();
        entry.set("name", model.parameters().layout()[i].name);
        entry.set("file", source.file);
        entry.set("begin", static_cast<double>(source.begin));
        entry.set("end", static_cast<double>(source.end));
        entry.set("dtype", source.dtype);
        out.call<void>("push", entry);
      }
      return out;
    });
  });
}

// `bytes` (a Uint8Array) into tensor `tensor` from its byte `offset`.
val write(int handle, std::size_t tensor, double offset, val bytes) {
  return guarded([&] {
    const std::vector<std::uint8_t> data = bytes_of(bytes);
    return with_session<at::PretrainedSession>(handle, [&](auto &session) {
      session.model().write(tensor, static_cast<std::size_t>(offset), data.data(), data.size());
      return val::undefined();
    });
  });
}

// Each id's token as the caller's tokenizer shows it (an array of strings), for a walkthrough's
// labels.
val set_token_texts(int handle, val texts) {
  return guarded([&] {
    std::vector<std::string> values = emscripten::vecFromJSArray<std::string>(texts);
    return with_session<at::PretrainedSession>(handle, [&](auto &session) {
      session.set_token_texts(values);
      return val::undefined();
    });
  });
}

// The forward pass → { attentions, hiddenStates, logits, top: the `top` likeliest tokens of the
// logits' row `top_row` (-1: none) }.
val run(int handle, val ids, val token_types, val mask, bool attentions, bool hidden_states,
        std::string logits, std::size_t top, int top_row) {
  return guarded([&] {
    return with_session<at::PretrainedSession>(handle, [&](const auto &session) {
      const pt::Logits which = logits == "all"    ? pt::Logits::all
                               : logits == "last" ? pt::Logits::last
                                                  : pt::Logits::none;
      const auto result =
          session.model().run(input_of(ids, token_types, mask), attentions, hidden_states, which);
      val out = run_to_js(result);
      const auto &m = result.logits;
      out.set(
          "top",
          top_row >= 0 && static_cast<std::size_t>(top_row) < (m.size() ? m.shape()[0] : 0)
              ? choices_to_js(pt::likeliest(m.data() + top_row * m.shape()[1], m.shape()[1], top))
              : val::null());
      return out;
    });
  });
}

val trace(int handle, val ids, val token_types, val mask, std::size_t layer, std::size_t head) {
  return guarded([&] {
    return with_session<at::PretrainedSession>(handle, [&](const auto &session) {
      const auto trace = session.model().trace(input_of(ids, token_types, mask), layer, head);
      val out = val::object();
      out.set("kvHead", trace.kv_head);
      const auto set = [&](const char *name, const auto &m) {
        if (m.size())
          out.set(name, from_matrix(m));
      };
      set("q", trace.q);
      set("k", trace.k);
      set("v", trace.v);
      set("qRotated", trace.q_rotated);
      set("kRotated", trace.k_rotated);
      set("scores", trace.scores);
      set("scaled", trace.scaled);
      set("masked", trace.masked);
      set("weights", trace.weights);
      set("output", trace.output);
      return out;
    });
  });
}

// A step of generation: the cache extended by `ids` (begun again, with the random state of `seed`,
// when `restart`), then the next token chosen → { id, probability, attentions: the new tokens'
// rows [layer][head] }.
val generate_step(int handle, val ids, bool restart, double seed, double temperature,
                  std::size_t top_k, bool attentions) {
  return guarded([&] {
    return with_session<at::PretrainedSession>(handle, [&](auto &session) {
      if (restart)
        session.restart(static_cast<std::int64_t>(seed));
      const auto step = session.model().extend(session.cache(), ids_of(ids), attentions);
      const auto next = pt::next_token(step.logits.data(), step.logits.shape()[1], temperature,
                                       top_k, session.random());
      val out = run_to_js(step);
      out.set("id", next.id);
      out.set("probability", next.probability);
      return out;
    });
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(pretrained) {
  using namespace binding;
  bind_kind<at::PretrainedSession>(
      [](const auto &session, val &out) {
        out.set("config", config_to_js(session.config()));
        out.set("head", std::string(pt::head_name(session.model().head())));
        out.set("parameterCount", static_cast<double>(session.model().parameters().size()));
      },
      [](auto &, const std::string &) { return val::object(); },
      [] {
        val out = val::object();
        out.set("families", strings(pt::family_names()));
        return out;
      });
  emscripten::function("pretrainedReadConfig", &read_config);
  emscripten::function("pretrainedEstimate", &estimate);
  emscripten::function("pretrainedIndexFiles", &index_files);
  emscripten::function("pretrainedCreate", &create);
  emscripten::function("pretrainedSources", &sources);
  emscripten::function("pretrainedWrite", &write);
  emscripten::function("pretrainedSetTokenTexts", &set_token_texts);
  emscripten::function("pretrainedRun", &run);
  emscripten::function("pretrainedTrace", &trace);
  emscripten::function("pretrainedGenerateStep", &generate_step);
}
