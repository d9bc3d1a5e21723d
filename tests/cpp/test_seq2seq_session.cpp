#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "attention/seq2seq_session.hpp"
#include "core/precision.hpp"
#include "files/safetensors.hpp"
#include "trace_checks.hpp"

using namespace attention;

namespace {

Seq2seqSessionConfig small(const std::string &task = "en-fr",
                           ScoreFunction scoring = ScoreFunction::additive) {
  Seq2seqSessionConfig config;
  config.task = task;
  config.scoring = scoring;
  config.embedding = 8;
  config.hidden = 16;
  config.seed = 7;
  return config;
}

template <class T> std::vector<T> flat(const Seq2seqSession<T> &session) {
  const auto &p = session.model().parameters();
  return {p.data(), p.data() + p.size()};
}

template <class T> void set_all(Seq2seqSession<T> &session, const std::string &name, T value) {
  const auto view = session.model().parameter(name);
  std::vector<T> values(view.info.size, value);
  session.model().set_parameter(name, view.info.shape, values.data());
}

} // namespace

TEST_CASE("seq2seq session: one seed gives the same loss sequence bit for bit, another another") {
  Seq2seqSession<float> a(small()), b(small());
  auto other_config = small();
  other_config.seed = 8;
  Seq2seqSession<float> c(other_config);
  for (int i = 0; i < 5; ++i) {
    const auto ra = a.train(3, 8), rb = b.train(3, 8), rc = c.train(3, 8);
    CHECK(ra.step == std::size_t(3 * (i + 1)));
    CHECK(std::memcmp(&ra.loss, &rb.loss, sizeof(float)) == 0);
    CHECK(ra.loss != rc.loss);
  }
  CHECK(flat(a) == flat(b));
}

TEST_CASE("seq2seq session: the minibatches cycle through a shuffled training split, reshuffled "
          "each epoch") {
  // batch 1000 of 2000: two steps make an epoch, the third starts a new shuffle
  Seq2seqSession<float> session(small());
  const auto first = session.train(1, 1000);
  const auto second = session.train(1, 1000);
  const auto third = session.train(1, 1000);
  CHECK(std::isfinite(first.loss));
  CHECK(std::isfinite(second.loss));
  CHECK(third.step == 3);
}

TEST_CASE("seq2seq session: a few hundred steps on en-fr cut the loss clearly") {
  Seq2seqSessionConfig config = small();
  config.embedding = 16;
  config.hidden = 32;
  Seq2seqSession<float> session(config);
  const auto first = session.train(1);
  session.train(299);
  ParameterSet<float> gradients = session.model().make_gradients();
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i < 64; ++i)
    pairs.emplace_back(
        tasks::detokenize(session.task(), session.task().test[i].source, tasks::Side::source),
        tasks::detokenize(session.task(), session.task().test[i].target, tasks::Side::target));
  const float held_out = session.gradients(pairs, gradients);
  INFO("first minibatch ", first.loss, ", held-out after 300 steps ", held_out);
  CHECK(held_out < first.loss / 3);
  const auto measures = session.evaluate(
      std::vector<tasks::Example>(session.task().test.begin(), session.task().test.begin() + 50));
  INFO("exact ", measures.exact_match, " tokens ", measures.token_accuracy, " alignment ",
       measures.alignment_accuracy);
  CHECK(measures.token_accuracy > 0.5);
  // the test split's measures tallied a batch at a time are one pass's, bit for bit
  std::size_t parts = 1;
  while (!session.prepare_test_evaluation())
    ++parts;
  CHECK(parts == (session.task().test.size() + default_batch - 1) / default_batch);
  const auto whole = session.evaluate(session.task().test);
  const auto prepared = session.test_evaluation();
  CHECK(prepared.loss == whole.loss);
  CHECK(prepared.exact_match == whole.exact_match);
  CHECK(prepared.bleu == whole.bleu);
  CHECK(prepared.aer == whole.aer);
  CHECK(prepared.categories.size() == whole.categories.size());
}

