// The Transformer's layers (layer norm, multi-head attention with its masks, the feed-forward
// block) and the tutorial model, in float64 against PyTorch's (tests/fixtures/
// transformer_reference.hpp, from make_transformer_fixtures.py) within 1e-9, and each layer's
// backward pass against central finite differences of L = sum(output * upstream).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "attention/seq2seq_session.hpp"
#include "attention/transformer.hpp"
#include "attention/transformer_session.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"
#include "layer_checks.hpp"
#include "nn/feed_forward.hpp"
#include "nn/layer_norm.hpp"
#include "nn/multihead_attention.hpp"
#include "trace_checks.hpp"
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

namespace {

TransformerSessionConfig small_session(const std::string &task = "en-fr") {
  TransformerSessionConfig config;
  config.task = task;
  config.model = 16;
  config.feedforward = 32;
  config.seed = 7;
  return config;
}

template <class T> std::vector<T> flat(const TransformerSession<T> &session) {
  const auto &p = session.model().parameters();
  return {p.data(), p.data() + p.size()};
}

// The session's tensors as safetensors.torch.save_file(model.state_dict(), metadata=…) writes
// them, with the positional encoding's buffer when asked.
std::vector<std::uint8_t> as_state_dict(const std::vector<std::uint8_t> &saved,
                                        const Metadata &metadata, bool positional_buffer) {
  const safetensors::File file = safetensors::parse(saved.data(), saved.size());
  std::vector<safetensors::TensorBytes> tensors;
  for (const auto &tensor : file.tensors)
    tensors.push_back({tensor.name, tensor.dtype, tensor.shape, file.data + tensor.begin});
  std::vector<float> buffer;
  if (positional_buffer) {
    const std::size_t width = file.find("src_tok_emb.embedding.weight")->shape[1];
    buffer.assign(5000 * width, 0.5f);
    tensors.push_back({"positional_encoding.pos_embedding",
                       "F32",
                       {5000, 1, width},
                       reinterpret_cast<const std::uint8_t *>(buffer.data())});
  }
  return safetensors::write(tensors, metadata);
}

} // namespace

TEST_CASE("transformer session: one seed gives the same run bit for bit, another another") {
  TransformerSession<float> a(small_session()), b(small_session());
  auto other = small_session();
  other.seed = 8;
  TransformerSession<float> c(other);
  for (int i = 0; i < 3; ++i) {
    const auto ra = a.train(3, 8), rb = b.train(3, 8), rc = c.train(3, 8);
    CHECK(ra.step == std::size_t(3 * (i + 1)));
    CHECK(std::memcmp(&ra.loss, &rb.loss, sizeof(float)) == 0);
    CHECK(ra.loss != rc.loss);
  }
  CHECK(flat(a) == flat(b));
}

TEST_CASE("transformer session: the defaults learn en-fr within a few hundred steps") {
  TransformerSession<float> session(TransformerSessionConfig{});
  const std::vector<tasks::Example> probe(session.task().test.begin(),
                                          session.task().test.begin() + 100);
  const float first = session.train(1).loss;
  TransformerEvaluation measures;
  std::size_t steps = 1;
  for (; steps < 600; steps += 50) {
    session.train(50);
    measures = session.evaluate(probe);
    if (measures.exact_match >= 0.9)
      break;
  }
  INFO("steps ", steps, ", exact ", measures.exact_match, ", tokens ", measures.token_accuracy);
  CHECK(steps < 600);
  CHECK(measures.exact_match >= 0.9);
  CHECK(measures.token_accuracy > measures.exact_match);
  CHECK(session.train(1).loss < first / 10);
}

TEST_CASE("transformer session: evaluate measures every cross-attention head, and aer is the best "
          "one's") {
  auto config = small_session("en-zh");
  config.heads = 4;
  config.decoder_layers = 3;
  TransformerSession<double> session(config);
  session.train(10, 16);
  const auto measures =
      session.evaluate({session.task().test.begin(), session.task().test.begin() + 20});
  REQUIRE(measures.heads.size() == 12);
  double best = 1;
  for (std::size_t k = 0; k < measures.heads.size(); ++k) {
    CHECK(measures.heads[k].layer == k / 4);
    CHECK(measures.heads[k].head == k % 4);
    CHECK(measures.heads[k].aer >= 0);
    CHECK(measures.heads[k].aer <= 1);
    best = std::min(best, measures.heads[k].aer);
  }
  CHECK(measures.aer == best);
  CHECK(measures.exact_match >= 0);
  CHECK(measures.token_accuracy <= 1);
  // the test split's measures tallied a batch at a time are one pass's, bit for bit
  CHECK_FALSE(session.prepare_test_evaluation());
  const auto prepared = session.test_evaluation();
  const auto whole = session.evaluate(session.task().test);
  CHECK(prepared.heads.size() == 12);
  CHECK(prepared.loss == whole.loss);
  CHECK(prepared.bleu == whole.bleu);
  CHECK(prepared.aer == whole.aer);
}

