#include "attention/captioner_session.hpp"

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

// Images decoded at once by evaluate: the training batch's size, so its buffers serve both.
constexpr std::size_t evaluation_chunk = default_caption_batch;

CaptionerConfig model_config(const CaptionerSessionConfig &config, const tasks::CaptionTask &task) {
  CaptionerConfig c;
  c.vocab = task.vocabulary.tokens.size();
  c.normalization = config.normalization;
  c.channels = config.channels;
  c.annotation = config.annotation;
  c.attention = config.attention;
  c.embedding = config.embedding;
  c.hidden = config.hidden;
  c.height = c.width = task.image_size;
  c.seed = config.seed;
  c.sos = static_cast<TokenId>(tasks::Vocabulary::sos);
  c.eos = static_cast<TokenId>(tasks::Vocabulary::eos);
  return c;
}

std::shared_ptr<const tasks::CaptionTask> task_for(const CaptionerSessionConfig &config,
                                                   std::shared_ptr<const tasks::CaptionTask> task) {
  if (!task)
    return std::make_shared<const tasks::CaptionTask>(
        tasks::make_caption_task(config.task, config.language, config.seed));
  if (task->id != config.task || task->language != config.language)
    fail(Argument("task"), "the task given (", task->id, " ", task->language,
         ") is not the configuration's (", config.task, " ", config.language, ")");
  return task;
}

template <class T> std::vector<T> pixels_of(const tasks::Image &image) {
  return std::vector<T>(image.data.begin(), image.data.end());
}

bool holds(const std::vector<std::size_t> &cells, std::size_t cell) {
  return std::find(cells.begin(), cells.end(), cell) != cells.end();
}

} // namespace

template <class T>
CaptionerSession<T>::CaptionerSession(const CaptionerSessionConfig &config,
                                      std::shared_ptr<const tasks::CaptionTask> task)
    : Base(config, task_for(config, std::move(task)), model_config, 0, "scenes") {}

template <class T>
T CaptionerSession<T>::gradients(const std::vector<std::pair<tasks::Scene, std::string>> &examples,
                                 ParameterSet<T> &gradients, double regularization) {
  if (examples.empty())
    fail(Argument("examples"), "examples is empty: give at least one [scene, caption] pair");
  std::vector<CaptionSample<T>> batch;
  batch.reserve(examples.size());
  for (const auto &[scene, caption] : examples)
    batch.push_back({pixels_of<T>(tasks::render(scene)),
                     to_token_ids(tasks::tokenize_caption(*task_, caption))});
  return model_.loss_and_gradients(batch, gradients, static_cast<T>(regularization));
}

template <class T>
TrainResult<T> CaptionerSession<T>::train(std::size_t steps, std::size_t batch,
                                          double learning_rate, double max_norm,
                                          double regularization) {
  check_weight(regularization, "regularization");
  std::vector<CaptionSample<T>> minibatch;
  return trainer_.train(model_.parameters(), steps, batch, learning_rate, max_norm,
                        [&](const std::vector<std::size_t> &examples, ParameterSet<T> &gradients) {
                          minibatch.resize(examples.size());
                          for (std::size_t k = 0; k < examples.size(); ++k) {
                            const auto &example = task_->train[examples[k]];
                            const tasks::Image image = tasks::render(example.scene);
                            minibatch[k].image.assign(image.data.begin(), image.data.end());
                            minibatch[k].caption = to_token_ids(example.caption);
                          }
                          const T loss = model_.loss_and_gradients(minibatch, gradients,
                                                                   static_cast<T>(regularization));
                          // once a step, as PyTorch's forward in train() mode
                          model_.update_running_statistics();
                          return loss;
                        });
}

namespace {

// What an evaluation adds up over its examples, a part at a time.
struct EvaluationTally {
  OutputScore score;
  std::size_t object_words = 0, object_right = 0;
  std::vector<CaptionEvaluation::Category> categories;
};

// The examples [first, first + evaluation_chunk) into `tally`: greedy captions against the gold,
// and the teacher-forced weights' strongest cell against the regions each word names. Returns
// where the next part starts.
template <class T>
std::size_t tally_evaluation(Captioner<T> &model, const tasks::CaptionTask &task,
                             const std::vector<tasks::CaptionExample> &examples, std::size_t first,
                             EvaluationTally &tally) {
  const std::size_t count = std::min(evaluation_chunk, examples.size() - first);
  std::vector<CaptionSample<T>> samples(count);
  std::vector<const std::vector<T> *> images;
  for (std::size_t k = 0; k < count; ++k) {
    const auto &example = examples[first + k];
    samples[k].image = pixels_of<T>(tasks::render(example.scene));
    samples[k].caption = to_token_ids(example.caption);
    images.push_back(&samples[k].image);
  }
  const auto outputs = model.caption(images, task.max_caption_length + 1);
  const auto weights = model.attention_weights(samples);
  auto &categories = tally.categories;
  for (std::size_t k = 0; k < count; ++k) {
    const auto &example = examples[first + k];
    const auto &gold = samples[k].caption;
    tally.score.add(outputs[k], gold);
    for (std::size_t t = 0; t < gold.size(); ++t) {
      const auto &sure = example.cells[t], &possible = example.possible[t];
      if (sure.empty() && possible.empty())
        continue;
      const std::size_t cell =
          argmax(weights[k].data() + t * weights[k].shape()[1], weights[k].shape()[1]);
      const auto category = example.categories[t];
      if (tasks::names_object(category)) {
        ++tally.object_words;
        tally.object_right += holds(sure, cell);
      }
      const auto index = static_cast<std::size_t>(category);
      if (categories.size() <= index)
        categories.resize(index + 1);
      categories[index].category = category;
      ++categories[index].count;
      categories[index].aligned += holds(sure, cell) || holds(possible, cell);
    }
  }
  return first + count;
}

CaptionEvaluation evaluation_of(const EvaluationTally &tally) {
  CaptionEvaluation result;
  result.exact_match = tally.score.exact_match();
  result.token_accuracy = tally.score.token_accuracy();
  result.region_accuracy = share(tally.object_right, tally.object_words);
  for (const auto &category : tally.categories)
    if (category.count)
      result.categories.push_back(category);
  return result;
}

} // namespace