TEST_CASE("seq2seq session: evaluate's measures on hand-made cases") {
  Seq2seqSession<double> session(small());
  const auto &task = session.task();
  // A model that always says <eos> first: no sentence exact, one token of each right (<eos>
  // only where the target is just <eos>, never here), and every word's attention uniform, so its
  // largest weight falls on position 0 (the first of equal maxima).
  set_all<double>(session, "decoder.out.weight", 0.0);
  {
    const auto view = session.model().parameter("decoder.out.bias");
    std::vector<double> bias(view.info.size, 0.0);
    bias[tasks::Vocabulary::eos] = 100;
    session.model().set_parameter("decoder.out.bias", view.info.shape, bias.data());
  }
  set_all<double>(session, "decoder.attention.va.weight", 0.0); // every score 0: uniform weights
  tasks::Example example;
  example.source = tasks::tokenize(task, "the car is red", tasks::Side::source);
  example.target = tasks::tokenize(task, "la voiture est rouge", tasks::Side::target);
  example.alignment = {{0}, {1}, {2}, {3}, {4}};
  example.possible = {{1}, {}, {}, {1}, {}};
  using tasks::WordCategory;
  example.categories = {WordCategory::article, WordCategory::noun, WordCategory::verb,
                        WordCategory::adjective, WordCategory::end};
  auto measures = session.evaluate({example});
  CHECK(measures.exact_match == 0);
  CHECK(measures.token_accuracy == 0); // target positions 0-4 hold words, output[0] is <eos>
  CHECK(measures.alignment_accuracy == doctest::Approx(0.25)); // "la" <- 0 only
  // every word links 0: A∩S = {la}, A∩P the same; |A| = 4, |S| = 4
  CHECK(measures.aer == doctest::Approx(1 - 2.0 / 8));
  CHECK(measures.aligned_share == doctest::Approx(0.25));
  REQUIRE(measures.categories.size() == 4);
  CHECK(measures.categories[0].category == WordCategory::article);
  CHECK(measures.categories[0].aligned == 1);
  CHECK(measures.categories[2].category == WordCategory::adjective);
  CHECK(measures.categories[2].aligned == 0);
  // Gold alignments that put every word on position 0, and a word that aligns to nothing
  example.alignment = {{0}, {0, 2}, {}, {0}, {4}};
  measures = session.evaluate({example});
  CHECK(measures.alignment_accuracy == 1); // 3 aligned words, all on 0
  // A target that is just <eos> (no sentence of the task, but the model's output): an exact match
  tasks::Example one;
  one.source = example.source;
  one.target = {tasks::Vocabulary::eos};
  one.alignment = {{4}};
  one.possible = {{}};
  one.categories = {tasks::WordCategory::end};
  measures = session.evaluate({one, example});
  CHECK(measures.exact_match == 0.5);
  CHECK(measures.token_accuracy == doctest::Approx(1.0 / 6)); // 1 of 1 + 0 of 5
  CHECK(measures.alignment_accuracy == 1);                    // <eos> rows do not count
}

TEST_CASE("seq2seq session: translate gives each step's top tokens, probabilities summing below "
          "1, most likely first and equal to the output") {
  Seq2seqSession<float> session(small("dates", ScoreFunction::general));
  session.train(20, 16);
  const auto source = session.tokenize("Nov 23, 2026", tasks::Side::source);
  const auto translation = session.translate(source);
  const auto &trace = translation.trace;
  REQUIRE(translation.top.size() == trace.output.size());
  CHECK(trace.weights.shape()[0] == trace.output.size());
  CHECK(trace.weights.shape()[1] == source.size());
  for (std::size_t t = 0; t < translation.top.size(); ++t) {
    const auto &top = translation.top[t];
    REQUIRE(top.size() == translation_top_k);
    CHECK(top[0].first == trace.output[t]);
    float sum = 0;
    for (std::size_t i = 0; i < top.size(); ++i) {
      sum += top[i].second;
      if (i)
        CHECK(top[i].second <= top[i - 1].second);
    }
    CHECK(sum <= 1.0001f);
  }
}

