#include <doctest/doctest.h>

#include <array>
#include <random>

#include <xtensor/xadapt.hpp>
#include <xtensor/xmanipulation.hpp>

#include "attention/attention.hpp"
#include "check_close.hpp"
#include "random_matrix.hpp"
#include "reference.hpp"

using namespace attention;
namespace f = fixtures;

namespace {
const Vector<double> basics_state = {5, 1, 20};
const Matrix<double> basics_annotations = {{3, 12, 45}, {59, 2, 5}, {1, 43, 5}, {4, 3, 45.3}};

MaskMatrix key_padding() {
  MaskMatrix mask =
      xt::view(xt::cast<std::uint8_t>(f::attention_key_keep), xt::newaxis(), xt::all());
  return mask;
}
} // namespace

TEST_CASE("Attention Basics: weighted annotations and the context vector") {
  const Vector<double> w = softmax(f::basics_scores);
  const Matrix<double> applied = apply_weights(w, basics_annotations);
  CHECK(applied(0, 0) == doctest::Approx(0.35760877).epsilon(1e-8));
  CHECK(applied(3, 2) == doctest::Approx(39.900108).epsilon(1e-8));
  CHECK(applied(2, 0) == 0); // 5.7661442e-340 in float128, below the double range
  const Vector<double> c = context_vector(applied);
  check_close(c, f::basics_context, 1e-14);
  CHECK(c(0) == doctest::Approx(3.88079708).epsilon(1e-9));
  CHECK(c(1) == doctest::Approx(4.0728263).epsilon(1e-8));
  CHECK(c(2) == doctest::Approx(45.26423912).epsilon(1e-10));
}

TEST_CASE("Luong's attentional hidden state tanh(W_c [c; s])") {
  check_close(attentional_hidden_state(f::attentional_c, f::attentional_s, f::attentional_W_c),
              f::attentional_h_tilde);
  check_input_error(
      [] {
        attentional_hidden_state<double>({1, 2}, {3}, xt::ones<double>({2, 4}));
      },
      "Wc (4, from [2x4]) must equal [c; s] (3, from [3])");
}

TEST_CASE("scaled dot-product attention: plain, causal, key padding") {
  auto plain = attention::attention(f::attention_Q, f::attention_K, f::attention_V);
  check_close(plain.weights, f::attention_plain_weights);
  check_close(plain.output, f::attention_plain_output);

  AttentionOptions<double> causal;
  causal.causal = true;
  auto c = attention::attention(f::attention_Qc, f::attention_K, f::attention_V, causal);
  check_close(c.weights, f::attention_causal_weights);
  check_close(c.output, f::attention_causal_output);

  AttentionOptions<double> padded;
  padded.mask = key_padding();
  auto p = attention::attention(f::attention_Q, f::attention_K, f::attention_V, padded);
  check_close(p.weights, f::attention_padded_weights);
  check_close(p.output, f::attention_padded_output);
}

TEST_CASE("attention in float agrees with double to 1e-5") {
  auto r =
      attention::attention<float>(xt::cast<float>(f::attention_Q), xt::cast<float>(f::attention_K),
                                  xt::cast<float>(f::attention_V));
  check_close(r.output, f::attention_plain_output, 1e-5);
}

TEST_CASE("a row whose keys are all masked attends to nothing: zero weights, zero output") {
  AttentionOptions<double> options;
  options.mask = MaskMatrix{{0, 0}, {1, 0}};
  auto r = attention::attention<double>({{1, 2}, {3, 4}}, {{1, 0}, {0, 1}}, {{5}, {7}}, options);
  check_close(r.weights, Matrix<double>{{0, 0}, {1, 0}});
  check_close(r.output, Matrix<double>{{0}, {5}});
}

TEST_CASE("attention rejects mismatched shapes and masks") {
  check_input_error(
      [] {
        attention::attention<double>({{1, 2}}, {{1, 2, 3}}, {{1}});
      },
      "Q columns (2, from [1x2]) must equal K columns (3, from [1x3])");
  check_input_error(
      [] {
        attention::attention<double>({{1, 2}}, {{1, 2}}, {{1}, {2}});
      },
      "K rows (1, from [1x2]) must equal V rows (2, from [2x1])");
  AttentionOptions<double> bad;
  bad.mask = MaskMatrix{{1, 1, 1}};
  check_input_error(
      [&] {
        attention::attention<double>({{1, 2}}, {{1, 2}}, {{1}}, bad);
      },
      "mask [1x3] must be 1x1 (one entry per key) or 1x1 (queries x keys)");
  bad.mask = {};
  bad.scale = INFINITY;
  check_input_error(
      [&] {
        attention::attention<double>({{1, 2}}, {{1, 2}}, {{1}}, bad);
      },
      "scale must be a finite number");
}

