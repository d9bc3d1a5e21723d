// The captioner of issue 22: its new layers (Conv2d, MaxPool2d, ReLU, LSTMCell) and the whole
// model against PyTorch in float64 (tests/fixtures/captioner_reference.hpp, from
// make_captioner_fixtures.py) within 1e-9, in both layouts (without batch norms, and with them:
// training mode, the running statistics' update, eval mode), and against central differences.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "attention/captioner.hpp"
#include "captioner_reference.hpp"
#include "nn/conv2d.hpp"
#include "nn/lstm_cell.hpp"
#include "nn/max_pool2d.hpp"
#include "nn/relu.hpp"

using namespace attention;
namespace f = captioner_fixtures;

namespace {

using Values = std::vector<double>;

const f::Layer &layer(const std::string &name) {
  for (const auto &c : f::layers)
    if (name == c.name)
      return c;
  FAIL("no fixture for ", name);
  throw;
}

const f::Tensor &tensor(const std::vector<f::Tensor> &tensors, const std::string &name) {
  for (const auto &t : tensors)
    if (name == t.name)
      return t;
  FAIL("no tensor ", name);
  throw;
}

Values values(const f::Layer &c, const std::string &name) { return tensor(c.tensors, name).values; }

Values concatenated(std::initializer_list<Values> parts) {
  Values all;
  for (const auto &part : parts)
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

// Every value within 1e-9 of PyTorch's (relative above 1).
template <class T>
void check_matches(const T *actual, const Values &expected, const std::string &what) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO(what, " at flat index ", i, ": ", double(actual[i]), " vs ", expected[i]);
    CHECK(std::abs(double(actual[i]) - expected[i]) <= 1e-9 * std::max(1.0, std::abs(expected[i])));
  }
}

// Central differences of loss() by each value of each input against its analytic gradient.
void check_finite_differences(const std::vector<std::pair<Values *, const Values *>> &inputs,
                              const std::function<double()> &loss) {
  constexpr double step = 1e-6;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    Values *x = inputs[k].first;
    const Values *gradient = inputs[k].second;
    for (std::size_t i = 0; i < x->size(); ++i) {
      const double kept = (*x)[i];
      (*x)[i] = kept + step;
      const double above = loss();
      (*x)[i] = kept - step;
      const double below = loss();
      (*x)[i] = kept;
      const double numeric = (above - below) / (2 * step);
      INFO("input ", k, " at flat index ", i, ": ", numeric, " vs ", (*gradient)[i]);
      CHECK(std::abs(numeric - (*gradient)[i]) <= 1e-6 * std::max(1.0, std::abs(numeric)));
    }
  }
}

double weighted_sum(const double *x, const Values &upstream) {
  double sum = 0;
  for (std::size_t i = 0; i < upstream.size(); ++i)
    sum += x[i] * upstream[i];
  return sum;
}

} // namespace

TEST_CASE("captioner layers: Conv2d(3, padding=1) as im2col and a GEMM, channels-last") {
  const auto &c = layer("conv2d");
  Values weight = values(c, "weight"), bias = values(c, "bias"), x = values(c, "x");
  const Values upstream = values(c, "upstream");
  const auto &shape = tensor(c.tensors, "x").shape; // N H W C
  const nn::Conv2dShape s{shape[0], shape[1], shape[2], shape[3], bias.size()};
  Values patches(s.rows() * s.patch()), y(s.rows() * s.out);
  const auto forward = [&] {
    nn::conv2d_forward(s, x.data(), weight.data(), bias.data(), patches.data(), y.data());
    return weighted_sum(y.data(), upstream);
  };
  forward();
  check_matches(y.data(), values(c, "y"), "y");
  Values d_weight(weight.size(), 0.0), d_bias(bias.size(), 0.0), dx(x.size()),
      d_patches(patches.size());
  nn::conv2d_backward(s, patches.data(), weight.data(), upstream.data(), d_weight.data(),
                      d_bias.data(), d_patches.data(), dx.data());
  check_matches(d_weight.data(), values(c, "d_weight"), "d_weight");
  check_matches(d_bias.data(), values(c, "d_bias"), "d_bias");
  check_matches(dx.data(), values(c, "d_x"), "d_x");
  check_finite_differences({{&weight, &d_weight}, {&bias, &d_bias}, {&x, &dx}}, forward);
  CHECK(nn::conv2d_parameters(5, 16)[0].bound == doctest::Approx(std::sqrt(6 / 45.0)));
  CHECK(nn::conv2d_parameters(5, 16)[1].bound == doctest::Approx(1 / std::sqrt(45.0)));
  CHECK(nn::conv2d_parameters(5, 16)[0].shape == std::vector<std::size_t>{16, 5, 3, 3});
}

