// The numeric API for float and double, instantiated once, in cpp/src/core/instances.cpp, which is
// compiled for speed. A file that includes this header calls those instances instead of making
// its own: the WebAssembly build compiles the bindings and the walkthroughs for size, and their
// calls still reach the same -O3 code as the benchmarks.
#pragma once

#include "attention.hpp"
#include "scoring.hpp"
#include "softmax.hpp"

#define ATTENTION_NUMERIC_API(PREFIX, T)                                                           \
  PREFIX T dot_score<T>(const Vector<T> &, const Vector<T> &);                                     \
  PREFIX Vector<T> dot_scores<T>(const Vector<T> &, const Matrix<T> &);                            \
  PREFIX Vector<T> general_scores<T>(const Vector<T> &, const Matrix<T> &, const Matrix<T> &);     \
  PREFIX Vector<T> concat_scores<T>(const Vector<T> &, const Matrix<T> &, const Matrix<T> &,       \
                                    const Vector<T> &);                                            \
  PREFIX Vector<T> additive_scores<T>(const Vector<T> &, const Matrix<T> &, const Matrix<T> &,     \
                                      const Matrix<T> &, const Vector<T> &);                       \
  PREFIX Vector<T> softmax<T>(const Vector<T> &, T, const Mask &);                                 \
  PREFIX Vector<T> log_softmax<T>(const Vector<T> &, T, const Mask &);                             \
  PREFIX Matrix<T> apply_weights<T>(const Vector<T> &, const Matrix<T> &);                         \
  PREFIX Vector<T> context_vector<T>(const Matrix<T> &);                                           \
  PREFIX Vector<T> attentional_hidden_state<T>(const Vector<T> &, const Vector<T> &,               \
                                               const Matrix<T> &);                                 \
  PREFIX void attention_into<T>(const T *, std::size_t, std::size_t, const T *, std::size_t,       \
                                std::size_t, const T *, std::size_t, std::size_t, std::size_t,     \
                                const AttentionOptions<T> &, T *, T *);                            \
  PREFIX void matmul_into<T>(const T *, std::size_t, std::size_t, const T *, std::size_t,          \
                             std::size_t, T *);                                                    \
  PREFIX SelfAttentionResult<T> self_attention<T>(const Matrix<T> &, const Matrix<T> &,            \
                                                  const Matrix<T> &, const Matrix<T> &,            \
                                                  const AttentionOptions<T> &);                    \
  PREFIX MultiHeadResult<T> multi_head_attention<T>(const Matrix<T> &, const MultiHeadParams<T> &);

#ifndef ATTENTION_DEFINE_INSTANCES
namespace attention {
ATTENTION_NUMERIC_API(extern template, float)
ATTENTION_NUMERIC_API(extern template, double)
} // namespace attention
#endif
