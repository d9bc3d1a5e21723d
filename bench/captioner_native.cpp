// The captioner's training built natively (plain -O3, SSE2 as on any x86-64, one thread): how many
// steps and seconds the session createCaptioner makes needs to reach an exact match on the test
// split, with the test evaluation every `every` steps:
//   captioner_native <language> <channels> <annotation> <hidden> <batch> <learning rate>
//                    <regularization> <seed> <every> <max steps> [target exact match]
// Prints one JSON line per evaluation ({"step", "seconds" (training only), "cpuSeconds" (the same
// as this process's CPU time, which other processes on a shared machine inflate less), "loss",
// "exactMatch", "tokenAccuracy", "regionAccuracy", "categories"}) and stops at the target (0.95 by
// default).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>

#include "attention/captioner_session.hpp"

using namespace attention;

int main(int argc, char **argv) {
  if (argc != 11 && argc != 12) {
    std::fprintf(stderr, "usage: captioner_native <language> <channels> <annotation> <hidden> "
                         "<batch> <learning rate> <regularization> <seed> <every> <max steps> "
                         "[target exact match]\n");
    return 2;
  }
  try {
    CaptionerSessionConfig config;
    config.language = argv[1];
    config.channels = std::strtoul(argv[2], nullptr, 10);
    config.annotation = std::strtoul(argv[3], nullptr, 10);
    config.hidden = std::strtoul(argv[4], nullptr, 10);
    config.seed = std::strtol(argv[8], nullptr, 10);
    const std::size_t batch = std::strtoul(argv[5], nullptr, 10),
                      every = std::strtoul(argv[9], nullptr, 10),
                      max_steps = std::strtoul(argv[10], nullptr, 10);
    const double learning_rate = std::strtod(argv[6], nullptr),
                 regularization = std::strtod(argv[7], nullptr),
                 target = argc == 12 ? std::strtod(argv[11], nullptr) : 0.95;
    CaptionerSession<float> session(config);
    double seconds = 0, cpu_seconds = 0;
    while (session.steps() < max_steps) {
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      const auto result =
          session.train(every, batch, learning_rate, default_max_norm, regularization);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      cpu_seconds += double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
      const auto evaluation = session.test_evaluation();
      std::printf("{\"step\": %zu, \"seconds\": %.3f, \"cpuSeconds\": %.3f, \"loss\": %.5f, "
                  "\"exactMatch\": %.4f, "
                  "\"tokenAccuracy\": %.4f, \"regionAccuracy\": %.4f, \"categories\": {",
                  result.step, seconds, cpu_seconds, double(result.loss), evaluation.exact_match,
                  evaluation.token_accuracy, evaluation.region_accuracy);
      for (std::size_t i = 0; i < evaluation.categories.size(); ++i) {
        const auto &category = evaluation.categories[i];
        std::printf("%s\"%s\": %.4f", i ? ", " : "",
                    tasks::caption_category_name(category.category),
                    double(category.aligned) / double(category.count));
      }
      std::printf("}}\n");
      std::fflush(stdout);
      if (evaluation.exact_match >= target)
        break;
    }
  } catch (const std::exception &error) {
    std::fprintf(stderr, "captioner_native: %s\n", error.what());
    return 1;
  }
  return 0;
}
