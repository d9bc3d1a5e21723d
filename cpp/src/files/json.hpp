// JSON documents a checkpoint comes with (config.json, model.safetensors.index.json) read whole
// into values, by the strict reader of json_reader.hpp: a refusal is an InputError blaming the
// document's argument ("config", "index").
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace attention::files {

struct JsonValue {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;                           // an array's
  std::vector<std::pair<std::string, JsonValue>> members; // an object's, a repeated key's last

  // An object's member `key`, or nullptr (also when this is no object).
  const JsonValue *find(const std::string &key) const;
};

enum class JsonDocument { config, index };

// The value `text` holds; InputError blames "config" or "index" for anything but one JSON value.
JsonValue parse_json(const std::string &text, JsonDocument document);

} // namespace attention::files
