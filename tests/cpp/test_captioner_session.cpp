// The captioner session: training on the shapes task bit for bit from a seed, evaluation and
// captions in their shapes, files saved and loaded (and a PyTorch state_dict), and every error's
// argument.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "attention/captioner_session.hpp"
#include "files/safetensors.hpp"
#include "trace_checks.hpp"

using namespace attention;

namespace {

// Small sizes: a step of a few scenes takes about a millisecond.
CaptionerSessionConfig small(const std::string &language = "en") {
  CaptionerSessionConfig config;
  config.language = language;
  config.channels = 4;
  config.annotation = 8;
  config.attention = 8;
  config.embedding = 8;
  config.hidden = 16;
  config.seed = 5;
  return config;
}

// One task for every session of these tests that uses small(): making it takes some 30 ms.
std::shared_ptr<const tasks::CaptionTask> shared_task(const std::string &language = "en") {
  static const auto en =
      std::make_shared<const tasks::CaptionTask>(tasks::make_caption_task("shapes", "en", 5));
  static const auto zh =
      std::make_shared<const tasks::CaptionTask>(tasks::make_caption_task("shapes", "zh", 5));
  return language == "zh" ? zh : en;
}

template <class T> std::vector<T> flat(const CaptionerSession<T> &session) {
  const auto &p = session.model().parameters();
  return {p.data(), p.data() + p.size()};
}

tasks::Scene scene() {
  return tasks::make_scene({{"circle", "red", "big", 0, 1}, {"square", "blue", "small", 1, 1}});
}

} // namespace

TEST_CASE("captioner session: one seed gives the same run bit for bit, another another") {
  CaptionerSession<float> a(small(), shared_task()), b(small());
  auto other = small();
  other.seed = 6;
  CaptionerSession<float> c(other);
  for (int i = 0; i < 3; ++i) {
    const auto ra = a.train(2, 4), rb = b.train(2, 4), rc = c.train(2, 4);
    CHECK(ra.step == std::size_t(2 * (i + 1)));
    CHECK(std::memcmp(&ra.loss, &rb.loss, sizeof(float)) == 0);
    CHECK(ra.loss != rc.loss);
  }
  CHECK(flat(a) == flat(b));
  CHECK(argument_of([] { CaptionerSession<float>(small("zh"), shared_task("en")); }) == "task");
}

TEST_CASE("captioner session: a short training run cuts the loss of held-out scenes") {
  CaptionerSession<float> session(small(), shared_task());
  std::vector<std::pair<tasks::Scene, std::string>> held_out;
  for (std::size_t i = 0; i < 32; ++i) {
    const auto &example = session.task().test[i];
    held_out.emplace_back(example.scene,
                          tasks::detokenize_caption(session.task(), example.caption));
  }
  auto gradients = session.model().make_gradients();
  const float before = session.gradients(held_out, gradients, 0);
  session.train(150, 16, 0.01, default_max_norm, 0);
  const float after = session.gradients(held_out, gradients, 0);
  INFO("held-out loss before ", before, ", after 150 steps ", after);
  CHECK(after < 0.6f * before);
}

TEST_CASE("captioner session: gradients of scenes and captions are the model's of their images") {
  CaptionerSession<double> session(small(), shared_task());
  const auto &task = session.task();
  const auto example = tasks::describe(task, scene());
  auto gradients = session.model().make_gradients(), direct = session.model().make_gradients();
  const double loss =
      session.gradients({{scene(), "a big red circle above a small blue square"}}, gradients, 0.5);
  const tasks::Image image = tasks::render(scene());
  const double expected = session.model().loss_and_gradients(
      {{std::vector<double>(image.data.begin(), image.data.end()),
        std::vector<TokenId>(example.caption.begin(), example.caption.end())}},
      direct, 0.5);
  CHECK(loss == expected);
  CHECK(std::memcmp(gradients.data(), direct.data(), gradients.size() * sizeof(double)) == 0);
}

