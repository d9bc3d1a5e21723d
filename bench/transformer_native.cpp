// The Transformer's training built natively (plain -O3, SSE2 as on any x86-64, one thread): how
// many steps and seconds of training the session (createTransformer's defaults unless told) needs
// to reach an exact match on the task's test split, evaluated every `every` steps (not timed):
//   transformer_native <task> <learning rate> <batch> <max steps> <every> [seed [model heads
//                      encoder-layers decoder-layers feedforward]]
// Prints one JSON line per evaluation: {"step", "ms" (training so far), "loss", "exact", "aer"}.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "attention/transformer_session.hpp"

using namespace attention;

int main(int argc, char **argv) {
  if (argc != 6 && argc != 7 && argc != 12) {
    std::fprintf(stderr, "usage: transformer_native <task> <learning rate> <batch> <max steps> "
                         "<every> [seed [model heads encoder-layers decoder-layers "
                         "feedforward]]\n");
    return 2;
  }
  try {
    TransformerSessionConfig config;
    config.task = argv[1];
    const double learning_rate = std::strtod(argv[2], nullptr);
    const std::size_t batch = std::strtoul(argv[3], nullptr, 10),
                      max_steps = std::strtoul(argv[4], nullptr, 10),
                      every = std::strtoul(argv[5], nullptr, 10);
    if (argc >= 7)
      config.seed = std::strtoll(argv[6], nullptr, 10);
    if (argc == 12) {
      config.model = std::strtoul(argv[7], nullptr, 10);
      config.heads = std::strtoul(argv[8], nullptr, 10);
      config.encoder_layers = std::strtoul(argv[9], nullptr, 10);
      config.decoder_layers = std::strtoul(argv[10], nullptr, 10);
      config.feedforward = std::strtoul(argv[11], nullptr, 10);
    }
    TransformerSession<float> session(config);
    double ms = 0;
    for (std::size_t step = 0; step < max_steps;) {
      const auto start = std::chrono::steady_clock::now();
      const float loss = session.train(every, batch, learning_rate).loss;
      ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
      step += every;
      const auto evaluation = session.test_evaluation();
      std::printf("{\"step\": %zu, \"ms\": %.1f, \"loss\": %.5f, \"exact\": %.4f, \"aer\": %.4f}\n",
                  step, ms, loss, evaluation.exact_match, evaluation.aer);
      std::fflush(stdout);
      if (evaluation.exact_match >= 0.98)
        break;
    }
  } catch (const std::exception &error) {
    std::fprintf(stderr, "transformer_native: %s\n", error.what());
    return 1;
  }
  return 0;
}
