#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "attention/classifier_session.hpp"
#include "check_close.hpp"
#include "classifier_reference.hpp"
#include "files/model_file.hpp"
#include "layer_checks.hpp"

using namespace attention;
namespace f = classifier_fixtures;

namespace {

ClassifierSessionConfig small_config(ClassifierEncoder encoder = ClassifierEncoder::bigru,
                                     ClassifierAttention attention = ClassifierAttention::learned) {
  ClassifierSessionConfig config;
  config.encoder = encoder;
  config.attention = attention;
  config.embedding = 16;
  config.hidden = 32;
  return config;
}

} // namespace

TEST_CASE("classifier session: Kendall's tau-b is scipy's, ties and all") {
  // scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]): -0.47140452079103173
  CHECK(kendall_tau({12, 2, 1, 12, 2}, {1, 4, 7, 1, 0}) ==
        doctest::Approx(-0.47140452079103173).epsilon(1e-15));
  CHECK(kendall_tau({1, 2, 3}, {3, 4, 5}) == 1);
  CHECK(kendall_tau({1, 2, 3}, {3, 2, 1}) == -1);
  CHECK(std::isnan(kendall_tau({0.5, 0.5, 0.5}, {1, 2, 3})));
  check_input_error([] { kendall_tau({1, 2}, {1}); }, "values", "values");
}

TEST_CASE("classifier session: explanations equal the PyTorch replica's from the same weights") {
  for (const auto &expected : f::explanations) {
    INFO(expected.encoder);
    ClassifierSessionConfig config;
    config.encoder = parse_classifier_encoder(expected.encoder, "encoder");
    config.embedding = f::review_embedding;
    config.hidden = f::review_hidden;
    config.seed = f::seed;
    ClassifierSession<double> session(config);
    CHECK(session.tokenize(f::review) ==
          std::vector<TokenId>(f::review_ids.begin(), f::review_ids.end()));
    const auto result = session.classify(f::review);
    CHECK(result.label == expected.label);
    layer_checks::check_matches(result.trace.probabilities.data(), expected.probabilities,
                                "probabilities");
    layer_checks::check_matches(result.trace.weights.data(), expected.weights, "weights");
    const Explanation explanation = session.explain(f::review);
    CHECK(explanation.label == expected.label);
    layer_checks::check_matches(explanation.leave_one_out.data(), expected.leave_one_out,
                                "leaveOneOut");
    layer_checks::check_matches(explanation.gradients.data(), expected.gradients, "gradients");
    CHECK(std::abs(explanation.permutation - expected.permutation) <= 1e-12);
    CHECK(std::abs(explanation.tau_leave_one_out - expected.tau_leave_one_out) <= 1e-12);
    CHECK(std::abs(explanation.tau_gradients - expected.tau_gradients) <= 1e-12);
  }
}

TEST_CASE("classifier session: uniform attention's weights are 1/n, its tau NaN, its rationale "
          "share the rationale's share of the words") {
  ClassifierSession<float> session(
      small_config(ClassifierEncoder::none, ClassifierAttention::uniform));
  const auto result = session.classify("the food was not good");
  for (std::size_t j = 0; j < 5; ++j)
    CHECK(result.trace.weights(j) == doctest::Approx(0.2));
  const Explanation explanation = session.explain("the food was not good");
  CHECK(std::isnan(explanation.tau_leave_one_out));
  CHECK(std::isnan(explanation.tau_gradients));
  CHECK(explanation.permutation == 0); // shuffling equal weights changes nothing
  const auto &test = session.task().test;
  double share = 0;
  for (const auto &example : test) {
    std::size_t marked = 0;
    for (auto r : example.rationale)
      marked += r;
    share += double(marked) / double(example.tokens.size());
  }
  CHECK(*session.evaluate(test).rationale_share == doctest::Approx(share / double(test.size())));
}

TEST_CASE("classifier session: the bigru learns reviews within a hundred steps; a bag of words "
          "fails on negation and contrast") {
  ClassifierSession<float> bigru(small_config());
  bigru.train(100);
  const ClassifierEvaluation learned = bigru.test_evaluation();
  CHECK(learned.accuracy >= 0.95);
  CHECK(learned.negation_contrast_accuracy.value() >= 0.95);
  CHECK(*learned.rationale_share > 0.2);
  std::size_t total = 0, right = 0;
  for (std::size_t gold = 0; gold < 2; ++gold)
    for (std::size_t predicted = 0; predicted < 2; ++predicted) {
      total += learned.confusion[gold][predicted];
      right += gold == predicted ? learned.confusion[gold][predicted] : 0;
    }
  CHECK(total == tasks::test_size);
  CHECK(double(right) / double(total) == doctest::Approx(learned.accuracy));
  REQUIRE(learned.categories.size() == 3);
  CHECK(learned.majority > 0.4);
  CHECK(learned.majority < 0.6);

  ClassifierSession<float> bag(small_config(ClassifierEncoder::none, ClassifierAttention::uniform));
  bag.train(300);
  CHECK(bag.test_evaluation().negation_contrast_accuracy.value() <= 0.8);

  // the same seed, the same run
  ClassifierSession<float> again(small_config());
  again.train(100);
  CHECK(again.test_evaluation().accuracy == learned.accuracy);
  CHECK(std::equal(again.model().parameters().data(),
                   again.model().parameters().data() + again.model().parameters().size(),
                   bigru.model().parameters().data()));
}

