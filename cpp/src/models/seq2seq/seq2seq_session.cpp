#include "attention/seq2seq_session.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "attention/softmax.hpp"
#include "core/decimal.hpp"
#include "files/model_file.hpp"
#include "files/safetensors.hpp"
#include "models/checks.hpp"
#include "models/session_parts.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;
using namespace models;

Seq2seqConfig model_config(const Seq2seqSessionConfig &config, const tasks::Task &task) {
  auto c = translation_model_config<Seq2seqConfig>(config, task);
  c.embedding = config.embedding;
  c.hidden = config.hidden;
  c.scoring = config.scoring;
  c.encoder = config.encoder;
  c.layers = config.layers;
  return c;
}

// What an evaluation adds up over its examples, a part at a time.
struct EvaluationTally {
  OutputScore outputs;
  TranslationBleu bleu;
  std::size_t aligned_words = 0, aligned_right = 0;
  tasks::AlignmentScore score;
  LossTally loss;
};

// The examples [first, first + default_batch) into `tally` (the loss's batch): greedy translations
// against the targets, and the teacher-forced weights' strongest source word against the gold
// links. Returns where the next part starts.
template <class T>
std::size_t tally_evaluation(Seq2seq<T> &model, const tasks::Task &task,
                             const std::vector<tasks::Example> &examples, std::size_t first,
                             EvaluationTally &tally) {
  const std::size_t last = std::min(examples.size(), first + default_batch);
  const std::size_t max_length = task.max_target_length + 1;
  for (std::size_t i = first; i < last; ++i) {
    const auto &example = examples[i];
    const auto source = to_token_ids(example.source);
    const auto target = to_token_ids(example.target);
    const auto output = model.translate(source, max_length).output;
    tally.outputs.add(output, target);
    tally.bleu.add(task, output, example);
    const auto forced = model.trace(source, target);
    for (std::size_t t = 0; t + 1 < target.size(); ++t) { // the words, not <eos>
      const std::size_t best = argmax(&forced.weights(t, 0), source.size());
      tally.score.add(best, example.source[best], example.alignment[t], example.possible[t],
                      example.categories[t]);
      const auto &gold = example.alignment[t];
      if (gold.empty())
        continue;
      ++tally.aligned_words;
      tally.aligned_right += std::find(gold.begin(), gold.end(), best) != gold.end();
    }
  }
  tally_loss(model, examples, first, last, default_batch, tally.loss);
  return last;
}

Seq2seqEvaluation evaluation_of(const EvaluationTally &tally) {
  Seq2seqEvaluation result;
  result.exact_match = tally.outputs.exact_match();
  result.token_accuracy = tally.outputs.token_accuracy();
  result.bleu = tally.bleu.bleu.score();
  result.loss = tally.loss.mean();
  result.alignment_accuracy = share(tally.aligned_right, tally.aligned_words);
  result.aer = tally.score.aer();
  result.aligned_share = tally.score.aligned_share();
  result.categories = tally.score.categories();
  return result;
}

std::shared_ptr<const tasks::Task> task_for(const Seq2seqSessionConfig &config,
                                            std::shared_ptr<const tasks::Task> task) {
  if (config.validation > max_validation)
    fail(Argument("validation"), "validation (", config.validation, ") must be at most ",
         max_validation, " of the ", tasks::train_size, " training pairs");
  task = translation_task(config.task, config.seed, std::move(task));
  if (task->text && config.validation > 0)
    fail(Argument("validation"), "the ", task->id,
         " task holds its own validation pairs out: validation must be 0");
  return task;
}

} // namespace

template <class T>
Seq2seqSession<T>::Seq2seqSession(const Seq2seqSessionConfig &config,
                                  std::shared_ptr<const tasks::Task> task)
    : Base(config, task_for(config, std::move(task)), model_config, config.validation, "pairs") {}

template <class T>
TrainResult<T> Seq2seqSession<T>::train(std::size_t steps, std::size_t batch, double learning_rate,
                                        double max_norm, double guide) {
  check_weight(guide, "guide");
  config_.guide = std::max(config_.guide, guide); // raised even if training stops early
  return Base::train(steps, batch, learning_rate, max_norm, guide);
}

