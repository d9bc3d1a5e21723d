// The generic training pieces on a model that is not seq2seq: softmax regression, one nn::Linear
// and a cross-entropy over a small labelled set. The trainer's determinism, its order against
// numpy's (tests/fixtures/training_reference.hpp, from make_training_fixtures.py), its stop on a
// non-finite loss, the evaluation cache, and model files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "attention/numpy_random.hpp"
#include "attention/trainer.hpp"
#include "check_close.hpp"
#include "core/precision.hpp"
#include "files/model_file.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/linear.hpp"
#include "training/initialise.hpp"
#include "training_reference.hpp"

using namespace attention;

namespace {

// Points in R^3 labelled by the largest of four random linear scores; the model learns them with
// one nn::Linear (3 -> 4) and a cross-entropy.
struct Classifier {
  static constexpr std::size_t in = 3, classes = 4, examples = 24;
  std::vector<nn::ParameterSpec> specs = nn::prefixed("linear", nn::linear_parameters(in, classes));
  ParameterLayout layout = make_layout(specs);
  Matrix<double> x;
  std::vector<std::int32_t> labels;

  Classifier() {
    NumpyRandomState random(3);
    x = random.randn(examples, in);
    const Matrix<double> teacher = random.randn(classes, in);
    for (std::size_t e = 0; e < examples; ++e) {
      std::int32_t best = 0;
      double best_score = -INFINITY;
      for (std::size_t c = 0; c < classes; ++c) {
        double score = 0;
        for (std::size_t i = 0; i < in; ++i)
          score += teacher(c, i) * x(e, i);
        if (score > best_score) {
          best_score = score;
          best = static_cast<std::int32_t>(c);
        }
      }
      labels.push_back(best);
    }
  }

  template <class T> ParameterSet<T> initial(std::int64_t seed) const {
    ParameterSet<T> parameters(layout);
    initialise(parameters, specs, seed);
    return parameters;
  }

  // The mean cross-entropy of the examples and its gradients (added to `gradients`).
  template <class T>
  T loss(const ParameterSet<T> &parameters, const std::vector<std::size_t> &indices,
         ParameterSet<T> &gradients) const {
    const std::size_t rows = indices.size();
    std::vector<T> inputs(rows * in), logits(rows * classes), probabilities(rows * classes),
        d_logits(rows * classes);
    std::vector<std::int32_t> targets;
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t i = 0; i < in; ++i)
        inputs[r * in + i] = static_cast<T>(x(indices[r], i));
      targets.push_back(labels[indices[r]]);
    }
    const T *weight = parameters.values("linear.weight");
    nn::linear_forward(rows, in, classes, inputs.data(), in, weight, in,
                       parameters.values("linear.bias"), logits.data(), classes);
    const nn::CrossEntropy loss = nn::cross_entropy_forward(rows, classes, logits.data(),
                                                            targets.data(), probabilities.data());
    nn::cross_entropy_backward(rows, classes, probabilities.data(), targets.data(),
                               T(1) / static_cast<T>(rows), d_logits.data());
    nn::linear_backward(rows, in, classes, inputs.data(), in, weight, in, d_logits.data(), classes,
                        gradients.values("linear.weight"), gradients.values("linear.bias"),
                        static_cast<T *>(nullptr), 0);
    return static_cast<T>(loss.mean());
  }

  template <class T> double accuracy(const ParameterSet<T> &parameters) const {
    std::size_t right = 0;
    for (std::size_t e = 0; e < examples; ++e) {
      std::size_t best = 0;
      double best_score = -INFINITY;
      for (std::size_t c = 0; c < classes; ++c) {
        double score = parameters.values("linear.bias")[c];
        for (std::size_t i = 0; i < in; ++i)
          score += parameters.values("linear.weight")[c * in + i] * x(e, i);
        if (score > best_score) {
          best_score = score;
          best = c;
        }
      }
      right += best == static_cast<std::size_t>(labels[e]);
    }
    return double(right) / double(examples);
  }
};

template <class T> std::vector<T> flat(const ParameterSet<T> &parameters) {
  return {parameters.data(), parameters.data() + parameters.size()};
}

// A classifier's parameters and the trainer that trains them.
template <class T> struct Run {
  const Classifier &model;
  ParameterSet<T> parameters;
  Trainer<T> trainer;
  Run(const Classifier &model, std::int64_t seed)
      : model(model), parameters(model.initial<T>(seed)),
        trainer(model.layout, Classifier::examples, seed) {}
  TrainResult<T> train(std::size_t steps, std::size_t batch = 8, double learning_rate = 0.05) {
    return trainer.train(parameters, steps, batch, learning_rate, default_max_norm,
                         [&](const std::vector<std::size_t> &examples, ParameterSet<T> &g) {
                           return model.loss(parameters, examples, g);
                         });
  }
};

} // namespace

