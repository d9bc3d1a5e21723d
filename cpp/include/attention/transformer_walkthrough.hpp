// The transformer walkthrough: a trained Transformer's translation of one sentence, stage by stage,
// as a Trace like the other walkthroughs' (numbers and structure only). `layer` and `head` (from
// 1) pick the layer of each stack and the head the detailed stages show; every number is the
// model's own, recomputed from its parameters with the model's layers on a batch of one:
//   tokens          the source tokens' embeddings times sqrt(d_model) ("source", n x d) and the
//                   decoder's inputs' (<sos>, then the output but its last token: "target", m x d)
//   positions       the positional encoding ("encoding", n x d, rows the positions 0 …) and what
//                   the encoder reads, embeddings plus encoding ("input", n x d)
//   encoder-qkv     the chosen encoder layer's self-attention, the chosen head: "Q", "K", "V"
//                   (n x d_k, the head's columns of x W_Q^T + b_Q, …)
//   encoder-scores  "scores" Q K^T and "scaled" Q K^T / sqrt(d_k) (n x n)
//   encoder-mask    "mask" (n x n, all 0: one sentence has no padding) and "masked", the scaled
//                   scores plus the mask
//   encoder-softmax "weights" (n x n), the softmax of each row
//   encoder-head    "output" (n x d_k), weights V
//   encoder-heads   every head's output side by side ("concat", n x d) and out_proj of it
//                   ("projected", n x d): the attention's output
//   encoder-norm    "residual" (x + attention) and norm1 of it ("normalised"), n x d
//   encoder-feed-forward  "hidden" relu(linear1(x)) (n x dim_feedforward), "output" linear2 of it
//                   and norm2(x + output) ("normalised"), n x d
//   decoder-self    the chosen decoder layer's masked self-attention, the chosen head: "scores"
//                   (scaled, m x m), the causal "mask" (0 on and below the diagonal, -inf above),
//                   "masked" (-inf above the diagonal) and "weights"
//   cross           its cross-attention: "Q" (m x d_k), "K" (n x d_k), "scaled" and "weights"
//                   (m x n) of the chosen head, then every head's weights ("head-1", …)
//   step (t)        decoder step t: the chosen cross-attention head's row ("weights", 1 x n), the
//                   likeliest next tokens ("top", a column) and that head's alignment so far
//                   ("alignment", t x n)
//   head-view-encoder, head-view-decoder, head-view-cross  the chosen layer's
//                   every head ("head-1", …): encoder self-attention (n x n), decoder
//                   self-attention (m x m), cross-attention (m x n)
//   model-view      every layer's every head: "encoder-<layer>-<head>", "decoder-…", "cross-…"
//   compare         the cross-attention head with the lowest AER on the test split
//                   (TransformerSession::test_evaluation's heads) over the sentence ("transformer",
//                   m x n, rows the output), the GRU model's alignment teacher forced with the same
//                   output ("gru") when one is given, the gold links ("gold", 1 sure, 0.5
//                   possible, up to where the output leaves the grammar's translation) when the
//                   grammar makes the sentence, and their AER on the test split ("metrics", a
//                   column: rows "Transformer" and the GRU model by its label)
// Labels: "source" (<eos> last), "target" (the output), "input" (the decoder's inputs), "best"
// (the compared head's layer and head, from 1, as text). Output: the chosen cross-attention head's
// weights, m x n.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "seq2seq_session.hpp"
#include "transformer_session.hpp"
#include "walkthrough.hpp"

namespace attention {

// A model compared with the Transformer: its label, its alignment of the source teacher forced
// with the Transformer's output (target x source) and its AER on the test split.
struct ComparedAlignment {
  Label model;
  Matrix<double> weights;
  double aer = 0;
};
using CompareAlignment = std::function<ComparedAlignment(const std::vector<TokenId> &source,
                                                         const std::vector<TokenId> &target)>;

// A GRU model's (seq2seq.hpp): its label { scoring, encoder, layers, guide } as the seq2seq
// walkthrough's, its teacher-forced weights. The session must outlive the function.
template <class T> CompareAlignment seq2seq_alignment(Seq2seqSession<T> &session);
extern template CompareAlignment seq2seq_alignment<float>(Seq2seqSession<float> &);
extern template CompareAlignment seq2seq_alignment<double>(Seq2seqSession<double> &);

// InputError blames "sentence", "layer" (outside 1 … the smaller stack's layers), "head" (outside
// 1 … the heads) or "beam".
template <class T>
Trace transformer_walkthrough(TransformerSession<T> &session, const std::string &sentence,
                              std::size_t layer = 1, std::size_t head = 1, std::size_t beam = 1,
                              const CompareAlignment &compare = nullptr);

extern template Trace transformer_walkthrough<float>(TransformerSession<float> &,
                                                     const std::string &, std::size_t, std::size_t,
                                                     std::size_t, const CompareAlignment &);
extern template Trace transformer_walkthrough<double>(TransformerSession<double> &,
                                                      const std::string &, std::size_t, std::size_t,
                                                      std::size_t, const CompareAlignment &);

} // namespace attention
