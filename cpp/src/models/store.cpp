#include "attention/model_store.hpp"

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

// A session of one kind loaded in the file's precision.
template <template <class> class Session>
int load(KindTag<Session>, const std::uint8_t *bytes, std::size_t size) {
  using Kind = ModelKind<Session>;
  ModelSessions<Session> model;
  if (Kind::read_saved(bytes, size).precision == "float32")
    model.f32 = std::make_unique<Session<float>>(Kind::template load<float>(bytes, size));
  else
    model.f64 = std::make_unique<Session<double>>(Kind::template load<double>(bytes, size));
  return store_model(StoredModel{std::move(model)});
}

} // namespace

void check_precision(const std::string &precision) {
  if (precision != "float32" && precision != "float64")
    fail(Argument("precision"), "precision must be float32 or float64, got \"",
         precision.substr(0, 40), "\"");
}

int store_model(StoredModel model) {
  static int last_handle = 0;
  models()[++last_handle] = std::move(model);
  return last_handle;
}

void fail_kind(const std::string &argument, const char *kind, const char *wanted) {
  fail(Argument(argument.c_str()), argument, " is a ", kind, " model, not a ", wanted, " model");
}

void fail_mixed_precision(const std::string &argument) {
  fail(Argument(argument.c_str()), argument, ": the models must share a precision");
}

// The kind a file holds: its format's; a PyTorch state_dict's by the tensor only that kind's have,
// or, having none of those, the kind that names no such tensor (whose loader says what it lacks).
int load_model(const std::uint8_t *bytes, std::size_t size) {
  const safetensors::File file = safetensors::parse(bytes, size);
  const std::string *format = find_metadata(file, "format");
  const bool state_dict = !format || *format == "pt";
  int handle = 0;
  const auto try_kind = [&](auto tag, bool fallback) {
    using Kind = typename decltype(tag)::Kind;
    if (handle)
      return;
    const bool ours =
        state_dict
            ? (Kind::state_dict_tensor ? !fallback && file.find(Kind::state_dict_tensor) : fallback)
            : *format == model_format(Kind::name);
    if (ours)
      handle = load(tag, bytes, size);
  };
  for_each_kind(ModelKinds{}, [&](auto tag) { try_kind(tag, false); });
  if (!handle && state_dict)
    for_each_kind(ModelKinds{}, [&](auto tag) { try_kind(tag, true); });
  if (!handle)
    fail(Argument("bytes"), "the file holds no model the engine knows: its format is \"",
         format->substr(0, 60), "\"");
  return handle;
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

} // namespace attention
