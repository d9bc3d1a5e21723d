// Each layer of cpp/src/nn/ on its own, in float64: its forward outputs and its backward pass's
// gradients against PyTorch's (tests/fixtures/nn_reference.hpp, from make_nn_fixtures.py) within
// 1e-9, and its backward pass against central finite differences of L = sum(output * upstream).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "layer_checks.hpp"
#include "nn/attention.hpp"
#include "nn/batch_norm.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/embedding.hpp"
#include "nn/gru.hpp"
#include "nn/linear.hpp"
#include "nn/scoring.hpp"
#include "nn_reference.hpp"

using namespace attention;
namespace f = nn_fixtures;

namespace {

using namespace layer_checks;

const f::Case &layer(const std::string &name) {
  for (const auto &c : f::cases)
    if (name == c.layer)
      return c;
  FAIL("no fixture for ", name);
  throw;
}

Values tensor(const f::Case &c, const std::string &name) {
  for (const auto &t : c.tensors)
    if (name == t.name)
      return t.values;
  FAIL("no tensor ", name, " in ", c.layer);
  throw;
}

const std::vector<std::size_t> &shape_of(const f::Case &c, const std::string &name) {
  for (const auto &t : c.tensors)
    if (name == t.name)
      return t.shape;
  FAIL("no tensor ", name, " in ", c.layer);
  throw;
}

template <class Integer> std::vector<Integer> integers(const Values &values) {
  return std::vector<Integer>(values.begin(), values.end());
}

// Time-major keys (n x batch x width, as the fixtures hold them) laid out as `mask` says.
Values laid_out(const Values &keys, const nn::KeyMask &mask, std::size_t width) {
  Values out(keys.size());
  for (std::size_t j = 0; j < mask.n; ++j)
    for (std::size_t b = 0; b < mask.batch; ++b)
      std::copy_n(keys.begin() + (j * mask.batch + b) * width, width,
                  out.begin() + mask.row(b, j) * width);
  return out;
}

} // namespace

TEST_CASE("nn: embedding") {
  const auto &c = layer("embedding");
  Values weight = tensor(c, "weight");
  const auto tokens = integers<std::int32_t>(tensor(c, "tokens"));
  const Values upstream = tensor(c, "upstream");
  const std::size_t width = f::input;
  Values out(tokens.size() * width);
  const auto forward = [&] {
    nn::embedding_forward(weight.data(), width, tokens.data(), tokens.size(), out.data(), width);
    return weighted_sum(out.data(), upstream);
  };
  forward();
  check_matches(out.data(), tensor(c, "out"), "out");
  Values d_weight(weight.size(), 0.0);
  nn::embedding_backward(upstream.data(), width, width, tokens.data(), tokens.size(),
                         d_weight.data());
  check_matches(d_weight.data(), tensor(c, "d_weight"), "d_weight");
  check_finite_differences({{&weight, &d_weight}}, forward);
}

TEST_CASE("nn: linear") {
  const auto &c = layer("linear");
  Values weight = tensor(c, "weight"), bias = tensor(c, "bias"), x = tensor(c, "x");
  const Values upstream = tensor(c, "upstream");
  const std::size_t in = f::input, out = f::vocab, rows = x.size() / in;
  Values y(rows * out);
  const auto forward = [&] {
    nn::linear_forward(rows, in, out, x.data(), in, weight.data(), in, bias.data(), y.data(), out);
    return weighted_sum(y.data(), upstream);
  };
  forward();
  check_matches(y.data(), tensor(c, "y"), "y");
  Values d_weight(weight.size(), 0.0), d_bias(bias.size(), 0.0), dx(x.size());
  nn::linear_backward(rows, in, out, x.data(), in, weight.data(), in, upstream.data(), out,
                      d_weight.data(), d_bias.data(), dx.data(), in);
  check_matches(d_weight.data(), tensor(c, "d_weight"), "d_weight");
  check_matches(d_bias.data(), tensor(c, "d_bias"), "d_bias");
  check_matches(dx.data(), tensor(c, "d_x"), "d_x");
  check_finite_differences({{&weight, &d_weight}, {&bias, &d_bias}, {&x, &dx}}, forward);
}

