// The core's thread count for one scope, put back to 1 after; and, when given, the smallest loop
// the layers split (parallel::min_thread_flops), put back too: 0 splits every product and row loop.
#pragma once

#include "attention/detail/parallel.hpp"

struct Threads {
  explicit Threads(std::size_t n, double min_flops = attention::parallel::min_thread_flops)
      : saved_(attention::parallel::min_thread_flops) {
    attention::parallel::set_threads(n);
    attention::parallel::min_thread_flops = min_flops;
  }
  ~Threads() {
    attention::parallel::set_threads(1);
    attention::parallel::min_thread_flops = saved_;
  }
  Threads(const Threads &) = delete;
  Threads &operator=(const Threads &) = delete;

private:
  double saved_;
};
