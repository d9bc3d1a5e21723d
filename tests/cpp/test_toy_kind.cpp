// The test build's own kind (tests/kinds/toy_session.hpp), added by docs/architecture.md's recipe
// alone: the model store makes, trains, saves and loads it, and the walkthroughs' table computes
// its walkthrough, as they do every kind's, with no generic code naming it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "attention/model_store.hpp"
#include "attention/walkthrough.hpp"

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
  CHECK(names.end() - std::find(names.begin(), names.end(), "toy") == 2); // then numerics
  GivenInputs given;
  auto h = Matrix<double>::from_shape({1, 1});
  h(0, 0) = loaded;
  given.numbers = {{"model", h}};
  given.texts = {{"sentence", {"the", "food", "was", "good"}}};
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