TEST_CASE("captioner layers: MaxPool2d(2) sends each gradient to its window's first maximum") {
  const auto &c = layer("max_pool2d");
  Values x = values(c, "x");
  const Values upstream = values(c, "upstream");
  const auto &shape = tensor(c.tensors, "x").shape;
  const std::size_t batch = shape[0], height = shape[1], width = shape[2], channels = shape[3];
  Values y(x.size() / 4), dx(x.size());
  std::vector<std::uint8_t> argmax(y.size());
  const auto forward = [&] {
    nn::max_pool2d_forward(batch, height, width, channels, x.data(), y.data(), argmax.data());
    return weighted_sum(y.data(), upstream);
  };
  forward();
  check_matches(y.data(), values(c, "y"), "y");
  nn::max_pool2d_backward(batch, height, width, channels, argmax.data(), upstream.data(),
                          dx.data());
  check_matches(dx.data(), values(c, "d_x"), "d_x"); // the fixture's windows hold ties
  std::size_t ties = 0; // windows whose maximum is there more than once
  for (std::size_t n = 0; n < batch; ++n)
    for (std::size_t oy = 0; oy < height / 2; ++oy)
      for (std::size_t ox = 0; ox < width / 2; ++ox)
        for (std::size_t ch = 0; ch < channels; ++ch) {
          std::size_t at_max = 0;
          const double best = y[((n * height / 2 + oy) * (width / 2) + ox) * channels + ch];
          for (std::size_t k = 0; k < 4; ++k)
            at_max +=
                x[((n * height + 2 * oy + k / 2) * width + 2 * ox + k % 2) * channels + ch] == best;
          ties += at_max > 1;
        }
  CHECK(ties > 5);
  // away from ties the pooling is smooth: central differences on distinct values
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] += 1e-3 * double(i);
  forward();
  nn::max_pool2d_backward(batch, height, width, channels, argmax.data(), upstream.data(),
                          dx.data());
  check_finite_differences({{&x, &dx}}, forward);
}

TEST_CASE("captioner layers: ReLU, its gradient 0 at 0 as PyTorch's") {
  const auto &c = layer("relu");
  Values x = values(c, "x");
  const Values upstream = values(c, "upstream");
  Values y = x;
  nn::relu_forward(y.data(), y.size());
  check_matches(y.data(), values(c, "y"), "y");
  Values dx = upstream;
  nn::relu_backward(y.data(), dx.data(), dx.size());
  check_matches(dx.data(), values(c, "d_x"), "d_x");
  CHECK(dx[10] == 0); // x = 0
}

