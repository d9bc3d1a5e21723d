// Scoring a decoder state s against encoder annotations h_j (one annotation per row of H).
// Weight matrices follow the papers' column-vector convention: W_a s, U_a h_j, W_a [s; h_j].
#pragma once

#include <cmath>
#include <cstddef>

#include <xtensor/xmath.hpp>

#include "detail/linalg.hpp"

namespace attention {

namespace detail {
template <class T> Vector<T> finite_scores(Vector<T> scores) {
  require_finite_result(scores, "scores", Argument("query"));
  return scores;
}
} // namespace detail

// s . h : one annotation (Attention Basics, single_dot_attention_score).
template <class T> T dot_score(const Vector<T> &query, const Vector<T> &key) {
  detail::require_values(query, "query");
  detail::require_values(key, "key");
  detail::require_equal_length(detail::Argument("query"), query.size(), "query length", query,
                               key.size(), "key length", key);
  T sum = 0;
  for (std::size_t i = 0; i < query.size(); ++i)
    sum += query(i) * key(i);
  detail::require_finite_result(Vector<T>{sum}, "score", detail::Argument("query"));
  return sum;
}

// s . h_j for every row j of H (Attention Basics, dot_attention_score).
template <class T> Vector<T> dot_scores(const Vector<T> &query, const Matrix<T> &keys) {
  detail::require_values(query, "query");
  detail::require_values(keys, "keys");
  detail::require_equal_length(detail::Argument("query"), query.size(), "query length", query,
                               keys.shape()[1], "keys columns", keys);
  return detail::finite_scores(matvec(keys, query, "keys", "query", detail::Argument("query")));
}

// s . h_j / sqrt(d_k): the scaled dot product of Vaswani et al. (2017).
template <class T> Vector<T> scaled_dot_scores(const Vector<T> &query, const Matrix<T> &keys) {
  Vector<T> scores = dot_scores(query, keys);
  return scores / std::sqrt(static_cast<T>(keys.shape()[1]));
}

// Luong general: s^T W_a h_j, with W_a of shape (|s| x |h|).
template <class T>
Vector<T> general_scores(const Vector<T> &query, const Matrix<T> &keys, const Matrix<T> &wa) {
  detail::require_values(query, "query");
  detail::require_values(keys, "keys");
  detail::require_values(wa, "Wa");
  detail::require_equal_length(detail::Argument("query"), query.size(), "query length", query,
                               wa.shape()[0], "Wa rows", wa);
  detail::require_equal_length(detail::Argument("keys"), keys.shape()[1], "keys columns", keys,
                               wa.shape()[1], "Wa columns", wa);
  // s^T W_a is one row vector; scoring it against every h_j is then a plain dot product.
  auto projected = Vector<T>::from_shape({wa.shape()[1]});
  for (std::size_t j = 0; j < wa.shape()[1]; ++j) {
    T sum = 0;
    for (std::size_t i = 0; i < wa.shape()[0]; ++i)
      sum += query(i) * wa(i, j);
    projected(j) = sum;
  }
  return detail::finite_scores(matvec(keys, projected, "keys", "s^T Wa", detail::Argument("Wa")));
}

// v_a^T tanh(pre_j) for pre_j = base + M h_j: the shared tail of concat and additive scoring.
namespace detail {
template <class T>
Vector<T> tanh_projection_scores(const Vector<T> &base, const Matrix<T> &keys,
                                 const Matrix<T> &key_weights, std::size_t key_offset,
                                 const Vector<T> &va) {
  const std::size_t n = keys.shape()[0], dk = keys.shape()[1], da = base.size();
  auto scores = Vector<T>::from_shape({n});
  for (std::size_t j = 0; j < n; ++j) {
    T score = 0;
    for (std::size_t a = 0; a < da; ++a) {
      T pre = base(a);
      for (std::size_t p = 0; p < dk; ++p)
        pre += key_weights(a, key_offset + p) * keys(j, p);
      score += va(a) * std::tanh(pre);
    }
    scores(j) = score;
  }
  return scores;
}
} // namespace detail

// Luong concat: v_a^T tanh(W_a [s; h_j]), with W_a of shape (d_a x (|s| + |h|)) and v_a of d_a.
template <class T>
Vector<T> concat_scores(const Vector<T> &query, const Matrix<T> &keys, const Matrix<T> &wa,
                        const Vector<T> &va) {
  detail::require_values(query, "query");
  detail::require_values(keys, "keys");
  detail::require_values(wa, "Wa");
  detail::require_values(va, "va");
  const std::size_t concat_length = query.size() + keys.shape()[1];
  if (wa.shape()[1] != concat_length)
    detail::fail(detail::Argument("Wa"), "Wa columns (", wa.shape()[1], ", from ",
                 detail::shape(wa), ") must equal query length + keys columns (", query.size(),
                 " + ", keys.shape()[1], " from ", detail::shape(query), " and ",
                 detail::shape(keys), ")");
  detail::require_equal_length(detail::Argument("va"), va.size(), "va length", va, wa.shape()[0],
                               "Wa rows", wa);
  // W_a [s; h_j] = W_a[:, :|s|] s + W_a[:, |s|:] h_j; the first half is the same for every j.
  auto base = Vector<T>::from_shape({wa.shape()[0]});
  for (std::size_t a = 0; a < wa.shape()[0]; ++a) {
    T sum = 0;
    for (std::size_t i = 0; i < query.size(); ++i)
      sum += wa(a, i) * query(i);
    base(a) = sum;
  }
  return detail::finite_scores(detail::tanh_projection_scores(base, keys, wa, query.size(), va));
}

// Bahdanau additive: v_a^T tanh(W_a s + U_a h_j), W_a (d_a x |s|), U_a (d_a x |h|), v_a (d_a).
template <class T>
Vector<T> additive_scores(const Vector<T> &query, const Matrix<T> &keys, const Matrix<T> &wa,
                          const Matrix<T> &ua, const Vector<T> &va) {
  detail::require_values(query, "query");
  detail::require_values(keys, "keys");
  detail::require_values(wa, "Wa");
  detail::require_values(ua, "Ua");
  detail::require_values(va, "va");
  detail::require_equal_length(detail::Argument("Wa"), wa.shape()[1], "Wa columns", wa,
                               query.size(), "query length", query);
  detail::require_equal_length(detail::Argument("Ua"), ua.shape()[1], "Ua columns", ua,
                               keys.shape()[1], "keys columns", keys);
  detail::require_equal_length(detail::Argument("Ua"), ua.shape()[0], "Ua rows", ua, wa.shape()[0],
                               "Wa rows", wa);
  detail::require_equal_length(detail::Argument("va"), va.size(), "va length", va, wa.shape()[0],
                               "Wa rows", wa);
  return detail::finite_scores(detail::tanh_projection_scores(
      matvec(wa, query, "Wa", "query", detail::Argument("Wa")), keys, ua, 0, va));
}

} // namespace attention
