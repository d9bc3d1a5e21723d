#include "attention/transformer_session.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "attention/softmax.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;

constexpr const char *format_name = "attention-stepper/transformer";
// The examples evaluate runs as one batch: larger batches share the products' overheads, and
// this one keeps the buffers to a few megabytes.
constexpr std::size_t evaluation_batch = 100;
// The positional encoding's buffer of the tutorial's state_dict: computed here, never loaded.
constexpr const char *positional_buffer = "positional_encoding.pos_embedding";

std::vector<TokenId> to_token_ids(const std::vector<std::size_t> &ids) {
  return std::vector<TokenId>(ids.begin(), ids.end());
}

TransformerConfig model_config(const TransformerSessionConfig &config, const tasks::Task &task) {
  TransformerConfig c;
  c.source_vocab = task.source.tokens.size();
  c.target_vocab = task.target.tokens.size();
  c.model = config.model;
  c.heads = config.heads;
  c.encoder_layers = config.encoder_layers;
  c.decoder_layers = config.decoder_layers;
  c.feedforward = config.feedforward;
  c.seed = config.seed;
  c.sos = static_cast<TokenId>(tasks::Vocabulary::sos);
  c.eos = static_cast<TokenId>(tasks::Vocabulary::eos);
  return c;
}

std::shared_ptr<const tasks::Task> task_for(const TransformerSessionConfig &config,
                                            std::shared_ptr<const tasks::Task> task) {
  if (!task)
    return std::make_shared<const tasks::Task>(tasks::make_task(config.task, config.seed));
  if (task->id != config.task)
    fail(Argument("task"), "the task given (", task->id, ") is not the configuration's (",
         config.task, ")");
  return task;
}

// Guided alignment's links of an example: its words' sure links, <eos> left free.
std::vector<std::vector<std::size_t>> guide_of(const tasks::Example &example) {
  auto links = example.alignment;
  links.back().clear();
  return links;
}

SentencePair pair_of(const tasks::Example &example, bool guided) {
  return {to_token_ids(example.source), to_token_ids(example.target),
          guided ? guide_of(example) : std::vector<std::vector<std::size_t>>{}};
}

} // namespace

template <class T>
TransformerSession<T>::TransformerSession(const TransformerSessionConfig &config,
                                          std::shared_ptr<const tasks::Task> task)
    : config_(config), task_(task_for(config, std::move(task))),
      model_(model_config(config, *task_)),
      trainer_(model_.parameters().shared_layout(), task_->train.size(), config.seed, "pairs") {}

template <class T>
std::vector<TokenId> TransformerSession<T>::tokenize(const std::string &sentence,
                                                     tasks::Side side) const {
  return to_token_ids(tasks::tokenize(*task_, sentence, side));
}

template <class T>
void TransformerSession<T>::set_parameters(const std::vector<NamedValues> &named) {
  assign_all(model_.parameters(), named);
}