TEST_CASE("captioner layers: LSTMCell, gate order i, f, g, o") {
  const auto &c = layer("lstm_cell");
  Values block = concatenated(
      {values(c, "weight_ih"), values(c, "weight_hh"), values(c, "bias_ih"), values(c, "bias_hh")});
  Values x = values(c, "x"), h = values(c, "h"), cell = values(c, "c");
  const Values up_h = values(c, "up_h"), up_c = values(c, "up_c");
  const std::size_t rows = 3, input = 3, hidden = 4, g = 4 * hidden;
  Values gates(rows * g), tanh_c(rows * hidden), h_next(rows * hidden), c_next(rows * hidden);
  const auto forward = [&] {
    const nn::LstmWeights<const double> w(block.data(), input, hidden);
    nn::lstm_cell_forward(w, rows, x.data(), input, h.data(), cell.data(), gates.data(),
                          tanh_c.data(), c_next.data(), h_next.data());
    return weighted_sum(h_next.data(), up_h) + weighted_sum(c_next.data(), up_c);
  };
  forward();
  check_matches(h_next.data(), values(c, "h_next"), "h_next");
  check_matches(c_next.data(), values(c, "c_next"), "c_next");
  const nn::LstmWeights<const double> w(block.data(), input, hidden);
  Values d_gates(rows * g), dc(rows * hidden), dh(rows * hidden), dx(x.size()),
      d_block(block.size(), 0.0);
  nn::lstm_cell_backward(w, rows, up_h.data(), up_c.data(), cell.data(), gates.data(),
                         tanh_c.data(), d_gates.data(), dc.data(), dh.data());
  nn::lstm_weight_backward(nn::LstmWeights<double>(d_block.data(), input, hidden), w, rows,
                           x.data(), input, h.data(), d_gates.data(), dx.data(), input);
  check_matches(d_block.data(),
                concatenated({values(c, "d_weight_ih"), values(c, "d_weight_hh"),
                              values(c, "d_bias_ih"), values(c, "d_bias_hh")}),
                "d_weights");
  check_matches(dx.data(), values(c, "d_x"), "d_x");
  check_matches(dh.data(), values(c, "d_h"), "d_h");
  check_matches(dc.data(), values(c, "d_c"), "d_c");
  check_finite_differences({{&block, &d_block}, {&x, &dx}, {&h, &dh}, {&cell, &dc}}, forward);
}

namespace {

CaptionerNormalization normalization_of(const f::Layout &layout) {
  return parse_normalization(layout.normalization, "normalization");
}

CaptionerConfig fixture_config(CaptionerNormalization normalization) {
  CaptionerConfig config;
  config.vocab = f::vocab;
  config.normalization = normalization;
  config.channels = f::channels;
  config.annotation = f::annotation;
  config.attention = f::attention;
  config.embedding = f::embedding;
  config.hidden = f::hidden;
  config.height = f::height;
  config.width = f::width;
  config.seed = f::seed;
  config.sos = f::sos;
  config.eos = f::eos;
  return config;
}

CaptionerConfig fixture_config(const f::Layout &layout) {
  return fixture_config(normalization_of(layout));
}

template <class T> std::vector<CaptionSample<T>> fixture_batch() {
  std::vector<CaptionSample<T>> batch;
  const std::size_t size = 3 * f::height * f::width;
  for (std::size_t k = 0; k < f::captions.size(); ++k)
    batch.push_back({{f::images.begin() + k * size, f::images.begin() + (k + 1) * size},
                     {f::captions[k].begin(), f::captions[k].end()}});
  return batch;
}

const f::Layout &batch_layout() {
  for (const auto &layout : f::layouts)
    if (std::string(layout.normalization) == "batch")
      return layout;
  FAIL("no batch layout");
  throw;
}

} // namespace

TEST_CASE("captioner: parameters have the reference model's names, shapes and order, the batch "
          "norms after each convolution by default") {
  CHECK(CaptionerConfig{}.normalization == CaptionerNormalization::batch);
  for (const auto &layout : f::layouts) {
    INFO(layout.normalization);
    const Captioner<double> model(fixture_config(layout));
    const auto &layout_of = model.parameters().layout();
    const auto &expected = layout.cases[0].gradients;
    REQUIRE(layout_of.size() == expected.size());
    for (std::size_t k = 0; k < layout_of.size(); ++k) {
      CHECK(layout_of[k].name == expected[k].name);
      CHECK(layout_of[k].shape == expected[k].shape);
    }
    CHECK(model.grid_rows() == 3);
    CHECK(model.grid_columns() == 2);
  }
  CHECK(f::layouts[0].cases[0].gradients.size() + 10 == f::layouts[1].cases[0].gradients.size());
  CHECK_THROWS_WITH_AS(parse_normalization("layer", "normalization"),
                       "normalization must be \"batch\" or \"none\", got \"layer\"", InputError);
}

