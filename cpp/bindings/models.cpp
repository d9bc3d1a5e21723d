// Models of any kind: loaded from their bytes, and what every kind does alike. A model lives in
// the core's model store under a handle, a number the wrapper keeps; its dispose() frees it. Each
// export takes the handle first.
#include "models.hpp"

namespace binding {

val links_to_js(const std::vector<std::vector<std::size_t>> &links) {
  val out = val::array();
  for (const auto &positions : links) {
    val row = val::array();
    for (std::size_t position : positions)
      row.call<void>("push", position);
    out.call<void>("push", row);
  }
  return out;
}

val words_of(const std::vector<std::string> &tokens, const std::vector<at::TokenId> &ids) {
  val out = val::array();
  for (auto id : ids)
    if (id != static_cast<at::TokenId>(at::tasks::Vocabulary::eos))
      out.call<void>("push", tokens[id]);
  return out;
}

std::map<std::string, KindBinding> &kind_bindings() {
  static std::map<std::string, KindBinding> bindings;
  return bindings;
}

namespace {

template <class Config>
val field_value(const at::ConfigField<Config> &field, const Config &config) {
  return std::visit([](const auto &value) { return val(value); }, field.get(config));
}

// The fields of a kind's configuration as facts publish them: [{ name, type, identity?,
// required?, trained?, named?, choices?, max?, defaultBy? }].
template <class Config> val fields_to_js(const std::vector<at::ConfigField<Config>> &fields) {
  static const char *const types[] = {"text", "choice", "size", "integer", "number"};
  val out = val::array();
  for (const auto &field : fields) {
    val entry = val::object();
    entry.set("name", field.name);
    entry.set("type", types[static_cast<int>(field.type)]);
    for (const auto &[role, key] : {std::pair{at::FieldRole::identity, "identity"},
                                    {at::FieldRole::required, "required"},
                                    {at::FieldRole::trained, "trained"},
                                    {at::FieldRole::named, "named"}})
      if (field.is(role))
        entry.set(key, true);
    if (!field.choices.empty())
      entry.set("choices", strings(field.choices));
    if (field.most > 0)
      entry.set("max", field.most);
    if (field.unsaid_by)
      entry.set("defaultBy", field.unsaid_by);
    out.call<void>("push", entry);
  }
  return out;
}

// { field: value } of the model's configuration.
val config_of(at::StoredModel &model) {
  val out = val::object();
  model.visit([&](const auto &session) {
    using Kind = typename at::KindOfSession<std::decay_t<decltype(session)>>::type;
    for (const auto &field : Kind::fields())
      out.set(field.name, field_value(field, session.config()));
  });
  return out;
}

// The default of a field set by another's value (`unsaid_by`), as { that value: this default }.
template <class Config>
val unsaid_defaults(const std::vector<at::ConfigField<Config>> &fields,
                    const at::ConfigField<Config> &field) {
  val out = val::object();
  for (const auto &by : fields)
    if (std::string(by.name) == field.unsaid_by)
      for (const auto &choice : by.choices) {
        Config config;
        by.set(config, choice, by.name);
        field.unsaid(config);
        out.set(choice, field_value(field, config));
      }
  return out;
}

// f(KindTag) on the kind named `kind`; InputError blames `argument` for no such kind.
template <class F> val with_kind(const std::string &kind, const char *argument, F &&f) {
  val out = val::undefined();
  bool found = false;
  at::for_each_kind(at::ModelKinds{}, [&](auto tag) {
    if (!found && kind == decltype(tag)::Kind::name) {
      found = true;
      out = f(tag);
    }
  });
  if (!found)
    at::detail::fail(at::detail::Argument(argument), argument, " must be a kind of model, got \"",
                     kind.substr(0, 40), "\"");
  return out;
}

// InputError blames `argument`: `Kind`'s models cannot do `what` (its Abilities).
template <class Kind> [[noreturn]] void fail_ability(const char *argument, const char *what) {
  at::detail::fail(at::detail::Argument(argument), "a ", Kind::name, " model ", what);
}

} // namespace

val info_of(int handle) {
  at::StoredModel &model = at::stored_model(handle);
  val info = config_of(model);
  model.visit([&](const auto &session) {
    info.set("precision", sizeof(precision_t<decltype(session)>) == 4 ? "float32" : "float64");
  });
  kind_bindings().at(model.kind()).info(model, info);
  info.set("handle", handle);
  info.set("kind", model.kind());
  return info;
}

namespace {

val model_load(val bytes) {
  return guarded([&] {
    const auto data = bytes_of(bytes);
    return info_of(at::load_model(data.data(), data.size()));
  });
}

val model_dispose(int handle) {
  return guarded([&] {
    at::dispose_model(handle);
    return val::undefined();
  });
}

val model_parameters(int handle) {
  return guarded([&] {
    return at::stored_model(handle).visit(
        [](auto &session) { return named_tensors(session.model().parameters()); });
  });
}

// named: [[name, shape (number[]), data (a typed array of the model's precision)], …]
val model_set_parameters(int handle, val named) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) {
      std::vector<at::NamedValues<precision_t<decltype(session)>>> entries;
      const auto n = named["length"].as<std::size_t>();
      for (std::size_t i = 0; i < n; ++i) {
        val entry = named[i];
        auto &e = entries.emplace_back();
        e.name = entry[0].as<std::string>();
        const auto rank = entry[1]["length"].as<std::size_t>();
        for (std::size_t d = 0; d < rank; ++d)
          e.shape.push_back(entry[1][d].as<std::size_t>());
        e.values.resize(entry[2]["length"].as<std::size_t>());
        fill_from(e.values, entry[2]);
      }
      session.set_parameters(entries);
      return val::undefined();
    });
  });
}

