// libFuzzer target: arbitrary shapes, values (NaN, +-Infinity, +-1e308 included), masks, scales
// and head counts for the scoring, softmax, attention and multi-head functions, in double and
// float; and, for inputs that start with "ST", the bytes after it as a safetensors file (the
// model loader's format), parsed and loaded as a saved model of whatever kind it says it holds
// (seq2seq, Transformer, captioner, or a PyTorch state_dict of one); for inputs that start with
// "NP", the bytes after it as a tensor file (.npy or safetensors) read as the page reads dropped
// files; for inputs that start with "TX", the bytes after it as a reader's sentence pairs
// (tasks::make_text_task), each pair's ids and links checked against its vocabularies and
// sentences; for inputs that start with "TC", the bytes after it as a reader's labelled sentences
// (tasks::make_classification_text_task), each sentence's ids and label checked against its
// vocabulary and labels, and each task saved as bytes and loaded back to the same bytes; for
// inputs that start with "TB" or "TL", the bytes after it as a saved translation or classification
// task (tasks::load_text_task, load_classification_text_task), checked as those read from text
// are; for inputs that start with "PC", the bytes after it as a checkpoint's config.json
// (pretrained::read_config) and its estimate; for inputs that start with "PH", the bytes after it
// as a checkpoint's model.safetensors of a tiny GPT-2 (the fixtures' config): its header read
// from the file's first bytes, planned against the config, its tensors written a slice at a time
// and, when all are in, a forward pass over two tokens. Bad input must end in InputError; anything
// else that returns must keep the invariants below. Built natively with clang:
// -fsanitize=fuzzer,address,undefined.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "attention/attention.hpp"
#include "attention/classification_tasks.hpp"
#include "attention/model_store.hpp"
#include "attention/pretrained.hpp"
#include "attention/scoring.hpp"
#include "attention/tensor_files.hpp"
#include "attention/translation_tasks.hpp"
#include "files/safetensors.hpp"

using namespace attention;

