// The one table of walkthroughs: each one's name, its inputs with their limits and defaults, and
// how its trace is made from the inputs a caller gives. The walkthroughs of trained models come
// with their kinds (ModelKind<Session>::walkthroughs(), defined beside each walkthrough), in the
// order model_kinds.hpp lists the kinds. The binding serves this table through one generic call,
// and the page reads the names, inputs and limits from it.
#include <string>

#include "attention/model_kinds.hpp"
#include "attention/walkthrough.hpp"
#include "given_inputs.hpp"

namespace attention {

namespace {

using namespace inputs;

// The core module (CMakeLists.txt) is built without the models: its table holds the walkthroughs
// of no trained model, and the models' module adds every kind's.
#ifdef ATTENTION_NO_MODELS
using WalkthroughKinds = KindList<>;
#else
using WalkthroughKinds = ModelKinds;
#endif

// ---------------------------------------------------------------------------------------------
// Fields

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

std::vector<InputField> numerics_inputs() {
  const NumericsInputs in;
  return {numbers_field("scores", InputKind::vector, row_matrix(in.scores)),
          numbers_field("mask", InputKind::vector, row_matrix(in.mask)),
          integer_field("seed", in.seed, 0, max_seed)};
}

// ---------------------------------------------------------------------------------------------
// Given inputs, read into each walkthrough's own

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

} // namespace

const std::vector<WalkthroughEntry> &walkthroughs() {
  static const std::vector<WalkthroughEntry> entries = [] {
    std::vector<WalkthroughEntry> out{
        {"basics", basics_inputs, basics_from},
        {"self-attention", self_attention_inputs, self_attention_from}};
    for_each_kind(WalkthroughKinds{}, [&](auto tag) {
      for (const auto &entry : decltype(tag)::Kind::walkthroughs())
        out.push_back(entry);
    });
    out.push_back({"numerics", numerics_inputs, numerics_from});
    return out;
  }();
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
