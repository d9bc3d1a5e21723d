// The toy kind's binding (toy_session.hpp): its models' info and evaluation, its facts, and its
// own export, toyRead.
#include "toy_session.hpp"

#include "models.hpp"

namespace binding {
namespace {

// { label, weights, tokens } of one sentence
val toy_read(int handle, std::string sentence) {
  return guarded([&] {
    return with_session<at::ToySession>(handle, [&](auto &session) {
      const auto trace = session.read(sentence);
      std::size_t label = 0;
      for (std::size_t k = 1; k < trace.probabilities.size(); ++k)
        if (trace.probabilities(k) > trace.probabilities(label))
          label = k;
      val out = val::object();
      out.set("label", session.task().labels[label]);
      out.set("weights", typed_copy(trace.weights));
      out.set("tokens", words_of(session.task().vocabulary.tokens, trace.tokens));
      return out;
    });
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(toy) {
  using namespace binding;
  bind_kind<at::ToySession>(
      [](const auto &session, val &out) {
        out.set("labels", strings(session.task().labels));
        out.set("vocab", strings(session.task().vocabulary.tokens));
      },
      [](auto &session, const std::string &split) {
        val out = val::object();
        out.set("accuracy",
                session.evaluate(at::tasks::classification_split(session.task(), split)).accuracy);
        return out;
      },
      [] {
        val out = val::object();
        out.set("languages", strings(at::tasks::classification_languages()));
        return out;
      });
  emscripten::function("toyRead", &toy_read);
}
