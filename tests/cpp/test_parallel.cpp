#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "attention/attention.hpp"
#include "attention/optimizer.hpp"
#include "check_close.hpp"
#include "nn/cross_entropy.hpp"
#include "nn/linear.hpp"
#include "random_matrix.hpp"
#include "threads.hpp"

using namespace attention;

namespace {
template <class T> bool identical(const Matrix<T> &a, const Matrix<T> &b) {
  return a.shape() == b.shape() && std::equal(a.begin(), a.end(), b.begin());
}
} // namespace

TEST_CASE("the pool runs every task once and rethrows the lowest-numbered task's error") {
  const Threads threads(3);
  REQUIRE(parallel::threads() == 3);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<int>> runs(97);
    parallel::for_each(runs.size(), [&](std::size_t i) { ++runs[i]; });
    for (const auto &count : runs)
      CHECK(count == 1);
  }
  for (int round = 0; round < 50; ++round) {
    try {
      parallel::for_each(40, [](std::size_t i) {
        if (i % 7 == 3)
          throw std::runtime_error("task " + std::to_string(i));
      });
      FAIL("expected an error");
    } catch (const std::runtime_error &error) {
      CHECK(std::string(error.what()) == "task 3");
    }
  }
}

TEST_CASE("threads split heads and query blocks, and give the one-thread results bit for bit") {
  struct Case {
    std::size_t nq, nk, heads;
    bool causal, fused;
  };
  for (const Case c : {Case{300, 300, 1, false, false}, Case{300, 300, 1, true, true},
                       Case{257, 190, 3, false, true}, Case{256, 256, 8, true, false},
                       Case{1000, 64, 1, true, false}, Case{16, 16, 1, false, false}}) {
    CAPTURE(c.nq);
    CAPTURE(c.heads);
    CAPTURE(c.causal);
    CAPTURE(c.fused);
    const Matrix<float> q = random_float(c.nq, c.heads * 64, 1),
                        k = random_float(c.nk, c.heads * 64, 2),
                        v = random_float(c.nk, c.heads * 32, 3);
    AttentionOptions<float> options;
    options.causal = c.causal && c.nq == c.nk;
    options.weights = !c.fused;
    if (c.causal && c.nq != c.nk) { // a mask of queries x keys instead
      options.mask = MaskMatrix::from_shape({c.nq, c.nk});
      for (std::size_t i = 0; i < c.nq; ++i)
        for (std::size_t j = 0; j < c.nk; ++j)
          options.mask(i, j) = (i + j) % 3 != 0;
    }
    const auto one = attention_heads(q, k, v, c.heads, options);
    for (std::size_t n : {2, 3, 4}) {
      CAPTURE(n);
      const Threads threads(n);
      // heads too few for 2 tasks per thread (4 when causal) are cut into query blocks, but for
      // the small case
      const bool cut = detail::query_blocks(c.heads, c.nq, c.nk, 96, options.causal) > 1;
      CHECK(cut == (c.nq != 16 && c.heads < (options.causal ? 4 : 2) * n));
      const auto many = attention_heads(q, k, v, c.heads, options);
      CHECK(identical(many.output, one.output));
      REQUIRE(many.weights.size() == one.weights.size());
      for (std::size_t h = 0; h < one.weights.size(); ++h)
        CHECK(identical(many.weights[h], one.weights[h]));
    }
  }
}

TEST_CASE("an overflow in a late query block names its place in the whole matrix") {
  Matrix<float> q = random_float(512, 64, 5), k = random_float(512, 64, 6);
  const Matrix<float> v = random_float(512, 64, 7);
  q(500, 3) = 3e38f;
  xt::view(k, xt::all(), 3) = 2.f; // so query 500's first overflowing score is key 0's
  for (bool fused : {false, true}) {
    CAPTURE(fused);
    AttentionOptions<float> options;
    options.weights = !fused;
    const Threads threads(2);
    check_input_error([&] { attention::attention(q, k, v, options); },
                      "the scaled scores Q K^T [512x512] overflows float32 at flat index 256000");
  }
}

