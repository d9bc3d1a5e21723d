// The Transformer models, on the translation tasks the seq2seq models learn (seq2seqTasks). A model
// lives in the core's model store under a handle (models.cpp: loading, and what every kind does
// alike); each export takes the handle first, and refuses a model of another kind (blaming
// "model").
#include "translation.hpp"

namespace binding {
namespace {

// One layer's attention, [head][query][key]: an array of heads, each an array of rows.
template <class T> val heads_to_js(const at::LayerAttention<T> &attention) {
  const std::size_t heads = attention.shape()[0], queries = attention.shape()[1],
                    keys = attention.shape()[2];
  val out = val::array();
  for (std::size_t h = 0; h < heads; ++h) {
    val rows = val::array();
    for (std::size_t q = 0; q < queries; ++q)
      rows.call<void>("push",
                      val(typed_memory_view(keys, attention.data() + (h * queries + q) * keys))
                          .call<val>("slice"));
    out.call<void>("push", rows);
  }
  return out;
}

// A Transformer's info besides its fields: its vocabularies, limits and the cross-attention head
// guided alignment supervises.
template <class T> void transformer_info(const at::TransformerSession<T> &session, val &out) {
  translation_info(out, session);
  val guided = val::object();
  guided.set("layer", session.config().decoder_layers - 1);
  guided.set("head", at::guided_head);
  out.set("guidedHead", guided);
}

template <class T>
val transformer_evaluation(at::TransformerSession<T> &session, const std::string &split) {
  const auto result = session.evaluate(at::tasks::split(session.task(), split));
  val out = translation_evaluation(result);
  if (!session.task().gold_links) // no gold links: no alignment to score
    return out;
  out.set("aer", result.aer);
  val heads = val::array();
  for (const auto &head : result.heads) {
    val entry = val::object();
    entry.set("layer", head.layer);
    entry.set("head", head.head);
    entry.set("aer", head.aer);
    heads.call<void>("push", entry);
  }
  out.set("heads", heads);
  return out;
}

val transformer_translate(int handle, std::string sentence, int beam) {
  return translate_model<at::TransformerSession>(
      handle, sentence, beam,
      [](const auto &trace, val &out) {
        val encoder = val::array();
        for (const auto &attention : trace.encoder_attention) {
          val layer = val::object();
          layer.set("attention", heads_to_js(attention));
          encoder.call<void>("push", layer);
        }
        out.set("encoder", encoder);
        val decoder = val::array();
        for (std::size_t l = 0; l < trace.decoder_attention.size(); ++l) {
          val layer = val::object();
          layer.set("selfAttention", heads_to_js(trace.decoder_attention[l]));
          layer.set("crossAttention", heads_to_js(trace.cross_attention[l]));
          decoder.call<void>("push", layer);
        }
        out.set("decoder", decoder);
      },
      [](const auto &, std::size_t, val &) {});
}

// The Transformers' own facts: { tasks, maxBeam, maxWidth, maxLayers }.
val transformer_facts() {
  val out = val::object();
  out.set("tasks", strings(at::tasks::task_ids()));
  out.set("maxBeam", at::max_beam_width);
  out.set("maxWidth", at::max_transformer_width);
  out.set("maxLayers", at::max_transformer_layers);
  return out;
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(transformer) {
  using namespace binding;
  bind_kind<at::TransformerSession>(
      [](const auto &session, val &out) { transformer_info(session, out); },
      [](auto &session, const std::string &split) {
        return transformer_evaluation(session, split);
      },
      &transformer_facts);
  emscripten::function("transformerTokenize", &translation_tokenize<at::TransformerSession>);
  emscripten::function("transformerGradients", &translation_gradients<at::TransformerSession>);
  emscripten::function("transformerTranslate", &transformer_translate);
}
