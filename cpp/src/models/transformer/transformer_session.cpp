#include "attention/transformer_session.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "attention/softmax.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"
#include "models/checks.hpp"
#include "models/session_parts.hpp"

namespace attention {

namespace {

using namespace models;

// The examples evaluate runs as one batch: larger batches share the products' overheads, and
// this one keeps the buffers to a few megabytes.
constexpr std::size_t evaluation_batch = 100;
// The positional encoding's buffer of the tutorial's state_dict: computed here, never loaded.
constexpr const char *positional_buffer = "positional_encoding.pos_embedding";

TransformerConfig model_config(const TransformerSessionConfig &config, const tasks::Task &task) {
  auto c = translation_model_config<TransformerConfig>(config, task);
  c.model = config.model;
  c.heads = config.heads;
  c.encoder_layers = config.encoder_layers;
  c.decoder_layers = config.decoder_layers;
  c.feedforward = config.feedforward;
  return c;
}

} // namespace

template <class T>
TransformerSession<T>::TransformerSession(const TransformerSessionConfig &config,
                                          std::shared_ptr<const tasks::Task> task)
    : Base(config, translation_task(config.task, config.seed, std::move(task)), model_config, 0,
           "pairs") {}

namespace {

// What an evaluation adds up over its examples, a part at a time.
struct EvaluationTally {
  std::vector<tasks::AlignmentScore> scores; // each cross-attention head's, layer by layer
  OutputScore score;
  TranslationBleu bleu;
  LossTally loss;
};

// The examples [first, first + evaluation_batch) into `tally`: greedy translations against the
// targets, each cross-attention head's strongest source word against the gold links, and the loss.
// Returns where the next part starts.
template <class T>
std::size_t tally_evaluation(Transformer<T> &model, const tasks::Task &task,
                             const std::vector<tasks::Example> &examples, std::size_t first,
                             EvaluationTally &tally) {
  const auto &config = model.config();
  const std::size_t heads = config.heads;
  const std::size_t last = std::min(examples.size(), first + evaluation_batch);
  tally.scores.resize(config.decoder_layers * heads);
  std::vector<std::vector<TokenId>> sources;
  std::vector<SentencePair> pairs;
  for (std::size_t i = first; i < last; ++i) {
    sources.push_back(to_token_ids(examples[i].source));
    pairs.push_back(pair_of(examples[i], false));
  }
  const auto outputs = model.translate(sources, task.max_target_length + 1);
  const auto traces = model.trace(pairs);
  for (std::size_t i = first; i < last; ++i) {
    const auto &target = pairs[i - first].target, &output = outputs[i - first];
    tally.score.add(output, target);
    const auto &example = examples[i];
    tally.bleu.add(task, output, example);
    const auto &trace = traces[i - first];
    for (std::size_t l = 0; l < config.decoder_layers; ++l)
      for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t t = 0; t + 1 < target.size(); ++t) { // the words, not <eos>
          const std::size_t best =
              argmax(&trace.cross_attention[l](h, t, 0), example.source.size());
          tally.scores[l * heads + h].add(best, example.source[best], example.alignment[t],
                                          example.possible[t], example.categories[t]);
        }
  }
  tally_loss(model, examples, first, last, evaluation_batch, tally.loss);
  return last;
}

TransformerEvaluation evaluation_of(const EvaluationTally &tally, std::size_t heads) {
  TransformerEvaluation result;
  result.exact_match = tally.score.exact_match();
  result.token_accuracy = tally.score.token_accuracy();
  result.bleu = tally.bleu.bleu.score();
  result.loss = tally.loss.mean();
  for (std::size_t k = 0; k < tally.scores.size(); ++k)
    result.heads.push_back({k / heads, k % heads, tally.scores[k].aer()});
  result.aer = std::min_element(result.heads.begin(), result.heads.end(), [](auto &a, auto &b) {
                 return a.aer < b.aer;
               })->aer;
  return result;
}

} // namespace

template <class T>
TransformerEvaluation TransformerSession<T>::evaluate(const std::vector<tasks::Example> &examples) {
  return evaluate_parts(
      model_, *task_, examples, tally_evaluation<T>,
      [&](const EvaluationTally &tally) { return evaluation_of(tally, model_.config().heads); });
}

template <class T> bool TransformerSession<T>::prepare_test_evaluation() {
  return advance_evaluation(
      test_evaluation_, model_, *task_, tally_evaluation<T>,
      [&](const EvaluationTally &tally) { return evaluation_of(tally, model_.config().heads); });
}

const std::vector<ConfigField<TransformerSessionConfig>> &ModelKind<TransformerSession>::fields() {
  using C = Config;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      config_field("task", &C::task, R::identity | R::required),
      config_field("model", &C::model),
      config_field("heads", &C::heads),
      config_field("encoderLayers", &C::encoder_layers),
      config_field("decoderLayers", &C::decoder_layers),
      config_field("feedforward", &C::feedforward),
      config_field("seed", &C::seed, R::plain, max_seed)};
  return fields;
}

namespace {

// A PyTorch state_dict of the tutorial model: the configuration its tensors imply.
SavedModel<TransformerSessionConfig> infer_saved_transformer(const safetensors::File &file) {
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
  SavedModel<TransformerSessionConfig> saved;
  saved.config.model = source_embedding.back();
  saved.config.feedforward = shape("transformer.encoder.layers.0.linear1.weight")[0];
  saved.config.encoder_layers = count("transformer.encoder.layers.");
  saved.config.decoder_layers = count("transformer.decoder.layers.");
  if (const std::string *heads = find_metadata(file, "heads"))
    saved.config.heads = static_cast<std::size_t>(metadata_integer(*heads, "heads"));
  saved.precision =
      file.find("src_tok_emb.embedding.weight")->dtype == "F64" ? "float64" : "float32";
  saved.config.task =
      translation_task_of(source_embedding[0], generator[0], "src_tok_emb", "generator");
  return saved;
}

} // namespace

SavedModel<TransformerSessionConfig>
ModelKind<TransformerSession>::read_saved(const std::uint8_t *bytes, std::size_t size) {
  return read_session_file<TransformerSession>(bytes, size, infer_saved_transformer,
                                               "a saved Transformer");
}

template <class T>
TransformerSession<T> ModelKind<TransformerSession>::load(const std::uint8_t *bytes,
                                                          std::size_t size) {
  const auto saved = read_saved(bytes, size);
  safetensors::File file = safetensors::parse(bytes, size);
  file.tensors.erase(
      std::remove_if(file.tensors.begin(), file.tensors.end(),
                     [](const auto &tensor) { return tensor.name == positional_buffer; }),
      file.tensors.end());
  return load_session<T, TransformerSession>(saved.config, saved.precision, file, "model");
}

template class TranslationSession<TransformerSession, float, TransformerTranslation<float>>;
template class TranslationSession<TransformerSession, double, TransformerTranslation<double>>;
ATTENTION_INSTANTIATE_SESSION(TransformerSession);

} // namespace attention
