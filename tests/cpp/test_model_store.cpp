// The model store: models of every kind made, loaded by what their files hold, found by handle as
// the kind a caller asks for, and disposed.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attention/model_store.hpp"
#include "attention/walkthrough.hpp"
#include "check_close.hpp"
#include "files/safetensors.hpp"

using namespace attention;

namespace {

// The bytes of `handle`'s model as its kind saves them (a kind that saves: these tests make those).
std::vector<std::uint8_t> saved(int handle) {
  return stored_model(handle).visit([](auto &session) {
    using Kind = typename KindOfSession<std::decay_t<decltype(session)>>::type;
    if constexpr (abilities_of<Kind>.saves)
      return session.save();
    else
      return std::vector<std::uint8_t>{};
  });
}

// The same tensors with other metadata: a PyTorch state_dict saved with safetensors.
std::vector<std::uint8_t>
with_metadata(const std::vector<std::uint8_t> &bytes,
              const std::vector<std::pair<std::string, std::string>> &metadata) {
  const safetensors::File file = safetensors::parse(bytes.data(), bytes.size());
  std::vector<safetensors::TensorBytes> tensors;
  for (const auto &tensor : file.tensors)
    tensors.push_back({tensor.name, tensor.dtype, tensor.shape, file.data + tensor.begin});
  return safetensors::write(tensors, metadata);
}

struct Made {
  int handle;
  const char *kind;
};

std::vector<Made> make_one_of_each() {
  Seq2seqSessionConfig seq2seq;
  seq2seq.embedding = 4;
  seq2seq.hidden = 8;
  TransformerSessionConfig transformer;
  transformer.task = "en-zh";
  transformer.model = 8;
  transformer.feedforward = 8;
  transformer.encoder_layers = transformer.decoder_layers = 1;
  CaptionerSessionConfig captioner;
  captioner.language = "zh";
  captioner.channels = captioner.annotation = captioner.attention = 4;
  captioner.embedding = captioner.hidden = 8;
  return {{create_model(seq2seq, "float32"), "seq2seq"},
          {create_model(transformer, "float64"), "transformer"},
          {create_model(captioner, "float32"), "captioner"}};
}

} // namespace

TEST_CASE("the store loads a model of any kind by its file's format, or a state_dict by its "
          "tensors") {
  for (const auto &made : make_one_of_each()) {
    INFO(made.kind);
    CHECK(std::string(stored_model(made.handle).kind()) == made.kind);
    const auto bytes = saved(made.handle);
    for (const auto &file :
         {bytes, with_metadata(bytes, {{"format", "pt"}}), with_metadata(bytes, {})}) {
      const int loaded = load_model(file.data(), file.size());
      CHECK(std::string(stored_model(loaded).kind()) == made.kind);
      if (&file == &bytes)
        CHECK(saved(loaded) == bytes); // the same model, bit for bit
      dispose_model(loaded);
    }
    dispose_model(made.handle);
    check_input_error([&] { stored_model(made.handle); }, "this model was disposed", "model");
  }
}

TEST_CASE("a model of another kind is refused by the argument that holds it") {
  const auto made = make_one_of_each();
  CHECK(&stored_model(made[0].handle).as<Seq2seqSession>() ==
        &std::get<ModelSessions<Seq2seqSession>>(stored_model(made[0].handle).sessions));
  check_input_error([&] { stored_model(made[1].handle).as<Seq2seqSession>(); },
                    "model is a transformer model, not a seq2seq model", "model");
  check_input_error([&] { stored_model(made[2].handle).as<TransformerSession>("models"); },
                    "models is a captioner model, not a transformer model", "models");
  GivenInputs given;
  given.numbers.emplace_back("model", Matrix<double>{{double(made[1].handle)}});
  check_input_error([&] { walkthrough("seq2seq", given); }, "not a seq2seq model", "model");
  check_input_error(
      [&] {
        sessions_of<Seq2seqSession, float>({made[0].handle, made[2].handle}, "compare");
      },
      "compare is a captioner model", "compare");
  for (const auto &m : made)
    dispose_model(m.handle);
}

TEST_CASE("a file of no kind the engine knows is refused as bytes") {
  const auto foreign = safetensors::write({}, {{"format", "attention-stepper/gpt"}});
  check_input_error([&] { load_model(foreign.data(), foreign.size()); },
                    "its format is \"attention-stepper/gpt\"", "bytes");
  const auto empty = safetensors::write({}, {});
  check_input_error([&] { load_model(empty.data(), empty.size()); }, "", "bytes");
  check_input_error([] { create_model(TransformerSessionConfig{}, "float16"); },
                    "precision must be float32 or float64", "precision");
}
