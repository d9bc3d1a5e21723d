// The Transformer's layers (layer norm, multi-head attention with its masks, the feed-forward
// block) and the tutorial model, in float64 against PyTorch's (tests/fixtures/
// transformer_reference.hpp, from make_transformer_fixtures.py) within 1e-9, and each layer's
// backward pass against central finite differences of L = sum(output * upstream).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attention/transformer.hpp"
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

namespace {

TransformerConfig fixture_config() {
  TransformerConfig config;
  config.source_vocab = f::source_vocab;
  config.target_vocab = f::target_vocab;
  config.model = f::model;
  config.heads = f::model_heads;
  config.encoder_layers = config.decoder_layers = f::layers;
  config.feedforward = f::feedforward;
  config.seed = f::seed;
  return config;
}

std::vector<SentencePair> fixture_batch(bool guided = false) {
  std::vector<SentencePair> batch;
  for (std::size_t k = 0; k < f::sources.size(); ++k)
    batch.push_back({{f::sources[k].begin(), f::sources[k].end()},
                     {f::targets[k].begin(), f::targets[k].end()},
                     guided ? f::links[k] : std::vector<std::vector<std::size_t>>{}});
  return batch;
}

void check_gradients(const ParameterSet<double> &gradients,
                     const std::vector<f::Tensor> &expected) {
  REQUIRE(gradients.layout().size() == expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const auto &info = gradients.layout()[k];
    CHECK(info.name == expected[k].name);
    check_matches(gradients.data() + info.offset, expected[k].values, info.name);
  }
}

} // namespace

TEST_CASE("transformer: parameters have the tutorial model's names, shapes, state_dict order and "
          "initial values") {
  const Transformer<double> model(fixture_config());
  const auto &layout = model.parameters().layout();
  REQUIRE(layout.size() == f::parameters.size());
  for (std::size_t k = 0; k < layout.size(); ++k) {
    INFO(layout[k].name);
    CHECK(layout[k].name == f::parameters[k].name);
    CHECK(layout[k].shape == f::parameters[k].shape);
    // drawn as the fixture draws them, from numpy's RandomState(seed), in this order
    const double *values = model.parameters().data() + layout[k].offset;
    CHECK(std::equal(values, values + layout[k].size, f::parameters[k].values.begin()));
  }
}

TEST_CASE("transformer: loss, logits, every attention weight and every gradient equal PyTorch's "
          "nn.Transformer on a padded batch, guided or not") {
  Transformer<double> model(fixture_config());
  auto gradients = model.make_gradients();
  const double loss = model.loss_and_gradients(fixture_batch(), gradients);
  CHECK(std::abs(loss - f::loss) <= 1e-12 * f::loss);
  check_gradients(gradients, f::gradients);
  CHECK(model.loss(fixture_batch()) == loss);

  const double guided = model.loss_and_gradients(fixture_batch(true), gradients, f::guide);
  CHECK(std::abs(guided - f::guided_loss) <= 1e-12 * f::guided_loss);
  check_gradients(gradients, f::guided_gradients);

  const auto traces = model.trace(fixture_batch());
  REQUIRE(traces.size() == f::pairs.size());
  for (std::size_t k = 0; k < traces.size(); ++k) {
    INFO("pair ", k);
    const auto &trace = traces[k];
    check_matches(trace.logits.data(), tensor(f::pairs[k], "logits"), "logits");
    const auto layers = [](const std::vector<LayerAttention<double>> &per_layer) {
      Values all;
      for (const auto &layer : per_layer)
        all.insert(all.end(), layer.begin(), layer.end());
      return all;
    };
    check_matches(layers(trace.encoder_attention).data(), tensor(f::pairs[k], "encoder"),
                  "encoder self-attention");
    check_matches(layers(trace.decoder_attention).data(), tensor(f::pairs[k], "decoder"),
                  "decoder self-attention");
    check_matches(layers(trace.cross_attention).data(), tensor(f::pairs[k], "cross"),
                  "cross-attention");
  }
}

TEST_CASE("transformer: greedy decoding a step at a time is PyTorch's, and beam 1 is greedy") {
  Transformer<double> model(fixture_config());
  const std::vector<TokenId> source(f::sources[0].begin(), f::sources[0].end());
  const auto greedy = model.translate(source, f::greedy_max_length);
  CHECK(greedy.output == std::vector<TokenId>(f::greedy.begin(), f::greedy.end()));
  // the steps decoded are those of the output teacher forced
  const auto teacher = model.trace({{source, greedy.output, {}}});
  check_matches(greedy.logits.data(), Values(teacher[0].logits.begin(), teacher[0].logits.end()),
                "greedy logits");
  for (std::size_t l = 0; l < f::layers; ++l) {
    check_matches(
        greedy.cross_attention[l].data(),
        Values(teacher[0].cross_attention[l].begin(), teacher[0].cross_attention[l].end()),
        "greedy cross-attention");
    check_matches(
        greedy.decoder_attention[l].data(),
        Values(teacher[0].decoder_attention[l].begin(), teacher[0].decoder_attention[l].end()),
        "greedy self-attention");
  }
  const auto beam = model.beam_search(source, f::greedy_max_length, 1);
  CHECK(beam.beams.front().output == greedy.output);
  // a wider beam finds a hypothesis at least as likely, best first
  const auto wide = model.beam_search(source, f::greedy_max_length, 3);
  REQUIRE(wide.beams.size() == 3);
  CHECK(wide.beams[0].log_probability >= beam.beams[0].log_probability - 1e-12);
  CHECK(wide.beams[0].log_probability >= wide.beams[1].log_probability);
  CHECK(wide.beams[1].log_probability >= wide.beams[2].log_probability);
  CHECK(wide.trace.output == wide.beams[0].output);
  CHECK(wide.trace.logits.shape()[0] == wide.beams[0].output.size());
  const auto batch = model.translate(
      std::vector<std::vector<TokenId>>{{f::sources[1].begin(), f::sources[1].end()}, source},
      f::greedy_max_length);
  CHECK(batch[1] == greedy.output);
}
