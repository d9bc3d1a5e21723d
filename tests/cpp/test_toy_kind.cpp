// The test build's own kinds (tests/kinds/), added by docs/architecture.md's recipe alone: the
// model store makes, trains, saves and loads the toy (toy_session.hpp), loads the one that only
// loads and runs (frozen_session.hpp), and the walkthroughs' table computes their walkthroughs, as
// they do every kind's, with no generic code naming them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/model_store.hpp"
#include "attention/walkthrough.hpp"
#include "files/safetensors.hpp"

using namespace attention;

TEST_CASE("a kind added by the recipe alone is made, trained, saved, loaded and walked through") {
  ToyConfig config;
  config.embedding = 4;
  const int handle = create_model(config, "float32");
  StoredModel &model = stored_model(handle);
  CHECK(std::string(model.kind()) == "toy");
  auto &session = *model.as<ToySession>().f32;
  const float before = session.train(1, 8, 0.05, default_max_norm, 0).loss;
  float after = before;
  for (int round = 0; round < 5; ++round)
    after = session.train(10, 8, 0.05, default_max_norm, 0).loss;
  CHECK(after < before);
  const double accuracy = session.test_evaluation().accuracy;
  CHECK(accuracy >= 0);
  CHECK(accuracy <= 1);

  // its file names its kind, and loads as it was
  const auto bytes = session.save();
  const int loaded = load_model(bytes.data(), bytes.size());
  auto &again = *stored_model(loaded).as<ToySession>().f32;
  CHECK(again.config().embedding == 4);
  CHECK(again.test_evaluation().accuracy == accuracy);

  // its walkthrough is the table's, after the kinds before it
  const Labels &names = walkthrough_names();
  CHECK(names.end() - std::find(names.begin(), names.end(), "toy") == 3); // then frozen, numerics
  GivenInputs given;
  auto h = Matrix<double>::from_shape({1, 1});
  h(0, 0) = loaded;
  given.numbers = {{"model", h}};
  given.texts = {{"sentence", {"the food was good"}}};
  const Trace trace = walkthrough("toy", given);
  REQUIRE(trace.stages.size() == 2);
  CHECK(trace.stages[1].panels[0].col_labels.size() == 4);
  CHECK(trace.models.front().model.front().first == "language");
  // a model of another kind is refused, blaming the input
  ClassifierSessionConfig classifier;
  classifier.embedding = classifier.hidden = 4;
  const int other = create_model(classifier, "float32");
  h(0, 0) = other;
  given.numbers = {{"model", h}};
  CHECK_THROWS_AS(walkthrough("toy", given), InputError);
  for (const int made : {handle, loaded, other})
    dispose_model(made);
}

TEST_CASE("a kind that only loads and runs is loaded from its tensors and walked through") {
  static_assert(!abilities_of<ModelKind<FrozenSession>>.creates);
  static_assert(!abilities_of<ModelKind<FrozenSession>>.trains);
  static_assert(abilities_of<ModelKind<ToySession>>.trains);
  // a state_dict as another program writes it: the reviews' vocabulary by 2, and the query
  const std::size_t vocab =
      tasks::empty_classification_task("reviews", "en").vocabulary.tokens.size();
  std::vector<float> table(vocab * 2), query{1, -1};
  for (std::size_t i = 0; i < table.size(); ++i)
    table[i] = float(i % 7) / 7;
  const auto bytes = safetensors::write(
      {{"frozen.embedding.weight",
        "F32",
        {vocab, 2},
        reinterpret_cast<const std::uint8_t *>(table.data())},
       {"frozen.query", "F32", {2}, reinterpret_cast<const std::uint8_t *>(query.data())}},
      {});
  const int handle = load_model(bytes.data(), bytes.size());
  StoredModel &model = stored_model(handle);
  CHECK(std::string(model.kind()) == "frozen");
  auto &session = *model.as<FrozenSession>().f32;
  CHECK(session.config().embedding == 2);
  const auto [tokens, weights] = session.read("the food was good");
  REQUIRE(weights.size() == 4);
  double total = 0;
  for (std::size_t j = 0; j < 4; ++j) {
    const auto id = static_cast<std::size_t>(tokens[j]);
    total += std::exp(double(table[id * 2] - table[id * 2 + 1]));
  }
  const auto first = static_cast<std::size_t>(tokens[0]);
  CHECK(double(weights[0]) ==
        doctest::Approx(std::exp(double(table[first * 2] - table[first * 2 + 1])) / total));
  GivenInputs given;
  auto h = Matrix<double>::from_shape({1, 1});
  h(0, 0) = handle;
  given.numbers = {{"model", h}};
  given.texts = {{"sentence", {"the food was good"}}};
  const Trace trace = walkthrough("frozen", given);
  CHECK(trace.output(0, 0) == doctest::Approx(double(weights[0])));
  dispose_model(handle);
}
