#include "attention/pretrained_session.hpp"

#include "attention/errors.hpp"
#include "attention/model_store.hpp"

namespace attention {

const std::vector<ConfigField<pretrained::Config>> &ModelKind<PretrainedSession>::fields() {
  using C = pretrained::Config;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      choice_field(
          "family", &C::family,
          std::vector<pretrained::Family>{pretrained::Family::gpt2, pretrained::Family::bert,
                                          pretrained::Family::distilbert, pretrained::Family::llama,
                                          pretrained::Family::qwen2},
          pretrained::family_name,
          [](const std::string &name, const char *argument) {
            const auto &names = pretrained::family_names();
            for (std::size_t i = 0; i < names.size(); ++i)
              if (names[i] == name)
                return static_cast<pretrained::Family>(i);
            detail::fail(detail::Argument(argument), "no family is called \"", name.substr(0, 40),
                         "\"");
          },
          R::identity),
      config_field("name", &C::name, R::identity),
      config_field("layers", &C::layers),
      config_field("heads", &C::heads),
      config_field("kvHeads", &C::kv_heads),
      config_field("hidden", &C::hidden),
      config_field("headDim", &C::head_dim),
      config_field("vocabulary", &C::vocabulary),
      config_field("positions", &C::positions)};
  return fields;
}

SavedModel<pretrained::Config> ModelKind<PretrainedSession>::read_saved(const std::uint8_t *,
                                                                        std::size_t) {
  detail::fail(detail::Argument("bytes"),
               "a pretrained checkpoint is its config.json and weights: load it with "
               "loadPretrained({ config, weights })");
}

template <class T>
PretrainedSession<T> ModelKind<PretrainedSession>::load(const std::uint8_t *bytes,
                                                        std::size_t size) {
  read_saved(bytes, size);
  __builtin_unreachable();
}
template PretrainedSession<float> ModelKind<PretrainedSession>::load<float>(const std::uint8_t *,
                                                                            std::size_t);
template PretrainedSession<double> ModelKind<PretrainedSession>::load<double>(const std::uint8_t *,
                                                                              std::size_t);

int create_pretrained(const pretrained::Plan &plan, const std::string &precision) {
  check_precision(precision);
  ModelSessions<PretrainedSession> model;
  if (precision == "float32")
    model.f32 = std::make_unique<PretrainedSession<float>>(plan);
  else
    model.f64 = std::make_unique<PretrainedSession<double>>(plan);
  return store_model(StoredModel{std::move(model)});
}

} // namespace attention
