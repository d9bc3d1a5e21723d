// The core built natively (baseline x86-64: SSE2, the vector width of WebAssembly SIMD128), timed
// on the same inputs as the WebAssembly engine in bench/run.js, which runs this program per case:
//   bench_native <n> <heads> <d> <fused 0|1> <seed>
// Prints {"median_ms": …, "checksum": …}; inputs are randn from numpy's RandomState(seed), as in
// run.js, so the checksum of the output can be compared.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "attention/attention.hpp"
#include "attention/numpy_random.hpp"

using namespace attention;

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: bench_native <n> <heads> <d> <fused 0|1> <seed>\n");
    return 2;
  }
  const std::size_t n = std::strtoul(argv[1], nullptr, 10), heads = std::strtoul(argv[2], nullptr, 10),
                    d = std::strtoul(argv[3], nullptr, 10);
  const bool fused = argv[4][0] == '1';
  NumpyRandomState random(std::strtoll(argv[5], nullptr, 10));
  std::vector<Matrix<float>> q, k, v;
  for (std::size_t h = 0; h < heads; ++h) {
    q.push_back(xt::cast<float>(random.randn(n, d)));
    k.push_back(xt::cast<float>(random.randn(n, d)));
    v.push_back(xt::cast<float>(random.randn(n, d)));
  }
  AttentionOptions<float> options;
  options.weights = !fused;
  double checksum = 0;
  auto run = [&] {
    checksum = 0;
    for (std::size_t h = 0; h < heads; ++h)
      checksum += xt::sum(attention::attention(q[h], k[h], v[h], options).output)();
  };
  run(); // warm-up
  std::vector<double> times;
  const auto begin = std::chrono::steady_clock::now();
  while (times.size() < 5 || (std::chrono::steady_clock::now() - begin < std::chrono::milliseconds(500) &&
                              times.size() < 200)) {
    const auto start = std::chrono::steady_clock::now();
    run();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  std::printf("{\"median_ms\": %.6f, \"checksum\": %.9g}\n", times[times.size() / 2], checksum);
  return 0;
}
