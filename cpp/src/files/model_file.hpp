// A model's parameters as a safetensors file, for any model: the tensors under their names in the
// layout's (state_dict) order, F32 or F64 by precision or F16 on request, and string metadata
// that always begins with "format" (what model the file holds) and ends with "precision". Each
// model adds its own metadata (task, sizes, seed…) and reads it back with these helpers. A file
// is hostile bytes: anything wrong in it is an InputError blaming "bytes".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "attention/errors.hpp"
#include "attention/model_kind.hpp"
#include "attention/parameters.hpp"
#include "core/decimal.hpp"
#include "files/safetensors.hpp"

namespace attention {

using Metadata = std::vector<std::pair<std::string, std::string>>;

// A kind's files' "format": "attention-stepper/<kind>".
inline std::string model_format(const char *kind) {
  return std::string("attention-stepper/") + kind;
}

// "float32" or "float64", as numpy and the metadata spell T.
template <class T> const char *precision_name() { return sizeof(T) == 4 ? "float32" : "float64"; }

// The file's bytes, with the metadata {"format": format, …metadata, "precision": T's}. With
// `float16`, every value is rounded to float16 (numpy's rounding) for a file half the size;
// InputError blames "dtype" when one is beyond float16's range.
template <class T>
std::vector<std::uint8_t> save_model_file(const ParameterSet<T> &parameters,
                                          const std::string &format, const Metadata &metadata,
                                          bool float16);

// The metadata's value under `key`, or nullptr.
const std::string *find_metadata(const safetensors::File &file, const std::string &key);
// A metadata value that must be a whole number (digits only, at most 12 of them).
std::int64_t metadata_integer(const std::string &text, const std::string &key);
// A metadata value that must be a number >= 0 as format_shortest writes it ("0.5", "1e-07"): exact
// up to 15 significant digits (without strtod, which brings binary128 arithmetic into the module).
double metadata_number(const std::string &text, const std::string &key);
// Whether the file is a PyTorch state_dict saved with safetensors (no metadata, or {"format":
// "pt"}), whose model the reader infers from its tensors, rather than a file saved here.
bool is_state_dict(const safetensors::File &file);

// A saved model's metadata as its kind reads it, refusing a file of another format and naming
// what it lacks: "the file is not <what>: its metadata lacks \"seed\"".
class SavedMetadata {
public:
  // `format` the kind's ("attention-stepper/<kind>"), `what` its name ("a saved
  // <kind>").
  SavedMetadata(const safetensors::File &file, const std::string &format, const char *what);
  const std::string &text(const char *key) const;
  const std::string *optional(const char *key) const { return find_metadata(file_, key); }
  std::int64_t integer(const char *key) const { return metadata_integer(text(key), key); }
  std::size_t size(const char *key) const { return static_cast<std::size_t>(integer(key)); }
  // "float32" or "float64"
  std::string precision() const;

private:
  const safetensors::File &file_;
  const char *what_;
};

// A kind's configuration as its files' metadata: each field under its name, in the fields' order
// (text as it is, whole numbers as digits, real numbers shortest); a field saved `if_set` only
// when not its default (or its `older` value, when it has one).
template <class Config>
Metadata metadata_of(const std::vector<ConfigField<Config>> &fields, const Config &config) {
  Metadata metadata;
  for (const auto &field : fields) {
    const FieldValue value = field.get(config);
    if (field.is(FieldRole::if_set) && value == field.older.value_or(field.get(Config{})))
      continue;
    if (const auto *text = std::get_if<std::string>(&value))
      metadata.emplace_back(field.name, *text);
    else if (field.type == FieldType::number)
      metadata.emplace_back(field.name, detail::format_shortest(std::get<double>(value)));
    else
      metadata.emplace_back(field.name,
                            std::to_string(static_cast<std::int64_t>(std::get<double>(value))));
  }
  return metadata;
}

// The configuration a saved file's metadata gives: every field (a field `if_set` or
// `absent_before` its default when absent, or its `older` value when it has one), checked as its
// kind's create checks it but blamed on the file.
template <class Config>
Config config_from(const std::vector<ConfigField<Config>> &fields, const SavedMetadata &meta) {
  Config config;
  for (const auto &field : fields) {
    FieldValue value;
    if (field.is(FieldRole::if_set | FieldRole::absent_before) && !meta.optional(field.name)) {
      if (field.older)
        field.set(config, *field.older, "bytes");
      continue;
    }
    switch (field.type) {
    case FieldType::text:
    case FieldType::choice:
      value = meta.text(field.name);
      break;
    case FieldType::size:
    case FieldType::integer:
      value = static_cast<double>(meta.integer(field.name));
      break;
    case FieldType::number:
      value = metadata_number(meta.text(field.name), field.name);
      break;
    }
    try {
      field.set(config, value, "bytes");
    } catch (const InputError &error) {
      detail::fail(detail::Argument("bytes"), "the file's ", field.name, ": ", error.what());
    }
  }
  return config;
}

// Refuses a file of another precision than T: "the file holds a float64 model, not float32".
template <class T> void require_precision(const std::string &precision);

// Reads every parameter of `parameters`' layout from the file: it must hold exactly those names,
// each as T's dtype, F16 (widened exactly) or I64 (a PyTorch buffer's integers), with its shape and
// finite values. Nothing changes when it throws.
template <class T> void load_model_file(const safetensors::File &file, ParameterSet<T> &parameters);

extern template std::vector<std::uint8_t>
save_model_file(const ParameterSet<float> &, const std::string &, const Metadata &, bool);
extern template std::vector<std::uint8_t>
save_model_file(const ParameterSet<double> &, const std::string &, const Metadata &, bool);
extern template void require_precision<float>(const std::string &);
extern template void require_precision<double>(const std::string &);
extern template void load_model_file(const safetensors::File &, ParameterSet<float> &);
extern template void load_model_file(const safetensors::File &, ParameterSet<double> &);

} // namespace attention
