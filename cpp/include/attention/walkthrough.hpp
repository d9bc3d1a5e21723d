// Walkthrough traces: one call runs a whole notebook and returns every stage in order, with the
// matrices as the notebook draws them and their labels: numbers and structure only. The words,
// formulas and code shown for a stage live in the page's spec of the walkthrough
// (web/walkthroughs/), which finds a stage by its `kind` and a panel by its `name`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "model_kind.hpp"
#include "numpy_random.hpp"

namespace attention {

using Labels = std::vector<std::string>;

// A panel's row or column label. Plain `text` reads the same in every language and is shown as it
// is: a token, "x1", "h~". Whatever a language words is structured instead, numbers and names
// only, and the page words it from its locale (labelText in web/locales/format.js): a row
// computed in a precision, with every score masked, for vectors of width d or a softmax
// temperature T; the sum of a row; a measure of a model; a model by what tells it apart (fields
// of its kind, ModelKind::fields(), under their names: a kind's labels need no words here); a
// kind of word or sentence.
struct Label {
  std::string text;                  // a plain label; empty in a structured one
  std::string precision;             // the row's values were computed in it: "float16"
  bool all_masked = false;           // … with every score masked
  std::optional<std::size_t> width;  // the row is for vectors of width d
  std::optional<double> temperature; // the row is for softmax temperature T
  bool total = false;                // the sum of the row's values
  std::string metric; // a measure of a model: "exactMatch", "alignmentAccuracy", "aer"
  // a model, by fields of its configuration, in its kind's order, each as the field gives it:
  // {"scoring", "additive"}, {"layers", 2.0}, {"guide", 0.0}
  std::vector<std::pair<std::string, FieldValue>> model;
  std::string category;             // a kind of target word, as the task's grammar names it: "noun"
  std::optional<std::size_t> count; // … and how many words of that kind were measured
  std::string instead;              // … and the source token most of its unaligned words look at

  Label() = default;
  Label(std::string plain) : text(std::move(plain)) {}
  Label(const char *plain) : text(plain) {}

  bool structured() const {
    return !precision.empty() || width || temperature || total || !metric.empty() ||
           !model.empty() || !category.empty();
  }
  // The value of the model's field `name`, or null when the label does not say it.
  const FieldValue *field(std::string_view name) const {
    for (const auto &[field, value] : model)
      if (field == name)
        return &value;
    return nullptr;
  }
  friend bool operator==(const Label &a, const Label &b) {
    return std::tie(a.text, a.precision, a.all_masked, a.width, a.temperature, a.total, a.metric,
                    a.model, a.category, a.count, a.instead) ==
           std::tie(b.text, b.precision, b.all_masked, b.width, b.temperature, b.total, b.metric,
                    b.model, b.category, b.count, b.instead);
  }
};

// One heatmap of a stage.
struct Panel {
  std::string name; // its id within the stage, the notebook's variable: "dec_hidden_state", "W_Q"
  std::string palette; // colour role: decoder, annotation, context, weights, scores, neutral
  Matrix<double> values;
  std::vector<Label> row_labels, col_labels;
  // Empty, or one entry per cell (row-major): the decimal text of a value too small for a double
  // (whose `values` cell is 0), "" for every exact cell.
  std::vector<std::string> exact;
  // Empty, or one entry per cell (row-major): the cell's bits as "sign exponent mantissa" in the
  // precision its row was computed in (the numerics lab, whose rows are labelled by precision).
  std::vector<std::string> bits;
};

struct Stage {
  std::string id;       // stable, used in URLs: "softmax", "step-2"
  std::string kind;     // the spec entry that describes it: "softmax", "step"
  std::size_t step = 0; // 1, 2, … for stages repeated per time step; 0 otherwise
  std::vector<Panel> panels;
};

struct Trace {
  std::string walkthrough;
  // Named label lists the texts refer to: "words" (self-attention), "source" and "target"
  // (a translation).
  std::vector<std::pair<std::string, Labels>> labels;
  std::vector<Stage> stages;
  // The trained models the trace is of, as labels that say all of what tells them apart
  // ({ scoring, encoder, layers, guide }), so that the page describes each as it is: a model's
  // walkthrough's, in the order of their panels; empty for the others.
  std::vector<Label> models;
  Matrix<double> output; // the walkthrough's result: context vector, attention output, alignment
};

// The limits of the walkthroughs' inputs, which their checks use and walkthrough_inputs()
// publishes.
constexpr std::int64_t max_high = std::int64_t(1) << 31;
constexpr std::size_t max_words = 512; // self-attention: words and embedding width
constexpr std::size_t max_scores = 64; // numerics: scores in the row

// Attention Basics (seeds 000, 001, 003). Annotations: one per row (the notebook draws columns).
struct BasicsInputs {
  Vector<double> decoder_state = {5, 1, 20};
  Matrix<double> annotations = {{3, 12, 45}, {59, 2, 5}, {1, 43, 5}, {4, 3, 45.3}};
  std::int64_t seed = 0; // for W_c of the attentional hidden state (beyond the notebook)
};

// Self-attention from scratch (seed 002).
struct SelfAttentionInputs {
  Matrix<double> embeddings = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}};
  std::int64_t seed = 42;
  std::int64_t high = 3; // np.random.randint(high, size=(d, d))
  std::size_t word = 0;  // the word followed step by step (word_1)
  // Weights given (a file's W_Q, W_K, W_V), each width x width, replace the seeded draws.
  std::optional<Matrix<double>> wq, wk, wv;
};

