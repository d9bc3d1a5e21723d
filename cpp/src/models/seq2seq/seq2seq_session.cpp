#include "attention/seq2seq_session.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "attention/softmax.hpp"
#include "core/decimal.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;

constexpr const char *format_name = "attention-stepper/seq2seq";

std::vector<TokenId> to_token_ids(const std::vector<std::size_t> &ids) {
  return std::vector<TokenId>(ids.begin(), ids.end());
}

Seq2seqConfig model_config(const Seq2seqSessionConfig &config, const tasks::Task &task) {
  Seq2seqConfig c;
  c.source_vocab = task.source.tokens.size();
  c.target_vocab = task.target.tokens.size();
  c.embedding = config.embedding;
  c.hidden = config.hidden;
  c.scoring = config.scoring;
  c.encoder = config.encoder;
  c.layers = config.layers;
  c.seed = config.seed;
  c.sos = static_cast<TokenId>(tasks::Vocabulary::sos);
  c.eos = static_cast<TokenId>(tasks::Vocabulary::eos);
  return c;
}

std::shared_ptr<const tasks::Task> task_for(const Seq2seqSessionConfig &config,
                                            std::shared_ptr<const tasks::Task> task) {
  if (config.validation > max_validation)
    fail(Argument("validation"), "validation (", config.validation, ") must be at most ",
         max_validation, " of the ", tasks::train_size, " training pairs");
  if (!task)
    return std::make_shared<const tasks::Task>(tasks::make_task(config.task, config.seed));
  if (task->id != config.task)
    fail(Argument("task"), "the task given (", task->id, ") is not the configuration's (",
         config.task, ")");
  return task;
}

} // namespace

template <class T>
Seq2seqSession<T>::Seq2seqSession(const Seq2seqSessionConfig &config,
                                  std::shared_ptr<const tasks::Task> task)
    : config_(config), task_(task_for(config, std::move(task))),
      model_(model_config(config, *task_)),
      trainer_(model_.parameters().shared_layout(), task_->train.size() - config.validation,
               config.seed, "pairs") {}

template <class T>
std::vector<TokenId> Seq2seqSession<T>::tokenize(const std::string &sentence,
                                                 tasks::Side side) const {
  return to_token_ids(tasks::tokenize(*task_, sentence, side));
}

template <class T> void Seq2seqSession<T>::set_parameters(const std::vector<NamedValues> &named) {
  assign_all(model_.parameters(), named);
}

namespace {
// Guided alignment's links of an example: its words' sure links, <eos> left free (as the
// alignment's measures leave it out).
std::vector<std::vector<std::size_t>> guide_of(const tasks::Example &example) {
  auto links = example.alignment;
  links.back().clear();
  return links;
}
} // namespace

template <class T>
T Seq2seqSession<T>::gradients(const std::vector<std::pair<std::string, std::string>> &pairs,
                               ParameterSet<T> &gradients, double guide) {
  if (pairs.empty())
    fail(Argument("pairs"), "pairs is empty: give at least one [source, target] pair");
  std::vector<SentencePair> batch;
  batch.reserve(pairs.size());
  for (const auto &[source, target] : pairs) {
    SentencePair &pair = batch.emplace_back();
    pair.source = tokenize(source, tasks::Side::source);
    pair.target = tokenize(target, tasks::Side::target);
    if (guide > 0)
      if (const auto gold = tasks::gold_example(*task_, source);
          gold && to_token_ids(gold->target) == pair.target)
        pair.guide = guide_of(*gold);
  }
  return model_.loss_and_gradients(batch, gradients, static_cast<T>(guide));
}

template <class T>
typename Seq2seqSession<T>::TrainResult
Seq2seqSession<T>::train(std::size_t steps, std::size_t batch, double learning_rate,
                         double max_norm, double guide) {
  if (!(std::isfinite(guide) && guide >= 0))
    fail(Argument("guide"), "guide (", guide, ") must be a finite number >= 0");
  config_.guide = std::max(config_.guide, guide);
  std::vector<SentencePair> minibatch;
  return trainer_.train(model_.parameters(), steps, batch, learning_rate, max_norm,
                        [&](const std::vector<std::size_t> &examples, ParameterSet<T> &gradients) {
                          minibatch.resize(examples.size());
                          for (std::size_t k = 0; k < examples.size(); ++k) {
                            const auto &example = task_->train[examples[k]];
                            minibatch[k].source = to_token_ids(example.source);
                            minibatch[k].target = to_token_ids(example.target);
                            if (guide > 0)
                              minibatch[k].guide = guide_of(example);
                          }
                          return model_.loss_and_gradients(minibatch, gradients,
                                                           static_cast<T>(guide));
                        });
}