TEST_CASE("seq2seq session: saved as float16, a model loads with its parameters rounded as numpy "
          "rounds them") {
  Seq2seqSession<float> session(small("en-fr", ScoreFunction::general));
  session.train(5, 8);
  const auto bytes = session.save(Seq2seqSession<float>::Storage::float16);
  CHECK(bytes.size() < session.save().size() * 6 / 10);
  const auto loaded = ModelKind<Seq2seqSession>::load<float>(bytes.data(), bytes.size());
  const auto original = flat(session), rounded = flat(loaded);
  REQUIRE(rounded.size() == original.size());
  for (std::size_t i = 0; i < original.size(); ++i)
    CHECK(rounded[i] == static_cast<float>(precision::float16_to_double(
                            precision::float16_from_double(original[i]))));
  CHECK(loaded.save(Seq2seqSession<float>::Storage::float16) == bytes);

  session.model().parameter("decoder.out.bias").values[0] = 1e6f;
  CHECK(argument_of([&] { session.save(Seq2seqSession<float>::Storage::float16); }) == "dtype");
}

TEST_CASE("seq2seq session: save, then load, gives the same parameters and translation") {
  Seq2seqSession<float> session(small("en-zh", ScoreFunction::concat));
  session.train(5, 8);
  const auto bytes = session.save();
  const auto saved = ModelKind<Seq2seqSession>::read_saved(bytes.data(), bytes.size());
  CHECK(saved.precision == "float32");
  CHECK(saved.config.task == "en-zh");
  CHECK(saved.config.scoring == ScoreFunction::concat);
  CHECK(saved.config.hidden == 16);
  CHECK(saved.config.seed == 7);
  auto loaded = ModelKind<Seq2seqSession>::load<float>(bytes.data(), bytes.size());
  CHECK(flat(loaded) == flat(session));
  const auto source = session.tokenize("I eat rice at home today", tasks::Side::source);
  CHECK(loaded.translate(source).trace.output == session.translate(source).trace.output);
  CHECK(loaded.save() == bytes);
  CHECK(argument_of([&] { ModelKind<Seq2seqSession>::load<double>(bytes.data(), bytes.size()); }) ==
        "bytes");

  Seq2seqSession<double> precise(small());
  const auto precise_bytes = precise.save();
  CHECK(flat(ModelKind<Seq2seqSession>::load<double>(precise_bytes.data(), precise_bytes.size())) ==
        flat(precise));
}