namespace {

template <class T> class Inputs {
public:
  explicit Inputs(FuzzedDataProvider &in) : in_(in) {}

  std::size_t size() { return in_.ConsumeIntegralInRange<std::size_t>(0, 6); }

  T value() {
    switch (in_.ConsumeIntegralInRange(0, 11)) {
    case 0:
      return std::numeric_limits<T>::quiet_NaN();
    case 1:
      return std::numeric_limits<T>::infinity();
    case 2:
      return -std::numeric_limits<T>::infinity();
    case 3:
      return std::numeric_limits<T>::max();
    case 4:
      return std::numeric_limits<T>::lowest();
    case 5:
      return 0;
    default:
      return static_cast<T>(in_.ConsumeFloatingPointInRange<double>(-1e4, 1e4));
    }
  }

  Vector<T> vector(std::size_t n) {
    auto out = Vector<T>::from_shape({n});
    for (auto &x : out)
      x = value();
    return out;
  }

  Matrix<T> matrix(std::size_t rows, std::size_t cols) {
    auto out = Matrix<T>::from_shape({rows, cols});
    for (auto &x : out)
      x = value();
    return out;
  }

  MaskMatrix mask(std::size_t rows, std::size_t cols) {
    auto out = MaskMatrix::from_shape({rows, cols});
    for (auto &x : out)
      x = in_.ConsumeBool();
    return out;
  }

  FuzzedDataProvider &in_;
};

void require(bool condition) {
  if (!condition)
    __builtin_trap();
}

template <class E> void require_finite(const E &e) {
  for (auto x : e)
    require(std::isfinite(x));
}

// Weights are probabilities: each row sums to 1, or to 0 when all of its keys were masked.
template <class T> void require_weights(const Matrix<T> &w) {
  const T tolerance = sizeof(T) == 4 ? T(1e-4) : T(1e-9);
  for (std::size_t i = 0; i < w.shape()[0]; ++i) {
    T sum = 0;
    for (std::size_t j = 0; j < w.shape()[1]; ++j) {
      require(w(i, j) >= 0 && w(i, j) <= 1);
      sum += w(i, j);
    }
    require(sum == 0 || std::fabs(sum - 1) < tolerance);
  }
}

template <class T> void exercise(FuzzedDataProvider &in) {
  Inputs<T> make(in);
  const std::size_t n = make.size(), d = make.size(), a = make.size();
  switch (in.ConsumeIntegralInRange(0, 6)) {
  case 0:
    require_finite(dot_scores(make.vector(make.size()), make.matrix(n, d)));
    break;
  case 1:
    require_finite(general_scores(make.vector(d), make.matrix(n, make.size()), make.matrix(d, d)));
    break;
  case 2:
    require_finite(
        concat_scores(make.vector(d), make.matrix(n, d), make.matrix(a, 2 * d), make.vector(a)));
    break;
  case 3:
    require_finite(additive_scores(make.vector(d), make.matrix(n, d), make.matrix(a, d),
                                   make.matrix(a, make.size()), make.vector(a)));
    break;
  case 4: {
    const Vector<T> x = make.vector(n);
    const T scale = make.value();
    const Mask mask = in.ConsumeBool() ? Mask{} : xt::view(make.mask(1, n), 0, xt::all());
    const Vector<T> w = softmax(x, scale, mask);
    require_weights(Matrix<T>(xt::view(w, xt::newaxis(), xt::all())));
    for (auto l : log_softmax(x, scale, mask))
      require(l <= T(1e-6) && !std::isnan(l));
    break;
  }
  case 5: {
    AttentionOptions<T> options;
    options.causal = in.ConsumeBool();
    if (in.ConsumeBool())
      options.scale = make.value();
    const std::size_t nq = make.size();
    if (in.ConsumeBool())
      options.mask = make.mask(in.ConsumeBool() ? 1 : nq, n);
    const auto r = attention::attention(make.matrix(nq, d), make.matrix(n, d),
                                        make.matrix(n, make.size()), options);
    require_weights(r.weights);
    require_finite(r.output);
    break;
  }
  case 6: {
    MultiHeadParams<T> p;
    p.heads = in.ConsumeIntegralInRange<std::size_t>(0, 4);
    const std::size_t width = make.size();
    p.wq = make.matrix(d, width);
    p.wk = make.matrix(d, width);
    p.wv = make.matrix(d, width);
    p.wo = make.matrix(width, make.size());
    if (in.ConsumeBool())
      p.bq = make.vector(make.size());
    p.causal = in.ConsumeBool();
    const auto r = multi_head_attention(make.matrix(n, d), p);
    for (const auto &w : r.weights)
      require_weights(w);
    require_finite(r.output);
    break;
  }
  }
}

// A file that reads is whole: every tensor inside the data, the data exactly covered, and
// written out again it reads back the same.
void exercise_safetensors(const std::uint8_t *bytes, std::size_t size) {
  const safetensors::File file = safetensors::parse(bytes, size);
  std::size_t covered = 0;
  std::vector<safetensors::TensorBytes> copies;
  for (const auto &tensor : file.tensors) {
    require(tensor.begin <= tensor.end && tensor.end <= file.data_size);
    covered += tensor.end - tensor.begin;
    copies.push_back({tensor.name, tensor.dtype, tensor.shape, file.data + tensor.begin});
  }
  require(covered == file.data_size);
  const auto written = safetensors::write(copies, file.metadata);
  const safetensors::File again = safetensors::parse(written.data(), written.size());
  require(again.tensors.size() == file.tensors.size() && again.metadata == file.metadata);
  for (std::size_t i = 0; i < file.tensors.size(); ++i)
    require(again.tensors[i].name == file.tensors[i].name &&
            again.tensors[i].shape == file.tensors[i].shape &&
            std::equal(again.data + again.tensors[i].begin, again.data + again.tensors[i].end,
                       file.data + file.tensors[i].begin));
}

// Tensors read from a file hold as many values as their shape says.
void exercise_tensor_file(const std::uint8_t *bytes, std::size_t size) {
  for (const auto &tensor : read_tensors(bytes, size)) {
    std::size_t count = 1;
    for (std::size_t extent : tensor.shape)
      count *= extent;
    require(tensor.data.size() == count && count <= detail::max_elements && !tensor.dtype.empty());
  }
}

} // namespace

// A task from text: every id within its vocabulary, every link within its sentences.
void check_text_task(const tasks::Task &task) {
  require(!task.train.empty());
  for (const auto *split : {&task.train, &task.validation, &task.test})
    for (const tasks::Example &example : *split) {
      require(example.source.back() == tasks::Vocabulary::eos);
      require(example.target.size() == example.alignment.size());
      for (const auto id : example.source)
        require(id < task.source.tokens.size());
      for (const auto id : example.target)
        require(id < task.target.tokens.size());
      for (const auto *links : {&example.alignment, &example.possible})
        for (const auto &word : *links)
          for (const auto j : word)
            require(j < example.source.size());
    }
}

// ... and as bytes: loaded back, the same bytes again
void exercise_text_task(const std::uint8_t *data, std::size_t size) {
  tasks::TextTaskOptions options;
  options.min_count = 1 + size % 2;
  options.validation = 1;
  options.test = 0.2;
  options.rules.target_unit = size % 3 ? tasks::Unit::word : tasks::Unit::character;
  const tasks::Task task =
      tasks::make_text_task(std::string_view(reinterpret_cast<const char *>(data), size), options);
  check_text_task(task);
  const auto bytes = tasks::save_text_task(task);
  require(tasks::save_text_task(tasks::load_text_task(bytes.data(), bytes.size())) == bytes);
}

