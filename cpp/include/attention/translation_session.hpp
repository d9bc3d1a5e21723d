// What the translation kinds' sessions (those over a tasks::Task of sentence pairs) add alike to
// ModelSession: sentences as ids, the loss and gradients of sentence pairs, training on the task's
// pairs with guided alignment, and translation. Each derives from TranslationSession<Session, T,
// its Translation<T>> (a trace, each step's likeliest tokens and the beams).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model_session.hpp"
#include "sentences.hpp"
#include "translation_tasks.hpp"

namespace attention {

// How many of the most likely next tokens translate() reports for each step.
constexpr std::size_t translation_top_k = 5;

// What the translation kinds' descriptions (model_kind.hpp) share: their task, a grammar's or the
// reader's text, by its id and seed (models of one task and seed share it), and guided alignment's
// weight λ as train()'s loss weight (0: a model that learns freely).
struct TranslationKind {
  using Task = tasks::Task;
  template <class Config> static std::string task_key(const Config &config) {
    return config.task + " " + std::to_string(config.seed);
  }
  template <class Config> static std::shared_ptr<const Task> make_task(const Config &config) {
    return tasks::find_task(config.task, config.seed);
  }
  static constexpr const char *loss_weight = "guide";
  static constexpr double default_loss_weight = 0;
};

template <template <class> class Session, class T, class Translation>
class TranslationSession : public ModelSession<Session, T> {
  using Kind = ModelKind<Session>;

public:
  // A sentence as ids (tasks::tokenize, InputError blaming "sentence").
  std::vector<TokenId> tokenize(const std::string &sentence, tasks::Side side) const;

  // The mean loss of `pairs` (sentences, teacher forced) and its gradients, written over
  // `gradients` (make_gradients()), with guided alignment of weight `guide` (see train) on the
  // pairs the task's grammar makes. InputError blames "pairs" for an empty list, "sentence" for a
  // sentence the task cannot tokenize, "guide" for a negative or non-finite weight.
  T gradients(const std::vector<std::pair<std::string, std::string>> &pairs,
              ParameterSet<T> &gradients, double guide = 0);

  // `steps` optimiser steps; returns the loss of the last minibatch. With `guide` (λ) > 0, the
  // loss adds guided alignment (the model's header says over which attention): each target word's
  // attention is pulled towards its sure gold links (tasks::Example::alignment), <eos> left free,
  // as are a pair's words when the grammar does not make it (gradients' pairs). InputError blames
  // "steps", "batch", "learningRate", "guide" when out of range. When a loss or the parameters
  // stop being finite, throws InputError blaming "learningRate", with the parameters of the last
  // finite step kept (and Adam's moments reset).
  TrainResult<T> train(std::size_t steps, std::size_t batch = Kind::default_batch,
                       double learning_rate = Kind::default_learning_rate,
                       double max_norm = default_max_norm, double guide = 0);

  // Greedy decoding (beam 1) or beam search of a tokenized source, up to the task's longest
  // target and <eos>. InputError blames "source", and "beam" for a width outside 1 …
  // max_beam_width.
  Translation translate(const std::vector<TokenId> &source, std::size_t beam = 1);

protected:
  using ModelSession<Session, T>::ModelSession;
};

} // namespace attention