template <class T>
std::vector<tasks::Example> Seq2seqSession<T>::split(const std::string &name) const {
  const auto &train = task_->train;
  const auto held_out = train.end() - static_cast<std::ptrdiff_t>(config_.validation);
  if (name == "train")
    return {train.begin(), held_out};
  if (name == "validation") {
    if (config_.validation == 0)
      fail(Argument("split"), "this model holds no validation pairs out: create it with "
                              "validation > 0");
    return {held_out, train.end()};
  }
  if (name == "test")
    return task_->test;
  fail(Argument("split"), "split must be train, validation or test, got \"", name.substr(0, 40),
       "\"");
}

template <class T>
Seq2seqEvaluation Seq2seqSession<T>::evaluate(const std::vector<tasks::Example> &examples) {
  Seq2seqEvaluation result;
  std::size_t exact = 0, tokens = 0, correct = 0, aligned_words = 0, aligned_right = 0;
  tasks::AlignmentScore score;
  const std::size_t max_length = task_->max_target_length + 1;
  for (const auto &example : examples) {
    const auto source = to_token_ids(example.source);
    const auto target = to_token_ids(example.target);
    const auto output = model_.translate(source, max_length).output;
    exact += output == target;
    tokens += target.size();
    for (std::size_t i = 0; i < target.size() && i < output.size(); ++i)
      correct += output[i] == target[i];
    const auto forced = model_.trace(source, target);
    for (std::size_t t = 0; t + 1 < target.size(); ++t) { // the words, not <eos>
      std::size_t best = 0;
      for (std::size_t j = 1; j < source.size(); ++j)
        if (forced.weights(t, j) > forced.weights(t, best))
          best = j;
      score.add(best, example.source[best], example.alignment[t], example.possible[t],
                example.categories[t]);
      const auto &gold = example.alignment[t];
      if (gold.empty())
        continue;
      ++aligned_words;
      aligned_right += std::find(gold.begin(), gold.end(), best) != gold.end();
    }
  }
  const auto share = [](std::size_t a, std::size_t b) { return b ? double(a) / double(b) : 0.0; };
  result.exact_match = share(exact, examples.size());
  result.token_accuracy = share(correct, tokens);
  result.alignment_accuracy = share(aligned_right, aligned_words);
  result.aer = score.aer();
  result.aligned_share = score.aligned_share();
  result.categories = score.categories();
  return result;
}

template <class T> Seq2seqEvaluation Seq2seqSession<T>::test_evaluation() {
  return test_evaluation_.get(model_.parameters(), [&] { return evaluate(task_->test); });
}

template <class T>
Seq2seqTranslation<T> Seq2seqSession<T>::translate(const std::vector<TokenId> &source,
                                                   std::size_t beam) {
  const std::size_t max_length = task_->max_target_length + 1;
  Seq2seqTranslation<T> result;
  if (beam == 1) {
    result.trace = model_.translate(source, max_length);
  } else {
    auto search = model_.beam_search(source, max_length, beam);
    result.trace = std::move(search.trace);
    result.beams = std::move(search.beams);
  }
  double log_probability = 0; // of the output, for greedy decoding's one beam
  const auto &logits = result.trace.logits;
  const std::size_t v = logits.shape()[1];
  const std::size_t k = std::min(translation_top_k, v);
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
    log_probability += log_probabilities[result.trace.output[t]];
  }
  if (beam == 1)
    result.beams = {{result.trace.output, log_probability}};
  return result;
}

template <class T> std::vector<std::uint8_t> Seq2seqSession<T>::save(Storage storage) const {
  std::vector<std::pair<std::string, std::string>> metadata{
      {"task", config_.task},
      {"scoring", score_function_name(config_.scoring)},
      {"encoder", encoder_name(config_.encoder)},
      {"layers", std::to_string(config_.layers)},
      {"embedding", std::to_string(config_.embedding)},
      {"hidden", std::to_string(config_.hidden)},
      {"seed", std::to_string(config_.seed)},
      {"validation", std::to_string(config_.validation)}};
  // only when guided: a freely trained model's file stays byte for byte what it was
  if (config_.guide > 0)
    metadata.emplace_back("guide", detail::format_shortest(config_.guide));
  return save_model_file(model_.parameters(), format_name, metadata, storage == Storage::float16);
}

