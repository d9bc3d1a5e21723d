// The sentiment walkthrough (issue 31's page): a classifier with attention pooling reads one
// review, stage by stage, and then Jain & Wallace's checks ask whether its weights explain the
// decision. A Trace like the other walkthroughs' (numbers and structure only):
//   tokens       the words as the model reads them ("embeddings", n x E, rows the words)
//   encoder      the states h_j the attention pools ("states", n x H; a bigru's columns "→1" …
//                "←1" …; without an encoder the embeddings again)
//   scores       e_j ("scores", 1 x n; uniform attention scores nothing: zeros)
//   weights      α ("highlight", palette "highlight": the sentence with each word's α; "weights",
//                1 x n), and for a review the grammar reads, its rationale ("rationale", 1 at the
//                words that decide its label)
//                and, where the task marks rationales, each model's share of α on them over the
//                test split ("rationale_share", models x 1)
//   prediction   the pooled state ("context", 1 x H) and each label's probability
//                ("probabilities", labels x models: the model's, and the uniform model's if given)
//   accuracy     the test split's accuracy of each model and of always answering the training
//                split's commonest label ({ metric: "majority" }), overall and by category of
//                review ("accuracy", columns { metric } and { category, count }), and the model's
//                confusion ("confusion", rows each true label "label (count)", its reviews' shares
//                by the label answered)
//   permutation  the median change of the predicted label's probability when α is shuffled across
//                the words ("permutation", 2 x 1: this sentence, the median over the test split's)
//   attribution  each word's α, leave-one-out effect and gradient norm ("weights",
//                "leave_one_out", "gradients", each 1 x n) and Kendall's τ of α against the other
//                two ("tau", rows this sentence and the test split's mean and standard deviation;
//                NaN where a ranking is constant)
// Labels: "tokens" (the words), "labels" (the task's), "predicted" (the predicted label);
// `models` the model's label, and the uniform model's, { encoder, attention }; in the panels,
// where they stand side by side, { attention } alone.
#pragma once

#include <string>

#include "classifier_session.hpp"
#include "walkthrough.hpp"

namespace attention {

// InputError blames "sentence" (the session's tokenize; explain's words, two or more), or
// "uniform" for a uniform model that is not of the session's task and language, or not uniform.
template <class T>
Trace sentiment_walkthrough(ClassifierSession<T> &session, const std::string &sentence,
                            ClassifierSession<T> *uniform = nullptr);

extern template Trace sentiment_walkthrough<float>(ClassifierSession<float> &, const std::string &,
                                                   ClassifierSession<float> *);
extern template Trace sentiment_walkthrough<double>(ClassifierSession<double> &,
                                                    const std::string &,
                                                    ClassifierSession<double> *);

} // namespace attention
