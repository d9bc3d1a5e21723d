// The models a caller holds by handle: what the JavaScript API's model objects point at. Models
// of every kind (model_kinds.hpp) are made, loaded and disposed here, and the walkthroughs that
// show trained models find them here by the handles their inputs carry. Handles are never reused.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model_kinds.hpp"

namespace attention {

// T, the precision of a session type Session<T>.
template <class Session> struct precision_of;
template <template <class> class Session, class T> struct precision_of<Session<T>> {
  using type = T;
};

// ModelKind<Session>, the description of a session type Session<T>'s kind.
template <class Session> struct KindOfSession;
template <template <class> class Session, class T> struct KindOfSession<Session<T>> {
  using type = ModelKind<Session>;
};

// A model of one kind in one of its two precisions.
template <template <class> class Session> struct ModelSessions {
  static constexpr const char *kind = ModelKind<Session>::name;
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
// Raised by sessions_of: the models of `argument` differ in precision.
[[noreturn]] void fail_mixed_precision(const std::string &argument);

template <class List> struct SessionsVariant;
template <template <class> class... Sessions> struct SessionsVariant<KindList<Sessions...>> {
  using type = std::variant<ModelSessions<Sessions>...>;
};

// A model of any kind.
struct StoredModel {
  typename SessionsVariant<ModelKinds>::type sessions;

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
    fail_kind(argument, kind(), ModelKind<Session>::name);
  }
};

// InputError blames "precision" for anything but "float32" and "float64".
void check_precision(const std::string &precision);
// Stores `model` under a new handle.
int store_model(StoredModel model);

// The task of a new model of `config`: the one models of its key made lately share (a task is
// read-only, and making one takes some 50 ms in WebAssembly, so a page that makes model after
// model of one task makes the task once), else a new one. A task kept elsewhere (a task from
// text) is not held here, so that forgetting it lets it go.
template <template <class> class Session>
std::shared_ptr<const typename ModelKind<Session>::Task>
shared_task(const typename ModelKind<Session>::Config &config) {
  using Kind = ModelKind<Session>;
  using Task = typename Kind::Task;
  static std::vector<std::pair<std::string, std::shared_ptr<const Task>>> recent;
  const std::string key = Kind::task_key(config);
  for (std::size_t i = 0; i < recent.size(); ++i)
    if (recent[i].first == key) {
      std::rotate(recent.begin(), recent.begin() + i, recent.begin() + i + 1);
      return recent.front().second;
    }
  auto task = Kind::make_task(config);
  if (task.use_count() > 1) // kept elsewhere (a task from text, until forgotten): not made here
    return task;
  recent.insert(recent.begin(), {key, task});
  if (recent.size() > 3)
    recent.pop_back();
  return task;
}

// A new model of `config` in `precision` ("float32" or "float64"; InputError blames "precision"),
// its task shared with the other models of that task made lately; the session's errors otherwise.
template <template <class> class Session>
int create_model(KindTag<Session>, const typename ModelKind<Session>::Config &config,
                 const std::string &precision) {
  check_precision(precision);
  const auto task = shared_task<Session>(config);
  ModelSessions<Session> model;
  if (precision == "float32")
    model.f32 = std::make_unique<Session<float>>(config, task);
  else
    model.f64 = std::make_unique<Session<double>>(config, task);
  return store_model(StoredModel{std::move(model)});
}
template <class Config> int create_model(const Config &config, const std::string &precision) {
  return create_model(typename KindOfConfig<Config, ModelKinds>::type{}, config, precision);
}

// A model of any kind from saved bytes: the kind from the file's "format", or for a PyTorch
// state_dict (no format, or "pt") from its tensors' names; then that kind's loader and its errors.
// InputError blames "bytes" for a format of no kind.
int load_model(const std::uint8_t *bytes, std::size_t size);
// InputError blames `argument` for a handle that was disposed or never made.
StoredModel &stored_model(int handle, const std::string &argument = "model");
void dispose_model(int handle);

// The sessions of `handles`, all of one kind and in T's precision (InputError blames `argument`
// otherwise).
template <template <class> class Session, class T>
std::vector<Session<T> *> sessions_of(const std::vector<int> &handles,
                                      const std::string &argument) {
  std::vector<Session<T> *> sessions;
  for (const int handle : handles) {
    Session<T> *session =
        stored_model(handle, argument).template as<Session>(argument).template get<T>();
    if (!session)
      fail_mixed_precision(argument);
    sessions.push_back(session);
  }
  return sessions;
}

} // namespace attention
