// Splitting the core's work across threads: the attention kernels' heads and blocks of queries,
// and training's products and loops (for_ranges), always so that the results are the same bit for
// bit on any number of threads.
//
// With ATTENTION_THREADS defined (native builds and the threaded WebAssembly build) a pool of
// std::threads, started once and reused, runs the tasks beside the calling thread. Without it
// (the default WebAssembly build, which has no threads) tasks run in order on the caller and no
// thread code is compiled in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <limits>

#ifdef ATTENTION_THREADS
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace attention::parallel {

// Work below this many floating-point operations stays on the calling thread: handing it to
// other threads (their caches cold for its data) costs more than it saves. Measured on two
// cores in WebAssembly: one 64x64 attention over 8 heads (8 MFLOP) ran slower on two threads,
// one 256x256 head (17 MFLOP) 1.4x faster.
constexpr double min_split_flops = 1e7;

#ifdef ATTENTION_THREADS

class Pool {
public:
  static Pool &instance() {
    static Pool pool;
    return pool;
  }
  ~Pool() { resize(1); }

  std::size_t threads() const { return workers_.size() + 1; }

  // The calling thread counts as one: resize(1) stops every worker.
  void resize(std::size_t threads) {
    std::lock_guard<std::mutex> serial(calls_);
    {
      std::lock_guard<std::mutex> lock(state_);
      stopping_ = true;
    }
    start_.notify_all();
    for (auto &worker : workers_)
      worker.join();
    workers_.clear();
    stopping_ = false;
    for (std::size_t i = 1; i < threads; ++i)
      workers_.emplace_back([this, seen = generation_.load()] { work(seen); });
  }

  // Whether this thread is running one of the pool's tasks (the caller's share included).
  static bool &in_task() {
    thread_local bool inside = false;
    return inside;
  }

  // Runs call(context, i) for i in [0, count) on the pool and the caller; returns when all are
  // done. Calls from different threads take turns; a task must not call run itself.
  void run(std::size_t count, void (*call)(const void *, std::size_t), const void *context) {
    std::lock_guard<std::mutex> serial(calls_);
    {
      std::lock_guard<std::mutex> lock(state_);
      job_ = {call, context, count};
      next_ = 0;
      pending_ = workers_.size();
      error_ = nullptr;
      error_task_ = std::numeric_limits<std::size_t>::max();
      ++generation_;
    }
    start_.notify_all();
    drain();
    watch([this] { return pending_.load() == 0; });
    std::unique_lock<std::mutex> lock(state_);
    done_.wait(lock, [this] { return pending_.load() == 0; });
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  struct Job {
    void (*call)(const void *, std::size_t) = nullptr;
    const void *context = nullptr;
    std::size_t count = 0;
  };

  // Takes tasks until none are left; keeps the exception of the lowest-numbered failing task,
  // so the error a caller sees does not depend on scheduling.
  void drain() {
    in_task() = true;
    for (std::size_t i; (i = next_.fetch_add(1)) < job_.count;) {
      try {
        job_.call(job_.context, i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(state_);
        if (i < error_task_) {
          error_task_ = i;
          error_ = std::current_exception();
        }
      }
    }
    in_task() = false;
  }

  // Waiting threads first watch for what they wait for, a while, before they sleep: waking a
  // sleeping thread takes tens of microseconds, more than a small job, and calls come in runs.
  template <class Ready> static void watch(const Ready &ready) {
    constexpr int rounds = 1 << 16;
    for (int round = 0; round < rounds && !ready(); ++round) {
    }
  }

  // `seen` is the generation when the worker was made: jobs after it are new to this worker.
  void work(std::size_t seen) {
    for (;;) {
      watch([&] { return generation_.load() != seen; });
      {
        std::unique_lock<std::mutex> lock(state_);
        start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_)
          return;
        seen = generation_;
      }
      drain();
      std::lock_guard<std::mutex> lock(state_);
      if (--pending_ == 0)
        done_.notify_one();
    }
  }

  std::mutex calls_, state_;
  std::condition_variable start_, done_;
  std::vector<std::thread> workers_;
  Job job_;
  std::atomic<std::size_t> next_{0};
  std::size_t error_task_ = 0;
  // changed under state_, also read while watching
  std::atomic<std::size_t> generation_{0}, pending_{0};
  std::exception_ptr error_;
  bool stopping_ = false;
};

// How many threads the core uses, the caller included (1 by default).
inline void set_threads(std::size_t threads) { Pool::instance().resize(threads < 1 ? 1 : threads); }
inline std::size_t threads() { return Pool::instance().threads(); }
// The threads that work here can split across: none but this one inside a task.
inline std::size_t free_threads() { return Pool::in_task() ? 1 : threads(); }

// Runs task(i) for i in [0, count) on the pool; in order on this thread inside a task (a kernel
// that splits its work, called from a task that was split already).
template <class Task> void for_each(std::size_t count, const Task &task) {
  if (count == 1 || free_threads() == 1) {
    for (std::size_t i = 0; i < count; ++i)
      task(i);
    return;
  }
  Pool::instance().run(
      count, [](const void *t, std::size_t i) { (*static_cast<const Task *>(t))(i); }, &task);
}

#else

inline void set_threads(std::size_t) {}
inline std::size_t threads() { return 1; }
inline std::size_t free_threads() { return 1; }

// Runs task(i) for i in [0, count), here in order on the caller.
template <class Task> void for_each(std::size_t count, const Task &task) {
  for (std::size_t i = 0; i < count; ++i)
    task(i);
}

#endif

// The least work, in floating-point operations, worth handing to a thread: the layers' products
// and loops (for_ranges, and for_each given its flops) split into a range per this much at most.
// Measured on two cores in WebAssembly, training steps on two threads against one (the best of
// four or five runs) at 250,000, 120,000, 60,000 and 30,000: the real-corpus bench's recurrent
// model 1.63×, 1.75×, 1.77×, 1.78× and its attention-only one 1.61×, 1.70×, 1.73×, 1.68×
// (bench/translation.js); a grammar's default recurrent model 1.30×, 1.29×, 1.43×, 1.46×. Tests
// lower it (0: every loop splits) so that a small model's products split too.
inline double min_thread_flops = 6e4;

// How many threads' shares `flops` of work is worth, from 1 to `most`.
inline std::size_t shares(double flops, std::size_t most) {
  if (flops >= double(most) * min_thread_flops)
    return most;
  return std::max<std::size_t>(1, static_cast<std::size_t>(flops / min_thread_flops));
}

// for_each when `flops` (all the tasks' work) is worth two threads, else in order here.
template <class Task> void for_each(std::size_t count, double flops, const Task &task) {
  if (free_threads() == 1 || shares(flops, 2) < 2) {
    for (std::size_t i = 0; i < count; ++i)
      task(i);
    return;
  }
  for_each(count, task);
}

// Runs task(begin, end) over consecutive ranges covering [0, count), each a multiple of `unit`
// long but the last: up to `per_thread` ranges a thread (more even out items of uneven work, as
// threads that come free take the next), as many as `flops` (the whole loop's work) is worth;
// task(0, count) here when it is worth one. Each range is one thread's: what a task sums over its
// items, it sums in the order one thread would, so results do not depend on the thread count.
template <class Task>
void for_ranges(std::size_t count, std::size_t unit, double flops, const Task &task,
                std::size_t per_thread = 1) {
  const std::size_t units = (count + unit - 1) / unit;
  const std::size_t most = free_threads() == 1 ? 1 : std::min(units, per_thread * threads());
  const std::size_t ranges = most <= 1 ? 1 : shares(flops, most);
  if (ranges <= 1)
    return task(std::size_t(0), count);
  const std::size_t length = (units + ranges - 1) / ranges * unit;
  for_each(ranges, [&](std::size_t r) {
    const std::size_t begin = r * length;
    if (begin < count)
      task(begin, std::min(count, begin + length));
  });
}

} // namespace attention::parallel