TEST_CASE("transformer session: translate gives every layer's attention, per head, and each step's "
          "top tokens") {
  auto config = small_session("dates");
  config.encoder_layers = 3;
  TransformerSession<float> session(config);
  session.train(20, 16);
  const auto source = session.tokenize("Nov 23, 2026", tasks::Side::source);
  for (const std::size_t beam : {1, 3}) {
    INFO("beam ", beam);
    const auto translation = session.translate(source, beam);
    const auto &trace = translation.trace;
    const std::size_t n = source.size(), m = trace.output.size(), heads = config.heads;
    CHECK(trace.source == source);
    REQUIRE(trace.encoder_attention.size() == 3);
    REQUIRE(trace.decoder_attention.size() == 2);
    REQUIRE(trace.cross_attention.size() == 2);
    for (const auto &layer : trace.encoder_attention)
      CHECK(layer.shape() == std::array<std::size_t, 3>{heads, n, n});
    for (std::size_t l = 0; l < 2; ++l) {
      CHECK(trace.decoder_attention[l].shape() == std::array<std::size_t, 3>{heads, m, m});
      CHECK(trace.cross_attention[l].shape() == std::array<std::size_t, 3>{heads, m, n});
      // causal: a step never attends to a later one; each row sums to 1
      for (std::size_t t = 0; t < m; ++t) {
        float sum = 0;
        for (std::size_t j = 0; j < m; ++j) {
          if (j > t)
            CHECK(trace.decoder_attention[l](0, t, j) == 0);
          sum += trace.decoder_attention[l](0, t, j);
        }
        CHECK(sum == doctest::Approx(1).epsilon(1e-5));
      }
    }
    REQUIRE(translation.top.size() == m);
    for (std::size_t t = 0; t < m; ++t) {
      REQUIRE(translation.top[t].size() == translation_top_k);
      CHECK(translation.top[t][0].first == trace.output[t]);
      CHECK(translation.top[t][0].second >= translation.top[t][1].second);
    }
    CHECK(translation.beams.size() == beam);
    CHECK(translation.beams[0].output == trace.output);
  }
  CHECK(argument_of([&] { session.translate(source, 0); }) == "beam");
  CHECK(argument_of([&] { session.translate(source, max_beam_width + 1); }) == "beam");
  CHECK(argument_of([&] { session.translate({}, 1); }) == "source");
}

TEST_CASE("transformer session: save, then load, gives the same model, in either precision or "
          "float16") {
  TransformerSession<float> session(small_session("en-zh"));
  session.train(5, 8);
  const auto bytes = session.save();
  const auto saved = ModelKind<TransformerSession>::read_saved(bytes.data(), bytes.size());
  CHECK(saved.precision == "float32");
  CHECK(saved.config.task == "en-zh");
  CHECK(saved.config.model == 16);
  CHECK(saved.config.heads == 2);
  CHECK(saved.config.feedforward == 32);
  CHECK(saved.config.seed == 7);
  auto loaded = ModelKind<TransformerSession>::load<float>(bytes.data(), bytes.size());
  CHECK(flat(loaded) == flat(session));
  const auto source = session.tokenize("I eat rice at home today", tasks::Side::source);
  CHECK(loaded.translate(source).trace.output == session.translate(source).trace.output);
  CHECK(loaded.save() == bytes);
  CHECK(argument_of([&] {
          ModelKind<TransformerSession>::load<double>(bytes.data(), bytes.size());
        }) == "bytes");
  const auto halves = session.save(TransformerSession<float>::Storage::float16);
  CHECK(halves.size() < bytes.size() * 6 / 10);
  CHECK(ModelKind<TransformerSession>::load<float>(halves.data(), halves.size())
            .save(TransformerSession<float>::Storage::float16) == halves);

  auto config = small_session();
  config.heads = 4;
  config.encoder_layers = 1;
  config.decoder_layers = 3;
  TransformerSession<double> precise(config);
  const auto precise_bytes = precise.save();
  const auto again =
      ModelKind<TransformerSession>::load<double>(precise_bytes.data(), precise_bytes.size());
  CHECK(flat(again) == flat(precise));
  CHECK(again.config().heads == 4);
  CHECK(again.config().encoder_layers == 1);
  CHECK(again.config().decoder_layers == 3);
}