template <class T>
std::vector<tasks::Example> Seq2seqSession<T>::split(const std::string &name) const {
  const auto &train = task_->train;
  const auto held_out = train.end() - static_cast<std::ptrdiff_t>(config_.validation);
  if (name == "train")
    return {train.begin(), held_out};
  if (name == "validation" && config_.validation > 0)
    return {held_out, train.end()};
  if (name == "validation" && !task_->text)
    fail(Argument("split"), "this model holds no validation pairs out: create it with "
                            "validation > 0");
  return tasks::split(*task_, name);
}

template <class T>
Seq2seqEvaluation Seq2seqSession<T>::evaluate(const std::vector<tasks::Example> &examples) {
  return evaluate_parts(model_, *task_, examples, tally_evaluation<T>, evaluation_of);
}

template <class T> bool Seq2seqSession<T>::prepare_test_evaluation() {
  return advance_evaluation(test_evaluation_, model_, *task_, tally_evaluation<T>, evaluation_of);
}

// "encoder", "layers" and "validation" came after the first files, and "guide" is saved only for
// a guided model, so that a freely trained model's file stays byte for byte what it was.
const std::vector<ConfigField<Seq2seqSessionConfig>> &ModelKind<Seq2seqSession>::fields() {
  using C = Config;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      config_field("task", &C::task, R::identity | R::required),
      choice_field("scoring", &C::scoring, score_functions, score_function_name,
                   parse_score_function, R::identity | R::named),
      [] {
        auto encoder = choice_field("encoder", &C::encoder, encoders, encoder_name, parse_encoder,
                                    R::identity | R::absent_before);
        encoder.unsaid = [](C &config) { config.encoder = default_encoder(config.scoring); };
        encoder.unsaid_by = "scoring";
        return encoder;
      }(),
      config_field("layers", &C::layers, R::identity | R::absent_before),
      config_field("embedding", &C::embedding),
      config_field("hidden", &C::hidden),
      config_field("seed", &C::seed, R::plain, max_seed),
      config_field("validation", &C::validation, R::absent_before, max_validation),
      config_field("guide", &C::guide, R::identity | R::trained | R::if_set)};
  return fields;
}

namespace {

// A PyTorch state_dict of the reference model saved with safetensors (save_file writes the
// metadata {"format": "pt"}, or none): the configuration its tensors imply. The sizes come from
// the shapes, the scoring function from the attention's parameters (Ua: additive; va: concat; Wa
// alone: general; none: dot), a bidirectional encoder from its *_reverse tensors, two layers from
// its *_l1 ones, the task from its vocabularies' sizes, the precision from the dtype. A state_dict
// of any other layout then fails to load, its tensors' names or shapes not the model's.
SavedModel<Seq2seqSessionConfig> infer_saved_seq2seq(const safetensors::File &file) {
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
  SavedModel<Seq2seqSessionConfig> saved;
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
  saved.config.task =
      translation_task_of(source_embedding[0], out[0], "encoder.embedding", "decoder.out");
  return saved;
}

} // namespace

SavedModel<Seq2seqSessionConfig> ModelKind<Seq2seqSession>::read_saved(const std::uint8_t *bytes,
                                                                       std::size_t size) {
  return read_session_file<Seq2seqSession>(bytes, size, infer_saved_seq2seq,
                                           "a saved seq2seq model");
}

template <class T>
Seq2seqSession<T> ModelKind<Seq2seqSession>::load(const std::uint8_t *bytes, std::size_t size) {
  return load_session_file<T, Seq2seqSession>(bytes, size, "model");
}

template class TranslationSession<Seq2seqSession, float, Seq2seqTranslation<float>>;
template class TranslationSession<Seq2seqSession, double, Seq2seqTranslation<double>>;
ATTENTION_INSTANTIATE_SESSION(Seq2seqSession);

} // namespace attention
