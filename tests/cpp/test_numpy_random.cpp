#include <doctest/doctest.h>

#include "attention/numpy_random.hpp"
#include "check_close.hpp"
#include "reference.hpp"

using namespace attention;
namespace f = fixtures;

TEST_CASE("np.random.seed(42); randint(3, size=(3,3)) three times: the notebook's W_Q, W_K, W_V") {
  NumpyRandomState random(42);
  CHECK(random.randint(3, 3, 3) == Matrix<double>{{2, 0, 2}, {2, 0, 0}, {2, 1, 2}});
  CHECK(random.randint(3, 3, 3) == Matrix<double>{{2, 2, 2}, {0, 2, 1}, {0, 1, 1}});
  CHECK(random.randint(3, 3, 3) == Matrix<double>{{1, 1, 0}, {0, 1, 1}, {0, 0, 0}});
}

TEST_CASE("randint, rand and randn continue one stream bit for bit, as numpy's RandomState") {
  NumpyRandomState random(0);
  CHECK(random.randint(10, 3, 4) == f::random_seed0_randint10);
  CHECK(random.rand(2, 3) == f::random_seed0_rand);
  CHECK(random.randn(3, 3) == f::random_seed0_randn);
  CHECK(random.randn(1, 1) == f::random_seed0_randn_after); // the cached second deviate
  CHECK(random.randint(std::int64_t(1) << 40, 2, 2) == f::random_seed0_randint_big);
  CHECK(random.randint(1, 2, 2) == f::random_seed0_randint1); // draws nothing
  CHECK(random.rand(1, 2) == f::random_seed0_rand_after);
}

TEST_CASE("the largest seed numpy accepts, and 2000 normals in a row") {
  NumpyRandomState random(0xFFFFFFFFLL);
  CHECK(random.randn(50, 40) == f::random_seed_max_randn);
  CHECK(random.randint(1000003, 10, 10) == f::random_seed_max_randint);
}

TEST_CASE("the state can be saved and resumed") {
  NumpyRandomState first(42);
  first.randn(1, 3); // leaves a cached normal
  NumpyRandomState resumed(first.state());
  CHECK(resumed.randn(2, 2) == first.randn(2, 2));
  CHECK(resumed.randint(100, 2, 2) == first.randint(100, 2, 2));
}

TEST_CASE("bad seeds and sizes are refused before anything is drawn") {
  check_input_error([] { NumpyRandomState(-1); }, "seed (-1) must be between 0 and 2**32 - 1");
  check_input_error([] { NumpyRandomState(std::int64_t(1) << 32); }, "seed (4294967296)");
  NumpyRandomState random(42);
  check_input_error([&] { random.randint(0, 2, 2); }, "high (0) must be between 1 and 2**53");
  check_input_error([&] { random.rand(0, 2); }, "size (0, 2) must be positive");
  check_input_error([&] { random.randn(1 << 20, 1 << 20); },
                    "size would be 1048576x1048576, more than");
  CHECK(random.randint(3, 3, 3) == Matrix<double>{{2, 0, 2}, {2, 0, 0}, {2, 1, 2}});
  NumpyRandomStateData broken;
  broken.pos = 625;
  check_input_error([&] { NumpyRandomState{broken}; }, "position (625) must be at most 624");
}
