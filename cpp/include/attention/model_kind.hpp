// What describes a kind of trained model once: its configuration's fields under the JavaScript
// API's names (which are also its files' metadata keys), with what each is for. Each kind
// specialises ModelKind<Session> beside its session header; the model store,
// model files and the binding read those descriptions, and model_kinds.hpp lists the kinds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace attention {

// A field's value as the API and a file carry it: text, or a number (seeds reach 2^32 - 1, which
// a double holds exactly).
using FieldValue = std::variant<std::string, double>;

// How a field is written: text; one of a list of names (an enumeration of the core's); a size
// (>= 1) or whole number (>= 0), written in a file as digits; a real number, written shortest.
enum class FieldType { text, choice, size, integer, number };

// What a field is for, besides configuring a model (flags, or-ed: FieldRole::identity | …).
struct FieldRole {
  static constexpr unsigned plain = 0;
  // tells models apart: a page keeps one model per identity, and a file is named by it
  static constexpr unsigned identity = 1;
  static constexpr unsigned required = 2; // create must be given it
  static constexpr unsigned trained = 4;  // set by training, not by create (a config still says it)
  // written to a file only when not its default, so that older files stay byte for byte
  static constexpr unsigned if_set = 8;
  static constexpr unsigned absent_before = 16; // older files lack it: its default then
  // of the identity, said in a model's name (a file's, a label's) even at its default
  static constexpr unsigned named = 32;
};

template <class Config> struct ConfigField {
  const char *name;
  FieldType type;
  unsigned roles;
  std::function<FieldValue(const Config &)> get;
  // InputError blames `argument` for a name that is none of the choices.
  std::function<void(Config &, const FieldValue &, const char *argument)> set;
  std::vector<std::string> choices; // a choice's names
  double most = 0;                  // an integer's largest value, when it has one
  // A field create leaves unsaid takes the configuration's default, or unsaid's, which sets it by
  // the value of the field named `unsaid_by`.
  std::function<void(Config &)> unsaid;
  const char *unsaid_by = nullptr;
  // What files written before the field existed mean, when that is not its default (a new layout
  // made the default): such a file lacks the field (`absent_before`), and a field `if_set` is
  // written only when not this value, so that a file of the older layout stays byte for byte.
  std::optional<FieldValue> older = std::nullopt;

  bool is(unsigned role) const { return (roles & role) != 0; }
};

namespace detail {
template <class V> constexpr FieldType field_type() {
  if constexpr (std::is_same_v<V, std::string>)
    return FieldType::text;
  else if constexpr (std::is_same_v<V, std::size_t>)
    return FieldType::size;
  else if constexpr (std::is_same_v<V, std::int64_t>)
    return FieldType::integer;
  else
    return FieldType::number;
}
} // namespace detail

// A field of text or a number, `member` of the configuration.
template <class Config, class V>
ConfigField<Config> config_field(const char *name, V Config::*member,
                                 unsigned roles = FieldRole::plain, double most = 0) {
  ConfigField<Config> field{name, detail::field_type<V>(), roles, {}, {}, {}, most, {}};
  field.get = [member](const Config &config) -> FieldValue {
    if constexpr (std::is_same_v<V, std::string>)
      return config.*member;
    else
      return static_cast<double>(config.*member);
  };
  field.set = [member](Config &config, const FieldValue &value, const char *) {
    if constexpr (std::is_same_v<V, std::string>)
      config.*member = std::get<std::string>(value);
    else
      config.*member = static_cast<V>(std::get<double>(value));
  };
  return field;
}

// A field of an enumeration's, written as its names: name_of(value), parse(name, argument) (which
// raises InputError blaming the argument), `values` every value in order.
template <class Config, class E, class Values, class NameOf, class Parse>
ConfigField<Config> choice_field(const char *name, E Config::*member, const Values &values,
                                 NameOf name_of, Parse parse, unsigned roles = FieldRole::plain) {
  ConfigField<Config> field{name, FieldType::choice, roles, {}, {}, {}, 0, {}};
  for (const E value : values)
    field.choices.emplace_back(name_of(value));
  field.get = [member, name_of](const Config &config) -> FieldValue {
    return std::string(name_of(config.*member));
  };
  field.set = [member, parse](Config &config, const FieldValue &value, const char *argument) {
    config.*member = parse(std::get<std::string>(value), argument);
  };
  return field;
}

// What a file holds of a model: its configuration, and the precision it was saved in ("float32"
// or "float64").
template <class Config> struct SavedModel {
  Config config;
  std::string precision;
};

// ModelKind<Session>, specialised by each kind beside its session, says:
//   name          the kind's name, as model.kind and a file's format ("attention-stepper/<name>")
//   Config        the session's configuration, and fields(): its ConfigFields in their order
//   Task          the task a session is made over, task_key(config) (models made lately of one key
//                 share it) and make_task(config), a shared_ptr to it
//   Model<T>, Evaluation   the session's model and what its evaluate() returns (model_session.hpp)
//   state_dict_tensor  a tensor only a PyTorch state_dict of this kind has
//   default_batch, default_learning_rate   train()'s defaults
//   loss_weight, default_loss_weight        the name and default of train()'s loss weight
//   read_saved(bytes, size)  → SavedModel<Config> of a file (InputError blames "bytes")
//   load<T>(bytes, size)     → the session again (its parameters; InputError blames "bytes")
//   walkthroughs()           the walkthroughs that show its models: their entries in the table
//                            (walkthrough.hpp), defined beside each walkthrough
//   abilities                (optional) what its models can do besides load and run: Abilities
// A kind that does not train needs no Task's make_task, defaults, loss weight nor train(); one
// that does not create, no constructor from a configuration; one that does not save, no save().
struct WalkthroughEntry;
template <template <class> class Session> struct ModelKind;

// What a kind's models can do besides being loaded and run: be made from a configuration
// (createModel), be trained (train(), gradients) and be saved. A kind has all three unless its
// ModelKind says otherwise (`static constexpr Abilities abilities{false, false, false}`: a model
// only loaded from files someone else wrote).
struct Abilities {
  bool creates = true, trains = true, saves = true;
};
template <class Kind, class = void> struct KindAbilities { static constexpr Abilities value{}; };
template <class Kind> struct KindAbilities<Kind, std::void_t<decltype(Kind::abilities)>> {
  static constexpr Abilities value = Kind::abilities;
};
template <class Kind> constexpr Abilities abilities_of = KindAbilities<Kind>::value;

// The kinds, in the order model_kinds.hpp lists them, and one kind as a value
// (f(KindTag<Session>{}) for each kind: for_each_kind).
template <template <class> class... Sessions> struct KindList {};
template <template <class> class Session> struct KindTag { using Kind = ModelKind<Session>; };

template <template <class> class... Sessions, class F>
void for_each_kind(KindList<Sessions...>, F &&f) {
  (f(KindTag<Sessions>{}), ...);
}

// KindTag of the kind in `List` whose configuration is Config.
template <class Config, class List> struct KindOfConfig;
template <class Config, template <class> class First, template <class> class... Rest>
struct KindOfConfig<Config, KindList<First, Rest...>>
    : std::conditional_t<std::is_same_v<typename ModelKind<First>::Config, Config>,
                         std::enable_if<true, KindTag<First>>,
                         KindOfConfig<Config, KindList<Rest...>>> {};

} // namespace attention
