// Training on several threads gives one thread's parameters and losses bit for bit: the layers
// split their products and row loops by outputs, never a sum (issue 30).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "attention/captioner_session.hpp"
#include "attention/classifier_session.hpp"
#include "attention/seq2seq_session.hpp"
#include "attention/transformer_session.hpp"
#include "attention/translation_tasks.hpp"
#include "threads.hpp"

using namespace attention;

namespace {

// `count` pairs of 3 to 7 words a side, each drawn from `words` words ("s17" … "t4"): vocabularies
// of a few hundred words, whose output layer and softmax are large enough to split.
std::string generated_pairs(std::size_t count, std::size_t words) {
  std::uint32_t state = 1;
  const auto next = [&] { return (state = state * 1664525u + 1013904223u) >> 8; };
  std::string text;
  for (std::size_t i = 0; i < count; ++i)
    for (const char *side : {"s", "t"}) {
      const std::size_t length = 3 + next() % 5;
      for (std::size_t w = 0; w < length; ++w)
        text += side + std::to_string(next() % words) + (w + 1 < length ? " " : "");
      text += *side == 's' ? "\t" : "\n";
    }
  return text;
}

struct Run {
  std::vector<float> losses, parameters;
};

// `steps` steps, a minibatch at a time, on `threads` threads (every product and loop split when
// min_flops is 0); the loss weight `weight` for the kinds whose train() takes one after max_norm
// (a seq2seq model's guided alignment, a classifier's rationale).
template <class Session, class Config>
Run train(const Config &config, std::size_t threads, double min_flops, std::size_t steps,
          std::size_t batch, double learning_rate, double weight) {
  const Threads scope(threads, min_flops);
  Session session(config);
  Run run;
  for (std::size_t s = 0; s < steps; ++s) {
    if constexpr (std::is_same_v<Session, Seq2seqSession<float>> ||
                  std::is_same_v<Session, ClassifierSession<float>>)
      run.losses.push_back(session.train(1, batch, learning_rate, default_max_norm, weight).loss);
    else
      run.losses.push_back(session.train(1, batch, learning_rate).loss);
  }
  const auto &p = session.model().parameters();
  run.parameters.assign(p.data(), p.data() + p.size());
  return run;
}

bool same_bits(const std::vector<float> &a, const std::vector<float> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

template <class Session, class Config>
void check_threads_agree(const Config &config, double min_flops, std::size_t steps,
                         std::size_t batch, double learning_rate, double weight = 0) {
  const Run one = train<Session>(config, 1, min_flops, steps, batch, learning_rate, weight);
  for (std::size_t threads : {2, 3}) {
    CAPTURE(threads);
    const Run many =
        train<Session>(config, threads, min_flops, steps, batch, learning_rate, weight);
    CHECK(same_bits(many.losses, one.losses));
    CHECK(same_bits(many.parameters, one.parameters));
  }
}

} // namespace

TEST_CASE("seq2seq models train the same on 2 and 3 threads as on one, every loop split") {
  struct Case {
    ScoreFunction scoring;
    Encoder encoder;
    std::size_t layers;
    double guide;
  };
  for (const Case c : {Case{ScoreFunction::additive, Encoder::bidirectional, 1, 0},
                       Case{ScoreFunction::general, Encoder::forward, 2, 0},
                       Case{ScoreFunction::concat, Encoder::bidirectional, 1, 0.5}}) {
    CAPTURE(score_function_name(c.scoring));
    Seq2seqSessionConfig config;
    config.task = "en-fr";
    config.scoring = c.scoring;
    config.encoder = c.encoder;
    config.layers = c.layers;
    config.embedding = 8;
    config.hidden = 16;
    check_threads_agree<Seq2seqSession<float>>(config, 0, 3, 16, 0.01, c.guide);
  }
}

TEST_CASE("a Transformer and a captioner train the same on 2 and 3 threads, every loop split") {
  TransformerSessionConfig transformer;
  transformer.task = "dates";
  transformer.model = 16;
  transformer.heads = 2;
  transformer.feedforward = 32;
  check_threads_agree<TransformerSession<float>>(transformer, 0, 3, 16, 0.002);
  CaptionerSessionConfig captioner;
  captioner.channels = 4;
  captioner.annotation = 8;
  captioner.attention = 8;
  captioner.embedding = 8;
  captioner.hidden = 16;
  check_threads_agree<CaptionerSession<float>>(captioner, 0, 2, 4, 0.005);
}

TEST_CASE("a classifier trains the same on 2 and 3 threads, every loop split") {
  struct Case {
    ClassifierEncoder encoder;
    ClassifierAttention attention;
    const char *language;
    double rationale;
  };
  for (const Case c : {Case{ClassifierEncoder::bigru, ClassifierAttention::learned, "en", 0.5},
                       Case{ClassifierEncoder::bigru, ClassifierAttention::uniform, "zh", 0},
                       Case{ClassifierEncoder::none, ClassifierAttention::learned, "en", 0}}) {
    CAPTURE(c.language);
    ClassifierSessionConfig config;
    config.language = c.language;
    config.encoder = c.encoder;
    config.attention = c.attention;
    config.embedding = 8;
    config.hidden = 8;
    check_threads_agree<ClassifierSession<float>>(config, 0, 3, 16, 0.01, c.rationale);
  }
}

TEST_CASE("with a few hundred words, the output layer splits at the default threshold and both "
          "models train the same on several threads") {
  tasks::TextTaskOptions options;
  options.name = "generated";
  const auto task = tasks::keep_task(tasks::make_text_task(generated_pairs(1500, 300), options));
  REQUIRE(task->target.tokens.size() > 250);
  const std::size_t batch = 32, width = 32;
  // the logits' product over a minibatch's shortest target (3 words and <eos>) splits in two
  CHECK(2.0 * batch * 4 * double(task->target.tokens.size()) * width >=
        2 * parallel::min_thread_flops);
  Seq2seqSessionConfig seq2seq;
  seq2seq.task = task->id;
  seq2seq.encoder = Encoder::bidirectional;
  seq2seq.embedding = 16;
  seq2seq.hidden = width;
  check_threads_agree<Seq2seqSession<float>>(seq2seq, parallel::min_thread_flops, 4, batch, 0.005);
  TransformerSessionConfig transformer;
  transformer.task = task->id;
  transformer.model = width;
  check_threads_agree<TransformerSession<float>>(transformer, parallel::min_thread_flops, 4, batch,
                                                 0.002);
  tasks::forget_task(task->id);
}