TEST_CASE("captioner: loss, attention weights and every gradient equal PyTorch's on a padded "
          "batch, with the regulariser and without, in each layout (training mode)") {
  const auto batch = fixture_batch<double>();
  for (const auto &layout : f::layouts)
    for (const auto &c : layout.cases) {
      INFO(layout.normalization, ", regularization ", c.regularization);
      Captioner<double> model(fixture_config(layout));
      auto gradients = model.make_gradients();
      const double loss = model.loss_and_gradients(batch, gradients, c.regularization);
      CHECK(std::abs(loss - c.loss) <= 1e-12 * std::abs(c.loss));
      CHECK(model.loss(batch, c.regularization) == loss);
      for (const auto &expected : c.gradients) {
        INFO(expected.name);
        check_matches(gradients.values(expected.name), expected.values, expected.name);
      }
      if (std::string(layout.normalization) == "none") { // eval mode is training mode's
        const auto weights = model.attention_weights(batch);
        for (std::size_t k = 0; k < batch.size(); ++k)
          check_matches(weights[k].data(), c.weights[k], "weights");
      }
    }
}

TEST_CASE("captioner: the batch norms' running statistics move once a training step as "
          "PyTorch's, and eval mode's weights, logits and greedy caption on them equal PyTorch's") {
  const auto batch = fixture_batch<double>();
  const auto &layout = batch_layout();
  Captioner<double> model(fixture_config(layout));
  const std::vector<double> initial(model.parameters().data(),
                                    model.parameters().data() + model.parameters().size());
  const auto unchanged = [&] {
    return std::equal(initial.begin(), initial.end(), model.parameters().data());
  };
  // no training-mode pass yet: nothing to apply
  model.update_running_statistics();
  CHECK(unchanged());
  auto gradients = model.make_gradients();
  model.loss_and_gradients(batch, gradients, layout.cases[0].regularization);
  model.loss(batch, layout.cases[0].regularization);
  CHECK(unchanged()); // a gradient check's passes leave them
  model.update_running_statistics();
  model.update_running_statistics(); // once a pass: the second does nothing
  for (const auto &expected : layout.running) {
    INFO(expected.name);
    check_matches(model.parameters().values(expected.name), expected.values, expected.name);
  }
  // eval mode: the running statistics, not the batch's
  const auto weights = model.attention_weights(batch);
  for (std::size_t k = 0; k < batch.size(); ++k)
    check_matches(weights[k].data(), layout.weights[k], "weights");
  const auto trace = model.trace(batch[0].image, batch[0].caption);
  check_matches(trace.logits.data(), layout.logits, "logits");
  const auto greedy = std::vector<TokenId>(layout.greedy.begin(), layout.greedy.end());
  CHECK(model.caption({&batch[0].image}, f::greedy_max_length)[0] == greedy);
  CHECK(model.beam_search(batch[0].image, f::greedy_max_length, 1).beams[0].output == greedy);
  // an image's caption does not depend on the others of its batch in eval mode
  const auto all =
      model.caption({&batch[0].image, &batch[1].image, &batch[2].image}, f::greedy_max_length);
  CHECK(all[0] == greedy);
}

TEST_CASE("captioner: greedy captions equal PyTorch's; batched, each image as on its own") {
  const auto batch = fixture_batch<double>();
  for (const auto &layout : f::layouts) {
    INFO(layout.normalization);
    Captioner<double> model(fixture_config(layout));
    const auto one = model.caption({&batch[0].image}, f::greedy_max_length);
    if (std::string(layout.normalization) == "none") // the batch layout's: after its update, above
      CHECK(one[0] == std::vector<TokenId>(layout.greedy.begin(), layout.greedy.end()));
    const auto all =
        model.caption({&batch[0].image, &batch[1].image, &batch[2].image}, f::greedy_max_length);
    CHECK(all[0] == one[0]);
    for (std::size_t k = 1; k < 3; ++k)
      CHECK(all[k] == model.caption({&batch[k].image}, f::greedy_max_length)[0]);
    // width 1 is greedy; the trace is the best caption teacher forced
    const auto search = model.beam_search(batch[0].image, f::greedy_max_length, 1);
    CHECK(search.beams[0].output == one[0]);
    CHECK(search.trace.output == one[0]);
    CHECK(search.trace.weights.shape()[0] == one[0].size());
    CHECK(search.trace.weights.shape()[1] == 6);
    const auto wide = model.beam_search(batch[0].image, f::greedy_max_length, 4);
    CHECK(wide.beams.size() == 4);
    CHECK(wide.beams[0].log_probability >= search.beams[0].log_probability);
  }
}

