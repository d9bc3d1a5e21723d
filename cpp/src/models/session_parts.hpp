// What the sessions of every kind share between their task and their model: examples as the models
// take them, each step's likeliest tokens, the task a state_dict's vocabularies imply, a session
// made again from a file, and a session as a file (ModelSession::save).
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attention/classification_tasks.hpp"
#include "attention/model_session.hpp"
#include "attention/sentences.hpp"
#include "attention/softmax.hpp"
#include "attention/trainer.hpp"
#include "attention/translation_session.hpp"
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
    return tasks::find_task(id, seed);
  if (task->id != id)
    detail::fail(detail::Argument("task"), "the task given (", task->id,
                 ") is not the configuration's (", id, ")");
  return task;
}

// What a translation model's configuration takes from its task, the vocabularies' sizes and their
// special tokens, and from its session's, the seed (the session adds its own sizes).
template <class ModelConfig, class SessionConfig>
ModelConfig translation_model_config(const SessionConfig &config, const tasks::Task &task) {
  ModelConfig c;
  c.seed = config.seed;
  c.source_vocab = task.source.tokens.size();
  c.target_vocab = task.target.tokens.size();
  c.sos = static_cast<TokenId>(tasks::Vocabulary::sos);
  c.eos = static_cast<TokenId>(tasks::Vocabulary::eos);
  return c;
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

// BLEU's sentences (tasks::Bleu): an output's target tokens up to <eos> (an output <unk> among
// them, which no reference holds), and the example's reference (its tokens as read, before <unk>).
struct TranslationBleu {
  tasks::Bleu bleu;
  void add(const tasks::Task &task, const std::vector<TokenId> &output,
           const tasks::Example &example) {
    const auto tokens = [&](const auto &ids) {
      std::vector<std::string> words;
      for (const auto id : ids) {
        if (static_cast<std::size_t>(id) == tasks::Vocabulary::eos)
          break;
        words.push_back(task.target.tokens[static_cast<std::size_t>(id)]);
      }
      return words;
    };
    bleu.add(tokens(output),
             example.reference.empty() ? tokens(example.target) : example.reference);
  }
};

// The mean cross-entropy of examples' target tokens (<eos> included), teacher forced, a batch of
// `batch` at a time: tallied from the examples [first, last) (a part of an evaluation: first a
// multiple of `batch`, so that the batches and the sum's order are one pass's).
struct LossTally {
  double sum = 0;
  std::size_t tokens = 0;
  double mean() const { return tokens ? sum / double(tokens) : 0.0; }
};

template <class Model>
void tally_loss(Model &model, const std::vector<tasks::Example> &examples, std::size_t first,
                std::size_t last, std::size_t batch, LossTally &tally) {
  std::vector<SentencePair> pairs;
  for (std::size_t begin = first; begin < last; begin += batch) {
    pairs.clear();
    std::size_t batch_tokens = 0;
    for (std::size_t i = begin; i < std::min(last, begin + batch); ++i) {
      pairs.push_back({to_token_ids(examples[i].source), to_token_ids(examples[i].target), {}});
      batch_tokens += examples[i].target.size();
    }
    tally.sum += double(model.loss(pairs)) * double(batch_tokens);
    tally.tokens += batch_tokens;
  }
}

// A kind's evaluation, tallied a part at a time by part(model, task, examples, first, tally), which
// adds the examples from `first` on and returns where the next part starts, and made from the tally
// by finish(tally): of `examples` at once (a session's evaluate), ...
template <class Model, class Task, class Examples, class Tally, class Finish>
auto evaluate_parts(Model &model, const Task &task, const Examples &examples,
                    std::size_t (*part)(Model &, const Task &, const Examples &, std::size_t,
                                        Tally &),
                    Finish finish) {
  Tally tally;
  for (std::size_t first = 0; first < examples.size();)
    first = part(model, task, examples, first, tally);
  return finish(tally);
}

// ... or of the task's test split, a part a call, in `cache` (a session's prepare_test_evaluation:
// true once it is ready).
template <class Evaluation, class Model, class Task, class Examples, class Tally, class Finish>
bool advance_evaluation(EvaluationCache<Evaluation> &cache, Model &model, const Task &task,
                        std::size_t (*part)(Model &, const Task &, const Examples &, std::size_t,
                                            Tally &),
                        Finish finish) {
  return cache.template advance<Tally>(
      model.parameters(), task.test.size(),
      [&](Tally &tally, std::size_t first) { return part(model, task, task.test, first, tally); },
      finish);
}

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

// What a model's file keeps of a task from text, so that the model loads and works alone: its
// rules, limits, vocabularies (the words after the specials, a line each: no token holds a line
// break) and labels, not its sentences. A grammar's task, or a caption task, needs nothing: its id
// makes it.
inline std::string vocabulary_lines(const tasks::Vocabulary &vocabulary) {
  std::string lines;
  for (std::size_t id = tasks::Vocabulary::unk + 1; id < vocabulary.tokens.size(); ++id)
    lines += (lines.empty() ? "" : "\n") + vocabulary.tokens[id];
  return lines;
}

inline std::vector<std::string> lines_of(const std::string &lines) {
  std::vector<std::string> out;
  for (std::size_t from = 0; !lines.empty() && from <= lines.size();) {
    const std::size_t end = std::min(lines.find('\n', from), lines.size());
    out.push_back(lines.substr(from, end - from));
    from = end + 1;
  }
  return out;
}

inline Metadata text_task_metadata(const std::string &name, const std::string &hash) {
  return {{"taskName", name}, {"taskHash", hash}};
}

inline Metadata task_metadata(const tasks::Task &task) {
  if (!task.text)
    return {};
  Metadata metadata = text_task_metadata(task.name, task.hash);
  for (auto &entry : Metadata{{"sourceUnit", tasks::unit_name(task.text->source_unit)},
                              {"targetUnit", tasks::unit_name(task.text->target_unit)},
                              {"lowercase", task.text->lowercase ? "true" : "false"},
                              {"maxSourceLength", std::to_string(task.max_source_length)},
                              {"maxTargetLength", std::to_string(task.max_target_length)},
                              {"sourceVocabulary", vocabulary_lines(task.source)},
                              {"targetVocabulary", vocabulary_lines(task.target)}})
    metadata.push_back(std::move(entry));
  return metadata;
}

inline Metadata task_metadata(const tasks::ClassificationTask &task) {
  if (!task.text)
    return {};
  std::string labels;
  for (const std::string &label : task.labels)
    labels += (labels.empty() ? "" : "\n") + label;
  Metadata metadata = text_task_metadata(task.name, task.hash);
  for (auto &entry : Metadata{{"unit", tasks::unit_name(task.text->source_unit)},
                              {"lowercase", task.text->lowercase ? "true" : "false"},
                              {"maxLength", std::to_string(task.max_length)},
                              {"vocabulary", vocabulary_lines(task.vocabulary)},
                              {"labels", labels}})
    metadata.push_back(std::move(entry));
  return metadata;
}
template <class Task> Metadata task_metadata(const Task &) { return {}; }

// A task from text as a file keeps it (task_metadata), for the model's configuration's task `id`:
// the one kept under that id (`kept(id)`) when the reader's text is still loaded, else one that
// `read(task)` fills with the rules, limits, vocabularies and labels of the file, without
// sentences. InputError blames "bytes" for a file whose task is not its taskName and taskHash.
template <class Task, class Kept, class Read>
std::shared_ptr<const Task> text_task_of_file(const SavedMetadata &meta, const std::string &id,
                                              Kept kept, Read read) {
  Task task;
  task.id = id;
  task.name = meta.text("taskName");
  task.hash = meta.text("taskHash");
  if (id != task.name + "-" + task.hash.substr(0, 8))
    detail::fail(detail::Argument("bytes"), "the file's task \"", id,
                 "\" is not its taskName and taskHash");
  if (const auto found = kept(id))
    return found;
  const auto unit = [&](const char *key) {
    try {
      return tasks::parse_unit(meta.text(key), key);
    } catch (const InputError &) {
      detail::fail(detail::Argument("bytes"), "the file's ", key, " is neither word nor character");
    }
  };
  const auto length = [&](const char *key) {
    const std::size_t length = meta.size(key);
    if (length < 1 || length > tasks::max_text_length)
      detail::fail(detail::Argument("bytes"), "the file's sentence lengths are out of range");
    return length;
  };
  const auto vocabulary = [&](const char *key) {
    tasks::Vocabulary vocabulary;
    vocabulary.tokens = {"<sos>", "<eos>", "<unk>"};
    for (std::string &word : lines_of(meta.text(key)))
      vocabulary.tokens.push_back(std::move(word));
    return vocabulary;
  };
  read(task, unit, length, vocabulary);
  return std::make_shared<const Task>(std::move(task));
}

inline std::shared_ptr<const tasks::Task> task_of_file(const SavedMetadata &meta,
                                                       const std::string &id, const tasks::Task *) {
  if (!meta.optional("sourceVocabulary"))
    return nullptr;
  return text_task_of_file<tasks::Task>(
      meta, id, tasks::kept_task, [&](tasks::Task &task, auto unit, auto length, auto vocabulary) {
        task.text = tasks::TextRules{unit("sourceUnit"), unit("targetUnit"),
                                     meta.text("lowercase") == "true"};
        task.unit = task.text->source_unit;
        task.gold_links = false;
        task.max_source_length = length("maxSourceLength");
        task.max_target_length = length("maxTargetLength");
        task.source = vocabulary("sourceVocabulary");
        task.target = vocabulary("targetVocabulary");
      });
}

inline std::shared_ptr<const tasks::ClassificationTask>
task_of_file(const SavedMetadata &meta, const std::string &id, const tasks::ClassificationTask *) {
  if (!meta.optional("vocabulary"))
    return nullptr;
  return text_task_of_file<tasks::ClassificationTask>(
      meta, id, tasks::kept_classification_task,
      [&](tasks::ClassificationTask &task, auto unit, auto length, auto vocabulary) {
        const tasks::Unit read = unit("unit");
        task.text = tasks::TextRules{read, read, meta.text("lowercase") == "true"};
        task.rationales = false;
        task.max_length = length("maxLength");
        task.vocabulary = vocabulary("vocabulary");
        task.labels = lines_of(meta.text("labels"));
        if (task.labels.size() < tasks::min_text_labels ||
            task.labels.size() > tasks::max_text_labels)
          detail::fail(detail::Argument("bytes"), "the file's labels are not 2 to 10");
      });
}

// A task the file's metadata does not keep (a grammar's, a caption task): none.
template <class Task>
std::shared_ptr<const Task> task_of_file(const SavedMetadata &, const std::string &, const Task *) {
  return nullptr;
}

// What a file of Session's kind holds (ModelKind<Session>::read_saved): a PyTorch state_dict's as
// infer(file) reads its tensors, else what its metadata says. `what` names the kind in errors ("a
// saved <kind>").
template <template <class> class Session, class Infer>
SavedModel<typename ModelKind<Session>::Config>
read_session_file(const std::uint8_t *bytes, std::size_t size, Infer infer, const char *what) {
  const safetensors::File file = safetensors::parse(bytes, size);
  if (is_state_dict(file))
    return infer(file);
  const SavedMetadata meta(file, model_format(ModelKind<Session>::name), what);
  SavedModel<typename ModelKind<Session>::Config> saved;
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
  using Task = typename ModelKind<Session>::Task;
  std::shared_ptr<const Task> task;
  if (!is_state_dict(file))
    task = task_of_file(SavedMetadata(file, model_format(ModelKind<Session>::name), what),
                        config.task, static_cast<const Task *>(nullptr));
  std::optional<Session<T>> session;
  try {
    session.emplace(config, std::move(task));
  } catch (const InputError &error) {
    detail::fail(detail::Argument("bytes"), "the file's metadata describes no ", what, ": ",
                 error.what());
  }
  load_model_file(file, session->model().parameters());
  return std::move(*session);
}

// A session again from a file of its kind (ModelKind<Session>::load): the configuration and
// precision that read_saved reads, with the file's parameters.
template <class T, template <class> class Session>
Session<T> load_session_file(const std::uint8_t *bytes, std::size_t size, const char *what) {
  const auto saved = ModelKind<Session>::read_saved(bytes, size);
  return load_session<T, Session>(saved.config, saved.precision, safetensors::parse(bytes, size),
                                  what);
}

} // namespace attention::models

