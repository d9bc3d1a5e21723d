#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/classifier.hpp"
#include "check_close.hpp"
#include "classifier_reference.hpp"
#include "layer_checks.hpp"

using namespace attention;
namespace f = classifier_fixtures;

namespace {

ClassifierConfig fixture_config(const f::Case &c) {
  ClassifierConfig config;
  config.vocab = f::vocab;
  config.labels = f::labels;
  config.embedding = f::embedding;
  config.hidden = f::hidden;
  config.encoder = parse_classifier_encoder(c.encoder, "encoder");
  config.attention = parse_classifier_attention(c.attention, "attention");
  config.seed = f::seed;
  return config;
}

// The case's combination, for INFO (doctest prints a char * as a pointer).
std::string combination(const f::Case &c) { return std::string(c.encoder) + ", " + c.attention; }

std::vector<ClassifierSample> fixture_batch(bool guided = false) {
  std::vector<ClassifierSample> batch;
  for (std::size_t k = 0; k < f::sentences.size(); ++k)
    batch.push_back({{f::sentences[k].begin(), f::sentences[k].end()},
                     f::sentence_labels[k],
                     guided ? f::rationales[k] : std::vector<std::size_t>{}});
  return batch;
}

} // namespace

TEST_CASE("classifier: parameters have PyTorch's names, shapes and state_dict order") {
  for (const auto &c : f::cases) {
    INFO(combination(c));
    const Classifier<double> model(fixture_config(c));
    const auto &layout = model.parameters().layout();
    REQUIRE(layout.size() == c.gradients.size());
    // uniform attention has no attention.* parameters
    const auto attention = std::count_if(layout.begin(), layout.end(), [](const auto &info) {
      return info.name.rfind("attention.", 0) == 0;
    });
    CHECK(attention == (std::string(c.attention) == "learned" ? 3 : 0));
    for (std::size_t k = 0; k < layout.size(); ++k) {
      CHECK(layout[k].name == c.gradients[k].name);
      CHECK(layout[k].shape == c.gradients[k].shape);
    }
  }
}

TEST_CASE("classifier: loss, logits, attention weights and every gradient equal PyTorch's, for "
          "each encoder and attention, with the rationale's term or not") {
  const auto batch = fixture_batch(), guided = fixture_batch(true);
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Classifier<double> model(fixture_config(c));
    auto gradients = model.make_gradients();
    const double loss = model.loss_and_gradients(batch, gradients);
    CHECK(std::abs(loss - c.loss) <= 1e-12 * c.loss);
    CHECK(model.loss(batch) == loss);
    for (const auto &expected : c.gradients)
      layer_checks::check_matches(gradients.values(expected.name), expected.values, expected.name);
    CHECK(model.loss(guided) == loss); // rationales without a weight change nothing
    const double guided_loss = model.loss_and_gradients(guided, gradients, f::rationale);
    CHECK(std::abs(guided_loss - c.guided_loss) <= 1e-12 * c.guided_loss);
    for (const auto &expected : c.guided_gradients)
      layer_checks::check_matches(gradients.values(expected.name), expected.values,
                                  "guided " + std::string(expected.name));
    std::vector<std::vector<TokenId>> sentences;
    for (const auto &sample : batch)
      sentences.push_back(sample.tokens);
    const auto outputs = model.classify(sentences);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      layer_checks::check_matches(outputs.weights[k].data(), c.weights[k], "weights");
      const auto trace = model.trace(batch[k].tokens);
      const std::vector<double> logits(c.logits.begin() + k * f::labels,
                                       c.logits.begin() + (k + 1) * f::labels);
      layer_checks::check_matches(trace.logits.data(), logits, "logits");
      layer_checks::check_matches(trace.weights.data(), c.weights[k], "trace weights");
      // the batch's probabilities are each sentence's alone
      for (std::size_t i = 0; i < f::labels; ++i)
        CHECK(std::abs(outputs.probabilities(k, i) - trace.probabilities(i)) <= 1e-15);
    }
  }
}

TEST_CASE("classifier: backward agrees with central differences of the loss") {
  const auto guided = fixture_batch(true);
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Classifier<double> model(fixture_config(c));
    auto gradients = model.make_gradients();
    model.loss_and_gradients(guided, gradients, f::rationale);
    std::vector<double> values(model.parameters().data(),
                               model.parameters().data() + model.parameters().size());
    const std::vector<double> analytic(gradients.data(), gradients.data() + gradients.size());
    layer_checks::check_finite_differences({{&values, &analytic}}, [&] {
      std::copy(values.begin(), values.end(), model.parameters().data());
      return model.loss(guided, f::rationale);
    });
  }
}