TEST_CASE("matmul_into splits rows across threads, bit for bit, and checks its operands") {
  const Matrix<float> a = random_float(300, 70, 8), b = random_float(70, 200, 9);
  const Matrix<float> expected = matmul(a, b);
  Matrix<float> out = Matrix<float>::from_shape({300, 200});
  {
    const Threads threads(3);
    matmul_into(a.data(), 300, 70, b.data(), 70, 200, out.data());
  }
  CHECK(identical(out, expected));
  check_input_error([&] { matmul_into(a.data(), 300, 70, b.data(), 69, 200, out.data()); },
                    "A columns (70, from [300x70]) must equal B rows (69, from [69x200])");
}

TEST_CASE("for_ranges cuts whole units, a range a thread at most, and runs alone inside a task") {
  const Threads threads(3, 0);
  for (const std::size_t count : {0, 1, 5, 8, 100, 101}) {
    CAPTURE(count);
    std::vector<std::atomic<int>> seen(count);
    std::atomic<int> ranges{0};
    parallel::for_ranges(count, 4, 1, [&](std::size_t begin, std::size_t end) {
      ++ranges;
      CHECK((begin % 4 == 0 && (end % 4 == 0 || end == count)));
      for (std::size_t i = begin; i < end; ++i)
        ++seen[i];
    });
    for (const auto &times : seen)
      CHECK(times == 1);
    CHECK(ranges == std::max<std::size_t>(1, std::min<std::size_t>(3, (count + 3) / 4)));
  }
  // a task's own split (a product inside a split loop) runs on its thread, as one range
  std::vector<std::atomic<int>> inner(6);
  parallel::for_each(6, [&](std::size_t i) {
    parallel::for_ranges(100, 1, 1e9, [&](std::size_t begin, std::size_t end) {
      if (begin == 0 && end == 100)
        ++inner[i];
    });
  });
  for (const auto &times : inner)
    CHECK(times == 1);
  // a range for each min_thread_flops of work: less than two stays on the caller
  parallel::min_thread_flops = 1e6;
  for (const auto &[flops, expected] : {std::pair{1999999.0, 1}, {2e6, 2}, {1e9, 3}}) {
    std::atomic<int> ranges{0};
    parallel::for_ranges(1000, 1, flops, [&](std::size_t, std::size_t) { ++ranges; });
    CHECK(ranges == expected);
  }
}

namespace {
std::vector<float> random_values(std::size_t n, unsigned seed) {
  const Matrix<float> m = random_float(1, n, seed);
  return {m.begin(), m.end()};
}

// Runs `compute` (which writes its results into the vector it returns) on one thread, then on 2 and
// 3 with every product and loop split: the same bits each time.
template <class Compute> void check_same_bits(const Compute &compute) {
  const auto one = compute();
  for (std::size_t n : {2, 3}) {
    CAPTURE(n);
    const Threads threads(n, 0);
    const auto many = compute();
    REQUIRE(many.size() == one.size());
    CHECK(std::memcmp(many.data(), one.data(), one.size() * sizeof(one[0])) == 0);
  }
}
} // namespace

TEST_CASE("the layers' products split C by rows or columns, never a sum, bit for bit") {
  struct Shape {
    std::size_t m, n, k;
  };
  // rows (m > n), columns, sums over several KC blocks, column blocks past NC, few rows
  for (const Shape s : {Shape{300, 70, 50}, Shape{37, 1100, 300}, Shape{130, 9, 700},
                        Shape{5, 520, 17}, Shape{3, 40, 20}, Shape{9, 9, 1}}) {
    CAPTURE(s.m);
    CAPTURE(s.n);
    CAPTURE(s.k);
    const auto a = random_values(s.m * s.k, 1), b = random_values(s.k * s.n, 2),
               c0 = random_values(s.m * s.n, 3);
    check_same_bits([&] {
      // C = A B^T, C += A B, C += A^T B (A read as k x m), and C += A B^T over a packed B
      std::vector<float> c(4 * s.m * s.n);
      float *abt = c.data(), *ab = abt + s.m * s.n, *atb = ab + s.m * s.n,
            *packed = atb + s.m * s.n;
      kernels::gemm_abt(s.m, s.n, s.k, a.data(), s.k, b.data(), s.k, abt, s.n);
      std::copy(c0.begin(), c0.end(), ab);
      kernels::gemm_ab(s.m, s.n, s.k, a.data(), s.k, b.data(), s.n, ab, s.n, true);
      std::copy(c0.begin(), c0.end(), atb);
      kernels::gemm_atb(s.m, s.n, s.k, a.data(), s.m, b.data(), s.n, atb, s.n, true);
      kernels::PackedB<float> w_t;
      w_t.pack_transposed(s.n, s.k, b.data(), s.k);
      std::copy(c0.begin(), c0.end(), packed);
      kernels::gemm_packed(s.m, a.data(), s.k, w_t, packed, s.n, true);
      return c;
    });
  }
}