template <class T>
T TransformerSession<T>::gradients(const std::vector<std::pair<std::string, std::string>> &pairs,
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
typename TransformerSession<T>::TrainResult
TransformerSession<T>::train(std::size_t steps, std::size_t batch, double learning_rate,
                             double max_norm, double guide) {
  if (!(std::isfinite(guide) && guide >= 0))
    fail(Argument("guide"), "guide (", guide, ") must be a finite number >= 0");
  std::vector<SentencePair> minibatch;
  return trainer_.train(model_.parameters(), steps, batch, learning_rate, max_norm,
                        [&](const std::vector<std::size_t> &examples, ParameterSet<T> &gradients) {
                          minibatch.clear();
                          for (std::size_t index : examples)
                            minibatch.push_back(pair_of(task_->train[index], guide > 0));
                          return model_.loss_and_gradients(minibatch, gradients,
                                                           static_cast<T>(guide));
                        });
}

template <class T>
TransformerEvaluation TransformerSession<T>::evaluate(const std::vector<tasks::Example> &examples) {
  const auto &config = model_.config();
  const std::size_t heads = config.heads, max_length = task_->max_target_length + 1;
  std::vector<tasks::AlignmentScore> scores(config.decoder_layers * heads);
  std::size_t exact = 0, tokens = 0, correct = 0;
  for (std::size_t first = 0; first < examples.size(); first += evaluation_batch) {
    const std::size_t last = std::min(examples.size(), first + evaluation_batch);
    std::vector<std::vector<TokenId>> sources;
    std::vector<SentencePair> pairs;
    for (std::size_t i = first; i < last; ++i) {
      sources.push_back(to_token_ids(examples[i].source));
      pairs.push_back(pair_of(examples[i], false));
    }
    const auto outputs = model_.translate(sources, max_length);
    const auto traces = model_.trace(pairs);
    for (std::size_t i = first; i < last; ++i) {
      const auto &target = pairs[i - first].target, &output = outputs[i - first];
      exact += output == target;
      tokens += target.size();
      for (std::size_t t = 0; t < target.size() && t < output.size(); ++t)
        correct += output[t] == target[t];
      const auto &example = examples[i];
      const auto &trace = traces[i - first];
      for (std::size_t l = 0; l < config.decoder_layers; ++l)
        for (std::size_t h = 0; h < heads; ++h)
          for (std::size_t t = 0; t + 1 < target.size(); ++t) { // the words, not <eos>
            const auto &weights = trace.cross_attention[l];
            std::size_t best = 0;
            for (std::size_t j = 1; j < example.source.size(); ++j)
              if (weights(h, t, j) > weights(h, t, best))
                best = j;
            scores[l * heads + h].add(best, example.source[best], example.alignment[t],
                                      example.possible[t], example.categories[t]);
          }
    }
  }
  const auto share = [](std::size_t a, std::size_t b) { return b ? double(a) / double(b) : 0.0; };
  TransformerEvaluation result;
  result.exact_match = share(exact, examples.size());
  result.token_accuracy = share(correct, tokens);
  for (std::size_t k = 0; k < scores.size(); ++k)
    result.heads.push_back({k / heads, k % heads, scores[k].aer()});
  result.aer = std::min_element(result.heads.begin(), result.heads.end(), [](auto &a, auto &b) {
                 return a.aer < b.aer;
               })->aer;
  return result;
}

template <class T> TransformerEvaluation TransformerSession<T>::test_evaluation() {
  return test_evaluation_.get(model_.parameters(), [&] { return evaluate(task_->test); });
}

template <class T>
TransformerTranslation<T> TransformerSession<T>::translate(const std::vector<TokenId> &source,
                                                           std::size_t beam) {
  const std::size_t max_length = task_->max_target_length + 1;
  TransformerTranslation<T> result;
  if (beam == 1) {
    result.trace = model_.translate(source, max_length);
  } else {
    auto search = model_.beam_search(source, max_length, beam);
    result.trace = std::move(search.trace);
    result.beams = std::move(search.beams);
  }
  double log_probability = 0; // of the output, for greedy decoding's one beam
  const auto &logits = result.trace.logits;
  const std::size_t v = logits.shape()[1], k = std::min(translation_top_k, v);
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

template <class T> std::vector<std::uint8_t> TransformerSession<T>::save(Storage storage) const {
  return save_model_file(model_.parameters(), format_name,
                         {{"task", config_.task},
                          {"model", std::to_string(config_.model)},
                          {"heads", std::to_string(config_.heads)},
                          {"encoderLayers", std::to_string(config_.encoder_layers)},
                          {"decoderLayers", std::to_string(config_.decoder_layers)},
                          {"feedforward", std::to_string(config_.feedforward)},
                          {"seed", std::to_string(config_.seed)}},
                         storage == Storage::float16);
}

namespace {

// A PyTorch state_dict of the tutorial model: the configuration its tensors imply.
SavedTransformer infer_saved_transformer(const safetensors::File &file) {
  const auto shape = [&](const std::string &name) -> const std::vector<std::size_t> & {
    const safetensors::TensorInfo *tensor = file.find(name);
    if (!tensor || tensor->shape.empty())
      fail(Argument("bytes"),
           "the file is neither a model saved here nor a PyTorch state_dict of the tutorial's "
           "Transformer: it lacks \"",
           name, "\"");
    return tensor->shape;
  };
  const auto count = [&](const std::string &stack) {
    std::size_t layers = 0;
    while (file.find(stack + std::to_string(layers) + ".self_attn.in_proj_weight"))
      ++layers;
    return layers;
  };
  const auto &source_embedding = shape("src_tok_emb.embedding.weight"); // V_src x d
  const auto &generator = shape("generator.weight");                    // V_tgt x d
  SavedTransformer saved;
  saved.config.model = source_embedding.back();
  saved.config.feedforward = shape("transformer.encoder.layers.0.linear1.weight")[0];
  saved.config.encoder_layers = count("transformer.encoder.layers.");
  saved.config.decoder_layers = count("transformer.decoder.layers.");
  if (const std::string *heads = find_metadata(file, "heads"))
    saved.config.heads = static_cast<std::size_t>(metadata_integer(*heads, "heads"));
  saved.precision =
      file.find("src_tok_emb.embedding.weight")->dtype == "F64" ? "float64" : "float32";
  for (const auto &id : tasks::task_ids()) {
    const tasks::Task task = tasks::empty_task(id);
    if (task.source.tokens.size() == source_embedding[0] &&
        task.target.tokens.size() == generator[0]) {
      saved.config.task = id;
      return saved;
    }
  }
  fail(Argument("bytes"), "no task has vocabularies of ", source_embedding[0], " source and ",
       generator[0], " target tokens, as the file's src_tok_emb and generator have");
}

} // namespace

SavedTransformer read_saved_transformer(const std::uint8_t *bytes, std::size_t size) {
  const safetensors::File file = safetensors::parse(bytes, size);
  const std::string *format = find_metadata(file, "format");
  if (!format || *format == "pt")
    return infer_saved_transformer(file);
  const auto meta = [&](const char *key) -> const std::string & {
    if (const std::string *value = find_metadata(file, key))
      return *value;
    fail(Argument("bytes"), "the file is not a saved Transformer: its metadata lacks \"", key,
         "\"");
  };
  if (*format != format_name)
    fail(Argument("bytes"), "the file is not a saved Transformer: its format is \"",
         format->substr(0, 60), "\"");
  const auto size_of = [&](const char *key) {
    return static_cast<std::size_t>(metadata_integer(meta(key), key));
  };
  SavedTransformer saved;
  saved.config.task = meta("task");
  saved.config.model = size_of("model");
  saved.config.heads = size_of("heads");
  saved.config.encoder_layers = size_of("encoderLayers");
  saved.config.decoder_layers = size_of("decoderLayers");
  saved.config.feedforward = size_of("feedforward");
  saved.config.seed = metadata_integer(meta("seed"), "seed");
  saved.precision = meta("precision");
  if (saved.precision != "float32" && saved.precision != "float64")
    fail(Argument("bytes"), "the file's precision must be float32 or float64, got \"",
         saved.precision.substr(0, 40), "\"");
  return saved;
}

template <class T>
TransformerSession<T> load_transformer_session(const std::uint8_t *bytes, std::size_t size) {
  const SavedTransformer saved = read_saved_transformer(bytes, size);
  require_precision<T>(saved.precision);
  std::optional<TransformerSession<T>> session;
  try {
    session.emplace(saved.config);
  } catch (const InputError &error) {
    fail(Argument("bytes"), "the file's metadata describes no model: ", error.what());
  }
  safetensors::File file = safetensors::parse(bytes, size);
  file.tensors.erase(
      std::remove_if(file.tensors.begin(), file.tensors.end(),
                     [](const auto &tensor) { return tensor.name == positional_buffer; }),
      file.tensors.end());
  load_model_file(file, session->model().parameters());
  return std::move(*session);
}

template class TransformerSession<float>;
template class TransformerSession<double>;
template TransformerSession<float> load_transformer_session<float>(const std::uint8_t *,
                                                                   std::size_t);
template TransformerSession<double> load_transformer_session<double>(const std::uint8_t *,
                                                                     std::size_t);

} // namespace attention
