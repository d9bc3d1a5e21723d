// What the sessions of every kind share between their task and their model: examples as the models
// take them, each step's likeliest tokens, the task a state_dict's vocabularies imply, and a
// session made again from a file.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attention/sentences.hpp"
#include "attention/softmax.hpp"
#include "attention/trainer.hpp"
#include "attention/translation_tasks.hpp"
#include "files/model_file.hpp"
#include "models/checks.hpp"
#include "nn/guided_alignment.hpp"

namespace attention::models {

inline std::vector<TokenId> to_token_ids(const std::vector<std::size_t> &ids) {
  return std::vector<TokenId>(ids.begin(), ids.end());
}

// The translation task a session is made on: the one given (shared with other models of its task
// and seed), which must be the configuration's, else a new one.
inline std::shared_ptr<const tasks::Task>
translation_task(const std::string &id, std::int64_t seed,
                 std::shared_ptr<const tasks::Task> task) {
  if (!task)
    return std::make_shared<const tasks::Task>(tasks::make_task(id, seed));
  if (task->id != id)
    detail::fail(detail::Argument("task"), "the task given (", task->id,
                 ") is not the configuration's (", id, ")");
  return task;
}

inline double share(std::size_t part, std::size_t whole) {
  return whole ? double(part) / double(whole) : 0.0;
}

// Outputs (translations, captions) against their gold: exact matches, and gold tokens (<eos>
// included) the output has at their position.
struct OutputScore {
  std::size_t outputs = 0, exact = 0, tokens = 0, correct = 0;
  void add(const std::vector<TokenId> &output, const std::vector<TokenId> &gold) {
    ++outputs;
    exact += output == gold;
    tokens += gold.size();
    for (std::size_t i = 0; i < gold.size() && i < output.size(); ++i)
      correct += output[i] == gold[i];
  }
  double exact_match() const { return share(exact, outputs); }
  double token_accuracy() const { return share(correct, tokens); }
};

// Guided alignment's links of an example: its words' sure links, <eos> left free (as the
// alignment's measures leave it out).
inline nn::Links guide_of(const tasks::Example &example) {
  auto links = example.alignment;
  links.back().clear();
  return links;
}

inline SentencePair pair_of(const tasks::Example &example, bool guided) {
  return {to_token_ids(example.source), to_token_ids(example.target),
          guided ? guide_of(example) : nn::Links{}};
}

// [source, target] sentences as a translation session's batch (session.tokenize's errors); with
// guide > 0, a pair the task's grammar makes is guided by its gold links.
template <class Session>
std::vector<SentencePair>
sentence_batch(const Session &session,
               const std::vector<std::pair<std::string, std::string>> &pairs, double guide) {
  if (pairs.empty())
    detail::fail(detail::Argument("pairs"),
                 "pairs is empty: give at least one [source, target] pair");
  std::vector<SentencePair> batch;
  batch.reserve(pairs.size());
  for (const auto &[source, target] : pairs) {
    SentencePair &pair = batch.emplace_back();
    pair.source = session.tokenize(source, tasks::Side::source);
    pair.target = session.tokenize(target, tasks::Side::target);
    if (guide > 0)
      if (const auto gold = tasks::gold_example(session.task(), source);
          gold && to_token_ids(gold->target) == pair.target)
        pair.guide = guide_of(*gold);
  }
  return batch;
}

// A translation session's train(): the trainer's loop over the first `pairs` of the task's training
// split (the rest held out), each pair guided by its gold links when guide > 0 (InputError blames
// "guide" for a negative or non-finite weight).
template <class T, class Model>
TrainResult<T> train_on_pairs(Trainer<T> &trainer, Model &model, const tasks::Task &task,
                              std::size_t steps, std::size_t batch, double learning_rate,
                              double max_norm, double guide) {
  check_weight(guide, "guide");
  std::vector<SentencePair> minibatch;
  return trainer.train(model.parameters(), steps, batch, learning_rate, max_norm,
                       [&](const std::vector<std::size_t> &examples, ParameterSet<T> &gradients) {
                         minibatch.clear();
                         for (std::size_t index : examples)
                           minibatch.push_back(pair_of(task.train[index], guide > 0));
                         return model.loss_and_gradients(minibatch, gradients,
                                                         static_cast<T>(guide));
                       });
}

// Each step's `k` likeliest tokens from its logits, likeliest first (ties to the smaller id), and
// the log-probability of `output`, the tokens written.
template <class T> struct Likeliest {
  std::vector<std::vector<std::pair<TokenId, T>>> top;
  double log_probability = 0;
};

template <class T>
Likeliest<T> likeliest(const Matrix<T> &logits, std::size_t k, const std::vector<TokenId> &output) {
  Likeliest<T> result;
  const std::size_t v = logits.shape()[1];
  k = std::min(k, v);
  std::vector<double> row(v), log_probabilities(v);
  std::vector<std::size_t> index(v);
  for (std::size_t t = 0; t < logits.shape()[0]; ++t) {
    std::copy(logits.data() + t * v, logits.data() + (t + 1) * v, row.begin());
    detail::log_softmax_into(row.data(), v, 1.0, nullptr, log_probabilities.data());
    for (std::size_t i = 0; i < v; ++i)
      index[i] = i;
    std::partial_sort(index.begin(), index.begin() + k, index.end(), [&](auto a, auto b) {
      return log_probabilities[a] > log_probabilities[b] ||
             (log_probabilities[a] == log_probabilities[b] && a < b);
    });
    auto &top = result.top.emplace_back();
    for (std::size_t i = 0; i < k; ++i)
      top.emplace_back(static_cast<TokenId>(index[i]),
                       static_cast<T>(std::exp(log_probabilities[index[i]])));
    result.log_probability += log_probabilities[output[t]];
  }
  return result;
}

// A translation model's translation of a source (a Translation of its kind, with trace and beams):
// greedy decoding (beam 1) or beam search up to max_length, with each step's `top` likeliest
// tokens and, for greedy decoding, its one beam.
template <class Translation, class Model>
Translation translation_of(Model &model, const std::vector<TokenId> &source, std::size_t max_length,
                           std::size_t beam, std::size_t top) {
  Translation result;
  if (beam == 1) {
    result.trace = model.translate(source, max_length);
  } else {
    auto search = model.beam_search(source, max_length, beam);
    result.trace = std::move(search.trace);
    result.beams = std::move(search.beams);
  }
  auto likely = likeliest(result.trace.logits, top, result.trace.output);
  result.top = std::move(likely.top);
  if (beam == 1)
    result.beams = {{result.trace.output, likely.log_probability}};
  return result;
}

// The translation task whose vocabularies have these sizes, the rows of a state_dict's source and
// target tables (named in the message when none has).
inline std::string translation_task_of(std::size_t source, std::size_t target,
                                       const char *source_table, const char *target_table) {
  for (const auto &id : tasks::task_ids()) {
    const tasks::Task task = tasks::empty_task(id);
    if (task.source.tokens.size() == source && task.target.tokens.size() == target)
      return id;
  }
  detail::fail(detail::Argument("bytes"), "no task has vocabularies of ", source, " source and ",
               target, " target tokens, as the file's ", source_table, " and ", target_table,
               " have");
}

// A session's file: its model's parameters, its kind's format and its configuration's fields.
template <template <class> class Session, class T>
std::vector<std::uint8_t> session_file(const Session<T> &session, bool float16) {
  using Kind = ModelKind<Session>;
  return save_model_file(session.model().parameters(), model_format(Kind::name),
                         metadata_of(Kind::fields(), session.config()), float16);
}

// What a file of Session's kind holds ({ config, precision }): a PyTorch state_dict's as
// infer(file) reads its tensors, else what its metadata says. `what` names the kind in errors ("a
// saved <kind>").
template <template <class> class Session, class Saved, class Infer>
Saved read_session_file(const std::uint8_t *bytes, std::size_t size, Infer infer,
                        const char *what) {
  const safetensors::File file = safetensors::parse(bytes, size);
  if (is_state_dict(file))
    return infer(file);
  const SavedMetadata meta(file, model_format(ModelKind<Session>::name), what);
  Saved saved;
  saved.config = config_from(ModelKind<Session>::fields(), meta);
  saved.precision = meta.precision();
  return saved;
}

// A session of the configuration a file's metadata gave (checked as a caller's would be, but
// blamed on the file), with the file's parameters. `what` names the kind ("the file's metadata
// describes no <kind>").
template <class T, template <class> class Session, class Config>
Session<T> load_session(const Config &config, const std::string &precision,
                        const safetensors::File &file, const char *what) {
  require_precision<T>(precision);
  std::optional<Session<T>> session;
  try {
    session.emplace(config);
  } catch (const InputError &error) {
    detail::fail(detail::Argument("bytes"), "the file's metadata describes no ", what, ": ",
                 error.what());
  }
  load_model_file(file, session->model().parameters());
  return std::move(*session);
}

} // namespace attention::models
