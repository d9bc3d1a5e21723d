// GFLOP/s of the float GEMM kernel at the shapes seq2seq training runs (embedding/hidden 64/128 and
// 128/256, batch 32, about 9 steps: 288 rows), natively and as WebAssembly, best of several
// repeats. Header-only, so one command builds either:
//   c++ -O3 -std=c++17 -Icpp/include bench/gemm_bench.cpp -o build/gemm_bench
//   em++ -O3 -std=c++17 -msimd128 -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -Icpp/include
//     bench/gemm_bench.cpp -o build/gemm_bench.cjs      (then: node --no-liftoff
//     build/gemm_bench.cjs: without it, V8 left the packed product in its baseline compiler here,
//     at a third of the speed, though not in the engine's training, where --no-liftoff changes
//     nothing)
// `npm run bench` runs the native one (build/native/gemm_bench). Prints one line per shape:
// "name m n k GFLOP/s".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "attention/detail/kernels.hpp"

using namespace attention::kernels;

namespace {

struct Shape {
  const char *name; // which product of training it is
  std::size_t m, n, k;
  char kind; // 't': A B^T (gemm_abt), 'n': A B (gemm_ab), 'a': A^T B (gemm_atb), 'p': A B^T with
             // B packed once (gemm_packed)
};

double best_gflops(const Shape &s) {
  std::vector<float> a(s.m * s.k + s.k * s.m), b(s.n * s.k), c(s.m * s.n);
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = float(i % 13) * 0.01f - 0.06f;
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = float(i % 7) * 0.02f - 0.07f;
  const double flops = 2.0 * s.m * s.n * s.k;
  const std::size_t calls = std::max<std::size_t>(1, std::size_t(2e8 / flops));
  PackedB<float> packed;
  if (s.kind == 'p')
    packed.pack_transposed(s.n, s.k, b.data(), s.k);
  double best = 0;
  for (int repeat = 0; repeat < 15; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t call = 0; call < calls; ++call) {
      switch (s.kind) {
      case 't':
        gemm_abt(s.m, s.n, s.k, a.data(), s.k, b.data(), s.k, c.data(), s.n);
        break;
      case 'n':
        gemm_ab(s.m, s.n, s.k, a.data(), s.k, b.data(), s.n, c.data(), s.n);
        break;
      case 'a':
        gemm_atb(s.m, s.n, s.k, a.data(), s.m, b.data(), s.n, c.data(), s.n, true);
        break;
      case 'p':
        gemm_packed(s.m, a.data(), s.k, packed, c.data(), s.n);
        break;
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, flops * calls / seconds / 1e9);
  }
  return best;
}

} // namespace

int main() {
  const Shape shapes[] = {
      {"W_hh step fwd 128", 32, 384, 128, 't'},   {"W_hh step bwd 128", 32, 128, 384, 'n'},
      {"dW_hh 128", 384, 128, 288, 'a'},          {"dW_ih 128", 384, 192, 288, 'a'},
      {"x W_ih^T 128", 288, 384, 64, 't'},        {"dgi W_ih 128", 288, 64, 384, 'n'},
      {"W_hh step fwd 256", 32, 768, 256, 't'},   {"W_hh step bwd 256", 32, 256, 768, 'n'},
      {"dW_hh 256", 768, 256, 288, 'a'},          {"dW_ih 256", 768, 384, 288, 'a'},
      {"x W_ih^T 256", 288, 768, 128, 't'},       {"dgi W_ih 256", 288, 128, 768, 'n'},
      {"attn 1 row 128", 1, 9, 128, 't'},         {"W_hh step fwd 32", 32, 96, 32, 't'},
      {"W_hh packed fwd 128", 32, 384, 128, 'p'}, {"W_hh packed fwd 256", 32, 768, 256, 'p'},
      {"W_hh packed fwd 32", 32, 96, 32, 'p'},
  };
  for (const auto &s : shapes)
    std::printf("%-22s %4zu %4zu %4zu %6.2f\n", s.name, s.m, s.n, s.k, best_gflops(s));
}
