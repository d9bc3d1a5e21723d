#include "attention/model_store.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "files/model_file.hpp"
#include "files/safetensors.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;

std::map<int, StoredModel> &models() {
  static std::map<int, StoredModel> stored;
  return stored;
}

int store(StoredModel model) {
  static int last_handle = 0;
  models()[++last_handle] = std::move(model);
  return last_handle;
}

// The tasks of the last few models made, by their key (id, language and seed): a task is
// read-only, and making one takes some 50 ms in WebAssembly, so a page that makes model after
// model of one task makes the task once. One list per type of task (translation, captioning).
template <class Task, class Make>
std::shared_ptr<const Task> shared_task(const std::string &key, Make make) {
  static std::vector<std::pair<std::string, std::shared_ptr<const Task>>> recent;
  for (std::size_t i = 0; i < recent.size(); ++i)
    if (recent[i].first == key) {
      std::rotate(recent.begin(), recent.begin() + i, recent.begin() + i + 1);
      return recent.front().second;
    }
  auto task = std::make_shared<const Task>(make());
  recent.insert(recent.begin(), {key, task});
  if (recent.size() > 3)
    recent.pop_back();
  return task;
}

template <class Config> std::shared_ptr<const tasks::Task> translation_task(const Config &config) {
  return shared_task<tasks::Task>(config.task + " " + std::to_string(config.seed),
                                  [&] { return tasks::make_task(config.task, config.seed); });
}

void check_precision(const std::string &precision) {
  if (precision != "float32" && precision != "float64")
    fail(Argument("precision"), "precision must be float32 or float64, got \"",
         precision.substr(0, 40), "\"");
}

// A new session of `config` in `precision` (checked) over `task`, stored.
template <template <class> class Session, class Config, class Task>
int create(const Config &config, const std::string &precision,
           const std::shared_ptr<const Task> &task) {
  ModelSessions<Session> model;
  if (precision == "float32")
    model.f32 = std::make_unique<Session<float>>(config, task);
  else
    model.f64 = std::make_unique<Session<double>>(config, task);
  return store(StoredModel{std::move(model)});
}

// A session of one kind loaded in the file's precision: load(T{}) loads it in T's.
template <template <class> class Session, class Load>
int load(const std::string &precision, Load load) {
  ModelSessions<Session> model;
  if (precision == "float32")
    model.f32 = std::make_unique<Session<float>>(load(float{}));
  else
    model.f64 = std::make_unique<Session<double>>(load(double{}));
  return store(StoredModel{std::move(model)});
}

// The kind of model a file holds: its format's, or a PyTorch state_dict's by a tensor only that
// kind has (a state_dict of none of them reads as a seq2seq one, whose loader says what it lacks).
std::string kind_of_file(const std::uint8_t *bytes, std::size_t size) {
  const safetensors::File file = safetensors::parse(bytes, size);
  const std::string *format = find_metadata(file, "format");
  if (!format || *format == "pt") {
    if (file.find("src_tok_emb.embedding.weight"))
      return model_kind<TransformerSession>;
    if (file.find("encoder.conv1.weight"))
      return model_kind<CaptionerSession>;
    return model_kind<Seq2seqSession>;
  }
  const std::string prefix = "attention-stepper/";
  for (const char *kind :
       {model_kind<Seq2seqSession>, model_kind<TransformerSession>, model_kind<CaptionerSession>})
    if (*format == prefix + kind)
      return kind;
  fail(Argument("bytes"), "the file holds no model the engine knows: its format is \"",
       format->substr(0, 60), "\"");
}

} // namespace

void fail_kind(const std::string &argument, const char *kind, const char *wanted) {
  fail(Argument(argument.c_str()), argument, " is a ", kind, " model, not a ", wanted, " model");
}

int create_model(const Seq2seqSessionConfig &config, const std::string &precision) {
  check_precision(precision);
  return create<Seq2seqSession>(config, precision, translation_task(config));
}

int create_model(const TransformerSessionConfig &config, const std::string &precision) {
  check_precision(precision);
  return create<TransformerSession>(config, precision, translation_task(config));
}

int create_model(const CaptionerSessionConfig &config, const std::string &precision) {
  check_precision(precision);
  const auto task = shared_task<tasks::CaptionTask>(
      config.task + " " + config.language + " " + std::to_string(config.seed),
      [&] { return tasks::make_caption_task(config.task, config.language, config.seed); });
  return create<CaptionerSession>(config, precision, task);
}

int load_model(const std::uint8_t *bytes, std::size_t size) {
  const std::string kind = kind_of_file(bytes, size);
  if (kind == model_kind<TransformerSession>)
    return load<TransformerSession>(read_saved_transformer(bytes, size).precision, [&](auto t) {
      return load_transformer_session<decltype(t)>(bytes, size);
    });
  if (kind == model_kind<CaptionerSession>)
    return load<CaptionerSession>(read_saved_captioner(bytes, size).precision, [&](auto t) {
      return load_captioner_session<decltype(t)>(bytes, size);
    });
  return load<Seq2seqSession>(read_saved_seq2seq(bytes, size).precision, [&](auto t) {
    return load_seq2seq_session<decltype(t)>(bytes, size);
  });
}

StoredModel &stored_model(int handle, const std::string &argument) {
  const auto found = models().find(handle);
  if (found == models().end())
    fail(Argument(argument.c_str()), "this model was disposed");
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
    Seq2seqSession<T> *session =
        stored_model(handle, argument).as<Seq2seqSession>(argument).template get<T>();
    if (!session)
      fail(Argument(argument.c_str()), argument, ": the models must share a precision");
    sessions.push_back(session);
  }
  return sessions;
}

template std::vector<Seq2seqSession<float> *> sessions_of<float>(const std::vector<int> &,
                                                                 const std::string &);
template std::vector<Seq2seqSession<double> *> sessions_of<double>(const std::vector<int> &,
                                                                   const std::string &);

} // namespace attention