TEST_CASE("transformer session: a PyTorch state_dict of the tutorial model loads, its sizes "
          "inferred from its tensors and its heads from the metadata or the default") {
  auto config = small_session("dates");
  config.decoder_layers = 1;
  TransformerSession<float> session(config);
  session.train(2, 8);
  const auto ours = session.save();
  for (const bool buffer : {false, true})
    for (const auto &metadata : {Metadata{{"format", "pt"}}, Metadata{}}) {
      const auto torch = as_state_dict(ours, metadata, buffer);
      const auto saved = ModelKind<TransformerSession>::read_saved(torch.data(), torch.size());
      CHECK(saved.config.task == "dates");
      CHECK(saved.config.model == 16);
      CHECK(saved.config.heads == 2); // the default
      CHECK(saved.config.encoder_layers == 2);
      CHECK(saved.config.decoder_layers == 1);
      CHECK(saved.config.feedforward == 32);
      CHECK(saved.precision == "float32");
      CHECK(flat(ModelKind<TransformerSession>::load<float>(torch.data(), torch.size())) ==
            flat(session));
    }
  const auto four = as_state_dict(ours, {{"format", "pt"}, {"heads", "4"}}, true);
  CHECK(ModelKind<TransformerSession>::read_saved(four.data(), four.size()).config.heads == 4);
  const auto five = as_state_dict(ours, {{"format", "pt"}, {"heads", "5"}}, true);
  CHECK(argument_of([&] {
          ModelKind<TransformerSession>::load<float>(five.data(), five.size());
        }) == "bytes");
  // a state_dict of another model, or of a vocabulary no task has
  const auto seq2seq = Seq2seqSession<float>(Seq2seqSessionConfig{}).save();
  const auto foreign = as_state_dict(seq2seq, {{"format", "pt"}}, false);
  CHECK(argument_of([&] {
          ModelKind<TransformerSession>::read_saved(foreign.data(), foreign.size());
        }) == "bytes");
  CHECK(argument_of([&] {
          ModelKind<TransformerSession>::read_saved(seq2seq.data(), seq2seq.size());
        }) == "bytes");
}

TEST_CASE("transformer session: damaged files and metadata that do not fit name bytes") {
  TransformerSession<float> session(small_session());
  const auto bytes = session.save();
  const auto load = [](const std::vector<std::uint8_t> &b) {
    return argument_of([&] { ModelKind<TransformerSession>::load<float>(b.data(), b.size()); });
  };
  CHECK(load({bytes.begin(), bytes.end() - 4}) == "bytes");
  CHECK(load({bytes.begin(), bytes.begin() + 5}) == "bytes");
  CHECK(load({}) == "bytes");
  const auto &p = session.model().parameters();
  const auto rewrite = [&](const Metadata &metadata) {
    std::vector<safetensors::TensorBytes> tensors;
    for (const auto &info : p.layout())
      tensors.push_back({info.name, "F32", info.shape,
                         reinterpret_cast<const std::uint8_t *>(p.data() + info.offset)});
    return safetensors::write(tensors, metadata);
  };
  const Metadata good = {{"format", "attention-stepper/transformer"},
                         {"task", "en-fr"},
                         {"model", "16"},
                         {"heads", "2"},
                         {"encoderLayers", "2"},
                         {"decoderLayers", "2"},
                         {"feedforward", "32"},
                         {"seed", "7"},
                         {"precision", "float32"}};
  CHECK(load(rewrite(good)) == "(no error)");
  for (std::size_t k = 1; k < good.size(); ++k) {
    INFO("metadata ", good[k].first);
    for (const std::string value : {"", "x", "3", "-1"}) {
      auto bad = good;
      bad[k].second = value;
      CHECK(load(rewrite(bad)) ==
            (good[k].first == "seed" && value == "3" ? "(no error)" : "bytes"));
    }
    auto missing = good;
    missing.erase(missing.begin() + static_cast<std::ptrdiff_t>(k));
    CHECK(load(rewrite(missing)) == "bytes");
  }
  auto foreign = good;
  foreign[0].second = "attention-stepper/seq2seq";
  CHECK(load(rewrite(foreign)) == "bytes");
}

