#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "attention/attention.hpp"
#include "check_close.hpp"
#include "random_matrix.hpp"

using namespace attention;

namespace {
// Sets the core's thread count for one scope and puts it back to 1 after.
struct Threads {
  explicit Threads(std::size_t n) { parallel::set_threads(n); }
  ~Threads() { parallel::set_threads(1); }
};

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