TEST_CASE("trainer: one seed gives the same losses and parameters bit for bit, another another, "
          "and softmax regression learns") {
  const Classifier model;
  Run<float> a(model, 7), b(model, 7), c(model, 8);
  const double before = model.accuracy(a.parameters);
  for (int i = 0; i < 10; ++i) {
    const auto ra = a.train(5), rb = b.train(5), rc = c.train(5);
    CHECK(ra.step == std::size_t(5 * (i + 1)));
    CHECK(std::memcmp(&ra.loss, &rb.loss, sizeof(float)) == 0);
    CHECK(ra.loss != rc.loss);
  }
  CHECK(flat(a.parameters) == flat(b.parameters));
  CHECK(flat(a.parameters) != flat(c.parameters));
  CHECK(a.trainer.steps() == 50);
  CHECK(model.accuracy(a.parameters) > before);
  CHECK(model.accuracy(a.parameters) >= 0.9);
}

TEST_CASE("trainer: minibatches follow numpy's Fisher–Yates order, epoch after epoch") {
  for (const auto &expected : training_reference::shuffles) {
    INFO("examples ", expected.examples, ", seed ", expected.seed);
    // batch: most of an epoch, so that the rest is dropped and the next epoch reshuffles
    const std::size_t n = expected.examples, batch = n > 4 ? n / 2 - 1 : 1;
    const std::size_t per_epoch = n / batch, epochs = expected.epochs.size();
    const Classifier model;
    ParameterSet<double> parameters = model.initial<double>(0);
    Trainer<double> trainer(model.layout, n, expected.seed);
    std::vector<std::size_t> visited;
    trainer.train(parameters, per_epoch * epochs, batch, 0.01, 1.0,
                  [&](const std::vector<std::size_t> &examples, ParameterSet<double> &) {
                    CHECK(examples.size() == batch);
                    visited.insert(visited.end(), examples.begin(), examples.end());
                    return 0.5;
                  });
    std::vector<std::size_t> want;
    for (const auto &order : expected.epochs)
      want.insert(want.end(), order.begin(), order.begin() + per_epoch * batch);
    CHECK(visited == want);
  }
}

TEST_CASE("trainer: a loss or gradient that stops being finite stops training with the last "
          "finite parameters, and Adam starts afresh") {
  const Classifier model;
  for (const std::string how : {"nan loss", "overflow", "infinite gradient"}) {
    INFO(how);
    Run<double> run(model, 1);
    run.train(3);
    const auto kept = flat(run.parameters);
    std::size_t calls = 0;
    const auto broken = [&](const std::vector<std::size_t> &examples, ParameterSet<double> &g) {
      const double loss = model.loss(run.parameters, examples, g);
      if (++calls < 2)
        return loss;
      if (how == "overflow") // the models' word for a loss beyond T's range
        detail::fail(detail::Argument("parameters"), "the loss overflows");
      if (how == "infinite gradient")
        g.values("linear.bias")[2] = INFINITY;
      return how == "nan loss" ? std::nan("") : loss;
    };
    check_input_error([&] { run.trainer.train(run.parameters, 5, 8, 0.05, 1.0, broken); },
                      "training stopped at step 5: " +
                          std::string(how == "infinite gradient" ? "a gradient" : "the loss") +
                          " is not finite",
                      "learningRate");
    CHECK(run.trainer.steps() == 4); // the one step that went well counts
    // the parameters are those of step 4, and the moments start afresh: one more step equals a
    // new Adam's first from them
    Run<double> fresh(model, 1);
    fresh.train(4);
    CHECK(flat(fresh.parameters) == flat(run.parameters));
    CHECK(flat(run.parameters) != kept);
    std::vector<std::size_t> next_batch;
    Adam<double> adam(model.layout);
    auto gradients = ParameterSet<double>(model.layout);
    auto expected = run.parameters;
    run.trainer.train(run.parameters, 1, 8, 0.05, 1.0,
                      [&](const std::vector<std::size_t> &examples, ParameterSet<double> &g) {
                        next_batch = examples;
                        return model.loss(run.parameters, examples, g);
                      });
    model.loss(expected, next_batch, gradients);
    adam.step(expected, gradients, 0.05, 1.0);
    CHECK(flat(run.parameters) == flat(expected));
    CHECK(run.trainer.steps() == 5);
  }
  // a loss exception of another kind passes through, the parameters untouched
  Run<float> run(model, 1);
  const auto before = flat(run.parameters);
  check_input_error(
      [&] {
        run.trainer.train(run.parameters, 2, 4, 0.05, 1.0,
                          [](const std::vector<std::size_t> &, ParameterSet<float> &) -> float {
                            detail::fail(detail::Argument("sentence"), "unknown word");
                          });
      },
      "unknown word", "sentence");
  CHECK(flat(run.parameters) == before);
}