TEST_CASE("transformer session: bad arguments name the argument at fault") {
  const auto make = [](auto change) {
    auto config = small_session();
    change(config);
    return argument_of([&] { TransformerSession<float> s(config); });
  };
  using C = TransformerSessionConfig;
  CHECK(make([](C &c) { c.task = "en-de"; }) == "task");
  CHECK(make([](C &c) { c.heads = 3; }) == "heads"); // 16 is not divisible by 3
  CHECK(make([](C &c) { c.heads = 0; }) == "heads");
  CHECK(make([](C &c) { c.heads = 32; }) == "heads");
  CHECK(make([](C &c) { c.model = 0; }) == "model");
  CHECK(make([](C &c) { c.model = 2048; }) == "model");
  CHECK(make([](C &c) { c.encoder_layers = 0; }) == "encoderLayers");
  CHECK(make([](C &c) { c.encoder_layers = 7; }) == "encoderLayers");
  CHECK(make([](C &c) { c.decoder_layers = 0; }) == "decoderLayers");
  CHECK(make([](C &c) { c.decoder_layers = 7; }) == "decoderLayers");
  CHECK(make([](C &c) { c.feedforward = 0; }) == "feedforward");
  CHECK(make([](C &c) { c.feedforward = 5000; }) == "feedforward");
  CHECK(make([](C &c) { c.seed = -1; }) == "seed");
  TransformerSession<float> session(small_session());
  CHECK(argument_of([&] { session.train(0); }) == "steps");
  CHECK(argument_of([&] { session.train(1, 0); }) == "batch");
  CHECK(argument_of([&] { session.train(1, 2001); }) == "batch");
  CHECK(argument_of([&] { session.train(1, 4, 0); }) == "learningRate");
  CHECK(argument_of([&] { session.train(1, 4, 0.001, 1.0, -1); }) == "guide");
  CHECK(argument_of([&] { session.tokenize("the car is blu", tasks::Side::source); }) ==
        "sentence");
  auto gradients = session.model().make_gradients();
  CHECK(argument_of([&] { session.gradients({}, gradients); }) == "pairs");
  CHECK(argument_of([&] {
          session.gradients({{"the car is red", "la vouture"}}, gradients);
        }) == "sentence");
  CHECK(argument_of([&] {
          session.gradients({{"the car is red", "la voiture est rouge"}}, gradients, std::nan(""));
        }) == "guide");
  CHECK(session.steps() == 0);
  std::vector<TransformerSession<float>::NamedValues> named;
  for (const auto &info : session.model().parameters().layout())
    named.push_back({info.name, info.shape, std::vector<float>(info.size, 0.5f)});
  auto wrong = named;
  wrong.pop_back();
  const auto before = flat(session);
  CHECK(argument_of([&] { session.set_parameters(wrong); }) == "parameters");
  CHECK(flat(session) == before);
  session.set_parameters(named);
  CHECK(flat(session) == std::vector<float>(before.size(), 0.5f));
}

TEST_CASE("transformer session: guided alignment adds its term and pulls the guided head to the "
          "sure links") {
  TransformerSession<double> session(small_session());
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"the red car is small", "la voiture rouge est petite"},
      {"the dog is wet", "le chien est mouillé"}};
  auto free = session.model().make_gradients(), guided = session.model().make_gradients();
  const double loss = session.gradients(pairs, free);
  CHECK(session.gradients(pairs, guided, 2.0) > loss);
  CHECK(session.gradients(pairs, guided, 0.0) == loss);
  TransformerSession<float> free_model(small_session()), guided_model(small_session());
  free_model.train(100, 16, 0.003);
  guided_model.train(100, 16, 0.003, 1.0, 1.0);
  const auto guided_head_aer = [](TransformerSession<float> &s) {
    const auto measures = s.evaluate({s.task().test.begin(), s.task().test.begin() + 50});
    return measures.heads[measures.heads.size() - s.config().heads + guided_head].aer;
  };
  const double free_aer = guided_head_aer(free_model), guided_aer = guided_head_aer(guided_model);
  INFO("the guided head AER: free ", free_aer, ", guided ", guided_aer);
  CHECK(guided_aer < free_aer);
  CHECK(guided_aer < 0.2);
}