TEST_CASE("nn: GRU step") {
  const auto &c = layer("gru_step");
  Values block = concatenated(
      {tensor(c, "weight_ih"), tensor(c, "weight_hh"), tensor(c, "bias_ih"), tensor(c, "bias_hh")});
  Values x = tensor(c, "x"), h = tensor(c, "h");
  const Values upstream = tensor(c, "upstream");
  const std::size_t rows = f::batch, in = f::input, hidden = f::hidden, g = 3 * hidden;
  Values gi(rows * g), gh(rows * g), gates(rows * g), h_next(rows * hidden);
  const auto forward = [&] {
    const nn::GruWeights<const double> w(block.data(), in, hidden);
    nn::linear_forward(rows, in, g, x.data(), in, w.weight_ih, in, w.bias_ih, gi.data(), g);
    nn::gru_step_forward(w, rows, gi.data(), h.data(), gh.data(), gates.data(), h_next.data());
    return weighted_sum(h_next.data(), upstream);
  };
  forward();
  check_matches(h_next.data(), tensor(c, "h_next"), "h_next");
  const nn::GruWeights<const double> w(block.data(), in, hidden);
  Values d_gi(rows * g), d_gh(rows * g), dh(rows * hidden), dx(x.size()), d_block(block.size());
  nn::gru_step_backward(w, rows, upstream.data(), h.data(), gates.data(), gh.data(), d_gi.data(),
                        d_gh.data(), dh.data());
  nn::gru_weight_backward(nn::GruWeights<double>(d_block.data(), in, hidden), rows, x.data(), in,
                          h.data(), d_gi.data(), d_gh.data());
  kernels::gemm_ab(rows, in, g, d_gi.data(), g, w.weight_ih, in, dx.data(), in);
  check_matches(d_block.data(),
                concatenated({tensor(c, "d_weight_ih"), tensor(c, "d_weight_hh"),
                              tensor(c, "d_bias_ih"), tensor(c, "d_bias_hh")}),
                "d_weights");
  check_matches(dx.data(), tensor(c, "d_x"), "d_x");
  check_matches(dh.data(), tensor(c, "d_h"), "d_h");
  check_finite_differences({{&block, &d_block}, {&x, &dx}, {&h, &dh}}, forward);
}

TEST_CASE("nn: GRU over a padded sequence: each item's state stops changing after its length") {
  const auto &c = layer("gru_sequence");
  Values block = concatenated(
      {tensor(c, "weight_ih"), tensor(c, "weight_hh"), tensor(c, "bias_ih"), tensor(c, "bias_hh")});
  Values x = tensor(c, "x"), h0 = tensor(c, "h0");
  const auto lengths = integers<std::size_t>(tensor(c, "lengths"));
  Values up_outputs = tensor(c, "up_outputs");
  const Values up_last = tensor(c, "up_last"), expected_outputs = tensor(c, "outputs");
  const std::size_t batch = f::batch, in = f::input, hidden = f::hidden, steps = 4;
  // PyTorch's padded outputs are zeros, constants: past an item's length neither the output nor
  // its upstream gradient takes part (the engine's states there repeat the item's last).
  for (std::size_t t = 0; t < steps; ++t)
    for (std::size_t b = 0; b < batch; ++b)
      if (t >= lengths[b])
        for (std::size_t i = 0; i < hidden; ++i)
          up_outputs[(t * batch + b) * hidden + i] = 0;
  nn::GruSequence<double> gru;
  const auto forward = [&] {
    const nn::GruWeights<const double> w(block.data(), in, hidden);
    gru.begin(hidden, steps, batch, lengths.data(), h0.data());
    gru.project_inputs(w, 0, steps, x.data(), in, in);
    gru.run(w, 0, steps);
    return weighted_sum(gru.state(1), up_outputs) + weighted_sum(gru.state(steps), up_last);
  };
  forward();
  for (std::size_t t = 0; t < steps; ++t)
    for (std::size_t b = 0; b < batch; ++b)
      if (t < lengths[b])
        check_matches(gru.state(t + 1) + b * hidden,
                      Values(expected_outputs.begin() + (t * batch + b) * hidden,
                             expected_outputs.begin() + (t * batch + b + 1) * hidden),
                      "outputs");
  check_matches(gru.state(steps), tensor(c, "last"), "last");
  Values d_block(block.size()), dx(x.size()), dh0(h0.size());
  gru.backward(nn::GruWeights<const double>(block.data(), in, hidden),
               nn::GruWeights<double>(d_block.data(), in, hidden), steps, x.data(),
               up_outputs.data(), up_last.data(), dx.data(), dh0.data());
  check_matches(d_block.data(),
                concatenated({tensor(c, "d_weight_ih"), tensor(c, "d_weight_hh"),
                              tensor(c, "d_bias_ih"), tensor(c, "d_bias_hh")}),
                "d_weights");
  check_matches(dx.data(), tensor(c, "d_x"), "d_x");
  check_matches(dh0.data(), tensor(c, "d_h0"), "d_h0");
  check_finite_differences({{&block, &d_block}, {&x, &dx}, {&h0, &dh0}}, forward);
}