TEST_CASE("seq2seq session: load refuses files whose tensors or metadata do not fit") {
  Seq2seqSession<float> session(small());
  const auto bytes = session.save();
  const auto load = [](const std::vector<std::uint8_t> &b) {
    return argument_of([&] { ModelKind<Seq2seqSession>::load<float>(b.data(), b.size()); });
  };
  // truncated
  CHECK(load({bytes.begin(), bytes.end() - 4}) == "bytes");
  CHECK(load({bytes.begin(), bytes.begin() + 5}) == "bytes");
  CHECK(load({}) == "bytes");
  // metadata that describes another model: hidden 32, the tensors' shapes are hidden 16's
  const auto &p = session.model().parameters();
  const auto rewrite = [&](std::vector<std::pair<std::string, std::string>> metadata,
                           std::size_t skip = SIZE_MAX) {
    std::vector<safetensors::TensorBytes> tensors;
    for (std::size_t k = 0; k < p.layout().size(); ++k)
      if (k != skip) {
        const auto &info = p.layout()[k];
        tensors.push_back({info.name, "F32", info.shape,
                           reinterpret_cast<const std::uint8_t *>(p.data() + info.offset)});
      }
    return safetensors::write(tensors, metadata);
  };
  std::vector<std::pair<std::string, std::string>> good = {{"format", "attention-stepper/seq2seq"},
                                                           {"task", "en-fr"},
                                                           {"scoring", "additive"},
                                                           {"embedding", "8"},
                                                           {"hidden", "16"},
                                                           {"seed", "7"},
                                                           {"precision", "float32"}};
  CHECK(flat(ModelKind<Seq2seqSession>::load<float>(rewrite(good).data(), rewrite(good).size())) ==
        flat(session));
  // without "encoder" and "layers", as files saved before them (the shipped ones were): one
  // forward layer
  const auto old_file = rewrite(good);
  const auto old_config =
      ModelKind<Seq2seqSession>::read_saved(old_file.data(), old_file.size()).config;
  CHECK(old_config.encoder == Encoder::forward);
  CHECK(old_config.layers == 1);
  auto bad = good;
  bad[4].second = "32";
  CHECK(load(rewrite(bad)) == "bytes");
  bad = good;
  bad[2].second = "dot"; // dot has no attention parameters: the names do not match
  CHECK(load(rewrite(bad)) == "bytes");
  bad = good;
  bad[1].second = "de-fr";
  CHECK(load(rewrite(bad)) == "bytes");
  bad = good;
  bad[4].second = "-16";
  CHECK(load(rewrite(bad)) == "bytes");
  for (const auto &[key, value] : {std::pair<std::string, std::string>{"encoder", "sideways"},
                                   {"encoder", "bidirectional"}, // tensors of a forward one
                                   {"layers", "2"},
                                   {"layers", "3"},
                                   {"layers", "two"}}) {
    bad = good;
    bad.emplace_back(key, value);
    CHECK(load(rewrite(bad)) == "bytes");
  }
  // guided alignment's weight, as save writes it; anything but a number >= 0 is refused
  for (const auto &[value, guide] :
       {std::pair<std::string, double>{"1", 1}, {"0.5", 0.5}, {"1e-07", 1e-7}, {"2.5e+01", 25}}) {
    auto guided = good;
    guided.emplace_back("guide", value);
    const auto file = rewrite(guided);
    CHECK(ModelKind<Seq2seqSession>::read_saved(file.data(), file.size()).config.guide == guide);
  }
  for (const char *value : {"", "-1", "one", "1.5.2", "1e", "1e400", ".", "0x10"}) {
    bad = good;
    bad.emplace_back("guide", value);
    CHECK(load(rewrite(bad)) == "bytes");
  }
  // without "format", the file is taken for a PyTorch state_dict: its tensors say what it is
  bad = good;
  bad.erase(bad.begin());
  CHECK(load(rewrite(bad)) == "(no error)");
  CHECK(load(rewrite(good, 3)) == "bytes"); // a tensor missing
}

TEST_CASE("seq2seq session: a loss that stops being finite stops training and keeps the last "
          "finite parameters") {
  // Huge output weights overflow float32's logits: the very first loss is not finite
  Seq2seqSession<float> session(small());
  set_all<float>(session, "decoder.out.weight", 3e38f);
  const auto before = flat(session);
  CHECK(argument_of([&] { session.train(3, 4); }) == "learningRate");
  CHECK(flat(session) == before);
  CHECK(session.steps() == 0);

  // A learning rate far too large: some steps may pass, then training stops with finite
  // parameters, and the model still translates
  Seq2seqSession<float> wild(small());
  CHECK(argument_of([&] { wild.train(50, 4, 1e30); }) == "learningRate");
  for (float value : flat(wild))
    REQUIRE(std::isfinite(value));
  CHECK(wild.steps() < 50);
  // the parameters kept are those of the last step that went well: a fresh model trained that far
  // has them bit for bit
  REQUIRE(wild.steps() >= 1);
  Seq2seqSession<float> again(small());
  again.train(wild.steps(), 4, 1e30);
  CHECK(flat(again) == flat(wild));
}

