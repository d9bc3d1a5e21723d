// The seq2seq model's training built natively (plain -O3, SSE2 as on any x86-64, one thread),
// timed on the same minibatches as the WebAssembly engine in bench/seq2seq.js, which runs:
//   seq2seq_native <task> <scoring> <embedding> <hidden> <batch> <warmup steps> <timed steps>
// The session is the one createSeq2seq makes (seed 0, default learning rate): the same task
// split, initial parameters and shuffled minibatches. Prints {"first_loss": …, "ms": …,
// "loss": …}: the first step's loss, the time of the timed steps, and the last step's loss.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "attention/seq2seq_session.hpp"

using namespace attention;

int main(int argc, char **argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: seq2seq_native <task> <scoring> <embedding> <hidden> <batch> "
                         "<warmup steps> <timed steps>\n");
    return 2;
  }
  try {
    Seq2seqSessionConfig config;
    config.task = argv[1];
    config.scoring = parse_score_function(argv[2]);
    config.embedding = std::strtoul(argv[3], nullptr, 10);
    config.hidden = std::strtoul(argv[4], nullptr, 10);
    const std::size_t batch = std::strtoul(argv[5], nullptr, 10),
                      warmup = std::strtoul(argv[6], nullptr, 10),
                      steps = std::strtoul(argv[7], nullptr, 10);
    Seq2seqSession<float> session(config);
    const float first_loss = session.train(1, batch).loss;
    if (warmup > 1)
      session.train(warmup - 1, batch);
    const auto start = std::chrono::steady_clock::now();
    const float loss = session.train(steps, batch).loss;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::printf("{\"first_loss\": %.9g, \"ms\": %.6f, \"loss\": %.9g}\n", first_loss, ms, loss);
  } catch (const std::exception &error) {
    std::fprintf(stderr, "seq2seq_native: %s\n", error.what());
    return 1;
  }
  return 0;
}