TEST_CASE("captioner session: evaluate's measures and the caption's steps, in their shapes") {
  CaptionerSession<float> session(small(), shared_task());
  session.train(20, 8);
  const std::vector<tasks::CaptionExample> few(session.task().test.begin(),
                                               session.task().test.begin() + 40);
  const auto evaluation = session.evaluate(few);
  for (double share :
       {evaluation.exact_match, evaluation.token_accuracy, evaluation.region_accuracy}) {
    CHECK(share >= 0);
    CHECK(share <= 1);
  }
  // the categories with gold cells: size, colour, shape, relation, in that order
  REQUIRE(evaluation.categories.size() == 4);
  CHECK(evaluation.categories[0].category == tasks::CaptionCategory::size);
  CHECK(evaluation.categories[3].category == tasks::CaptionCategory::relation);
  std::size_t object_words = 0;
  for (const auto &example : few)
    for (auto category : example.categories)
      object_words += tasks::names_object(category);
  CHECK(evaluation.categories[0].count + evaluation.categories[1].count +
            evaluation.categories[2].count ==
        object_words);
  // an evaluation of the whole test split is cached by the parameters
  const auto cached = session.test_evaluation();
  CHECK(session.test_evaluation().exact_match == cached.exact_match);
  // tallied a batch of scenes at a time, as one pass
  const auto whole = session.evaluate(session.task().test);
  CHECK(whole.exact_match == cached.exact_match);
  CHECK(whole.region_accuracy == cached.region_accuracy);

  const auto result = session.caption(scene());
  const std::size_t m = result.trace.output.size();
  REQUIRE(m >= 1);
  CHECK(m <= session.task().max_caption_length + 1);
  CHECK(result.trace.weights.shape()[0] == m);
  CHECK(result.trace.weights.shape()[1] == 64); // the 8 x 8 grid
  CHECK(result.trace.scores.shape()[1] == 64);
  CHECK(result.trace.gates.shape()[1] == 8); // β is D wide
  CHECK(result.trace.states.shape()[1] == 16);
  CHECK(result.trace.annotations.shape()[0] == 64);
  CHECK(result.trace.annotations.shape()[1] == 8);
  CHECK(result.image.size() == 3 * 32 * 32);
  REQUIRE(result.top.size() == m);
  for (std::size_t t = 0; t < m; ++t) {
    double row = 0;
    for (std::size_t i = 0; i < 64; ++i)
      row += result.trace.weights(t, i);
    CHECK(row == doctest::Approx(1).epsilon(1e-5));
    REQUIRE(result.top[t].size() == caption_top_k);
    CHECK(result.top[t][0].first == result.trace.output[t]); // greedy: the likeliest
    for (std::size_t k = 1; k < caption_top_k; ++k)
      CHECK(result.top[t][k].second <= result.top[t][k - 1].second);
  }
  REQUIRE(result.beams.size() == 1);
  CHECK(result.beams[0].output == result.trace.output);
  // from the image, the same; a beam of 3 keeps 3 hypotheses, best first
  CHECK(session.caption(tasks::render(scene())).trace.output == result.trace.output);
  const auto beams = session.caption(scene(), 3);
  CHECK(beams.beams.size() == 3);
  CHECK(beams.beams[0].log_probability >= beams.beams[1].log_probability);
  CHECK(beams.trace.output == beams.beams[0].output);
}

TEST_CASE("captioner session: save, then load, gives the same parameters and captions") {
  CaptionerSession<float> session(small("zh"), shared_task("zh"));
  session.train(3, 4);
  const auto bytes = session.save();
  const auto saved = ModelKind<CaptionerSession>::read_saved(bytes.data(), bytes.size());
  CHECK(saved.precision == "float32");
  CHECK(saved.config.language == "zh");
  CHECK(saved.config.channels == 4);
  CHECK(saved.config.annotation == 8);
  CHECK(saved.config.hidden == 16);
  CHECK(saved.config.seed == 5);
  auto loaded = ModelKind<CaptionerSession>::load<float>(bytes.data(), bytes.size());
  CHECK(flat(loaded) == flat(session));
  CHECK(loaded.caption(scene()).trace.output == session.caption(scene()).trace.output);
  CHECK(loaded.save() == bytes);
  CHECK(argument_of([&] {
          ModelKind<CaptionerSession>::load<double>(bytes.data(), bytes.size());
        }) == "bytes");
  // float16: half the size, values rounded
  const auto half = session.save(CaptionerSession<float>::Storage::float16);
  CHECK(half.size() < bytes.size() * 6 / 10);
  const auto widened = ModelKind<CaptionerSession>::load<float>(half.data(), half.size());
  const auto exact = flat(session), rounded = flat(widened);
  for (std::size_t i = 0; i < exact.size(); ++i)
    REQUIRE(std::abs(rounded[i] - exact[i]) <= 1e-3f * std::max(1.0f, std::abs(exact[i])));

  CaptionerSession<double> precise(small(), shared_task());
  const auto precise_bytes = precise.save();
  CHECK(flat(ModelKind<CaptionerSession>::load<double>(precise_bytes.data(),
                                                       precise_bytes.size())) == flat(precise));
}