TEST_CASE("classifier session: the rationale's term pulls attention onto the deciding words") {
  ClassifierSession<float> free(small_config()), guided(small_config());
  free.train(100);
  guided.train(100, default_classifier_batch, default_classifier_learning_rate, default_max_norm,
               1.0);
  CHECK(*guided.test_evaluation().rationale_share > *free.test_evaluation().rationale_share + 0.2);
}

TEST_CASE("classifier session: gradients take a sentence's rationale and train's weight") {
  ClassifierSession<double> session(small_config());
  const auto &example = session.task().train[0];
  const std::string sentence = tasks::detokenize(session.task(), example.tokens);
  ClassifierSample sample{{example.tokens.begin(), example.tokens.end()}, example.label, {}};
  for (std::size_t j = 0; j < example.rationale.size(); ++j)
    if (example.rationale[j])
      sample.rationale.push_back(j);
  auto gradients = session.model().make_gradients();
  const double guided =
      session.gradients({{sentence, example.label, example.rationale}}, gradients, 1.0);
  CHECK(guided == doctest::Approx(session.model().loss({sample}, 1.0)).epsilon(1e-12));
  // without a rationale, or with λ = 0, the cross-entropy alone
  const double plain = session.model().loss({sample});
  CHECK(session.gradients({{sentence, example.label}}, gradients, 1.0) ==
        doctest::Approx(plain).epsilon(1e-12));
  CHECK(session.gradients({{sentence, example.label, example.rationale}}, gradients) ==
        doctest::Approx(plain).epsilon(1e-12));
  CHECK(guided > plain);
}

TEST_CASE("classifier session: save and load, byte for byte; a PyTorch state_dict loads") {
  for (const auto attention : classifier_attentions) {
    ClassifierSessionConfig config = small_config(ClassifierEncoder::bigru, attention);
    config.language = "zh";
    config.seed = 3;
    ClassifierSession<float> session(config);
    session.train(5);
    const auto bytes = session.save();
    const SavedModel<ClassifierSessionConfig> saved =
        ModelKind<ClassifierSession>::read_saved(bytes.data(), bytes.size());
    CHECK(saved.precision == "float32");
    CHECK(saved.config.language == "zh");
    CHECK(saved.config.attention == attention);
    CHECK(saved.config.seed == 3);
    auto loaded = ModelKind<ClassifierSession>::load<float>(bytes.data(), bytes.size());
    CHECK(loaded.save() == bytes);
    CHECK(loaded.classify("菜 不 太 好").trace.probabilities(0) ==
          session.classify("菜 不 太 好").trace.probabilities(0));
    check_input_error(
        [&] { ModelKind<ClassifierSession>::load<double>(bytes.data(), bytes.size()); }, "float32",
        "bytes");
  }
  // A PyTorch state_dict saved with safetensors ({"format": "pt"}): its configuration from its
  // tensors' names and shapes.
  for (const auto encoder : classifier_encoders)
    for (const auto attention : classifier_attentions) {
      ClassifierSession<double> session(small_config(encoder, attention));
      session.train(3);
      const auto bytes = save_model_file(session.model().parameters(), "pt", {}, false);
      const SavedModel<ClassifierSessionConfig> saved =
          ModelKind<ClassifierSession>::read_saved(bytes.data(), bytes.size());
      CHECK(saved.precision == "float64");
      CHECK(saved.config.encoder == encoder);
      CHECK(saved.config.attention == attention);
      CHECK(saved.config.embedding == 16);
      CHECK(saved.config.language == "en");
      auto loaded = ModelKind<ClassifierSession>::load<double>(bytes.data(), bytes.size());
      CHECK(loaded.classify("the food was not good").trace.probabilities(0) ==
            session.classify("the food was not good").trace.probabilities(0));
    }
}

TEST_CASE("classifier session: bad input blames its argument") {
  ClassifierSession<float> session(small_config());
  check_input_error([&] { session.explain("good"); }, "two words", "sentence");
  check_input_error([&] { session.classify(""); }, "empty", "sentence");
  check_input_error([&] { session.classify("the food was goood"); }, "did you mean", "sentence");
  check_input_error([&] { session.train(1, 32, 0.01, 1, -1); }, "rationale", "rationale");
  check_input_error([&] { session.train(1, 0); }, "batch", "batch");
  auto gradients = session.model().make_gradients();
  check_input_error([&] { session.gradients({}, gradients); }, "empty", "examples");
  check_input_error(
      [&] {
        session.gradients({{"the food was good", 2}}, gradients);
      },
      "labels", "label");
  check_input_error(
      [&] {
        session.gradients({{"the food was good", 1, {0, 1}}}, gradients, 1);
      },
      "entries", "rationale");
  check_input_error(
      [&] {
        session.gradients({{"the food was good", 1}}, gradients, -1);
      },
      "rationale", "rationale");
  ClassifierSessionConfig config = small_config();
  config.language = "fr";
  check_input_error([&] { ClassifierSession<float>{config}; }, "en or zh", "language");
  config = small_config();
  config.hidden = 31;
  check_input_error([&] { ClassifierSession<float>{config}; }, "even", "hidden");
  const auto task = std::make_shared<const tasks::ClassificationTask>(
      tasks::make_classification_task("reviews", "zh", 0));
  check_input_error([&] { ClassifierSession<float>(small_config(), task); }, "not the", "task");
  const std::vector<std::uint8_t> junk(10, 0);
  check_input_error([&] { ModelKind<ClassifierSession>::read_saved(junk.data(), junk.size()); }, "",
                    "bytes");
}
