#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention/numpy_random.hpp"
#include "attention/optimizer.hpp"
#include "attention/seq2seq.hpp"
#include "check_close.hpp"
#include "seq2seq_reference.hpp"

using namespace attention;
namespace f = seq2seq_fixtures;

namespace {

Seq2seqConfig fixture_config(ScoreFunction scoring, Encoder encoder = Encoder::forward,
                             std::size_t layers = 1) {
  Seq2seqConfig config;
  config.encoder = encoder;
  config.layers = layers;
  config.source_vocab = f::source_vocab;
  config.target_vocab = f::target_vocab;
  config.embedding = f::embedding;
  config.hidden = f::hidden;
  config.scoring = scoring;
  config.seed = f::seed;
  config.sos = f::sos;
  config.eos = f::eos;
  return config;
}

Seq2seqConfig fixture_config(const f::Case &c) {
  return fixture_config(parse_score_function(c.scoring), parse_encoder(c.encoder, "encoder"),
                        c.layers);
}

// The case's combination, for INFO (doctest prints a char * as a pointer).
std::string combination(const f::Case &c) {
  return std::string(c.scoring) + ", " + c.encoder + ", " + std::to_string(c.layers) + " layers";
}

std::vector<SentencePair> fixture_batch(bool guided = false) {
  std::vector<SentencePair> batch;
  for (std::size_t k = 0; k < f::sources.size(); ++k)
    batch.push_back({{f::sources[k].begin(), f::sources[k].end()},
                     {f::targets[k].begin(), f::targets[k].end()},
                     guided ? f::links[k] : std::vector<std::vector<std::size_t>>{}});
  return batch;
}

// Checks every value against PyTorch's, |actual - expected| <= tolerance max(|expected|, 1e-6)
// (the floor for gradients that are 0 but for rounding, as va.bias's), and returns the largest
// relative error among values above the floor.
template <class T>
double check_values(const T *actual, const std::vector<double> &expected, double tolerance,
                    const std::string &what) {
  double worst = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double error = std::abs(double(actual[i]) - expected[i]);
    INFO(what, " at flat index ", i, ": ", double(actual[i]), " vs ", expected[i]);
    CHECK(error <= tolerance * std::max(std::abs(expected[i]), 1e-6));
    if (std::abs(expected[i]) > 1e-6)
      worst = std::max(worst, error / std::abs(expected[i]));
  }
  return worst;
}

Seq2seqConfig copy_task_config(ScoreFunction scoring) {
  Seq2seqConfig config;
  config.source_vocab = 6; // <sos> 0, <eos> 1 unused, symbols 2 … 5
  config.target_vocab = 6;
  config.embedding = 8;
  config.hidden = 16;
  config.scoring = scoring;
  config.seed = 3;
  return config;
}

// Copy task: a target repeats its source of 3 symbols, then <eos>.
std::vector<SentencePair> copy_batch(NumpyRandomState &random, std::size_t pairs) {
  const Matrix<double> symbols = random.randint(4, pairs, 3);
  std::vector<SentencePair> batch(pairs);
  for (std::size_t k = 0; k < pairs; ++k) {
    for (std::size_t i = 0; i < 3; ++i)
      batch[k].source.push_back(static_cast<TokenId>(symbols(k, i)) + 2);
    batch[k].target = batch[k].source;
    batch[k].target.push_back(1);
  }
  return batch;
}

} // namespace

TEST_CASE("seq2seq: parameters have PyTorch's names, shapes and state_dict order") {
  for (const auto &c : f::cases) {
    INFO(combination(c));
    const Seq2seq<double> model(fixture_config(c));
    const auto &layout = model.parameters().layout();
    REQUIRE(layout.size() == c.gradients.size());
    for (std::size_t k = 0; k < layout.size(); ++k) {
      CHECK(layout[k].name == c.gradients[k].name);
      CHECK(layout[k].shape == c.gradients[k].shape);
    }
    CHECK(model.parameter_names().front() == "encoder.embedding.weight");
  }
}