TEST_CASE("self-attention from scratch: seed 42 weights give the notebook's output") {
  const Matrix<double> words = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}};
  auto r =
      self_attention(words, f::self_attention_W_Q, f::self_attention_W_K, f::self_attention_W_V);
  check_close(r.queries, f::self_attention_Q);
  check_close(r.keys, f::self_attention_K);
  check_close(r.values, f::self_attention_V);
  check_close(r.scores, f::self_attention_scores);
  check_close(r.weights, f::self_attention_weights);
  check_close(r.output, f::self_attention_output);
  CHECK(r.output(0, 0) == doctest::Approx(0.98522025).epsilon(1e-8));
  CHECK(r.output(0, 1) == doctest::Approx(1.74174051).epsilon(1e-8));
  CHECK(r.output(0, 2) == doctest::Approx(0.75652026).epsilon(1e-8));
}

TEST_CASE("self-attention rejects projections that do not fit") {
  check_input_error(
      [] {
        self_attention<double>({{1, 2}}, xt::ones<double>({3, 2}), xt::ones<double>({2, 2}),
                               xt::ones<double>({2, 2}));
      },
      "X columns (2, from [1x2]) must equal Wq rows (3, from [3x2])");
}

namespace {
// The engine's weights from torch.nn.MultiheadAttention's: transposes of in_proj_weight blocks.
MultiHeadParams<double> torch_params(bool causal) {
  const auto &in = f::multi_head_in_proj_weight;
  const std::size_t e = in.shape()[1];
  MultiHeadParams<double> p;
  p.heads = static_cast<std::size_t>(f::multi_head_heads);
  p.wq = xt::transpose(xt::view(in, xt::range(0, e), xt::all()));
  p.wk = xt::transpose(xt::view(in, xt::range(e, 2 * e), xt::all()));
  p.wv = xt::transpose(xt::view(in, xt::range(2 * e, 3 * e), xt::all()));
  p.wo = xt::transpose(f::multi_head_out_proj_weight);
  p.bq = xt::view(f::multi_head_in_proj_bias, xt::range(0, e));
  p.bk = xt::view(f::multi_head_in_proj_bias, xt::range(e, 2 * e));
  p.bv = xt::view(f::multi_head_in_proj_bias, xt::range(2 * e, 3 * e));
  p.bo = f::multi_head_out_proj_bias;
  p.causal = causal;
  return p;
}
} // namespace

TEST_CASE("multi-head attention matches torch.nn.MultiheadAttention's computation") {
  for (bool causal : {false, true}) {
    CAPTURE(causal);
    auto r = multi_head_attention(f::multi_head_X, torch_params(causal));
    const auto &expected_output = causal ? f::multi_head_causal_output : f::multi_head_plain_output;
    const auto &expected_weights =
        causal ? f::multi_head_causal_weights : f::multi_head_plain_weights;
    check_close(r.output, expected_output);
    REQUIRE(r.weights.size() == expected_weights.size());
    for (std::size_t h = 0; h < r.weights.size(); ++h)
      check_close(r.weights[h], expected_weights[h]);
  }
}

TEST_CASE("multi-head attention rejects head counts and biases that do not fit") {
  auto p = torch_params(false);
  p.heads = 3;
  check_input_error([&] { multi_head_attention(f::multi_head_X, p); },
                    "heads (3) must be a positive divisor of the projection width (8");
  p.heads = 0;
  check_input_error([&] { multi_head_attention(f::multi_head_X, p); }, "heads (0)");
  p = torch_params(false);
  p.bk = {1, 2};
  check_input_error([&] { multi_head_attention(f::multi_head_X, p); },
                    "bk length (2, from [2]) must equal projection width (8");
}