val model_save(int handle, bool float16) {
  return guarded([&] {
    return at::stored_model(handle).visit([&](auto &session) -> val {
      using Kind = typename at::KindOfSession<std::decay_t<decltype(session)>>::type;
      if constexpr (at::abilities_of<Kind>.saves) {
        using Storage = typename std::decay_t<decltype(session)>::Storage;
        return typed_copy(session.save(float16 ? Storage::float16 : Storage::model));
      } else
        fail_ability<Kind>("model", "is not saved: it is read from the files it came from");
    });
  });
}

val model_kinds() {
  val out = val::array();
  at::for_each_kind(at::ModelKinds{},
                    [&](auto tag) { out.call<void>("push", val(decltype(tag)::Kind::name)); });
  return out;
}

// What models of a kind take and do when an option is not given: { fields, abilities: { creates,
// trains, saves }, precisions, …the kind's own, defaults: { …each field's, precision, …the kind's
// own } }, and of a kind that trains lossWeight, maxSteps and the defaults batch, learningRate and
// <lossWeight>.
val model_facts(std::string kind) {
  return guarded([&] {
    return with_kind(kind, "kind", [&](auto tag) {
      using Kind = typename decltype(tag)::Kind;
      const typename Kind::Config config;
      val defaults = val::object();
      const auto &fields = Kind::fields();
      for (const auto &field : fields)
        defaults.set(field.name,
                     field.unsaid ? unsaid_defaults(fields, field) : field_value(field, config));
      defaults.set("precision", default_precision);
      val out = kind_bindings().at(kind).facts();
      constexpr at::Abilities abilities = at::abilities_of<Kind>;
      if constexpr (abilities.trains) {
        defaults.set("batch", Kind::default_batch);
        defaults.set("learningRate", Kind::default_learning_rate);
        defaults.set(Kind::loss_weight, Kind::default_loss_weight);
        out.set("lossWeight", Kind::loss_weight);
        out.set("maxSteps", at::max_train_steps);
      }
      const val own = out["defaults"];
      if (!own.isUndefined())
        val::global("Object").call<void>("assign", defaults, own);
      out.set("defaults", defaults);
      out.set("fields", fields_to_js(fields));
      val can = val::object();
      can.set("creates", abilities.creates);
      can.set("trains", abilities.trains);
      can.set("saves", abilities.saves);
      out.set("abilities", can);
      out.set("precisions", strings({"float32", "float64"}));
      return out;
    });
  });
}