TEST_CASE("captioner session: a file says its layout; one of the first layout (no batch norms) "
          "says nothing of it, and loads and saves byte for byte as before") {
  const auto metadata_of = [](const std::vector<std::uint8_t> &bytes) {
    return safetensors::parse(bytes.data(), bytes.size()).metadata;
  };
  CaptionerSession<float> batch(small(), shared_task());
  const auto batch_bytes = batch.save();
  const auto batch_metadata = metadata_of(batch_bytes);
  REQUIRE(batch_metadata.size() == 11);
  CHECK(batch_metadata[3] == std::pair<std::string, std::string>{"normalization", "batch"});
  CHECK(ModelKind<CaptionerSession>::read_saved(batch_bytes.data(), batch_bytes.size())
            .config.normalization == CaptionerNormalization::batch);

  auto first = small();
  first.normalization = CaptionerNormalization::none;
  CaptionerSession<float> old(first, shared_task());
  old.train(2, 4);
  const auto bytes = old.save();
  const auto metadata = metadata_of(bytes);
  CHECK(metadata.size() == 10);
  for (const auto &[key, value] : metadata)
    CHECK(key != "normalization");
  CHECK(old.model().parameters().layout().size() + 10 ==
        batch.model().parameters().layout().size());
  const auto saved = ModelKind<CaptionerSession>::read_saved(bytes.data(), bytes.size());
  CHECK(saved.config.normalization == CaptionerNormalization::none);
  auto loaded = ModelKind<CaptionerSession>::load<float>(bytes.data(), bytes.size());
  CHECK(loaded.config().normalization == CaptionerNormalization::none);
  CHECK(flat(loaded) == flat(old));
  CHECK(loaded.save() == bytes);
}

TEST_CASE("captioner session: training moves the batch norms' running statistics once a step; "
          "gradients and evaluation leave them") {
  CaptionerSession<double> session(small(), shared_task());
  const auto &p = session.model().parameters();
  const auto value = [&](const char *name) { return p.values(name)[0]; };
  CHECK(value("encoder.bn1.num_batches_tracked") == 0);
  CHECK(value("encoder.bn2.running_var") == 1);
  ParameterSet<double> gradients = session.model().make_gradients();
  session.gradients({{scene(), "a big red circle above a small blue square"}}, gradients);
  session.evaluate({session.task().test.begin(), session.task().test.begin() + 3});
  session.caption(scene());
  CHECK(value("encoder.bn1.num_batches_tracked") == 0);
  CHECK(value("encoder.bn1.running_mean") == 0);
  CHECK(gradients.values("encoder.bn1.running_mean")[0] == 0);
  CHECK(gradients.values("encoder.bn1.weight")[0] != 0);
  session.train(3, 4);
  CHECK(value("encoder.bn1.num_batches_tracked") == 3);
  CHECK(value("encoder.bn2.num_batches_tracked") == 3);
  CHECK(value("encoder.bn1.running_mean") != 0);
  CHECK(value("encoder.bn2.running_var") != 1);
}