TEST_CASE(
    "the fused path gives the materialised output to 1e-5 in float32: random, causal, masked") {
  for (const auto &dims : {std::array<std::size_t, 4>{1, 1, 1, 1},
                           {5, 7, 3, 2},
                           {64, 128, 64, 64},
                           {200, 333, 16, 8},
                           {300, 300, 64, 64}}) {
    const std::size_t nq = dims[0], nk = dims[1], d = dims[2], dv = dims[3];
    CAPTURE(nq);
    CAPTURE(nk);
    const Matrix<float> q = random_float(nq, d, 1), k = random_float(nk, d, 2) * 3.f,
                        v = random_float(nk, dv, 3);
    std::mt19937 rng(4);
    MaskMatrix mask = MaskMatrix::from_shape({nq, nk});
    for (auto &keep : mask)
      keep = rng() % 4 != 0;
    mask(0, 0) = 1; // row 0 keeps a key...
    if (nq > 1)
      std::fill(&mask(nq - 1, 0), &mask(nq - 1, 0) + nk, 0); // ...the last row keeps none
    for (int variant = 0; variant < 3; ++variant) {
      CAPTURE(variant);
      AttentionOptions<float> materialised;
      materialised.causal = variant == 1 && nq == nk;
      if (variant == 2)
        materialised.mask = mask;
      AttentionOptions<float> fused = materialised;
      fused.weights = false;
      const auto expected = attention::attention(q, k, v, materialised);
      const auto got = attention::attention(q, k, v, fused);
      CHECK(got.weights.size() == 0);
      check_close(got.output, expected.output, 1e-5);
    }
  }
}

TEST_CASE("attention over heads side by side equals attention on each head's columns") {
  const std::size_t heads = 3, n = 37, d = 8, dv = 5;
  const Matrix<float> q = random_float(n, heads * d, 11), k = random_float(n + 4, heads * d, 12),
                      v = random_float(n + 4, heads * dv, 13);
  for (bool with_weights : {true, false}) {
    CAPTURE(with_weights);
    AttentionOptions<float> options;
    options.weights = with_weights;
    const auto all = attention_heads(q, k, v, heads, options);
    CHECK(all.weights.size() == (with_weights ? heads : 0));
    for (std::size_t h = 0; h < heads; ++h) {
      const Matrix<float> qh = xt::view(q, xt::all(), xt::range(h * d, (h + 1) * d));
      const Matrix<float> kh = xt::view(k, xt::all(), xt::range(h * d, (h + 1) * d));
      const Matrix<float> vh = xt::view(v, xt::all(), xt::range(h * dv, (h + 1) * dv));
      const auto one = attention::attention(qh, kh, vh);
      check_close(Matrix<float>(xt::view(all.output, xt::all(), xt::range(h * dv, (h + 1) * dv))),
                  one.output, 1e-5);
      if (with_weights)
        check_close(all.weights[h], one.weights, 1e-6);
    }
  }
  check_input_error([&] { attention_heads(q, k, v, 2); },
                    "heads (2) must be a positive divisor of Q columns (24, from [37x24]) and of "
                    "V columns (15, from [41x15])");
}

TEST_CASE("attention_into writes into caller-owned buffers what attention_heads returns") {
  const std::size_t heads = 2, nq = 9, nk = 11, d = 4, dv = 3;
  const Matrix<double> q = xt::cast<double>(random_float(nq, heads * d, 21)),
                       k = xt::cast<double>(random_float(nk, heads * d, 22)),
                       v = xt::cast<double>(random_float(nk, heads * dv, 23));
  const auto expected = attention_heads(q, k, v, heads);
  std::vector<double> out(nq * heads * dv), weights(heads * nq * nk);
  attention_into(q.data(), nq, heads * d, k.data(), nk, heads * d, v.data(), nk, heads * dv, heads,
                 {}, out.data(), weights.data());
  check_close(xt::adapt(out, expected.output.shape()), expected.output);
  for (std::size_t h = 0; h < heads; ++h)
    check_close(xt::adapt(weights.data() + h * nq * nk, nq * nk, xt::no_ownership(),
                          std::array<std::size_t, 2>{nq, nk}),
                expected.weights[h]);
  check_input_error(
      [&] {
        attention_into(q.data(), nq, heads * d, k.data(), nk, heads * d, v.data(), nk, heads * dv,
                       heads, {}, out.data(), static_cast<double *>(nullptr));
      },
      "the weights buffer is missing");
  std::vector<double> bad(q.begin(), q.end());
  bad[5] = NAN;
  check_input_error(
      [&] {
        attention_into(bad.data(), nq, heads * d, k.data(), nk, heads * d, v.data(), nk, heads * dv,
                       heads, {}, out.data(), weights.data());
      },
      "Q [9x8] holds a non-finite value (nan) at flat index 5");
}