TEST_CASE("classifier: the gradient at the embeddings agrees with central differences") {
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Classifier<double> model(fixture_config(c));
    const std::vector<TokenId> tokens(f::sentences[0].begin(), f::sentences[0].end());
    const std::size_t label = 1;
    const auto gradient = model.input_gradients(tokens, label);
    // Moving one word's embedding moves the table row of its token: a token that occurs once.
    const std::size_t j = 2, e = f::embedding;
    double *row = model.parameters().values("embedding.weight") + tokens[j] * e;
    for (std::size_t i = 0; i < e; ++i) {
      const double kept = row[i], step = 1e-6;
      row[i] = kept + step;
      const double above = model.trace(tokens).probabilities(label);
      row[i] = kept - step;
      const double below = model.trace(tokens).probabilities(label);
      row[i] = kept;
      CHECK(std::abs((above - below) / (2 * step) - gradient(j, i)) <= 1e-8);
    }
  }
}

TEST_CASE("classifier: permuted weights pooled again; the identity gives the trace's") {
  const auto &c = f::cases[0];
  Classifier<double> model(fixture_config(c));
  const std::vector<TokenId> tokens(f::sentences[0].begin(), f::sentences[0].end());
  const auto trace = model.trace(tokens);
  const std::vector<double> weights(trace.weights.begin(), trace.weights.end());
  check_close(model.pooled_probabilities(trace, weights), trace.probabilities, 1e-15);
  std::vector<double> reversed(weights.rbegin(), weights.rend());
  const auto other = model.pooled_probabilities(trace, reversed);
  CHECK(std::abs(other(0) + other(1) + other(2) - 1) <= 1e-12);
  check_input_error([&] { model.pooled_probabilities(trace, {1.0}); }, "5 words", "weights");
}

TEST_CASE("classifier: float32 follows float64") {
  const auto batch = fixture_batch(true);
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Classifier<float> single(fixture_config(c));
    Classifier<double> twice(fixture_config(c));
    CHECK(single.loss(batch, 0.6f) == doctest::Approx(twice.loss(batch, 0.6)).epsilon(1e-5));
  }
}

TEST_CASE("classifier: bad configurations and inputs blame their argument") {
  ClassifierConfig config;
  config.vocab = 7;
  const auto with = [&](auto change) {
    ClassifierConfig changed = config;
    change(changed);
    return changed;
  };
  check_input_error([&] { Classifier<double>(with([](auto &c) { c.labels = 1; })); }, "labels",
                    "labels");
  check_input_error([&] { Classifier<double>(with([](auto &c) { c.labels = 11; })); }, "labels",
                    "labels");
  check_input_error([&] { Classifier<double>(with([](auto &c) { c.hidden = 7; })); }, "even",
                    "hidden");
  Classifier<double>(with([](auto &c) {
    c.hidden = 7;
    c.encoder = ClassifierEncoder::none; // hidden unused
  }));
  check_input_error([&] { Classifier<double>(with([](auto &c) { c.vocab = 0; })); }, "vocab",
                    "vocab");
  check_input_error([&] { Classifier<double>(with([](auto &c) { c.seed = -1; })); }, "seed",
                    "seed");
  check_input_error([] { parse_classifier_encoder("lstm", "encoder"); }, "bigru or none",
                    "encoder");
  check_input_error([] { parse_classifier_attention("hard", "attention"); }, "learned or uniform",
                    "attention");
  Classifier<double> model(config);
  check_input_error([&] { model.loss({}); }, "empty", "batch");
  check_input_error([&] { model.loss({{{}, 0, {}}}); }, "empty", "tokens");
  check_input_error([&] { model.loss({{{1, 9}, 0, {}}}); }, "outside", "tokens");
  check_input_error([&] { model.loss({{{1, 2}, 2, {}}}); }, "labels", "label");
  check_input_error([&] { model.loss({{{1, 2}, 1, {2}}}); }, "outside", "rationale");
  check_input_error([&] { model.loss({{{1, 2}, 1, {}}}, -1); }, "rationale", "rationale");
  check_input_error([&] { model.classify({}); }, "empty", "sentences");
  check_input_error([&] { model.input_gradients({1, 2}, 5); }, "labels", "label");
}
