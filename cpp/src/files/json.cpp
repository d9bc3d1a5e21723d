#include "files/json.hpp"

#include "files/json_reader.hpp"

namespace attention::files {

namespace {

struct ConfigSyntax {
  static constexpr HeaderSyntax syntax{"a config.json", "JSON", false, "config", "the file"};
};
struct IndexSyntax {
  static constexpr HeaderSyntax syntax{"a model.safetensors.index.json", "JSON", false, "index",
                                       "the file"};
};

template <class Syntax> JsonValue value(JsonReader<Syntax> &json, int depth) {
  using Type = JsonValue::Type;
  if (depth > JsonReader<Syntax>::max_depth)
    json.refuse("the file nests deeper than 64 levels");
  JsonValue out;
  if (json.peek('{')) {
    out.type = Type::object;
    json.object([&](const std::string &key) {
      JsonValue member = value(json, depth + 1);
      for (auto &[name, existing] : out.members)
        if (name == key) {
          existing = std::move(member);
          return;
        }
      out.members.emplace_back(key, std::move(member));
    });
  } else if (json.peek('[')) {
    out.type = Type::array;
    json.array([&] { out.items.push_back(value(json, depth + 1)); });
  } else if (json.peek('"')) {
    out.type = Type::string;
    out.string = json.string();
  } else if (const int literal = json.literal(); literal != -2) {
    out.type = literal == -1 ? Type::null : Type::boolean;
    out.boolean = literal == 1;
  } else {
    out.type = Type::number;
    out.number = json.number();
  }
  return out;
}

template <class Syntax> JsonValue parse(const std::string &text) {
  JsonReader<Syntax> json(text.data(), text.data() + text.size());
  JsonValue out = value(json, 0);
  json.finish();
  return out;
}

} // namespace

const JsonValue *JsonValue::find(const std::string &key) const {
  for (const auto &[name, member] : members)
    if (name == key)
      return &member;
  return nullptr;
}

JsonValue parse_json(const std::string &text, JsonDocument document) {
  return document == JsonDocument::config ? parse<ConfigSyntax>(text) : parse<IndexSyntax>(text);
}

} // namespace attention::files