TEST_CASE("seq2seq: loss, logits, attention weights and every gradient equal PyTorch's, for "
          "every scoring function, encoder and number of layers, guided or not") {
  const auto batch = fixture_batch(), guided = fixture_batch(true);
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Seq2seq<double> model(fixture_config(c));
    auto gradients = model.make_gradients();
    const double loss = model.loss_and_gradients(batch, gradients);
    CHECK(loss == doctest::Approx(c.loss).epsilon(1e-12));
    CHECK(model.loss(batch) == loss);
    for (const auto &expected : c.gradients)
      check_values(gradients.values(expected.name), expected.values, 1e-9, expected.name);
    // a guide without a weight, or a weight without guides, changes nothing
    CHECK(model.loss(guided) == loss);
    CHECK(model.loss(batch, f::guide) == loss);
    const double guided_loss = model.loss_and_gradients(guided, gradients, f::guide);
    CHECK(guided_loss == doctest::Approx(c.guided_loss).epsilon(1e-12));
    CHECK(model.loss(guided, f::guide) == guided_loss);
    for (const auto &expected : c.guided_gradients)
      check_values(gradients.values(expected.name), expected.values, 1e-9,
                   std::string("guided ") + expected.name);
    for (std::size_t k = 0; k < batch.size(); ++k) {
      const auto trace = model.trace(batch[k].source, batch[k].target);
      check_values(trace.logits.data(), c.logits[k], 1e-9, "logits");
      check_values(trace.weights.data(), c.weights[k], 1e-9, "weights");
    }
  }
}

TEST_CASE("seq2seq: greedy translation equals PyTorch's, and teacher forcing on it repeats it") {
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Seq2seq<double> model(fixture_config(c));
    const std::vector<TokenId> source(f::sources[0].begin(), f::sources[0].end());
    const auto greedy = model.translate(source, f::greedy_max_length);
    CHECK(greedy.output == std::vector<TokenId>(c.greedy.begin(), c.greedy.end()));
    // Step t's logits depend on the outputs before t only, so the last may become <eos>.
    auto target = greedy.output;
    target.back() = f::eos;
    const auto forced = model.trace(source, target);
    check_close(forced.logits, greedy.logits, 1e-12);
    check_close(forced.weights, greedy.weights, 1e-12);
    check_close(forced.decoder_states, greedy.decoder_states, 1e-12);
  }
}

TEST_CASE("seq2seq: beam search of width 1 is greedy decoding; a beam wide enough to keep every "
          "hypothesis finds them all, ranked by their log-probability") {
  for (auto scoring : score_functions) {
    INFO("scoring ", score_function_name(scoring));
    Seq2seqConfig config;
    config.source_vocab = 5;
    config.target_vocab = 4; // <sos>, <eos> and two words
    config.embedding = 3;
    config.hidden = 4;
    config.scoring = scoring;
    config.seed = 11;
    Seq2seq<double> model(config);
    const std::vector<TokenId> source{2, 4, 3, 1};
    const auto greedy = model.translate(source, 6);
    const auto narrow = model.beam_search(source, 6, 1);
    CHECK(narrow.trace.output == greedy.output);
    REQUIRE(narrow.beams.size() == 1);
    check_close(narrow.trace.weights, greedy.weights, 1e-12);

    // Up to two tokens: <eos>, three [w, <eos>] and nine [w, w'] cut by the limit (w != <eos>).
    std::vector<std::pair<double, std::vector<TokenId>>> all;
    // The log-probability of the first `length` tokens of `target` (which ends with <eos>).
    const auto log_probability = [&](const std::vector<TokenId> &target, std::size_t length) {
      const auto logits = model.trace(source, target).logits;
      double sum = 0;
      for (std::size_t t = 0; t < length; ++t) {
        double z = 0;
        for (std::size_t i = 0; i < config.target_vocab; ++i)
          z += std::exp(logits(t, i));
        sum += logits(t, target[t]) - std::log(z);
      }
      return sum;
    };
    all.push_back({log_probability({1}, 1), {1}});
    for (TokenId a : {0, 2, 3}) {
      all.push_back({log_probability({a, 1}, 2), {a, 1}});
      for (TokenId b : {0, 2, 3})
        all.push_back({log_probability({a, b, 1}, 2), {a, b}});
    }
    std::sort(all.begin(), all.end(), [](auto &x, auto &y) { return x.first > y.first; });
    const auto wide = model.beam_search(source, 2, 16);
    REQUIRE(wide.beams.size() == all.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      CHECK(wide.beams[i].output == all[i].second);
      CHECK(wide.beams[i].log_probability == doctest::Approx(all[i].first).epsilon(1e-12));
    }
    CHECK(wide.trace.output == all[0].second);
    check_input_error([&] { model.beam_search(source, 6, 0); }, "beam (0) must be between 1 and 16",
                      "beam");
    check_input_error([&] { model.beam_search(source, 6, 17); }, "beam (17)", "beam");
  }
}