TEST_CASE("captioner session: a PyTorch state_dict loads, its sizes, language and layout "
          "inferred, num_batches_tracked as PyTorch's I64") {
  const auto state_dict_of = [](const CaptionerSession<double> &session,
                                std::vector<std::int64_t> &counts) {
    const auto &p = session.model().parameters();
    std::vector<safetensors::TensorBytes> tensors;
    counts.reserve(2);
    for (const auto &info : p.layout())
      if (info.name.find("num_batches_tracked") != std::string::npos) {
        counts.push_back(std::int64_t(p.data()[info.offset]));
        tensors.push_back(
            {info.name, "I64", info.shape, reinterpret_cast<const std::uint8_t *>(&counts.back())});
      } else {
        tensors.push_back({info.name, "F64", info.shape,
                           reinterpret_cast<const std::uint8_t *>(p.data() + info.offset)});
      }
    return tensors;
  };
  auto first = small("zh");
  first.normalization = CaptionerNormalization::none;
  CaptionerSession<double> old(first, shared_task("zh"));
  std::vector<std::int64_t> none_counts;
  const auto old_bytes = safetensors::write(state_dict_of(old, none_counts), {});
  CHECK(none_counts.empty());
  CHECK(ModelKind<CaptionerSession>::read_saved(old_bytes.data(), old_bytes.size())
            .config.normalization == CaptionerNormalization::none);
  CHECK(flat(ModelKind<CaptionerSession>::load<double>(old_bytes.data(), old_bytes.size())) ==
        flat(old));

  CaptionerSession<double> source(small("zh"), shared_task("zh"));
  source.train(2, 4);
  std::vector<std::int64_t> counts;
  auto tensors = state_dict_of(source, counts);
  CHECK(counts == std::vector<std::int64_t>{2, 2});
  for (const auto &metadata :
       {std::vector<std::pair<std::string, std::string>>{}, {{"format", "pt"}}}) {
    const auto bytes = safetensors::write(tensors, metadata);
    const auto saved = ModelKind<CaptionerSession>::read_saved(bytes.data(), bytes.size());
    CHECK(saved.precision == "float64");
    CHECK(saved.config.normalization == CaptionerNormalization::batch);
    CHECK(saved.config.language == "zh");
    CHECK(saved.config.channels == 4);
    CHECK(saved.config.annotation == 8);
    CHECK(saved.config.attention == 8);
    CHECK(saved.config.embedding == 8);
    CHECK(saved.config.hidden == 16);
    auto loaded = ModelKind<CaptionerSession>::load<double>(bytes.data(), bytes.size());
    CHECK(flat(loaded) == flat(source));
  }
  // a state_dict missing a tensor, or of another model
  tensors.erase(tensors.begin() + 3);
  const auto partial = safetensors::write(tensors, {});
  CHECK(argument_of([&] {
          ModelKind<CaptionerSession>::load<double>(partial.data(), partial.size());
        }) == "bytes");
  const auto none = safetensors::write({}, {});
  CHECK(argument_of([&] { ModelKind<CaptionerSession>::read_saved(none.data(), none.size()); }) ==
        "bytes");
}

TEST_CASE("captioner session: load refuses files whose tensors or metadata do not fit") {
  CaptionerSession<float> session(small(), shared_task());
  const auto bytes = session.save();
  const auto load = [](const std::vector<std::uint8_t> &b) {
    return argument_of([&] { ModelKind<CaptionerSession>::load<float>(b.data(), b.size()); });
  };
  CHECK(load({bytes.begin(), bytes.end() - 4}) == "bytes");
  CHECK(load({bytes.begin(), bytes.begin() + 5}) == "bytes");
  CHECK(load({}) == "bytes");
  const auto &p = session.model().parameters();
  const auto rewrite = [&](const std::vector<std::pair<std::string, std::string>> &metadata) {
    std::vector<safetensors::TensorBytes> tensors;
    for (const auto &info : p.layout())
      tensors.push_back({info.name, "F32", info.shape,
                         reinterpret_cast<const std::uint8_t *>(p.data() + info.offset)});
    return safetensors::write(tensors, metadata);
  };
  const std::vector<std::pair<std::string, std::string>> good = {
      {"format", "attention-stepper/captioner"},
      {"task", "shapes"},
      {"language", "en"},
      {"normalization", "batch"},
      {"channels", "4"},
      {"annotation", "8"},
      {"attention", "8"},
      {"embedding", "8"},
      {"hidden", "16"},
      {"seed", "5"},
      {"precision", "float32"}};
  CHECK(load(rewrite(good)) == "(no error)");
  for (const auto &[index, value] :
       {std::pair<std::size_t, std::string>{0, "attention-stepper/seq2seq"},
        {1, "faces"},
        {2, "fr"},
        {2, "zh"}, // a vocabulary of another size
        {3, "layer"},
        {3, "none"}, // the first layout: no batch norms
        {4, "5"},
        {4, "-4"},
        {8, "0"},
        {9, "99999999999999"},
        {10, "float16"}}) {
    auto bad = good;
    bad[index].second = value;
    const std::string change = bad[index].first + " = " + value; // clang 14: INFO cannot capture
    INFO(change);                                                // a structured binding
    CHECK(load(rewrite(bad)) == "bytes");
  }
  for (const std::size_t index : {3, 5}) { // without normalization: the first layout
    auto lacking = good;
    lacking.erase(lacking.begin() + long(index));
    CHECK(load(rewrite(lacking)) == "bytes");
  }
}