// options: a kind's create options, checked for type by the wrapper: each field given (not
// trained ones), and precision; what is not given takes the core's default, or the one the other
// fields imply (a field's `unsaid_by`)
val model_create(std::string kind, val options) {
  return guarded([&] {
    return with_kind(kind, "kind", [&](auto tag) -> val {
      using Kind = typename decltype(tag)::Kind;
      if constexpr (!at::abilities_of<Kind>.creates)
        fail_ability<Kind>("kind", "is not made from options: load one (loadModel)");
      else {
        typename Kind::Config config;
        const auto &fields = Kind::fields();
        for (const auto &field : fields) {
          const val value = options[field.name];
          if (field.is(at::FieldRole::trained) || value.isUndefined())
            continue;
          if (field.type == at::FieldType::text || field.type == at::FieldType::choice)
            field.set(config, value.as<std::string>(), field.name);
          else
            field.set(config, value.as<double>(), field.name);
        }
        for (const auto &field : fields)
          if (field.unsaid && options[field.name].isUndefined())
            field.unsaid(config);
        const val precision = options["precision"];
        return info_of(at::create_model(tag, config,
                                        precision.isUndefined() ? default_precision
                                                                : precision.as<std::string>()));
      }
    });
  });
}

// batch, learningRate and weight (the kind's loss weight): undefined for the kind's defaults
val model_train(int handle, double steps, val batch, val learning_rate, val weight) {
  return guarded([&] {
    at::StoredModel &model = at::stored_model(handle);
    return model.visit([&](auto &session) -> val {
      using Kind = typename at::KindOfSession<std::decay_t<decltype(session)>>::type;
      if constexpr (at::abilities_of<Kind>.trains)
        return train_result(session.train(
            static_cast<std::size_t>(steps),
            batch.isUndefined() ? Kind::default_batch : batch.as<std::size_t>(),
            learning_rate.isUndefined() ? Kind::default_learning_rate : learning_rate.as<double>(),
            at::default_max_norm, loss_weight<decltype(session)>(weight)));
      else
        fail_ability<Kind>("model", "does not train");
    });
  });
}

// The model's configuration as it is now: training may change a `trained` field.
val model_config(int handle) {
  return guarded([&] { return config_of(at::stored_model(handle)); });
}

val model_evaluate(int handle, std::string split) {
  return guarded([&] {
    at::StoredModel &model = at::stored_model(handle);
    return kind_bindings().at(model.kind()).evaluate(model, split);
  });
}

// One part of what the model's walkthrough computes once per model (its measures on the test
// split): true once all of it is ready.
val model_prepare(int handle) {
  return guarded([&] {
    return val(at::stored_model(handle).visit(
        [](auto &session) { return session.prepare_test_evaluation(); }));
  });
}

} // namespace
} // namespace binding

EMSCRIPTEN_BINDINGS(models) {
  using namespace binding;
  emscripten::function("modelKinds", &model_kinds);
  emscripten::function("modelFacts", &model_facts);
  emscripten::function("modelCreate", &model_create);
  emscripten::function("modelTrain", &model_train);
  emscripten::function("modelEvaluate", &model_evaluate);
  emscripten::function("modelPrepare", &model_prepare);
  emscripten::function("modelConfig", &model_config);
  emscripten::function("modelLoad", &model_load);
  emscripten::function("modelDispose", &model_dispose);
  emscripten::function("modelParameters", &model_parameters);
  emscripten::function("modelSetParameters", &model_set_parameters);
  emscripten::function("modelSave", &model_save);
}