namespace attention {

// Its file: the model's parameters, the kind's format, the configuration's fields and what the
// session keeps of its task.
template <template <class> class Session, class T>
std::vector<std::uint8_t> ModelSession<Session, T>::save(Storage storage) const {
  using Kind = ModelKind<Session>;
  Metadata metadata = metadata_of(Kind::fields(), config_);
  for (auto &entry : models::task_metadata(*task_))
    metadata.push_back(std::move(entry));
  return save_model_file(model_.parameters(), model_format(Kind::name), metadata,
                         storage == Storage::float16);
}

template <template <class> class Session, class T, class Translation>
std::vector<TokenId>
TranslationSession<Session, T, Translation>::tokenize(const std::string &sentence,
                                                      tasks::Side side) const {
  return models::to_token_ids(tasks::tokenize(*this->task_, sentence, side));
}

template <template <class> class Session, class T, class Translation>
T TranslationSession<Session, T, Translation>::gradients(
    const std::vector<std::pair<std::string, std::string>> &pairs, ParameterSet<T> &gradients,
    double guide) {
  return this->model_.loss_and_gradients(models::sentence_batch(*this, pairs, guide), gradients,
                                         static_cast<T>(guide));
}

template <template <class> class Session, class T, class Translation>
TrainResult<T> TranslationSession<Session, T, Translation>::train(std::size_t steps,
                                                                  std::size_t batch,
                                                                  double learning_rate,
                                                                  double max_norm, double guide) {
  return models::train_on_pairs(this->trainer_, this->model_, *this->task_, steps, batch,
                                learning_rate, max_norm, guide);
}

template <template <class> class Session, class T, class Translation>
Translation
TranslationSession<Session, T, Translation>::translate(const std::vector<TokenId> &source,
                                                       std::size_t beam) {
  return models::translation_of<Translation>(
      this->model_, source, this->task_->max_target_length + 1, beam, translation_top_k);
}

} // namespace attention
