// numpy's legacy global generator (np.random.seed / randint / rand / randn), reproduced bit for
// bit so that seeded weights in the notebooks come out of the engine unchanged. Consecutive calls
// continue one stream, as they do on numpy's global RandomState.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "errors.hpp"

namespace attention {

// The whole generator state, plain data so that callers (the JavaScript wrapper) can hold it
// between calls: the MT19937 key and position, and numpy's cached second normal deviate.
struct NumpyRandomStateData {
  std::array<std::uint32_t, 624> key{};
  std::uint32_t pos = 624;
  bool has_gauss = false;
  double gauss = 0;
};

// The largest seed numpy accepts (np.random.seed: 0 … 2**32 - 1).
constexpr std::int64_t max_seed = 0xFFFFFFFFLL;

class NumpyRandomState {
public:
  // np.random.seed(seed); numpy accepts 0 <= seed <= 2**32 - 1.
  explicit NumpyRandomState(std::int64_t seed);
  explicit NumpyRandomState(const NumpyRandomStateData &state);
  const NumpyRandomStateData &state() const { return state_; }

  // np.random.randint(high, size=(rows, cols)): integers in [0, high), high >= 1.
  Matrix<double> randint(std::int64_t high, std::size_t rows, std::size_t cols);
  // np.random.rand(rows, cols): uniform doubles in [0, 1) with 53 random bits.
  Matrix<double> rand(std::size_t rows, std::size_t cols);
  // np.random.randn(rows, cols): standard normal by the polar method, as numpy's legacy_gauss.
  Matrix<double> randn(std::size_t rows, std::size_t cols);
  // One of the three by its name ("randint", "rand", "randn"; InputError blames "kind" for any
  // other); `high` is randint's.
  Matrix<double> draw(const std::string &kind, std::int64_t high, std::size_t rows,
                      std::size_t cols);
  // 0 … n - 1 shuffled as numpy's code order = list(range(n)); for i = n - 1 … 1:
  // j = r.randint(i + 1); swap order[i], order[j] (Fisher–Yates) shuffles them.
  std::vector<std::size_t> shuffled(std::size_t n);

private:
  std::uint32_t next_uint32();
  std::uint64_t next_uint64();
  double next_double();
  double next_gauss();
  std::uint64_t bounded(std::uint64_t max);

  NumpyRandomStateData state_;
};

} // namespace attention
