// The frozen kind's binding (frozen_session.hpp): its models' info (the vocabulary), an
// evaluation of nothing, its facts, and its own export, frozenRead.
#include "frozen_session.hpp"

#include "models.hpp"

namespace binding {
namespace {

// { weights, tokens } of one sentence
val frozen_read(int handle, std::string sentence) {
  return guarded([&] {
    return with_session<at::FrozenSession>(handle, [&](auto &session) {
      const auto [tokens, weights] = session.read(sentence);
      val out = val::object();
      out.set("weights", typed_copy(weights));
      out.set("tokens", words_of(session.task().vocabulary.tokens, tokens));
      return out;
    });
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(frozen) {
  using namespace binding;
  bind_kind<at::FrozenSession>(
      [](const auto &session, val &out) {
        out.set("vocab", strings(session.task().vocabulary.tokens));
      },
      [](auto &, const std::string &) { return val::object(); },
      [] {
        val out = val::object();
        out.set("languages", strings(at::tasks::classification_languages()));
        return out;
      });
  emscripten::function("frozenRead", &frozen_read);
}