// The numerics lab: one row of scores through softmax in float16, bfloat16, float32, float64
// and float128 (numerics.hpp), each panel a precision per row.
struct NumericsInputs {
  Vector<double> scores = {927, 397, 148, 929};
  Vector<double> mask = {1, 1, 0, 1}; // 1 keeps a score, 0 masks it (the masking stage)
  std::int64_t seed = 0;              // q and k of the scale stage, np.random.seed
};

Trace basics_walkthrough(const BasicsInputs &inputs = {});
Trace self_attention_walkthrough(const SelfAttentionInputs &inputs = {});
Trace numerics_walkthrough(const NumericsInputs &inputs = {});

// The inputs of a walkthrough as the JavaScript API names them, with their limits and defaults:
// the one source the engine, the page's form and the element all obey. A model input holds the
// handles of stored models (model_store.hpp): one (`model`) or a list (`models`); it has no
// default. Tokens are labels as given (a row's words); a text is a sentence as typed, which the
// walkthrough's model reads with its own tokenizer, the only one it goes through; ids are a
// text's token ids from a tokenizer the core has not got (the caller's), without a default.
enum class InputKind { vector, matrix, integer, choice, tokens, text, model, models, ids };

struct InputField {
  std::string name; // "decoderState"
  InputKind kind;
  std::int64_t min = 0, max = 0; // integers only
  Labels choices;                // choice only
  bool optional = false;         // no default: computed from the other inputs when absent
  Matrix<double> numbers;        // the default of a vector (1 x n), matrix or integer (1 x 1)
  Labels texts;                  // the default of a choice or a text (one), or of tokens
};

// A walkthrough's inputs as a caller gives them, by field name: `numbers` for a vector (1 x n), a
// matrix, an integer (1 x 1), model handles and token ids (1 x n); `texts` for a choice or a text
// (one) and tokens. A field not given takes its default.
struct GivenInputs {
  std::vector<std::pair<std::string, Matrix<double>>> numbers;
  std::vector<std::pair<std::string, Labels>> texts;
};

// The walkthroughs, in the page's order: each one's name, inputs and trace.
struct WalkthroughEntry {
  const char *name;
  std::vector<InputField> (*inputs)();
  Trace (*trace)(const GivenInputs &);
};
const std::vector<WalkthroughEntry> &walkthroughs();

// InputError blames "walkthrough" for a name that is none of these.
const WalkthroughEntry &walkthrough_entry(const std::string &name);
const Labels &walkthrough_names();
std::vector<InputField> walkthrough_inputs(const std::string &walkthrough);
// The walkthrough's trace of `given`; InputError blames the input at fault.
Trace walkthrough(const std::string &name, const GivenInputs &given);

// The decimal text, with `digits` significant digits and numpy's trimming, of exp(log_magnitude)
// carrying `negative`'s sign: "5.7661442e-340" for log_magnitude = -781.1269...
std::string decimal_from_log(double log_magnitude, bool negative = false, int digits = 8);

} // namespace attention