TEST_CASE("seq2seq session: bad arguments name the argument at fault") {
  auto config = small();
  config.task = "en-de";
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "task");
  config = small();
  config.hidden = 0;
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "hidden");
  config = small();
  config.embedding = 100000;
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "embedding");
  Seq2seqSession<float> session(small());
  CHECK(argument_of([&] { session.train(0); }) == "steps");
  CHECK(argument_of([&] { session.train(1, 0); }) == "batch");
  CHECK(argument_of([&] { session.train(1, 2001); }) == "batch");
  CHECK(argument_of([&] { session.train(1, 4, 0); }) == "learningRate");
  CHECK(argument_of([&] { session.train(1, 4, std::nan("")); }) == "learningRate");
  CHECK(argument_of([&] { session.tokenize("the car is blu", tasks::Side::source); }) ==
        "sentence");
  CHECK(argument_of([&] { session.tokenize("", tasks::Side::source); }) == "sentence");
  auto gradients = session.model().make_gradients();
  CHECK(argument_of([&] { session.gradients({}, gradients); }) == "pairs");
  CHECK(argument_of([&] {
          session.gradients({{"the car is red", "la vouture"}}, gradients);
        }) == "sentence");
  CHECK(session.steps() == 0);

  // set_parameters: every name, each once, with its shape, or nothing changes
  std::vector<Seq2seqSession<float>::NamedValues> named;
  for (const auto &info : session.model().parameters().layout())
    named.push_back({info.name, info.shape, std::vector<float>(info.size, 0.5f)});
  auto wrong = named;
  wrong[0].name = "encoder.gru.weight";
  const auto before = flat(session);
  CHECK(argument_of([&] { session.set_parameters(wrong); }) == "parameters");
  wrong = named;
  wrong[1].shape = {wrong[1].shape[0] + 1};
  CHECK(argument_of([&] { session.set_parameters(wrong); }) == "parameters");
  wrong = named;
  wrong.pop_back();
  CHECK(argument_of([&] { session.set_parameters(wrong); }) == "parameters");
  wrong = named;
  wrong.back().values[0] = std::nanf("");
  CHECK(argument_of([&] { session.set_parameters(wrong); }) == "parameters");
  CHECK(flat(session) == before);
  session.set_parameters(named);
  CHECK(flat(session) == std::vector<float>(before.size(), 0.5f));
}

TEST_CASE("seq2seq session: models of one task and seed can share it, and train as if they had "
          "their own") {
  Seq2seqSession<float> own(small());
  Seq2seqSession<float> first(small(), own.shared_task());
  Seq2seqSession<double> second(small(), own.shared_task());
  CHECK(&first.task() == &own.task());
  CHECK(&second.task() == &own.task());
  CHECK(first.train(3, 8).loss == own.train(3, 8).loss);
  CHECK(argument_of([&] { Seq2seqSession<float> s(small("dates"), own.shared_task()); }) == "task");
}

TEST_CASE("seq2seq session: a PyTorch state_dict of the reference model loads, its configuration "
          "inferred from its tensors") {
  for (auto scoring : score_functions) {
    INFO("scoring ", score_function_name(scoring));
    Seq2seqSession<float> session(small("en-zh", scoring));
    session.train(3, 8);
    // the same tensors, as safetensors.torch.save_file(model.state_dict()) writes them
    const auto ours = session.save();
    const safetensors::File file = safetensors::parse(ours.data(), ours.size());
    std::vector<safetensors::TensorBytes> tensors;
    for (const auto &tensor : file.tensors)
      tensors.push_back({tensor.name, tensor.dtype, tensor.shape, file.data + tensor.begin});
    for (const auto &metadata : {std::vector<std::pair<std::string, std::string>>{{"format", "pt"}},
                                 std::vector<std::pair<std::string, std::string>>{}}) {
      const auto torch = safetensors::write(tensors, metadata);
      const auto saved = ModelKind<Seq2seqSession>::read_saved(torch.data(), torch.size());
      CHECK(saved.config.task == "en-zh");
      CHECK(saved.config.scoring == scoring);
      CHECK(saved.config.embedding == 8);
      CHECK(saved.config.hidden == 16);
      CHECK(saved.precision == "float32");
      const auto loaded = ModelKind<Seq2seqSession>::load<float>(torch.data(), torch.size());
      CHECK(flat(loaded) == flat(session));
    }
    // a state_dict of another model
    std::vector<safetensors::TensorBytes> partial(tensors.begin() + 1, tensors.end());
    const auto other = safetensors::write(partial, {{"format", "pt"}});
    CHECK(argument_of([&] { ModelKind<Seq2seqSession>::read_saved(other.data(), other.size()); }) ==
          "bytes");
  }
}

