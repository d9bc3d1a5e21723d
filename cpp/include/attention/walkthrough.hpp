// Walkthrough traces: one call runs a whole notebook and returns every stage in order, with the
// matrices as the notebook draws them, their labels, the formula and the notebook's code line.
// The page and the embeddable component draw only from this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"

namespace attention {

// One heatmap of a stage.
struct Panel {
  std::string name;    // e.g. "dec_hidden_state", "W_Q"
  std::string palette; // colour role: decoder, annotation, context, weights, scores, neutral
  Matrix<double> values;
  std::vector<std::string> row_labels, col_labels;
  // Empty, or one entry per cell (row-major): the decimal text of a value too small for a double
  // (whose `values` cell is 0), "" for every exact cell.
  std::vector<std::string> exact;
};

struct Stage {
  std::string id;      // stable, used in URLs: "softmax", "step-2"
  std::string title;   // English; the page translates by id
  std::string formula; // LaTeX
  std::string code;    // the notebook's line(s) for this step
  std::vector<Panel> panels;
};

struct Trace {
  std::string walkthrough;
  std::vector<Stage> stages;
  Matrix<double> output; // the walkthrough's result: context vector, attention output, alignment
};

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
};

enum class ScoreFunction { additive, dot, general, concat };

// Scoring functions and a whole decoding (seed 004). States not given are drawn from the seed.
struct ScoringInputs {
  std::int64_t seed = 4;
  std::size_t length = 4; // source and target length for generated states
  std::size_t width = 4;  // hidden size for generated states
  std::size_t attention_width = 4;
  ScoreFunction score = ScoreFunction::dot;
  std::optional<Matrix<double>> encoder_states; // one per row
  std::optional<Matrix<double>> decoder_states; // one per row
  std::vector<std::string> source_tokens, target_tokens;
};

Trace basics_walkthrough(const BasicsInputs &inputs = {});
Trace self_attention_walkthrough(const SelfAttentionInputs &inputs = {});
Trace scoring_walkthrough(const ScoringInputs &inputs = {});

ScoreFunction parse_score_function(const std::string &name);
std::string score_function_name(ScoreFunction score);

// The decimal text, with `digits` significant digits and numpy's trimming, of exp(log_magnitude)
// carrying `negative`'s sign: "5.7661442e-340" for log_magnitude = -781.1269...
std::string decimal_from_log(double log_magnitude, bool negative = false, int digits = 8);

} // namespace attention
