// The models a caller holds by handle: what the JavaScript API's model objects point at. Models
// are made, loaded and disposed here, and the walkthroughs that show trained models find them here
// by the handles their inputs carry. Handles are never reused.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "seq2seq_session.hpp"

namespace attention {

// A seq2seq model in one of its two precisions.
struct StoredModel {
  std::unique_ptr<Seq2seqSession<float>> f32;
  std::unique_ptr<Seq2seqSession<double>> f64;

  // f(session) on the precision the model has.
  template <class F> decltype(auto) visit(F &&f) { return f32 ? f(*f32) : f(*f64); }
  template <class T> Seq2seqSession<T> *session() {
    if constexpr (sizeof(T) == 4)
      return f32.get();
    else
      return f64.get();
  }
};

// A new model of `config` in `precision` ("float32" or "float64"; InputError blames "precision"),
// its task shared with the other models of that task and seed made lately.
int create_model(const Seq2seqSessionConfig &config, const std::string &precision);
// A model from saved bytes (load_seq2seq_session's errors).
int load_model(const std::uint8_t *bytes, std::size_t size);
// InputError blames `argument` for a handle that was disposed or never made.
StoredModel &stored_model(int handle, const std::string &argument = "model");
void dispose_model(int handle);

// The sessions of `handles`, all in T's precision (InputError blames `argument` otherwise).
template <class T>
std::vector<Seq2seqSession<T> *> sessions_of(const std::vector<int> &handles,
                                             const std::string &argument);

} // namespace attention
