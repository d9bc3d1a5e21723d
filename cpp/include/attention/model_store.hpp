// The models a caller holds by handle: what the JavaScript API's model objects point at. Models
// of every kind are made, loaded and disposed here, and the walkthroughs that show trained models
// find them here by the handles their inputs carry. Handles are never reused.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "captioner_session.hpp"
#include "seq2seq_session.hpp"
#include "transformer_session.hpp"

namespace attention {

// A kind's name, as a model file's format ("attention-stepper/<kind>") and the JavaScript API's
// model.kind spell it.
template <template <class> class Session> constexpr const char *model_kind = nullptr;
template <> inline constexpr const char *model_kind<Seq2seqSession> = "seq2seq";
template <> inline constexpr const char *model_kind<TransformerSession> = "transformer";
template <> inline constexpr const char *model_kind<CaptionerSession> = "captioner";

// T, the precision of a session type Session<T>.
template <class Session> struct precision_of;
template <template <class> class Session, class T> struct precision_of<Session<T>> {
  using type = T;
};

// A model of one kind in one of its two precisions.
template <template <class> class Session> struct ModelSessions {
  static constexpr const char *kind = model_kind<Session>;
  std::unique_ptr<Session<float>> f32;
  std::unique_ptr<Session<double>> f64;

  // f(session) on the precision the model has.
  template <class F> decltype(auto) visit(F &&f) { return f32 ? f(*f32) : f(*f64); }
  // The session in T's precision, or nullptr.
  template <class T> Session<T> *get() {
    if constexpr (sizeof(T) == 4)
      return f32.get();
    else
      return f64.get();
  }
};

// Raised by StoredModel::as (defined in store.cpp): `argument` is a model of another kind.
[[noreturn]] void fail_kind(const std::string &argument, const char *kind, const char *wanted);

// A model of any kind.
struct StoredModel {
  std::variant<ModelSessions<Seq2seqSession>, ModelSessions<TransformerSession>,
               ModelSessions<CaptionerSession>>
      sessions;

  const char *kind() const {
    return std::visit([](const auto &model) { return model.kind; }, sessions);
  }
  // f(session) on the kind and precision the model has: f must take a session of every kind.
  template <class F> decltype(auto) visit(F &&f) {
    return std::visit([&](auto &model) -> decltype(auto) { return model.visit(f); }, sessions);
  }
  // The model as one kind's; InputError blames `argument` when it is of another kind.
  template <template <class> class Session>
  ModelSessions<Session> &as(const std::string &argument = "model") {
    if (auto *model = std::get_if<ModelSessions<Session>>(&sessions))
      return *model;
    fail_kind(argument, kind(), model_kind<Session>);
  }
};

// A new model of `config` in `precision` ("float32" or "float64"; InputError blames "precision"),
// its task shared with the other models of that task (and language) and seed made lately. The
// sessions' errors otherwise.
int create_model(const Seq2seqSessionConfig &config, const std::string &precision);
int create_model(const TransformerSessionConfig &config, const std::string &precision);
int create_model(const CaptionerSessionConfig &config, const std::string &precision);
// A model of any kind from saved bytes: the kind from the file's "format", or for a PyTorch
// state_dict (no format, or "pt") from its tensors' names; then that kind's loader and its errors.
// InputError blames "bytes" for a format of no kind.
int load_model(const std::uint8_t *bytes, std::size_t size);
// InputError blames `argument` for a handle that was disposed or never made.
StoredModel &stored_model(int handle, const std::string &argument = "model");
void dispose_model(int handle);

// The seq2seq sessions of `handles`, all in T's precision (InputError blames `argument`
// otherwise, or for a model of another kind).
template <class T>
std::vector<Seq2seqSession<T> *> sessions_of(const std::vector<int> &handles,
                                             const std::string &argument);

} // namespace attention