TEST_CASE("captioner session: bad arguments name the argument at fault") {
  CaptionerSession<float> session(small(), shared_task());
  auto gradients = session.model().make_gradients();
  CHECK(argument_of([&] { session.gradients({}, gradients); }) == "examples");
  CHECK(argument_of([&] {
          session.gradients({{scene(), "a big purple circle"}}, gradients);
        }) == "caption");
  CHECK(argument_of([&] {
          session.gradients({{tasks::Scene{}, "a big red circle"}}, gradients);
        }) == "scene");
  CHECK(argument_of([&] {
          session.gradients({{scene(), "a big red circle"}}, gradients, -1);
        }) == "regularization");
  CHECK(argument_of([&] { session.train(0); }) == "steps");
  CHECK(argument_of([&] { session.train(1, 0); }) == "batch");
  CHECK(argument_of([&] { session.train(1, 4, -1); }) == "learningRate");
  CHECK(argument_of([&] { session.train(1, 4, 0.01, 1, std::nan("")); }) == "regularization");
  CHECK(argument_of([&] { session.caption(scene(), 0); }) == "beam");
  CHECK(argument_of([&] { session.caption(scene(), 17); }) == "beam");
  tasks::Image image = tasks::render(scene());
  image.data[7] = INFINITY;
  CHECK(argument_of([&] { session.caption(image); }) == "image");
  image.data.resize(3 * 16 * 16);
  image.height = image.width = 16;
  CHECK(argument_of([&] { session.caption(image); }) == "image");
  std::vector<NamedValues<float>> named;
  CHECK(argument_of([&] { session.set_parameters(named); }) == "parameters");
  for (const auto &[field, argument] : {std::pair{&CaptionerSessionConfig::channels, "channels"},
                                        {&CaptionerSessionConfig::annotation, "annotation"},
                                        {&CaptionerSessionConfig::attention, "attention"},
                                        {&CaptionerSessionConfig::embedding, "embedding"},
                                        {&CaptionerSessionConfig::hidden, "hidden"}}) {
    auto config = small();
    config.*field = 0;
    CHECK(argument_of([&] { CaptionerSession<float>(config, shared_task()); }) == argument);
  }
  auto config = small();
  config.language = "de";
  CHECK(argument_of([&] { CaptionerSession<float>{config}; }) == "language");
  config = small();
  config.seed = -2;
  CHECK(argument_of([&] { CaptionerSession<float>{config}; }) == "seed");
  // the model's own checks
  CaptionerConfig model;
  model.vocab = 10;
  model.height = 30;
  CHECK(argument_of([&] { Captioner<float>{model}; }) == "height");
  model.height = 32;
  model.eos = 0;
  CHECK(argument_of([&] { Captioner<float>{model}; }) == "eos");
  model.eos = 1;
  Captioner<float> captioner(model);
  std::vector<float> pixels(3 * 32 * 32, 0.5f);
  CHECK(argument_of([&] { captioner.loss({}); }) == "batch");
  CHECK(argument_of([&] { captioner.loss({{pixels, {2, 3}}}); }) == "caption"); // no <eos>
  CHECK(argument_of([&] { captioner.loss({{pixels, {2, 10, 1}}}); }) == "caption");
  CHECK(argument_of([&] { captioner.loss({{{1.0f, 2.0f}, {2, 1}}}); }) == "image");
  CHECK(argument_of([&] { captioner.caption({&pixels}, 0); }) == "maxLength");
}
