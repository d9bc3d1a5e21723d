// The one table of walkthroughs: each one's name, its inputs with their limits and defaults, and
// how its trace is made from the inputs a caller gives. The binding serves this table through one
// generic call, and the page reads the names, inputs and limits from it.
#include <algorithm>
#include <string>
#include <utility>

#include "attention/captioning_walkthrough.hpp"
#include "attention/model_store.hpp"
#include "attention/score_function.hpp"
#include "attention/seq2seq.hpp"
#include "attention/seq2seq_tasks.hpp"
#include "attention/seq2seq_walkthrough.hpp"
#include "attention/transformer_walkthrough.hpp"
#include "attention/walkthrough.hpp"
#include "core/decimal.hpp"

namespace attention {

namespace {

// ---------------------------------------------------------------------------------------------
// Fields

Matrix<double> row_matrix(const Vector<double> &v) {
  auto out = Matrix<double>::from_shape({1, v.size()});
  std::copy(v.begin(), v.end(), out.data());
  return out;
}

InputField integer_field(const char *name, std::int64_t value, std::int64_t min, std::int64_t max) {
  auto number = Matrix<double>::from_shape({1, 1});
  number(0, 0) = double(value);
  return {name, InputKind::integer, min, max, {}, false, std::move(number), {}};
}
InputField numbers_field(const char *name, InputKind kind, Matrix<double> value) {
  return {name, kind, 0, 0, {}, false, std::move(value), {}};
}
InputField texts_field(const char *name, InputKind kind, Labels value, Labels choices = {}) {
  return {name, kind, 0, 0, std::move(choices), false, {}, std::move(value)};
}
InputField optional_matrix(const char *name) {
  return {name, InputKind::matrix, 0, 0, {}, true, {}, {}};
}
InputField model_field(const char *name, InputKind kind, bool optional = false) {
  return {name, kind, 0, 0, {}, optional, {}, {}};
}

Labels score_names() {
  Labels names;
  for (auto score : score_functions)
    names.push_back(score_function_name(score));
  return names;
}

InputField task_field() {
  return texts_field("task", InputKind::choice, Labels(1, tasks::task_ids().front()),
                     tasks::task_ids());
}
// en-fr's "la voiture rouge est petite"
InputField sample_sentence() {
  return texts_field("sentence", InputKind::tokens, {"the", "red", "car", "is", "small"});
}

std::vector<InputField> basics_inputs() {
  const BasicsInputs in;
  return {numbers_field("decoderState", InputKind::vector, row_matrix(in.decoder_state)),
          numbers_field("annotations", InputKind::matrix, in.annotations),
          integer_field("seed", in.seed, 0, max_seed)};
}

std::vector<InputField> self_attention_inputs() {
  const SelfAttentionInputs in;
  return {numbers_field("embeddings", InputKind::matrix, in.embeddings),
          integer_field("seed", in.seed, 0, max_seed),
          integer_field("high", in.high, 1, max_high),
          integer_field("word", std::int64_t(in.word), 0, std::int64_t(max_words) - 1),
          optional_matrix("W_Q"),
          optional_matrix("W_K"),
          optional_matrix("W_V")};
}

// What picks a model (the caller's): its task, scoring function, encoder ("default": the scoring
// function's, default_encoder, which the page resolves), layers and guided alignment's weight λ
// (as format_shortest writes it: the menu's "0", "0.5", "1").
std::vector<InputField> model_identity_inputs() {
  Labels encoders{"default"};
  for (auto encoder : attention::encoders)
    encoders.push_back(encoder_name(encoder));
  return {task_field(),
          texts_field("scoring", InputKind::choice,
                      Labels(1, score_function_name(ScoreFunction::additive)), score_names()),
          texts_field("encoder", InputKind::choice, Labels(1, "default"), encoders),
          integer_field("layers", 1, 1, std::int64_t(max_layers)),
          texts_field("guide", InputKind::choice, Labels(1, "0"), {"0", "0.5", "1"})};
}
// What compared models differ in.
InputField comparison_field() {
  Labels names;
  for (auto comparison : comparisons)
    names.push_back(comparison_name(comparison));
  return texts_field("comparison", InputKind::choice, Labels(1, names.front()), names);
}

// The caller's models, each its own value of the field compared, the others as the identity's
// inputs say (the field compared aside).
std::vector<InputField> scoring_inputs() {
  auto fields = model_identity_inputs();
  fields.push_back(comparison_field());
  fields.push_back(sample_sentence());
  fields.push_back(integer_field("step", 2, 1, std::int64_t(max_sentence_length)));
  fields.push_back(model_field("models", InputKind::models));
  return fields;
}

// The identity's inputs pick the model (the caller's); `compare` adds models to compare, each its
// own value of the field `comparison` names.
std::vector<InputField> seq2seq_inputs() {
  auto fields = model_identity_inputs();
  fields.push_back(sample_sentence());
  fields.push_back(integer_field("beam", 1, 1, std::int64_t(max_walkthrough_beam)));
  fields.push_back(comparison_field());
  fields.push_back(model_field("model", InputKind::model));
  fields.push_back(model_field("compare", InputKind::models, true));
  return fields;
}

// The Transformer (the caller's, of the task given) and, to compare its best cross-attention
// head with, a GRU model of the same task; `layer` and `head` (from 1) pick what the detailed
// stages show.
std::vector<InputField> transformer_inputs() {
  return {task_field(),
          sample_sentence(),
          integer_field("layer", 1, 1, std::int64_t(max_transformer_layers)),
          integer_field("head", 1, 1, std::int64_t(max_transformer_width)),
          integer_field("beam", 1, 1, std::int64_t(max_walkthrough_beam)),
          model_field("model", InputKind::model),
          model_field("compare", InputKind::models, true)};
}

std::vector<InputField> numerics_inputs() {
  const NumericsInputs in;
  return {numbers_field("scores", InputKind::vector, row_matrix(in.scores)),
          numbers_field("mask", InputKind::vector, row_matrix(in.mask)),
          integer_field("seed", in.seed, 0, max_seed)};
}

// ---------------------------------------------------------------------------------------------
// Given inputs, read into each walkthrough's own

template <class Value>
const Value *find(const std::vector<std::pair<std::string, Value>> &given, const char *name) {
  for (const auto &[key, value] : given)
    if (key == name)
      return &value;
  return nullptr;
}

void read(const GivenInputs &given, const char *name, Matrix<double> &out) {
  if (const auto *value = find(given.numbers, name))
    out = *value;
}
void read(const GivenInputs &given, const char *name, std::optional<Matrix<double>> &out) {
  if (const auto *value = find(given.numbers, name))
    out = *value;
}
void read(const GivenInputs &given, const char *name, Vector<double> &out) {
  if (const auto *value = find(given.numbers, name)) {
    out = Vector<double>::from_shape({value->size()});
    std::copy(value->data(), value->data() + value->size(), out.data());
  }
}
template <class Integer> void read(const GivenInputs &given, const char *name, Integer &out) {
  if (const auto *value = find(given.numbers, name))
    out = static_cast<Integer>((*value)(0, 0));
}

const InputField &field_of(const std::vector<InputField> &fields, const char *name) {
  return *std::find_if(fields.begin(), fields.end(), [&](const auto &f) { return f.name == name; });
}
// A text or integer input, or its default.
Labels texts(const GivenInputs &given, const char *name, const std::vector<InputField> &fields) {
  const auto *value = find(given.texts, name);
  return value ? *value : field_of(fields, name).texts;
}
std::size_t size(const GivenInputs &given, const char *name,
                 const std::vector<InputField> &fields) {
  const auto *value = find(given.numbers, name);
  return static_cast<std::size_t>((value ? *value : field_of(fields, name).numbers)(0, 0));
}
std::string sentence(const GivenInputs &given, const std::vector<InputField> &fields) {
  std::string joined;
  for (const auto &token : texts(given, "sentence", fields))
    joined += (joined.empty() ? "" : " ") + token;
  return joined;
}
std::vector<int> handles(const GivenInputs &given, const char *name) {
  std::vector<int> out;
  if (const auto *value = find(given.numbers, name))
    for (std::size_t i = 0; i < value->size(); ++i)
      out.push_back(static_cast<int>(value->data()[i]));
  return out;
}

// The identity's inputs given with a model must be the model's, each field its kind marks
// `identity` but `skipped` (the field compared): a text as the field names its value (a number as
// format_shortest writes it, "default" for a field whose default the others imply), or a number.
template <class Session>
void require_models_own(const GivenInputs &given, const Session &session,
                        const std::string &skipped = "") {
  using Kind = typename KindOfSession<Session>::type;
  const auto &config = session.config();
  for (const auto &field : Kind::fields()) {
    if (!field.is(FieldRole::identity) || field.name == skipped)
      continue;
    const FieldValue own = field.get(config);
    const auto refuse = [&](const std::string &value) {
      const std::string own_text = std::holds_alternative<std::string>(own)
                                       ? std::get<std::string>(own)
                                       : detail::format_shortest(std::get<double>(own));
      detail::fail(detail::Argument(field.name), "inputs.", field.name, " (", value,
                   ") is not the model's (", own_text, ")");
    };
    if (const auto *texts = find(given.texts, field.name); texts && !texts->empty()) {
      const std::string &text = texts->front();
      if (text == "default" && field.unsaid)
        continue;
      if (std::holds_alternative<std::string>(own)) {
        auto parsed = config; // a choice's name is checked as create checks it
        field.set(parsed, text, field.name);
        if (field.get(parsed) != own)
          refuse(text);
      } else if (text != detail::format_shortest(std::get<double>(own))) {
        refuse(text);
      }
    } else if (const auto *numbers = find(given.numbers, field.name);
               numbers && numbers->size() && (*numbers)(0, 0) != std::get<double>(own)) {
      refuse(detail::format_shortest((*numbers)(0, 0)));
    }
  }
}
Comparison comparison_of(const GivenInputs &given, const std::vector<InputField> &fields) {
  return parse_comparison(texts(given, "comparison", fields).front(), "comparison");
}

Trace basics_from(const GivenInputs &given) {
  BasicsInputs in;
  read(given, "decoderState", in.decoder_state);
  read(given, "annotations", in.annotations);
  read(given, "seed", in.seed);
  return basics_walkthrough(in);
}

Trace self_attention_from(const GivenInputs &given) {
  SelfAttentionInputs in;
  read(given, "embeddings", in.embeddings);
  read(given, "seed", in.seed);
  read(given, "high", in.high);
  read(given, "word", in.word);
  read(given, "W_Q", in.wq);
  read(given, "W_K", in.wk);
  read(given, "W_V", in.wv);
  return self_attention_walkthrough(in);
}

Trace numerics_from(const GivenInputs &given) {
  NumericsInputs in;
  read(given, "scores", in.scores);
  read(given, "mask", in.mask);
  read(given, "seed", in.seed);
  return numerics_walkthrough(in);
}

Trace seq2seq_from(const GivenInputs &given) {
  const std::vector<int> model = handles(given, "model");
  if (model.size() != 1)
    detail::fail(detail::Argument("model"), "inputs.model must be one seq2seq model");
  const auto fields = seq2seq_inputs();
  return stored_model(model[0]).as<Seq2seqSession>().visit([&](auto &session) {
    using T = typename precision_of<std::decay_t<decltype(session)>>::type;
    require_models_own(given, session);
    return seq2seq_walkthrough(session, sentence(given, fields), size(given, "beam", fields),
                               sessions_of<Seq2seqSession, T>(handles(given, "compare"), "compare"),
                               comparison_of(given, fields));
  });
}

Trace scoring_from(const GivenInputs &given) {
  const std::vector<int> models = handles(given, "models");
  if (models.empty())
    detail::fail(detail::Argument("models"), "inputs.models must hold at least one seq2seq model");
  const auto fields = scoring_inputs();
  return stored_model(models[0], "models").as<Seq2seqSession>("models").visit([&](auto &first) {
    using T = typename precision_of<std::decay_t<decltype(first)>>::type;
    const Comparison comparison = comparison_of(given, fields);
    const auto sessions = sessions_of<Seq2seqSession, T>(models, "models");
    for (const auto *session : sessions)
      require_models_own(given, *session, comparison_name(comparison));
    return scoring_walkthrough(sessions, sentence(given, fields), size(given, "step", fields),
                               comparison);
  });
}

// ---------------------------------------------------------------------------------------------
// captioning: a captioner's caption of a scene. The task and language pick the model (the
// caller's); the scene is text, as parse_scene reads it (a form field, an HTML attribute).

std::vector<InputField> captioning_inputs() {
  const auto &task_ids = tasks::caption_task_ids();
  const auto &languages = tasks::caption_languages();
  return {texts_field("task", InputKind::choice, Labels(1, task_ids.front()), task_ids),
          texts_field("language", InputKind::choice, Labels(1, languages.front()), languages),
          texts_field("scene", InputKind::tokens,
                      {"big", "red", "circle", "0", "0;", "small", "blue", "square", "1", "1"}),
          integer_field("beam", 1, 1, std::int64_t(max_captioning_beam)),
          model_field("model", InputKind::model)};
}

Trace captioning_from(const GivenInputs &given) {
  const std::vector<int> model = handles(given, "model");
  if (model.size() != 1)
    detail::fail(detail::Argument("model"), "inputs.model must be one captioner");
  const auto fields = captioning_inputs();
  return stored_model(model[0]).as<CaptionerSession>().visit([&](auto &session) {
    // the task and language given with a model must be the model's
    for (auto [name, own] : {std::pair{"task", &session.config().task},
                             std::pair{"language", &session.config().language}})
      if (const auto value = texts(given, name, fields).front(); value != *own)
        detail::fail(detail::Argument(name), "inputs.", name, " (", value, ") is not the model's (",
                     *own, ")");
    std::string scene;
    for (const auto &word : texts(given, "scene", fields))
      scene += word + " ";
    return captioning_walkthrough(session, parse_scene(scene), size(given, "beam", fields));
  });
}

Trace transformer_from(const GivenInputs &given) {
  const std::vector<int> model = handles(given, "model");
  if (model.size() != 1)
    detail::fail(detail::Argument("model"), "inputs.model must be one transformer model");
  const std::vector<int> compared = handles(given, "compare");
  if (compared.size() > 1)
    detail::fail(detail::Argument("compare"), "inputs.compare must be at most one seq2seq model");
  const auto fields = transformer_inputs();
  return stored_model(model[0]).as<TransformerSession>().visit([&](auto &session) {
    if (const auto *task = find(given.texts, "task");
        task && !task->empty() && task->front() != session.config().task)
      detail::fail(detail::Argument("task"), "inputs.task (", task->front(),
                   ") is not the model's (", session.config().task, ")");
    const auto trace = [&](const CompareAlignment &compare) {
      return transformer_walkthrough(session, sentence(given, fields), size(given, "layer", fields),
                                     size(given, "head", fields), size(given, "beam", fields),
                                     compare);
    };
    if (compared.empty())
      return trace(nullptr);
    return stored_model(compared[0], "compare")
        .as<Seq2seqSession>("compare")
        .visit([&](auto &other) {
          if (other.task().id != session.task().id)
            detail::fail(detail::Argument("compare"), "compare[0] translates ", other.task().id,
                         ", not ", session.task().id);
          return trace(seq2seq_alignment(other));
        });
  });
}

} // namespace

const std::vector<WalkthroughEntry> &walkthroughs() {
  static const std::vector<WalkthroughEntry> entries{
      {"basics", basics_inputs, basics_from},
      {"self-attention", self_attention_inputs, self_attention_from},
      {"scoring", scoring_inputs, scoring_from},
      {"seq2seq", seq2seq_inputs, seq2seq_from},
      {"captioning", captioning_inputs, captioning_from},
      {"transformer", transformer_inputs, transformer_from},
      {"numerics", numerics_inputs, numerics_from}};
  return entries;
}

const WalkthroughEntry &walkthrough_entry(const std::string &name) {
  for (const auto &entry : walkthroughs())
    if (name == entry.name)
      return entry;
  std::string names;
  for (const auto &entry : walkthroughs())
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  detail::fail(detail::Argument("walkthrough"), "walkthrough name (\"", name.substr(0, 40),
               "\") must be one of ", names);
}

const Labels &walkthrough_names() {
  static const Labels names = [] {
    Labels out;
    for (const auto &entry : walkthroughs())
      out.push_back(entry.name);
    return out;
  }();
  return names;
}

std::vector<InputField> walkthrough_inputs(const std::string &walkthrough) {
  return walkthrough_entry(walkthrough).inputs();
}

Trace walkthrough(const std::string &name, const GivenInputs &given) {
  return walkthrough_entry(name).trace(given);
}

} // namespace attention
