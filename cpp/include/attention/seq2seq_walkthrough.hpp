// The seq2seq walkthrough (seed 004 made real): a model's translation of one sentence, stage by
// stage, as a Trace like the other walkthroughs' (numbers and structure only):
//   source      the source tokens and their embeddings (panel "embeddings", n x E)
//   encoder     a bidirectional encoder's forward and backward states ("forward_states" →h_j and
//               "backward_states" ←h_j, n x H/2 each); the annotations ("encoder_states", n x H:
//               the top layer's states, [→h_j; ←h_j] both ways); the decoder's start
//               ("decoder_start", 1 x H: s_0 of its top layer, h_n or tanh(bridge(←h_1)))
//   step (t)    decoder step t: its state ("decoder_state"), the scores of every annotation
//               ("scores") and their softmax ("weights"), the context ("context"), Luong's
//               attentional state ("attentional"), the likeliest next tokens ("top", a column) and
//               the alignment so far ("alignment", t x n)
//   alignment   the whole alignment, target by source ("alignment"); when the task's grammar makes
//               the sentence, its gold alignment ("gold", 1 at sure links, 0.5 at possible
//               ones); with a beam, the
//               hypotheses and their log-probabilities ("beams")
//   compare     with models to compare (the same task, each its own value of the field compared:
//               scoring function, encoder or guided alignment's weight): each one's alignment of
//               the sentence (a panel named by that value: "additive", "bidirectional",
//               "guide=1"), and their exact match, alignment accuracy and AER on the test split
//               ("metrics": rows labelled by what tells the models apart, { scoring, encoder?,
//               layers?, guide? } with the compared field and any other that differs; columns
//               { metric })
// Labels: "source" (tokens as encoded, <eos> last) and "target" (the produced tokens, <eos> last
// unless the length limit stopped it). Models: the model, { scoring, encoder, layers, guide }.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "seq2seq_session.hpp"
#include "walkthrough.hpp"

namespace attention {

// The widest beam the walkthrough searches with.
constexpr std::size_t max_walkthrough_beam = 5;

// What compared models differ in: their scoring functions, their encoders, or their training
// (guided alignment's weight λ).
enum class Comparison { scoring, encoder, guide };
constexpr Comparison comparisons[] = {Comparison::scoring, Comparison::encoder, Comparison::guide};
const char *comparison_name(Comparison comparison); // "scoring", "encoder", "guide"
// InputError blames `argument` for a name that is none of them.
Comparison parse_comparison(const std::string &name, const char *argument);

// InputError blames "sentence" (it does not tokenize for the model's task), "beam", or "compare"
// (a model of another task, or two alike in the field compared).
template <class T>
Trace seq2seq_walkthrough(Seq2seqSession<T> &session, const std::string &sentence,
                          std::size_t beam = 1,
                          const std::vector<Seq2seqSession<T> *> &compared = {},
                          Comparison comparison = Comparison::scoring);

// The scoring walkthrough: one decoding step of several trained models of one task, side by side,
// each with its own value of the field compared (its scoring function, encoder or guided
// alignment's weight), all teacher forced with the same target (the grammar's translation of the
// sentence when it makes one, else the first model's greedy translation), so that at step `step`
// every model is about to produce the same word:
//   encoder-states   each model's annotations (a panel named by its value of the field compared,
//                    as seq2seq's compare stage names them, n x H)
//   decoder-states   the state each one scores with at that step: s_{t-1} (additive; s_0 the
//                    decoder's start) or s_t (Luong) (1 x H)
//   compare-scores   each one's scores of the annotations (1 x n)
//   compare-weights  their softmax (1 x n), and the gold alignment of the step's word ("gold",
//                    1 at sure links, 0.5 at possible ones) when the grammar makes the sentence
// Labels: "source" and "target" (the forced target, <eos> last). Models: each model, in the
// panels' order, { scoring, encoder, layers, guide }. InputError blames "models" (none, of
// different tasks, or two alike in the field compared), "sentence" or "step" (outside 1 … the
// target's length).
template <class T>
Trace scoring_walkthrough(const std::vector<Seq2seqSession<T> *> &models,
                          const std::string &sentence, std::size_t step,
                          Comparison comparison = Comparison::scoring);

extern template Trace scoring_walkthrough<float>(const std::vector<Seq2seqSession<float> *> &,
                                                 const std::string &, std::size_t, Comparison);
extern template Trace scoring_walkthrough<double>(const std::vector<Seq2seqSession<double> *> &,
                                                  const std::string &, std::size_t, Comparison);
extern template Trace seq2seq_walkthrough<float>(Seq2seqSession<float> &, const std::string &,
                                                 std::size_t,
                                                 const std::vector<Seq2seqSession<float> *> &,
                                                 Comparison);
extern template Trace seq2seq_walkthrough<double>(Seq2seqSession<double> &, const std::string &,
                                                  std::size_t,
                                                  const std::vector<Seq2seqSession<double> *> &,
                                                  Comparison);

} // namespace attention