TEST_CASE("seq2seq: the trace holds every step's numbers, in their shapes") {
  for (auto scoring : score_functions) {
    Seq2seq<float> model(fixture_config(scoring));
    const auto trace = model.trace({2, 5, 3}, {4, 6, 7, 1});
    const bool luong = scoring != ScoreFunction::additive;
    CHECK(trace.source_embeddings.shape() == std::array<std::size_t, 2>{3, f::embedding});
    CHECK(trace.encoder_states.shape() == std::array<std::size_t, 2>{3, f::hidden});
    CHECK(trace.decoder_states.shape() == std::array<std::size_t, 2>{4, f::hidden});
    CHECK(trace.scores.shape() == std::array<std::size_t, 2>{4, 3});
    CHECK(trace.contexts.shape() == std::array<std::size_t, 2>{4, f::hidden});
    CHECK(trace.attentional.size() == (luong ? 4 * f::hidden : 0));
    CHECK(trace.logits.shape() == std::array<std::size_t, 2>{4, f::target_vocab});
    CHECK(trace.output == std::vector<TokenId>{4, 6, 7, 1});
    // the context is the weighted sum of the encoder states, and the weights sum to 1
    for (std::size_t t = 0; t < 4; ++t) {
      float total = 0;
      for (std::size_t j = 0; j < 3; ++j)
        total += trace.weights(t, j);
      CHECK(total == doctest::Approx(1).epsilon(1e-6));
      for (std::size_t i = 0; i < f::hidden; ++i) {
        float sum = 0;
        for (std::size_t j = 0; j < 3; ++j)
          sum += trace.weights(t, j) * trace.encoder_states(j, i);
        CHECK(trace.contexts(t, i) == doctest::Approx(sum).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("seq2seq: central differences agree with every gradient, for every scoring function, "
          "encoder and number of layers, guided or not") {
  // 1e-5: the truncation error (about step² times the third derivative) and the rounding of the
  // two losses (about 1e-16 / step) both stay near 1e-10, the absolute floor below.
  constexpr double step = 1e-5;
  for (const auto &c : f::cases)
    for (const double guide : {0.0, f::guide}) {
      INFO(combination(c), ", guide ", guide);
      const auto batch = fixture_batch(guide > 0);
      auto config = fixture_config(c);
      config.seed = 11;
      Seq2seq<double> model(config);
      auto gradients = model.make_gradients();
      model.loss_and_gradients(batch, gradients, guide);
      for (const auto &name : model.parameter_names()) {
        const auto parameter = model.parameter(name);
        for (std::size_t i = 0; i < parameter.info.size; ++i) {
          double &value = parameter.values[i];
          const double kept = value;
          value = kept + step;
          const double above = model.loss(batch, guide);
          value = kept - step;
          const double below = model.loss(batch, guide);
          value = kept;
          const double numeric = (above - below) / (2 * step);
          const double analytic = gradients.values(name)[i];
          INFO(name, " at flat index ", i, ": analytic ", analytic, ", numeric ", numeric);
          CHECK(std::abs(numeric - analytic) <= 1e-6 * std::abs(analytic) + 1e-10);
        }
      }
    }
}

TEST_CASE("seq2seq: float agrees with double") {
  const auto batch = fixture_batch();
  for (const auto &c : f::cases) {
    INFO(combination(c));
    Seq2seq<float> model(fixture_config(c));
    auto gradients = model.make_gradients();
    CHECK(model.loss_and_gradients(batch, gradients) == doctest::Approx(c.loss).epsilon(1e-6));
    for (const auto &expected : c.gradients)
      for (std::size_t i = 0; i < expected.values.size(); ++i) {
        INFO(std::string(expected.name), " at flat index ", i);
        CHECK(std::abs(gradients.values(expected.name)[i] - expected.values[i]) <= 1e-6);
      }
  }
}

TEST_CASE(
    "seq2seq: the same seed gives the same parameters and loss bit for bit, another differs") {
  const auto batch = fixture_batch();
  for (auto scoring : score_functions) {
    auto config = fixture_config(scoring);
    Seq2seq<float> a(config), b(config);
    config.seed += 1;
    Seq2seq<float> c(config);
    const auto &pa = a.parameters(), &pb = b.parameters(), &pc = c.parameters();
    CHECK(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(pa.data(), pc.data(), pa.size() * sizeof(float)) != 0);
    const float loss = a.loss(batch), again = b.loss(batch);
    CHECK(std::memcmp(&loss, &again, sizeof loss) == 0);
    CHECK(c.loss(batch) != loss);
  }
}

TEST_CASE("seq2seq: the initial values follow PyTorch's default distributions") {
  auto config = fixture_config(ScoreFunction::concat);
  config.source_vocab = 500;
  config.embedding = 40;
  config.hidden = 25;
  const Seq2seq<double> model(config);
  // nn.Embedding: N(0, 1)
  const auto &embedding = model.parameters().info("encoder.embedding.weight");
  const double *values = model.parameters().values("encoder.embedding.weight");
  double sum = 0, squares = 0;
  for (std::size_t i = 0; i < embedding.size; ++i) {
    sum += values[i];
    squares += values[i] * values[i];
  }
  CHECK(std::abs(sum / embedding.size) < 0.02);
  CHECK(squares / embedding.size == doctest::Approx(1).epsilon(0.03));
  // nn.GRU: U(-1/√H, 1/√H); nn.Linear: U(-1/√in, 1/√in), in = 2H for concat's Wa
  for (const auto &[name, bound] : {std::pair{"encoder.gru.weight_hh_l0", 1 / std::sqrt(25.0)},
                                    {"decoder.attention.Wa.weight", 1 / std::sqrt(50.0)},
                                    {"decoder.combine.bias", 1 / std::sqrt(50.0)}}) {
    const std::string parameter = name; // INFO cannot capture a structured binding (clang 14)
    INFO(parameter);
    const auto &info = model.parameters().info(parameter);
    const double *p = model.parameters().values(parameter);
    const auto [low, high] = std::minmax_element(p, p + info.size);
    CHECK(*low >= -bound);
    CHECK(*high <= bound);
    CHECK(*high - *low > 1.8 * bound); // spread over the whole interval
  }
}

TEST_CASE("seq2seq: a PyTorch state_dict loads by name and shape") {
  const auto batch = fixture_batch();
  Seq2seq<double> source_model(fixture_config(ScoreFunction::general));
  auto config = fixture_config(ScoreFunction::general);
  config.seed = 99;
  Seq2seq<double> model(config);
  for (const auto &name : source_model.parameter_names()) {
    const auto parameter = source_model.parameter(name);
    model.set_parameter(name, parameter.info.shape, parameter.values);
  }
  CHECK(model.loss(batch) == source_model.loss(batch));

  const std::vector<double> values(32, 0.5);
  check_input_error(
      [&] {
        model.set_parameter("decoder.gru.weight", {12, 3}, values.data());
      },
      "no parameter \"decoder.gru.weight\"", "parameter");
  check_input_error([&] { model.parameter("decoder.attention.Ua.weight"); },
                    "no parameter \"decoder.attention.Ua.weight\"", "parameter");
  check_input_error(
      [&] {
        model.set_parameter("decoder.out.bias", {8, 1}, values.data());
      },
      "decoder.out.bias has shape [8], not [8x1]", "shape");
  std::vector<double> bad(8, 0.25);
  bad[5] = NAN;
  check_input_error([&] { model.set_parameter("decoder.out.bias", {8}, bad.data()); },
                    "hold a non-finite value (nan) at flat index 5", "values");
  CHECK(model.loss(batch) == source_model.loss(batch)); // refused values changed nothing
}

TEST_CASE("seq2seq: Adam with gradient clipping matches torch.optim.Adam over two steps") {
  const auto batch = fixture_batch();
  Seq2seq<double> model(fixture_config(parse_score_function(f::adam_scoring)));
  Adam<double> adam(model.parameters().shared_layout());
  auto gradients = model.make_gradients();
  for (double expected_norm : f::adam_norms) {
    model.loss_and_gradients(batch, gradients);
    const double norm =
        adam.step(model.parameters(), gradients, f::adam_learning_rate, f::adam_max_norm);
    CHECK(norm == doctest::Approx(expected_norm).epsilon(1e-12));
  }
  CHECK(adam.steps() == 2);
  for (const auto &expected : f::adam_parameters)
    check_values(model.parameters().values(expected.name), expected.values, 1e-9, expected.name);
}

TEST_CASE("seq2seq: Adam's first step moves each parameter by the learning rate against its "
          "gradient's sign") {
  // m̂ = g and v̂ = g² after one step, so the update is -lr g / (|g| + 1e-8).
  const auto batch = fixture_batch();
  Seq2seq<double> model(fixture_config(ScoreFunction::additive));
  Adam<double> adam(model.parameters().shared_layout());
  const ParameterSet<double> before = model.parameters();
  auto gradients = model.make_gradients();
  model.loss_and_gradients(batch, gradients);
  const ParameterSet<double> unclipped = gradients;
  adam.step(model.parameters(), gradients, 0.125, {});
  for (std::size_t i = 0; i < before.size(); ++i) {
    const double g = unclipped.data()[i];
    const double expected = before.data()[i] - 0.125 * g / (std::abs(g) + 1e-8);
    INFO("flat index ", i);
    CHECK(model.parameters().data()[i] == doctest::Approx(expected).epsilon(1e-14));
  }
  // va.bias shifts all scores alike: its gradient is exactly 0, so Adam leaves it alone.
  CHECK(unclipped.values("decoder.attention.va.bias")[0] == 0);
  CHECK(model.parameters().values("decoder.attention.va.bias")[0] ==
        before.values("decoder.attention.va.bias")[0]);
  adam.reset();
  CHECK(adam.steps() == 0);
}

TEST_CASE("clip_gradient_norm scales by maxNorm / (norm + 1e-6) only when the norm exceeds it") {
  const Seq2seq<double> model(fixture_config(ScoreFunction::dot));
  auto gradients = model.make_gradients();
  gradients.values("encoder.gru.bias_ih_l0")[2] = 3; // two tensors: the norm of their norms
  gradients.values("decoder.out.weight")[7] = -4;
  const auto clipped_by = [&](double max_norm) {
    auto copy = gradients;
    CHECK(clip_gradient_norm(copy, max_norm) == 5);
    return copy.values("decoder.out.weight")[7] / -4;
  };
  CHECK(clipped_by(5.5) == 1);
  CHECK(clipped_by(1) == 1 / (5 + 1e-6));
  CHECK(clipped_by(2.5) == 2.5 / (5 + 1e-6));
  check_input_error([&] { clip_gradient_norm(gradients, 0.0); }, "maxNorm (0) must be a positive",
                    "maxNorm");
  gradients.values("decoder.out.bias")[1] = INFINITY;
  check_input_error([&] { clip_gradient_norm(gradients, 1.0); },
                    "the gradient of decoder.out.bias holds a non-finite value (inf) at flat "
                    "index 1",
                    "gradients");
}

TEST_CASE("seq2seq: bad configurations and inputs throw InputError naming the argument") {
  const auto make = [](auto change) {
    return [change] {
      auto config = fixture_config(ScoreFunction::additive);
      change(config);
      Seq2seq<float> model(config);
    };
  };
  check_input_error(make([](Seq2seqConfig &c) { c.source_vocab = 0; }),
                    "sourceVocab (0) must be between 1 and 1048576", "sourceVocab");
  check_input_error(make([](Seq2seqConfig &c) { c.target_vocab = 1; }),
                    "targetVocab (1) must be between 2", "targetVocab");
  check_input_error(make([](Seq2seqConfig &c) { c.embedding = 0; }), "embedding (0)", "embedding");
  check_input_error(make([](Seq2seqConfig &c) { c.hidden = 4096; }), "hidden (4096)", "hidden");
  check_input_error(make([](Seq2seqConfig &c) {
                      c.source_vocab = 1 << 20;
                      c.embedding = 1000;
                    }),
                    "a source-vocabulary table would be 1048576x1000", "sourceVocab");
  check_input_error(make([](Seq2seqConfig &c) { c.seed = -1; }), "seed (-1)", "seed");
  check_input_error(make([](Seq2seqConfig &c) { c.sos = 8; }),
                    "sos (8) must be a target token, in [0, 8)", "sos");
  check_input_error(make([](Seq2seqConfig &c) { c.eos = -2; }), "eos (-2)", "eos");
  check_input_error(make([](Seq2seqConfig &c) { c.eos = c.sos; }),
                    "eos (0) must differ from sos (0)", "eos");

  Seq2seq<float> model(fixture_config(ScoreFunction::concat));
  auto gradients = model.make_gradients();
  auto batch = fixture_batch();
  const auto fails = [&](const std::vector<SentencePair> &b, const std::string &words,
                         const std::string &argument) {
    check_input_error([&] { model.loss(b); }, words, argument);
    check_input_error([&] { model.loss_and_gradients(b, gradients); }, words, argument);
  };
  fails({}, "batch is empty", "batch");
  auto bad = batch;
  bad[1].source.clear();
  fails(bad, "batch[1].source is empty", "source");
  bad = batch;
  bad[0].source[3] = 7;
  fails(bad, "batch[0].source holds token 7 at index 3, outside the source vocabulary [0, 7)",
        "source");
  bad = batch;
  bad[1].target = {-1, 1};
  fails(bad, "batch[1].target holds token -1 at index 0", "target");
  bad = batch;
  bad[1].target = {5, 2};
  fails(bad, "batch[1].target must end with <eos> (1), not 2", "target");
  bad = batch;
  bad[0].target.assign(max_sentence_length + 1, 1);
  fails(bad, "batch[0].target has 1025 tokens, more than the 1024", "target");

  check_input_error([&] { model.trace({}, {1}); }, "source is empty", "source");
  check_input_error([&] { model.trace({1}, {8, 1}); }, "target holds token 8", "target");
  check_input_error([&] { model.translate({1, 9}, 5); }, "source holds token 9", "source");
  check_input_error([&] { model.translate({1}, 0); }, "maxLength (0) must be between 1 and 1024",
                    "maxLength");

  Seq2seq<float> other(fixture_config(ScoreFunction::dot));
  auto other_gradients = other.make_gradients();
  check_input_error([&] { model.loss_and_gradients(batch, other_gradients); },
                    "gradients must have the model's parameters' names and shapes", "gradients");
  Adam<float> adam(model.parameters().shared_layout());
  check_input_error([&] { adam.step(model.parameters(), other_gradients, 0.1f, {}); },
                    "gradients must have", "gradients");
  check_input_error([&] { adam.step(other.parameters(), gradients, 0.1f, {}); },
                    "the parameters are not of the layout", "parameters");
  check_input_error([&] { adam.step(model.parameters(), gradients, -1.0f, {}); },
                    "learningRate (-1) must be a finite number >= 0", "learningRate");
  check_input_error([&] { adam.step(model.parameters(), gradients, 0.1f, 0.0f); }, "maxNorm (0)",
                    "maxNorm");
  CHECK(adam.steps() == 0); // refused steps changed nothing

  model.parameter("decoder.out.bias").values[3] = 3e38f;
  model.parameter("decoder.out.bias").values[4] = -3e38f;
  check_input_error([&] { model.loss(batch); }, "overflows float32", "parameters");
}

TEST_CASE("seq2seq: 300 Adam steps on a copy task cut the loss a hundredfold and copy unseen "
          "sentences") {
  for (auto scoring : score_functions) {
    INFO("scoring ", score_function_name(scoring));
    Seq2seq<float> model(copy_task_config(scoring));
    NumpyRandomState random(5);
    const auto held_out = copy_batch(random, 32);
    const float initial = model.loss(held_out);
    Adam<float> adam(model.parameters().shared_layout());
    auto gradients = model.make_gradients();
    for (int step = 0; step < 300; ++step) {
      model.loss_and_gradients(copy_batch(random, 16), gradients);
      adam.step(model.parameters(), gradients, 0.01f, 1.0f);
    }
    const float trained = model.loss(held_out);
    CHECK(trained < initial / 100); // measured: 373x (additive) to 1067x (concat)
    for (const auto &pair : held_out)
      CHECK(model.translate(pair.source, 10).output == pair.target);
  }
}