TEST_CASE("nn: cross-entropy, the mean over the targets that are not padding") {
  const auto &c = layer("cross_entropy");
  Values logits = tensor(c, "logits");
  const auto targets = integers<std::int32_t>(tensor(c, "targets"));
  const std::size_t classes = f::vocab, rows = targets.size();
  Values probabilities(logits.size());
  const auto forward = [&] {
    return nn::cross_entropy_forward(rows, classes, logits.data(), targets.data(),
                                     probabilities.data());
  };
  const nn::CrossEntropy loss = forward();
  CHECK(loss.tokens == 3);
  const double mean = loss.mean();
  check_matches(&mean, tensor(c, "loss"), "loss");
  Values d_logits(logits.size());
  nn::cross_entropy_backward(rows, classes, probabilities.data(), targets.data(),
                             1.0 / double(loss.tokens), d_logits.data());
  check_matches(d_logits.data(), tensor(c, "d_logits"), "d_logits");
  check_finite_differences({{&logits, &d_logits}}, [&] { return forward().mean(); });
}

TEST_CASE("nn: masked softmax over the keys and the context, time-major or batch-major") {
  const auto &c = layer("attention");
  const auto lengths = integers<std::size_t>(tensor(c, "lengths"));
  const Values upstream = tensor(c, "upstream");
  const std::size_t rows = f::steps * f::batch, n = 4, width = f::hidden;
  for (const bool batch_major : {false, true}) {
    INFO("batch-major: ", batch_major);
    const nn::KeyMask mask{n, f::batch, lengths.data(), batch_major};
    Values scores = tensor(c, "scores"), values = laid_out(tensor(c, "values"), mask, width);
    Values weights(rows * n), context(rows * width);
    const auto forward = [&] {
      nn::attention_forward(rows, mask, width, scores.data(), values.data(), weights.data(),
                            context.data());
      return weighted_sum(context.data(), upstream);
    };
    forward();
    check_matches(weights.data(), tensor(c, "weights"), "weights");
    check_matches(context.data(), tensor(c, "context"), "context");
    Values d_scores(scores.size()), d_values(values.size(), 0.0);
    nn::attention_backward(rows, mask, width, weights.data(), values.data(), upstream.data(),
                           d_scores.data(), d_values.data());
    check_matches(d_scores.data(), tensor(c, "d_scores"), "d_scores");
    check_matches(d_values.data(), laid_out(tensor(c, "d_values"), mask, width), "d_values");
    check_finite_differences({{&scores, &d_scores}, {&values, &d_values}}, forward);
  }
}

TEST_CASE("nn: each scoring function, its queries scored a step of the batch at a time, its keys "
          "time-major or batch-major") {
  for (const bool batch_major : {false, true})
    for (auto kind : score_functions) {
      INFO("scoring ", score_function_name(kind), ", batch-major: ", batch_major);
      const auto &c = layer("scoring_" + std::string(score_function_name(kind)));
      const auto lengths = integers<std::size_t>(tensor(c, "lengths"));
      const std::size_t batch = f::batch, n = 4, h = f::hidden, rows = f::steps * batch;
      const nn::KeyMask mask{n, batch, lengths.data(), batch_major};
      Values parameters = tensor(c, "parameters"), queries = tensor(c, "queries"),
             keys = laid_out(tensor(c, "keys"), mask, h);
      const Values upstream = tensor(c, "upstream");
      auto scorer = nn::make_scoring_function<double>(kind, h);
      std::size_t declared = 0;
      for (const auto &spec : scorer->parameters()) {
        std::size_t size = 1;
        for (std::size_t extent : spec.shape)
          size *= extent;
        declared += size;
      }
      CHECK(declared == parameters.size());
      Values scores(rows * n);
      const auto forward = [&] {
        scorer->begin(parameters.data(), keys.data(), mask, rows);
        for (std::size_t first = 0; first < rows; first += batch)
          scorer->forward(parameters.data(), first, batch, queries.data() + first * h,
                          scores.data() + first * n);
        return weighted_sum(scores.data(), upstream);
      };
      forward();
      check_matches(scores.data(), tensor(c, "scores"), "scores");
      Values d_parameters(parameters.size(), 0.0), d_queries(queries.size()),
          d_keys(keys.size(), 0.0);
      for (std::size_t first = rows; first > 0;) {
        first -= batch;
        scorer->backward(parameters.data(), first, batch, upstream.data() + first * n,
                         d_queries.data() + first * h, d_parameters.data());
      }
      scorer->end_backward(parameters.data(), d_keys.data(), d_parameters.data());
      check_matches(d_parameters.data(), tensor(c, "d_parameters"), "d_parameters");
      check_matches(d_queries.data(), tensor(c, "d_queries"), "d_queries");
      check_matches(d_keys.data(), laid_out(tensor(c, "d_keys"), mask, h), "d_keys");
      check_finite_differences(
          {{&parameters, &d_parameters}, {&queries, &d_queries}, {&keys, &d_keys}}, forward);
    }
}