template <class T>
CaptionEvaluation
CaptionerSession<T>::evaluate(const std::vector<tasks::CaptionExample> &examples) {
  return evaluate_parts(model_, *task_, examples, tally_evaluation<T>, evaluation_of);
}

template <class T> bool CaptionerSession<T>::prepare_test_evaluation() {
  return advance_evaluation(test_evaluation_, model_, *task_, tally_evaluation<T>, evaluation_of);
}

template <class T>
CaptionResult<T> CaptionerSession<T>::caption(const tasks::Scene &scene, std::size_t beam) {
  return caption(tasks::render(scene), beam);
}

template <class T>
CaptionResult<T> CaptionerSession<T>::caption(const tasks::Image &image, std::size_t beam) {
  tasks::validate_image(image);
  const std::size_t max_length = task_->max_caption_length + 1;
  const std::vector<T> pixels = pixels_of<T>(image);
  CaptionResult<T> result;
  auto search = model_.beam_search(pixels, max_length, beam);
  result.trace = std::move(search.trace);
  result.beams = std::move(search.beams);
  result.image = image.data;
  result.top = likeliest(result.trace.logits, caption_top_k, result.trace.output).top;
  return result;
}

const std::vector<ConfigField<CaptionerSessionConfig>> &ModelKind<CaptionerSession>::fields() {
  using C = Config;
  using R = FieldRole;
  static const std::vector<ConfigField<C>> fields{
      config_field("task", &C::task, R::identity | R::required),
      config_field("language", &C::language, R::identity),
      [] {
        // a file of the first layout says nothing of it
        auto normalization = choice_field(
            "normalization", &C::normalization, captioner_normalizations, normalization_name,
            parse_normalization, R::identity | R::if_set | R::absent_before);
        normalization.older = std::string("none");
        return normalization;
      }(),
      config_field("channels", &C::channels),
      config_field("annotation", &C::annotation),
      config_field("attention", &C::attention),
      config_field("embedding", &C::embedding),
      config_field("hidden", &C::hidden),
      config_field("seed", &C::seed, R::plain, max_seed)};
  return fields;
}

namespace {

// A PyTorch state_dict of the reference model (make_captioner_fixtures.py's Captioner): the
// configuration its tensors' shapes imply. A state_dict of any other layout then fails to load,
// its names or shapes not the model's.
SavedModel<CaptionerSessionConfig> infer_saved_captioner(const safetensors::File &file) {
  const auto shape = [&](const char *name, std::size_t rank) -> const std::vector<std::size_t> & {
    const safetensors::TensorInfo *tensor = file.find(name);
    if (!tensor || tensor->shape.size() != rank)
      fail(Argument("bytes"),
           "the file is neither a captioner saved here nor a PyTorch state_dict of the "
           "reference captioner: it lacks the ",
           rank, "-dimensional \"", name, "\"");
    return tensor->shape;
  };
  SavedModel<CaptionerSessionConfig> saved;
  saved.config.channels = shape("encoder.conv1.weight", 4)[0];
  saved.config.annotation = shape("encoder.conv2.weight", 4)[0];
  saved.config.attention = shape("decoder.attention.encoder_att.weight", 2)[0];
  const auto &embedding = shape("decoder.embedding.weight", 2); // V x E
  saved.config.embedding = embedding[1];
  saved.config.hidden = shape("decoder.decode_step.weight_hh", 2)[1];
  saved.config.normalization = file.find("encoder.bn1.weight") ? CaptionerNormalization::batch
                                                               : CaptionerNormalization::none;
  saved.precision = file.find("encoder.conv1.weight")->dtype == "F64" ? "float64" : "float32";
  for (const auto &language : tasks::caption_languages())
    if (tasks::empty_caption_task("shapes", language).vocabulary.tokens.size() == embedding[0]) {
      saved.config.language = language;
      return saved;
    }
  fail(Argument("bytes"), "no captioning task has a vocabulary of ", embedding[0],
       " words, as the file's decoder.embedding has");
}

} // namespace

SavedModel<CaptionerSessionConfig>
ModelKind<CaptionerSession>::read_saved(const std::uint8_t *bytes, std::size_t size) {
  return read_session_file<CaptionerSession>(bytes, size, infer_saved_captioner,
                                             "a saved captioner");
}

template <class T>
CaptionerSession<T> ModelKind<CaptionerSession>::load(const std::uint8_t *bytes, std::size_t size) {
  return load_session_file<T, CaptionerSession>(bytes, size, "captioner");
}

ATTENTION_INSTANTIATE_SESSION(CaptionerSession);

} // namespace attention