TEST_CASE("captioner: central differences agree with every gradient, in each layout") {
  constexpr double step = 1e-5;
  const auto batch = fixture_batch<double>();
  for (const auto normalization : captioner_normalizations) {
    INFO(normalization_name(normalization));
    auto config = fixture_config(normalization);
    config.seed = 12;
    Captioner<double> model(config);
    auto gradients = model.make_gradients();
    const double lambda = 0.7;
    model.loss_and_gradients(batch, gradients, lambda);
    for (const auto &info : model.parameters().layout()) {
      double *values = model.parameter(info.name).values;
      for (std::size_t i = 0; i < info.size; ++i) {
        const double kept = values[i];
        values[i] = kept + step;
        const double above = model.loss(batch, lambda);
        values[i] = kept - step;
        const double below = model.loss(batch, lambda);
        values[i] = kept;
        const double numeric = (above - below) / (2 * step);
        const double analytic = gradients.values(info.name)[i];
        INFO(info.name, " at flat index ", i, ": analytic ", analytic, ", numeric ", numeric);
        CHECK(std::abs(numeric - analytic) <= 1e-6 * std::abs(analytic) + 1e-9);
      }
    }
  }
}

TEST_CASE("captioner: float agrees with double; one seed gives the same model bit for bit") {
  const auto batch = fixture_batch<float>();
  for (const auto &layout : f::layouts) {
    INFO(layout.normalization);
    Captioner<float> model(fixture_config(layout)), again(fixture_config(layout));
    auto gradients = model.make_gradients();
    const auto &c = layout.cases[0];
    CHECK(model.loss_and_gradients(batch, gradients, float(c.regularization)) ==
          doctest::Approx(c.loss).epsilon(1e-5));
    for (const auto &expected : c.gradients)
      for (std::size_t i = 0; i < expected.values.size(); ++i) {
        INFO(std::string(expected.name), " at flat index ", i);
        CHECK(std::abs(gradients.values(expected.name)[i] - expected.values[i]) <= 1e-5);
      }
    const auto &p = model.parameters(), &q = again.parameters();
    CHECK(std::memcmp(p.data(), q.data(), p.size() * sizeof(float)) == 0);
    const float loss = model.loss(batch), same = again.loss(batch);
    CHECK(std::memcmp(&loss, &same, sizeof loss) == 0);
  }
}

TEST_CASE("captioner: the initial values follow PyTorch's default distributions, He's for the "
          "convolutions' weights") {
  CaptionerConfig config = fixture_config(CaptionerNormalization::batch);
  config.channels = 40;
  config.annotation = 30;
  const Captioner<double> model(config);
  for (const auto &[name, bound] :
       {std::pair{"encoder.conv1.weight", std::sqrt(6 / 45.0)},
        {"encoder.conv2.bias", 1 / std::sqrt(360.0)},
        {"decoder.decode_step.weight_ih", 1 / std::sqrt(double(f::hidden))},
        {"decoder.f_beta.weight", 1 / std::sqrt(double(f::hidden))}}) {
    const std::string parameter = name;
    INFO(parameter);
    const auto &info = model.parameters().info(parameter);
    const double *p = model.parameters().values(parameter);
    const auto [low, high] = std::minmax_element(p, p + info.size);
    CHECK(*low >= -bound);
    CHECK(*high <= bound);
    CHECK(*high - *low > 1.5 * bound);
  }
}