TEST_CASE("nn: batch norm over channels-last images: training mode, its running statistics, eval "
          "mode") {
  const auto &c = layer("batch_norm");
  Values weight = tensor(c, "weight"), bias = tensor(c, "bias"), x = tensor(c, "x");
  const Values upstream = tensor(c, "upstream");
  const std::size_t channels = weight.size(), rows = x.size() / channels;
  CHECK(shape_of(c, "x") == std::vector<std::size_t>{3, 3, 3, channels}); // N x H x W x C

  // The parameters as the layer declares them, the buffers at PyTorch's starting values.
  const auto specs = nn::batch_norm_parameters(channels);
  REQUIRE(specs.size() == 5);
  const char *names[] = {"weight", "bias", "running_mean", "running_var", "num_batches_tracked"};
  const double starts[] = {1, 0, 0, 1, 0};
  for (std::size_t k = 0; k < specs.size(); ++k) {
    CHECK(specs[k].name == names[k]);
    CHECK(specs[k].constant == starts[k]);
    CHECK(specs[k].shape ==
          (k < 4 ? std::vector<std::size_t>{channels} : std::vector<std::size_t>{}));
  }

  Values mean(channels), variance(channels), normalised(x.size()), inverse_std(channels),
      y(x.size());
  const auto forward = [&] {
    nn::batch_norm_forward(rows, channels, x.data(), weight.data(), bias.data(), mean.data(),
                           variance.data(), normalised.data(), inverse_std.data(), y.data());
    return weighted_sum(y.data(), upstream);
  };
  forward();
  check_matches(y.data(), tensor(c, "y"), "y");

  Values d_weight(channels, 0.0), d_bias(channels, 0.0), dx(x.size());
  nn::batch_norm_backward(rows, channels, normalised.data(), inverse_std.data(), weight.data(),
                          upstream.data(), d_weight.data(), d_bias.data(), dx.data());
  check_matches(d_weight.data(), tensor(c, "d_weight"), "d_weight");
  check_matches(d_bias.data(), tensor(c, "d_bias"), "d_bias");
  check_matches(dx.data(), tensor(c, "d_x"), "d_x");
  check_finite_differences({{&weight, &d_weight}, {&bias, &d_bias}, {&x, &dx}}, forward);

  // In place, as the layer allows: y over x, dx over dy.
  Values in_place = x, d_in_place = upstream;
  nn::batch_norm_forward(rows, channels, in_place.data(), weight.data(), bias.data(), mean.data(),
                         variance.data(), normalised.data(), inverse_std.data(), in_place.data());
  check_matches(in_place.data(), tensor(c, "y"), "y in place");
  Values unused(channels, 0.0);
  nn::batch_norm_backward(rows, channels, normalised.data(), inverse_std.data(), weight.data(),
                          d_in_place.data(), unused.data(), unused.data(), d_in_place.data());
  check_matches(d_in_place.data(), tensor(c, "d_x"), "d_x in place");

  // Two training forwards, each followed by its update, from the buffers' starting values.
  Values running_mean(channels, 0.0), running_var(channels, 1.0), y2(x.size());
  double batches = 0;
  for (const char *step : {"1", "2"}) {
    INFO("after training forward ", step);
    const Values batch = tensor(c, step == std::string("1") ? "x" : "x2");
    nn::batch_norm_forward(rows, channels, batch.data(), weight.data(), bias.data(), mean.data(),
                           variance.data(), normalised.data(), inverse_std.data(), y2.data());
    nn::batch_norm_update_running(rows, channels, mean.data(), variance.data(), running_mean.data(),
                                  running_var.data(), &batches);
    check_matches(running_mean.data(), tensor(c, std::string("running_mean_") + step),
                  "running_mean");
    check_matches(running_var.data(), tensor(c, std::string("running_var_") + step), "running_var");
    check_matches(&batches, tensor(c, std::string("num_batches_tracked_") + step),
                  "num_batches_tracked");
  }

  nn::batch_norm_eval_forward(rows, channels, x.data(), weight.data(), bias.data(),
                              running_mean.data(), running_var.data(), y.data());
  check_matches(y.data(), tensor(c, "y_eval"), "y_eval");
}