TEST_CASE("trainer: bad arguments name the argument at fault and change nothing") {
  const Classifier model;
  Run<float> run(model, 2);
  const auto before = flat(run.parameters);
  check_input_error([&] { run.train(0); }, "steps (0) must be from 1 to 1000000", "steps");
  check_input_error([&] { run.train(1, 0); },
                    "batch (0) must be from 1 to 24, the training examples", "batch");
  check_input_error([&] { run.train(1, 25); }, "batch (25)", "batch");
  check_input_error([&] { run.train(1, 4, 0); }, "learningRate (0) must be above 0",
                    "learningRate");
  check_input_error([&] { run.train(1, 4, std::nan("")); }, "learningRate", "learningRate");
  check_input_error([&] { run.train(1, 4, 2e30); }, "at most 1e+30", "learningRate");
  Trainer<float> pairs(model.layout, 5, 0, "pairs");
  check_input_error([&] { pairs.train(run.parameters, 1, 6, 0.1, 1.0, nullptr); },
                    "the training pairs", "batch");
  Trainer<float> other(make_layout(nn::linear_parameters(2, 2)), 24, 0);
  check_input_error([&] { other.train(run.parameters, 1, 4, 0.1, 1.0, nullptr); },
                    "not of the layout the trainer was made for", "parameters");
  CHECK(flat(run.parameters) == before);
  CHECK(run.trainer.steps() == 0);
}

TEST_CASE("evaluation cache: a part at a time, again only when the parameters changed") {
  const Classifier model;
  Run<double> run(model, 4);
  EvaluationCache<double> cache;
  struct Tally {
    double sum = 0;
  };
  int parts = 0, results = 0;
  // three parts over 5 examples: [0, 2), [2, 4), [4, 5); the result the sum of the examples'
  // indices
  const auto part = [&](Tally &tally, std::size_t first) {
    ++parts;
    const std::size_t last = std::min<std::size_t>(5, first + 2);
    for (std::size_t i = first; i < last; ++i)
      tally.sum += double(i) + model.accuracy(run.parameters);
    return last;
  };
  const auto finish = [&](const Tally &tally) {
    ++results;
    return tally.sum;
  };
  const auto advance = [&] { return cache.advance<Tally>(run.parameters, 5, part, finish); };
  CHECK_FALSE(advance());
  CHECK_FALSE(advance());
  CHECK(advance());
  const double first = cache.result();
  CHECK(first == doctest::Approx(10 + 5 * model.accuracy(run.parameters)));
  CHECK(advance());
  CHECK((parts == 3 && results == 1));
  // new parameters midway through: the parts start over
  run.train(20);
  CHECK_FALSE(advance());
  run.train(1);
  CHECK_FALSE(advance());
  CHECK_FALSE(advance());
  CHECK(advance());
  CHECK((parts == 7 && results == 2));
  CHECK(cache.result() == doctest::Approx(10 + 5 * model.accuracy(run.parameters)));
  CHECK(parameter_hash(run.parameters) != parameter_hash(model.initial<double>(4)));
  CHECK(parameter_hash(model.initial<double>(4)) == parameter_hash(model.initial<double>(4)));
}

TEST_CASE("model files: parameters and metadata round trip in either precision and in float16") {
  const Classifier model;
  Run<double> run(model, 5);
  run.train(10);
  const Metadata extra = {{"classes", "4"}, {"seed", "5"}};
  const auto bytes = save_model_file(run.parameters, "test/classifier", extra, false);
  const safetensors::File file = safetensors::parse(bytes.data(), bytes.size());
  CHECK(file.metadata == Metadata{{"format", "test/classifier"},
                                  {"classes", "4"},
                                  {"seed", "5"},
                                  {"precision", "float64"}});
  REQUIRE(file.tensors.size() == 2);
  CHECK(file.tensors[0].name == "linear.weight"); // the layout's order
  CHECK(file.tensors[0].dtype == "F64");
  CHECK(file.tensors[0].shape == std::vector<std::size_t>{4, 3});
  CHECK(*find_metadata(file, "classes") == "4");
  CHECK(find_metadata(file, "hidden") == nullptr);
  CHECK(metadata_integer(*find_metadata(file, "seed"), "seed") == 5);
  ParameterSet<double> loaded(model.layout);
  load_model_file(file, loaded);
  CHECK(flat(loaded) == flat(run.parameters));
  require_precision<double>(*find_metadata(file, "precision"));
  check_input_error([&] { require_precision<float>("float64"); },
                    "the file holds a float64 model, not float32", "bytes");

  // float16: each value numpy's rounding of the parameter, read back exactly into either precision
  const auto halves = save_model_file(run.parameters, "test/classifier", extra, true);
  const safetensors::File half_file = safetensors::parse(halves.data(), halves.size());
  CHECK(half_file.tensors[1].dtype == "F16");
  CHECK(halves.size() < bytes.size());
  ParameterSet<float> narrow(model.layout);
  load_model_file(half_file, narrow);
  for (std::size_t i = 0; i < narrow.size(); ++i)
    CHECK(narrow.data()[i] == static_cast<float>(precision::float16_to_double(
                                  precision::float16_from_double(run.parameters.data()[i]))));
  run.parameters.values("linear.bias")[0] = 1e5;
  check_input_error([&] { save_model_file(run.parameters, "test/classifier", extra, true); },
                    "beyond float16's range: save it as float64", "dtype");
}