TEST_CASE("seq2seq session: every encoder and number of layers saves, loads and is inferred from "
          "a PyTorch state_dict; bad ones name the argument") {
  for (const auto encoder : encoders)
    for (const std::size_t layers : {1, 2}) {
      INFO(encoder_name(encoder), ", ", layers, " layers");
      auto config = small("en-zh", ScoreFunction::general);
      config.encoder = encoder;
      config.layers = layers;
      Seq2seqSession<float> session(config);
      session.train(2, 8);
      const auto bytes = session.save();
      const auto saved = ModelKind<Seq2seqSession>::read_saved(bytes.data(), bytes.size());
      CHECK(saved.config.encoder == encoder);
      CHECK(saved.config.layers == layers);
      CHECK(flat(ModelKind<Seq2seqSession>::load<float>(bytes.data(), bytes.size())) ==
            flat(session));
      // the same tensors as a state_dict, without the metadata
      const safetensors::File file = safetensors::parse(bytes.data(), bytes.size());
      std::vector<safetensors::TensorBytes> tensors;
      for (const auto &tensor : file.tensors)
        tensors.push_back({tensor.name, tensor.dtype, tensor.shape, file.data + tensor.begin});
      const auto torch = safetensors::write(tensors, {{"format", "pt"}});
      const auto inferred = ModelKind<Seq2seqSession>::read_saved(torch.data(), torch.size());
      CHECK(inferred.config.encoder == encoder);
      CHECK(inferred.config.layers == layers);
      CHECK(flat(ModelKind<Seq2seqSession>::load<float>(torch.data(), torch.size())) ==
            flat(session));
      // a second layer in the encoder but not in the decoder fits no layout
      if (layers == 2) {
        std::vector<safetensors::TensorBytes> mixed;
        for (const auto &tensor : tensors)
          if (tensor.name.rfind("decoder.gru.", 0) != 0 ||
              tensor.name.find("_l1") == std::string::npos)
            mixed.push_back(tensor);
        const auto odd = safetensors::write(mixed, {{"format", "pt"}});
        CHECK(argument_of([&] {
                ModelKind<Seq2seqSession>::load<float>(odd.data(), odd.size());
              }) == "bytes");
      }
    }
  auto config = small();
  config.encoder = Encoder::bidirectional;
  config.hidden = 15;
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "hidden");
  config.hidden = 16;
  config.layers = 3;
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "layers");
  config.layers = 0;
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "layers");
  CHECK(argument_of([] { parse_encoder("sideways", "encoder"); }) == "encoder");
  CHECK(default_encoder(ScoreFunction::additive) == Encoder::bidirectional);
  CHECK(default_encoder(ScoreFunction::general) == Encoder::forward);
}