// A classification task from text: every id within its vocabulary, every label one of its 2 to 10.
void check_classification_task(const tasks::ClassificationTask &task) {
  require(!task.train.empty());
  require(task.labels.size() >= tasks::min_text_labels &&
          task.labels.size() <= tasks::max_text_labels);
  for (const auto *split : {&task.train, &task.validation, &task.test})
    for (const tasks::ClassificationExample &example : *split) {
      require(!example.tokens.empty() && example.tokens.size() <= task.max_length);
      require(example.label < task.labels.size());
      for (const auto id : example.tokens)
        require(id < task.vocabulary.tokens.size());
    }
}

void exercise_classification_text(const std::uint8_t *data, std::size_t size) {
  tasks::ClassificationTextOptions options;
  options.min_count = 1 + size % 2;
  options.validation = 1;
  options.test = 0.2;
  options.label_column = size % 3 ? 1 : 0;
  options.unit = size % 5 ? tasks::Unit::word : tasks::Unit::character;
  const tasks::ClassificationTask task = tasks::make_classification_text_task(
      std::string_view(reinterpret_cast<const char *>(data), size), options);
  check_classification_task(task);
  const auto bytes = tasks::save_classification_text_task(task);
  require(tasks::save_classification_text_task(
              tasks::load_classification_text_task(bytes.data(), bytes.size())) == bytes);
}

void exercise_pretrained_config(const std::uint8_t *data, std::size_t size) {
  const pretrained::Config c =
      pretrained::read_config(std::string(reinterpret_cast<const char *>(data), size));
  require(c.layers >= 1 && c.heads >= 1 && c.kv_heads >= 1 && c.head_dim >= 1);
  require(c.heads % c.kv_heads == 0 && c.hidden >= 1 && c.vocabulary >= 1);
  require(pretrained::estimate(c, 4).parameters >= 1);
}

// The fixtures' tiny GPT-2 (tests/fixtures/pretrained/gpt2/config.json, its sizes).
const char *const tiny_gpt2 = R"({"model_type": "gpt2", "vocab_size": 304, "n_positions": 32,
  "n_embd": 16, "n_layer": 2, "n_head": 4})";

void exercise_pretrained_file(const std::uint8_t *data, std::size_t size) {
  const pretrained::Config config = pretrained::read_config(tiny_gpt2);
  // the header from the first bytes it needs, as a page reads a Blob
  const pretrained::CheckpointFile file =
      pretrained::read_checkpoint_header("model.safetensors", data, size, size, "weights");
  const pretrained::Plan plan = pretrained::plan_checkpoint(config, {file}, "");
  pretrained::Model<float> model(plan);
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    const pretrained::TensorSource &source = plan.sources[i];
    require(source.begin <= source.end && source.end <= size);
    model.write(i, 0, data + source.begin, source.end - source.begin);
  }
  require(model.loaded());
  pretrained::RunInput input;
  input.ids = {0, 1};
  const auto out = model.run(input, true, true, pretrained::Logits::all);
  for (const auto &layer : out.attentions)
    for (const auto &head : layer)
      require_weights(head);
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size >= 2 && data[0] == 'P' && (data[1] == 'C' || data[1] == 'H')) {
    try {
      if (data[1] == 'C')
        exercise_pretrained_config(data + 2, size - 2);
      else
        exercise_pretrained_file(data + 2, size - 2);
    } catch (const InputError &) {
    }
    return 0;
  }
  if (size >= 2 && data[0] == 'T' && data[1] == 'C') {
    try {
      exercise_classification_text(data + 2, size - 2);
    } catch (const InputError &) {
    }
    return 0;
  }
  if (size >= 2 && data[0] == 'T' && data[1] == 'X') {
    try {
      exercise_text_task(data + 2, size - 2);
    } catch (const InputError &) {
    }
    return 0;
  }
  if (size >= 2 && data[0] == 'T' && data[1] == 'B') {
    try {
      check_text_task(tasks::load_text_task(data + 2, size - 2));
    } catch (const InputError &) {
    }
    return 0;
  }
  if (size >= 2 && data[0] == 'T' && data[1] == 'L') {
    try {
      check_classification_task(tasks::load_classification_text_task(data + 2, size - 2));
    } catch (const InputError &) {
    }
    return 0;
  }
  if (size >= 2 && data[0] == 'S' && data[1] == 'T') {
    try {
      exercise_safetensors(data + 2, size - 2);
    } catch (const InputError &) {
    }
    try {
      dispose_model(load_model(data + 2, size - 2));
    } catch (const InputError &) {
    }
    return 0;
  }
  if (size >= 2 && data[0] == 'N' && data[1] == 'P') {
    try {
      exercise_tensor_file(data + 2, size - 2);
    } catch (const InputError &) {
    }
    return 0;
  }
  FuzzedDataProvider in(data, size);
  try {
    if (in.ConsumeBool())
      exercise<double>(in);
    else
      exercise<float>(in);
  } catch (const InputError &) {
    // refusing bad input is the expected outcome for most inputs
  }
  return 0;
}