TEST_CASE("model files: a file of other names, dtypes, shapes or values is refused and changes "
          "nothing") {
  const Classifier model;
  const auto parameters = model.initial<float>(6);
  ParameterSet<float> target = model.initial<float>(9);
  const auto before = flat(target);
  const auto refuses = [&](const std::vector<std::uint8_t> &bytes, const std::string &words) {
    check_input_error(
        [&] { load_model_file(safetensors::parse(bytes.data(), bytes.size()), target); }, words,
        "bytes");
    CHECK(flat(target) == before);
  };
  // float64 into float32
  refuses(save_model_file(model.initial<double>(6), "f", {}, false),
          "the file's \"linear.weight\" is not F32 (or F16, I64)");
  // another model: names, shapes, count
  const auto renamed = make_layout(nn::prefixed("head", nn::linear_parameters(3, 4)));
  ParameterSet<float> other(renamed);
  refuses(save_model_file(other, "f", {}, false), "the file lacks the parameter \"linear.weight\"");
  ParameterSet<float> wider(make_layout(nn::prefixed("linear", nn::linear_parameters(3, 5))));
  refuses(save_model_file(wider, "f", {}, false), "is not F32 (or F16, I64) of the shape");
  ParameterSet<float> no_bias(
      make_layout(nn::prefixed("linear", nn::linear_parameters(3, 4, false))));
  refuses(save_model_file(no_bias, "f", {}, false),
          "the file holds 1 tensors, but its model has 2 parameters");
  // a non-finite value, last in the file: nothing is set, not even the tensors before it
  std::vector<safetensors::TensorBytes> tensors;
  std::vector<float> infinite(4, INFINITY);
  tensors.push_back({"linear.weight",
                     "F32",
                     {4, 3},
                     reinterpret_cast<const std::uint8_t *>(parameters.values("linear.weight"))});
  tensors.push_back(
      {"linear.bias", "F32", {4}, reinterpret_cast<const std::uint8_t *>(infinite.data())});
  refuses(safetensors::write(tensors, {}), "the file's \"linear.bias\" holds a non-finite value");
  // I64, as PyTorch keeps a batch norm's num_batches_tracked: whole numbers, exactly
  const std::vector<std::int64_t> counts = {7, -2, 0, 1 << 20};
  tensors.back() = {
      "linear.bias", "I64", {4}, reinterpret_cast<const std::uint8_t *>(counts.data())};
  const auto whole = safetensors::write(tensors, {});
  ParameterSet<float> counted = model.initial<float>(9);
  load_model_file(safetensors::parse(whole.data(), whole.size()), counted);
  CHECK(std::vector<float>(counted.values("linear.bias"), counted.values("linear.bias") + 4) ==
        std::vector<float>{7, -2, 0, 1 << 20});

  for (const std::string bad : {"", "-16", "1e3", "1234567890123"})
    check_input_error([&] { metadata_integer(bad, "seed"); },
                      "the file's metadata \"seed\" is not a whole number", "bytes");
}

TEST_CASE("assign_all: every tensor by name at once, or nothing") {
  const Classifier model;
  ParameterSet<float> parameters = model.initial<float>(1);
  const auto before = flat(parameters);
  const std::vector<NamedValues<float>> named = {
      {"linear.bias", {4}, {1, 2, 3, 4}}, {"linear.weight", {4, 3}, std::vector<float>(12, 5)}};
  auto wrong = named;
  wrong[0].shape = {1, 4};
  check_input_error([&] { assign_all(parameters, wrong); },
                    "\"linear.bias\" must have shape [4], got [1x4]", "parameters");
  wrong = named;
  wrong.pop_back();
  check_input_error([&] { assign_all(parameters, wrong); }, "\"linear.weight\" is missing",
                    "parameters");
  wrong = named;
  wrong.push_back(named[0]);
  check_input_error([&] { assign_all(parameters, wrong); }, "\"linear.bias\" is given twice",
                    "parameters");
  CHECK(flat(parameters) == before);
  assign_all(parameters, named);
  CHECK(parameters.values("linear.bias")[3] == 4);
  CHECK(parameters.values("linear.weight")[11] == 5);
}
