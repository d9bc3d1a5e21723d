// A translation task and a Transformer that learns it: what the JavaScript API's
// createTransformer model will hold, as Seq2seqSession is createSeq2seq's. It owns the task
// (vocabularies, splits, gold alignments), a Transformer<T> and a Trainer<T> (the one training
// loop: the same shuffled minibatches, Adam with global-norm clipping), and trains, evaluates,
// translates, saves and loads.
//
// Files: safetensors, the parameters under PyTorch's names in state_dict order (F32 or F64 by
// precision, or F16 on request), and the metadata "format": "attention-stepper/transformer",
// "task", "model", "heads", "encoderLayers", "decoderLayers", "feedforward", "seed",
// "precision".
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model_kind.hpp"
#include "seq2seq_session.hpp" // max_batch
#include "trainer.hpp"
#include "transformer.hpp"
#include "translation_session.hpp"
#include "translation_tasks.hpp"

namespace attention {

// The defaults (the JavaScript API's too): d_model 32 in 2 heads of 16, 2 + 2 layers, a
// feed-forward block of 64 (the suggestion): the GRU model's embedding width, and 45 to 49
// thousand parameters with the tasks' vocabularies, fewer than the default GRU model's 61 to 67
// thousand, so a step costs about as much; two heads per layer are few enough to show side by
// side, and two layers per stack show what a second layer adds. en-fr reaches an exact match of
// 0.98 on its test split in about 250 steps (bench/transformer_native.cpp).
struct TransformerSessionConfig {
  std::string task = "en-fr";
  std::size_t model = 32, heads = 2, encoder_layers = 2, decoder_layers = 2, feedforward = 64;
  std::int64_t seed = 0; // the task's split, the initial parameters and the shuffling
};

// Adam's learning rate and the batch when not told, measured natively on en-fr with the default
// sizes (bench/transformer_native.cpp).
constexpr std::size_t default_transformer_batch = 32;
constexpr double default_transformer_learning_rate = 0.002;

// The alignment read from one cross-attention head, teacher forced: a target word's predicted
// link is the source position of the head's largest weight (the first of equal ones), <eos> left
// out, scored as the GRU model's (tasks::AlignmentScore).
struct TransformerEvaluation {
  double exact_match = 0;    // share of sentences translated exactly (greedy), <eos> included
  double token_accuracy = 0; // share of gold target tokens the translation has at their position
  double bleu = 0;           // corpus BLEU-4 of the greedy translations, 0 … 100 (tasks::Bleu)
  double loss = 0;           // the mean cross-entropy of the target tokens, teacher forced
  double aer = 0;            // the best head's
  struct Head {
    std::size_t layer, head; // decoder layer, head within it
    double aer;
  };
  std::vector<Head> heads; // every cross-attention head, decoder layer by layer
};

template <class T> struct TransformerTranslation {
  TransformerTrace<T> trace; // the output's: greedy decoding, or the best beam teacher forced
  // For each step, the translation_top_k most likely tokens and their probabilities, most likely
  // first.
  std::vector<std::vector<std::pair<TokenId, T>>> top;
  std::vector<TranslationHypothesis> beams; // best first (greedy decoding: its one)
};

template <class T>
class TransformerSession
    : public TranslationSession<TransformerSession, T, TransformerTranslation<T>> {
  using Base = TranslationSession<TransformerSession, T, TransformerTranslation<T>>;
  using Base::config_, Base::task_, Base::model_, Base::trainer_, Base::test_evaluation_;

public:
  // InputError blames "task", "model", "heads", "encoderLayers", "decoderLayers", "feedforward",
  // "seed". `task`, when given, must be what tasks::make_task(config.task, config.seed) makes
  // (shared with other models of that task and seed).
  explicit TransformerSession(const TransformerSessionConfig &config,
                              std::shared_ptr<const tasks::Task> task = nullptr);

  TransformerEvaluation evaluate(const std::vector<tasks::Example> &examples);
  bool prepare_test_evaluation(); // ModelSession::test_evaluation's parts
};

// The Transformer kind (model_kind.hpp): its identity is its task.
template <> struct ModelKind<TransformerSession> : TranslationKind {
  static constexpr const char *name = "transformer";
  using Config = TransformerSessionConfig;
  static const std::vector<ConfigField<Config>> &fields();
  template <class T> using Model = Transformer<T>;
  using Evaluation = TransformerEvaluation;
  static constexpr const char *state_dict_tensor = "src_tok_emb.embedding.weight";
  static constexpr std::size_t default_batch = default_transformer_batch;
  static constexpr double default_learning_rate = default_transformer_learning_rate;
  // Its metadata's; or, for a PyTorch state_dict of the tutorial model saved with safetensors
  // (metadata none or {"format": "pt"}), inferred from its tensors: the sizes from the shapes, the
  // layers from the numbered ones, the task from the vocabularies' sizes, the precision from the
  // dtype, seed 0. The heads are not in the shapes: they come from a "heads" metadata entry when
  // the file has one, else the default (2).
  static SavedModel<Config> read_saved(const std::uint8_t *bytes, std::size_t size);
  // A model again from save()'s bytes or a state_dict's, whose positional encoding's buffer
  // (positional_encoding.pos_embedding), which the engine computes, may be there or not.
  template <class T> static TransformerSession<T> load(const std::uint8_t *bytes, std::size_t size);
  static std::vector<WalkthroughEntry> walkthroughs();
};

ATTENTION_EXTERN_SESSION(TransformerSession);

} // namespace attention