namespace {

// A PyTorch state_dict of the reference model saved with safetensors (save_file writes the
// metadata {"format": "pt"}, or none): the configuration its tensors imply. The sizes come from
// the shapes, the scoring function from the attention's parameters (Ua: additive; va: concat; Wa
// alone: general; none: dot), a bidirectional encoder from its *_reverse tensors, two layers from
// its *_l1 ones, the task from its vocabularies' sizes, the precision from the dtype. A state_dict
// of any other layout then fails to load, its tensors' names or shapes not the model's.
SavedSeq2seq infer_saved_seq2seq(const safetensors::File &file) {
  const auto matrix = [&](const char *name) -> const std::vector<std::size_t> & {
    const safetensors::TensorInfo *tensor = file.find(name);
    if (!tensor || tensor->shape.size() != 2)
      fail(Argument("bytes"),
           "the file is neither a model saved here nor a PyTorch state_dict of "
           "the reference model: it lacks the matrix \"",
           name, "\"");
    return tensor->shape;
  };
  const auto &source_embedding = matrix("encoder.embedding.weight"); // V_src x E
  const auto &out = matrix("decoder.out.weight");                    // V_tgt x H
  SavedSeq2seq saved;
  saved.config.embedding = source_embedding[1];
  saved.config.hidden = out[1];
  saved.config.scoring = file.find("decoder.attention.Ua.weight")   ? ScoreFunction::additive
                         : file.find("decoder.attention.va.weight") ? ScoreFunction::concat
                         : file.find("decoder.attention.Wa.weight") ? ScoreFunction::general
                                                                    : ScoreFunction::dot;
  saved.config.encoder =
      file.find("encoder.gru.weight_ih_l0_reverse") ? Encoder::bidirectional : Encoder::forward;
  saved.config.layers = file.find("encoder.gru.weight_ih_l1") ? 2 : 1;
  saved.precision = file.find("encoder.embedding.weight")->dtype == "F64" ? "float64" : "float32";
  for (const auto &id : tasks::task_ids()) {
    const tasks::Task task = tasks::empty_task(id);
    if (task.source.tokens.size() == source_embedding[0] && task.target.tokens.size() == out[0]) {
      saved.config.task = id;
      return saved;
    }
  }
  fail(Argument("bytes"), "no task has vocabularies of ", source_embedding[0], " source and ",
       out[0], " target tokens, as the file's encoder.embedding and decoder.out have");
}

} // namespace

SavedSeq2seq read_saved_seq2seq(const std::uint8_t *bytes, std::size_t size) {
  const safetensors::File file = safetensors::parse(bytes, size);
  const std::string *format = find_metadata(file, "format");
  if (!format || *format == "pt")
    return infer_saved_seq2seq(file);
  const auto meta = [&](const char *key) -> const std::string & {
    if (const std::string *value = find_metadata(file, key))
      return *value;
    fail(Argument("bytes"), "the file is not a saved seq2seq model: its metadata lacks \"", key,
         "\"");
  };
  if (meta("format") != format_name)
    fail(Argument("bytes"), "the file is not a saved seq2seq model: its format is \"",
         meta("format").substr(0, 60), "\"");
  SavedSeq2seq saved;
  saved.config.task = meta("task");
  try {
    saved.config.scoring = parse_score_function(meta("scoring"), "bytes");
  } catch (const InputError &error) {
    fail(Argument("bytes"), "the file's scoring: ", error.what());
  }
  // files saved before the encoders and layers existed hold one forward layer
  if (const std::string *encoder = find_metadata(file, "encoder")) {
    try {
      saved.config.encoder = parse_encoder(*encoder, "bytes");
    } catch (const InputError &error) {
      fail(Argument("bytes"), "the file's encoder: ", error.what());
    }
  }
  if (const std::string *layers = find_metadata(file, "layers"))
    saved.config.layers = static_cast<std::size_t>(metadata_integer(*layers, "layers"));
  saved.config.embedding =
      static_cast<std::size_t>(metadata_integer(meta("embedding"), "embedding"));
  saved.config.hidden = static_cast<std::size_t>(metadata_integer(meta("hidden"), "hidden"));
  saved.config.seed = metadata_integer(meta("seed"), "seed");
  if (const std::string *guide = find_metadata(file, "guide"))
    saved.config.guide = metadata_number(*guide, "guide");
  if (const std::string *validation = find_metadata(file, "validation"))
    saved.config.validation = static_cast<std::size_t>(metadata_integer(*validation, "validation"));
  saved.precision = meta("precision");
  if (saved.precision != "float32" && saved.precision != "float64")
    fail(Argument("bytes"), "the file's precision must be float32 or float64, got \"",
         saved.precision.substr(0, 40), "\"");
  return saved;
}

template <class T>
Seq2seqSession<T> load_seq2seq_session(const std::uint8_t *bytes, std::size_t size) {
  const SavedSeq2seq saved = read_saved_seq2seq(bytes, size);
  require_precision<T>(saved.precision);
  // the metadata's task, sizes and seed, checked as createSeq2seq checks them, but blamed on the
  // file
  std::optional<Seq2seqSession<T>> session;
  try {
    session.emplace(saved.config);
  } catch (const InputError &error) {
    fail(Argument("bytes"), "the file's metadata describes no model: ", error.what());
  }
  load_model_file(safetensors::parse(bytes, size), session->model().parameters());
  return std::move(*session);
}

template class Seq2seqSession<float>;
template class Seq2seqSession<double>;
template Seq2seqSession<float> load_seq2seq_session<float>(const std::uint8_t *, std::size_t);
template Seq2seqSession<double> load_seq2seq_session<double>(const std::uint8_t *, std::size_t);

} // namespace attention
