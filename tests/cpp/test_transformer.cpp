// The Transformer's layers (layer norm, multi-head attention with its masks, the feed-forward
// block) and the tutorial model, in float64 against PyTorch's (tests/fixtures/
// transformer_reference.hpp, from make_transformer_fixtures.py) within 1e-9, and each layer's
// backward pass against central finite differences of L = sum(output * upstream).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "layer_checks.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/multihead_attention.hpp"
#include "transformer_reference.hpp"

using namespace attention;
using namespace layer_checks;
namespace f = transformer_fixtures;

namespace {

const f::Layer &layer(const std::string &name) {
  for (const auto &c : f::layer_cases)
    if (name == c.name)
      return c;
  FAIL("no fixture for ", name);
  throw;
}

Values tensor(const std::vector<f::Tensor> &tensors, const std::string &name) {
  for (const auto &t : tensors)
    if (name == t.name)
      return t.values;
  FAIL("no tensor ", name);
  throw;
}
Values tensor(const f::Layer &c, const std::string &name) { return tensor(c.tensors, name); }

std::vector<std::size_t> lengths_of(const f::Layer &c) {
  const Values lengths = tensor(c, "lengths");
  return {lengths.begin(), lengths.end()};
}

Values attention_block(const f::Layer &c, const std::string &prefix = "") {
  return concatenated({tensor(c, prefix + "in_proj_weight"), tensor(c, prefix + "in_proj_bias"),
                       tensor(c, prefix + "out_proj_weight"), tensor(c, prefix + "out_proj_bias")});
}

} // namespace

TEST_CASE("transformer layers: layer norm") {
  const auto &c = layer("layer_norm");
  Values weight = tensor(c, "weight"), bias = tensor(c, "bias"), x = tensor(c, "x");
  const Values upstream = tensor(c, "upstream");
  const std::size_t width = f::width, rows = x.size() / width;
  Values y(x.size()), normalised(x.size()), inverse_std(rows);
  const auto forward = [&] {
    nn::layer_norm_forward(rows, width, x.data(), weight.data(), bias.data(), normalised.data(),
                           inverse_std.data(), y.data());
    return weighted_sum(y.data(), upstream);
  };
  forward();
  check_matches(y.data(), tensor(c, "y"), "y");
  Values d_weight(width, 0.0), d_bias(width, 0.0), dx(x.size());
  nn::layer_norm_backward(rows, width, normalised.data(), inverse_std.data(), weight.data(),
                          upstream.data(), d_weight.data(), d_bias.data(), dx.data());
  check_matches(d_weight.data(), tensor(c, "d_weight"), "d_weight");
  check_matches(d_bias.data(), tensor(c, "d_bias"), "d_bias");
  check_matches(dx.data(), tensor(c, "d_x"), "d_x");
  check_finite_differences({{&weight, &d_weight}, {&bias, &d_bias}, {&x, &dx}}, forward);
  // in place, as the models run it
  Values in_place = x;
  nn::layer_norm_forward(rows, width, in_place.data(), weight.data(), bias.data(),
                         normalised.data(), inverse_std.data(), in_place.data());
  check_matches(in_place.data(), tensor(c, "y"), "y in place");
  Values d_in_place = upstream;
  nn::layer_norm_backward(rows, width, normalised.data(), inverse_std.data(), weight.data(),
                          d_in_place.data(), d_weight.data(), d_bias.data(), d_in_place.data());
  check_matches(d_in_place.data(), tensor(c, "d_x"), "d_x in place");
  CHECK(nn::layer_norm_parameters(4)[0].constant == 1.0);
  CHECK(nn::layer_norm_parameters(4)[1].constant == 0.0);
}

TEST_CASE("transformer layers: feed-forward block, linear1, ReLU, linear2") {
  const auto &c = layer("feed_forward");
  Values block = concatenated(
      {tensor(c, "weight1"), tensor(c, "bias1"), tensor(c, "weight2"), tensor(c, "bias2")});
  Values x = tensor(c, "x");
  const Values upstream = tensor(c, "upstream");
  const std::size_t width = f::width, hidden = f::hidden, rows = x.size() / width;
  REQUIRE(block.size() == nn::feed_forward_size(width, hidden));
  Values y(x.size()), activations(rows * hidden);
  const auto forward = [&] {
    nn::feed_forward_forward(nn::FeedForwardWeights<const double>(block.data(), width, hidden),
                             rows, x.data(), activations.data(), y.data());
    return weighted_sum(y.data(), upstream);
  };
  forward();
  check_matches(y.data(), tensor(c, "y"), "y");
  Values d_block(block.size(), 0.0), d_activations(rows * hidden), dx(x.size());
  nn::feed_forward_backward(nn::FeedForwardWeights<const double>(block.data(), width, hidden),
                            nn::FeedForwardWeights<double>(d_block.data(), width, hidden), rows,
                            x.data(), activations.data(), upstream.data(), d_activations.data(),
                            dx.data());
  check_matches(d_block.data(),
                concatenated({tensor(c, "d_weight1"), tensor(c, "d_bias1"), tensor(c, "d_weight2"),
                              tensor(c, "d_bias2")}),
                "d_parameters");
  check_matches(dx.data(), tensor(c, "d_x"), "d_x");
  check_finite_differences({{&block, &d_block}, {&x, &dx}}, forward);
}