TEST_CASE("a linear layer and cross-entropy split rows and columns across threads, bit for bit") {
  const std::size_t rows = 70, in = 24, classes = 300;
  const auto x = random_values(rows * in, 4), weight = random_values(classes * in, 5),
             bias = random_values(classes, 6);
  std::vector<std::int32_t> targets(rows);
  for (std::size_t r = 0; r < rows; ++r)
    targets[r] = r % 9 == 4 ? -1 : std::int32_t(r * 37 % classes); // some rows ignored
  check_same_bits([&] {
    // logits, probabilities, d_logits, d_weight, d_bias, dx and the loss
    std::vector<float> logits(rows * classes), probabilities(rows * classes),
        d_logits(rows * classes), d_weight(classes * in), d_bias(classes), dx(rows * in);
    nn::linear_forward(rows, in, classes, x.data(), in, weight.data(), in, bias.data(),
                       logits.data(), classes);
    const auto loss = nn::cross_entropy_forward(rows, classes, logits.data(), targets.data(),
                                                probabilities.data());
    nn::cross_entropy_backward(rows, classes, probabilities.data(), targets.data(),
                               float(1 / double(loss.tokens)), d_logits.data());
    nn::linear_backward(rows, in, classes, x.data(), in, weight.data(), in, d_logits.data(),
                        classes, d_weight.data(), d_bias.data(), dx.data(), in);
    std::vector<double> all;
    for (const auto *part : {&logits, &probabilities, &d_logits, &d_weight, &d_bias, &dx})
      all.insert(all.end(), part->begin(), part->end());
    all.push_back(loss.sum);
    all.push_back(double(loss.tokens));
    return all;
  });
}

TEST_CASE("Adam and clipping split their ranges and tensors across threads, bit for bit") {
  auto layout = std::make_shared<std::vector<ParameterInfo>>();
  std::size_t offset = 0;
  for (const std::size_t size : {5000, 3, 20000, 128, 7001}) {
    layout->push_back({"p" + std::to_string(layout->size()), {size}, offset, size});
    offset += size;
  }
  const auto values = random_values(offset, 7), grads = random_values(offset, 8);
  check_same_bits([&] {
    ParameterSet<float> parameters(layout), gradients(layout);
    Adam<float> adam(layout);
    std::vector<float> norms;
    std::copy(values.begin(), values.end(), parameters.data());
    for (int step = 0; step < 3; ++step) {
      std::copy(grads.begin(), grads.end(), gradients.data());        // clipping scales them
      norms.push_back(adam.step(parameters, gradients, 0.01f, 1.0f)); // norm ~ 180: clipped
    }
    norms.insert(norms.end(), parameters.data(), parameters.data() + parameters.size());
    return norms;
  });
  // the first non-finite gradient, in the layout's order, is the one named
  ParameterSet<float> parameters(layout), gradients(layout);
  gradients.data()[5000 + 3 + 20000 + 7] = std::numeric_limits<float>::infinity();
  gradients.data()[5000 + 1] = std::numeric_limits<float>::quiet_NaN();
  const Threads threads(3, 0);
  Adam<float> adam(layout);
  check_input_error([&] { adam.step(parameters, gradients, 0.01f, 1.0f); },
                    "the gradient of p1 holds a non-finite value (nan) at flat index 1");
}