TEST_CASE("seq2seq session: guided alignment adds its term to the loss and pulls the attention to "
          "the sure links; a bad weight names guide") {
  Seq2seqSession<double> session(small());
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"the red car is small", "la voiture rouge est petite"},
      {"the dog is wet", "le chien est mouillé"}};
  auto free = session.model().make_gradients(), guided = session.model().make_gradients();
  const double loss = session.gradients(pairs, free);
  const double guided_loss = session.gradients(pairs, guided, 2.0);
  CHECK(guided_loss > loss); // the attention of an untrained model is nearly uniform
  CHECK(session.gradients(pairs, guided, 0.0) == loss);
  // a pair the grammar does not make is not guided
  const std::vector<std::pair<std::string, std::string>> free_pair = {
      {"the red car is small", "la voiture rouge est grande"}};
  CHECK(session.gradients(free_pair, free, 2.0) == session.gradients(free_pair, free));
  for (const double bad : {-1.0, double(NAN), double(INFINITY)}) {
    CHECK(argument_of([&] { session.gradients(pairs, guided, bad); }) == "guide");
    CHECK(argument_of([&] { session.train(1, 4, 0.005, 1.0, bad); }) == "guide");
  }
  CHECK(session.steps() == 0);
  // training with a strong guide puts the attention where the links are
  Seq2seqSession<float> free_model(small()), guided_model(small());
  free_model.train(60, 16, 0.01);
  guided_model.train(60, 16, 0.01, 1.0, 1.0);
  const auto share = [](Seq2seqSession<float> &s) {
    return s.evaluate({s.task().test.begin(), s.task().test.begin() + 50}).aligned_share;
  };
  CHECK(share(guided_model) > share(free_model));
  CHECK(share(guided_model) > 0.75);
}

TEST_CASE("seq2seq session: guided training is remembered, and its file says so") {
  Seq2seqSession<float> session(small());
  CHECK(session.config().guide == 0);
  const auto free = session.save();
  // a model that learnt freely: its file as it always was, without "guide"
  CHECK(std::string(free.begin(), free.end()).find("\"guide\"") == std::string::npos);
  session.train(1, 4, default_learning_rate, default_max_norm, 0.5);
  session.train(1, 4, default_learning_rate, default_max_norm, 0.25);
  session.train(1, 4);
  CHECK(session.config().guide == 0.5); // the largest λ it was trained with
  const auto bytes = session.save();
  CHECK(ModelKind<Seq2seqSession>::read_saved(bytes.data(), bytes.size()).config.guide == 0.5);
  CHECK(ModelKind<Seq2seqSession>::load<float>(bytes.data(), bytes.size()).config().guide == 0.5);
  CHECK(argument_of([&] { session.train(1, 4, default_learning_rate, default_max_norm, -1); }) ==
        "guide");
  CHECK(session.config().guide == 0.5);
}

TEST_CASE("seq2seq session: a validation split is held out of the training split and never "
          "trained on") {
  auto config = small();
  config.validation = 100;
  Seq2seqSession<double> session(config);
  const auto &task = session.task();
  const auto train = session.split("train"), validation = session.split("validation");
  REQUIRE(train.size() == tasks::train_size - 100);
  REQUIRE(validation.size() == 100);
  CHECK(train.front().source == task.train.front().source);
  CHECK(validation.front().source == task.train[train.size()].source);
  CHECK(validation.back().source == task.train.back().source);
  CHECK(session.split("test").size() == task.test.size());

  // one step on a minibatch of the whole training split: its loss is the mean over the pairs that
  // remain, not over the task's 2000
  const auto pairs_of = [&](const std::vector<tasks::Example> &examples) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto &example : examples)
      pairs.emplace_back(tasks::detokenize(task, example.source, tasks::Side::source),
                         tasks::detokenize(task, example.target, tasks::Side::target));
    return pairs;
  };
  auto gradients = session.model().make_gradients();
  const double held_in = session.gradients(pairs_of(train), gradients);
  const double all = session.gradients(pairs_of(task.train), gradients);
  const double trained = session.train(1, train.size()).loss;
  CHECK(trained == doctest::Approx(held_in).epsilon(1e-12));
  CHECK(trained != doctest::Approx(all).epsilon(1e-9));

  const auto bytes = session.save();
  CHECK(ModelKind<Seq2seqSession>::read_saved(bytes.data(), bytes.size()).config.validation == 100);
  CHECK(ModelKind<Seq2seqSession>::load<double>(bytes.data(), bytes.size())
            .split("validation")
            .size() == 100);

  CHECK(argument_of([&] { Seq2seqSession<float>(small()).split("validation"); }) == "split");
  CHECK(argument_of([&] { session.split("dev"); }) == "split");
  config.validation = max_validation + 1;
  CHECK(argument_of([&] { Seq2seqSession<float> s(config); }) == "validation");
}