TEST_CASE("transformer layers: masked multi-head self-attention, causal and key padding, all "
          "steps at once or one at a time") {
  const auto &c = layer("self_attention");
  Values block = attention_block(c), x = tensor(c, "keys");
  const Values upstream = tensor(c, "upstream");
  const auto lengths = lengths_of(c);
  const std::size_t batch = f::batch, width = f::width, steps = x.size() / (batch * width);
  REQUIRE(block.size() == nn::multihead_attention_size(width));
  nn::MultiheadAttention<double> attention(width, f::heads);
  Values out(x.size());
  const auto forward = [&] {
    attention.begin(batch, steps, steps, lengths.data(), true);
    attention.project_keys(block.data(), 0, steps, x.data());
    attention.forward(block.data(), 0, steps, x.data(), out.data());
    return weighted_sum(out.data(), upstream);
  };
  forward();
  check_matches(out.data(), tensor(c, "out"), "out");
  check_matches(attention.weights(), tensor(c, "weights"), "weights");
  Values d_block(block.size(), 0.0), dx(x.size(), 0.0);
  attention.backward(block.data(), d_block.data(), x.data(), x.data(), upstream.data(), nullptr,
                     dx.data(), dx.data());
  check_matches(d_block.data(),
                concatenated({tensor(c, "d_in_proj_weight"), tensor(c, "d_in_proj_bias"),
                              tensor(c, "d_out_proj_weight"), tensor(c, "d_out_proj_bias")}),
                "d_parameters");
  check_matches(dx.data(), tensor(c, "d_keys"), "d_x");
  check_finite_differences({{&block, &d_block}, {&x, &dx}}, forward);

  // A step at a time, as greedy decoding runs it: each step's keys projected as it comes
  Values stepped(x.size());
  attention.begin(batch, steps, steps, lengths.data(), true);
  for (std::size_t t = 0; t < steps; ++t) {
    const std::size_t at = t * batch * width;
    attention.project_keys(block.data(), t, t + 1, x.data() + at);
    attention.forward(block.data(), t, t + 1, x.data() + at, stepped.data() + at);
  }
  check_matches(stepped.data(), tensor(c, "out"), "out, a step at a time");
  check_matches(attention.weights(), tensor(c, "weights"), "weights, a step at a time");
}

TEST_CASE("transformer layers: multi-head cross-attention over padded keys") {
  const auto &c = layer("cross_attention");
  Values block = attention_block(c), keys = tensor(c, "keys"), queries = tensor(c, "queries");
  const Values upstream = tensor(c, "upstream");
  const auto lengths = lengths_of(c);
  const std::size_t batch = f::batch, width = f::width, n = keys.size() / (batch * width);
  nn::MultiheadAttention<double> attention(width, f::heads);
  Values out(queries.size());
  const auto forward = [&] {
    attention.begin(batch, f::queries, n, lengths.data(), false);
    attention.project_keys(block.data(), 0, n, keys.data());
    attention.forward(block.data(), 0, f::queries, queries.data(), out.data());
    return weighted_sum(out.data(), upstream);
  };
  forward();
  check_matches(out.data(), tensor(c, "out"), "out");
  check_matches(attention.weights(), tensor(c, "weights"), "weights");
  Values d_block(block.size(), 0.0), d_queries(queries.size()), d_keys(keys.size(), 0.0);
  attention.backward(block.data(), d_block.data(), queries.data(), keys.data(), upstream.data(),
                     nullptr, d_queries.data(), d_keys.data());
  check_matches(d_block.data(),
                concatenated({tensor(c, "d_in_proj_weight"), tensor(c, "d_in_proj_bias"),
                              tensor(c, "d_out_proj_weight"), tensor(c, "d_out_proj_bias")}),
                "d_parameters");
  check_matches(d_queries.data(), tensor(c, "d_queries"), "d_queries");
  check_matches(d_keys.data(), tensor(c, "d_keys"), "d_keys");
  check_finite_differences({{&block, &d_block}, {&queries, &d_queries}, {&keys, &d_keys}}, forward);
}
