#include "attention/model_store.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace attention {

namespace {

std::map<int, StoredModel> &models() {
  static std::map<int, StoredModel> stored;
  return stored;
}

int store(StoredModel model) {
  static int last_handle = 0;
  models()[++last_handle] = std::move(model);
  return last_handle;
}

// The tasks of the last few models made: a task is read-only, and making one takes some 50 ms
// in WebAssembly, so a page that makes model after model of one task makes the task once.
std::shared_ptr<const tasks::Task> shared_task(const Seq2seqSessionConfig &config) {
  static std::vector<std::pair<std::int64_t, std::shared_ptr<const tasks::Task>>> recent;
  for (std::size_t i = 0; i < recent.size(); ++i)
    if (recent[i].first == config.seed && recent[i].second->id == config.task) {
      std::rotate(recent.begin(), recent.begin() + i, recent.begin() + i + 1);
      return recent.front().second;
    }
  auto task = std::make_shared<const tasks::Task>(tasks::make_task(config.task, config.seed));
  recent.insert(recent.begin(), {config.seed, task});
  if (recent.size() > 3)
    recent.pop_back();
  return task;
}

} // namespace

int create_model(const Seq2seqSessionConfig &config, const std::string &precision) {
  StoredModel model;
  if (precision == "float32")
    model.f32 = std::make_unique<Seq2seqSession<float>>(config, shared_task(config));
  else if (precision == "float64")
    model.f64 = std::make_unique<Seq2seqSession<double>>(config, shared_task(config));
  else
    detail::fail(detail::Argument("precision"), "precision must be float32 or float64, got \"",
                 precision.substr(0, 40), "\"");
  return store(std::move(model));
}

int load_model(const std::uint8_t *bytes, std::size_t size) {
  StoredModel model;
  if (read_saved_seq2seq(bytes, size).precision == "float32")
    model.f32 = std::make_unique<Seq2seqSession<float>>(load_seq2seq_session<float>(bytes, size));
  else
    model.f64 = std::make_unique<Seq2seqSession<double>>(load_seq2seq_session<double>(bytes, size));
  return store(std::move(model));
}

StoredModel &stored_model(int handle, const std::string &argument) {
  const auto found = models().find(handle);
  if (found == models().end())
    detail::fail(detail::Argument(argument.c_str()), "this seq2seq model was disposed");
  return found->second;
}

void dispose_model(int handle) {
  stored_model(handle);
  models().erase(handle);
}

template <class T>
std::vector<Seq2seqSession<T> *> sessions_of(const std::vector<int> &handles,
                                             const std::string &argument) {
  std::vector<Seq2seqSession<T> *> sessions;
  for (const int handle : handles) {
    Seq2seqSession<T> *session = stored_model(handle, argument).template session<T>();
    if (!session)
      detail::fail(detail::Argument(argument.c_str()), argument,
                   ": the models must share a precision");
    sessions.push_back(session);
  }
  return sessions;
}

template std::vector<Seq2seqSession<float> *> sessions_of<float>(const std::vector<int> &,
                                                                 const std::string &);
template std::vector<Seq2seqSession<double> *> sessions_of<double>(const std::vector<int> &,
                                                                   const std::string &);

} // namespace attention
