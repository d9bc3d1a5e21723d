// Beam search, the same for every model's decoder: the loop and its choice at each step, while each
// model runs its own decoder for the live hypotheses.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "attention/sentences.hpp"
#include "attention/softmax.hpp"

namespace attention::models {

// A hypothesis: { output, log_probability }.
template <class Hypothesis> bool ended(const Hypothesis &hypothesis, TokenId eos) {
  return !hypothesis.output.empty() && hypothesis.output.back() == eos;
}

template <class Hypothesis> bool all_ended(const std::vector<Hypothesis> &beams, TokenId eos) {
  return std::all_of(beams.begin(), beams.end(),
                     [&](const Hypothesis &beam) { return ended(beam, eos); });
}

// Where a hypothesis of the next step comes from: the one it extends, and whether it grew by a
// token (an ended one is kept as it is).
struct BeamOrigin {
  std::size_t beam;
  bool grown;
};

// One step: every live hypothesis b extended by each of the v tokens, scored by its total
// log-probability (the log-softmax, in double, of logits(b): b's next logits, asked for in
// increasing b), and every ended one kept as it is; the `width` best (no length penalty), ties to
// the earlier hypothesis, then the smaller token. `beams` becomes them; returns their origins.
template <class Hypothesis, class Logits>
std::vector<BeamOrigin> advance_beams(std::vector<Hypothesis> &beams, std::size_t v,
                                      std::size_t width, TokenId eos, Logits &&logits) {
  struct Candidate {
    std::size_t beam;
    TokenId token; // -1: an ended hypothesis kept as it is
    double score;
  };
  std::vector<Candidate> candidates;
  std::vector<double> row(v), log_probabilities(v);
  for (std::size_t b = 0; b < beams.size(); ++b) {
    if (ended(beams[b], eos)) {
      candidates.push_back({b, -1, beams[b].log_probability});
      continue;
    }
    const auto *next = logits(b);
    std::copy(next, next + v, row.begin());
    detail::log_softmax_into(row.data(), v, 1.0, nullptr, log_probabilities.data());
    for (std::size_t token = 0; token < v; ++token)
      candidates.push_back(
          {b, static_cast<TokenId>(token), beams[b].log_probability + log_probabilities[token]});
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate &a, const Candidate &b) { return a.score > b.score; });
  std::vector<Hypothesis> next;
  std::vector<BeamOrigin> origins;
  for (std::size_t i = 0; i < std::min(width, candidates.size()); ++i) {
    const Candidate &c = candidates[i];
    next.push_back(beams[c.beam]);
    if (c.token >= 0) {
      next.back().output.push_back(c.token);
      next.back().log_probability = c.score;
    }
    origins.push_back({c.beam, c.token >= 0});
  }
  beams = std::move(next);
  return origins;
}

// Beam search from the empty hypothesis for up to max_length steps or until every hypothesis has
// ended; returns the hypotheses, best first. At step t, next(t, beams, b) decodes live hypothesis
// b (in increasing b, beams as they were before the step) and gives its next logits; then
// reorder(origins) moves what the model keeps per hypothesis to the step's new hypotheses.
template <class Hypothesis, class Next, class Reorder>
std::vector<Hypothesis> search_beams(std::size_t max_length, std::size_t v, std::size_t width,
                                     TokenId eos, Next &&next, Reorder &&reorder) {
  std::vector<Hypothesis> beams(1);
  for (std::size_t t = 0; t < max_length && !all_ended(beams, eos); ++t)
    reorder(advance_beams(beams, v, width, eos,
                          [&](std::size_t b) { return next(t, std::as_const(beams), b); }));
  return beams;
}

// Each hypothesis's decoder state after the step: a grown one's from `grown`, a kept one's as it
// was.
template <class State>
std::vector<State> states_after(const std::vector<BeamOrigin> &origins,
                                const std::vector<State> &before, std::vector<State> &grown) {
  std::vector<State> after;
  for (const auto &[beam, is_grown] : origins)
    after.push_back(is_grown ? grown[beam] : before[beam]);
  return after;
}

// Beam search of a recurrent decoder on a batch of one, its encoder run: all it keeps between steps
// is its state after a hypothesis's last token (`state_size` values, every layer's:
// get_decoder_state and set_decoder_state), from which each live hypothesis decodes a step of its
// last token (<sos> first).
template <class Hypothesis, class Network, class T>
std::vector<Hypothesis> recurrent_beam_search(Network &network, const T *parameters,
                                              std::size_t state_size, std::size_t max_length,
                                              std::size_t width, TokenId sos, TokenId eos) {
  // Each hypothesis's state after its last token (the initial state for the empty one), and after
  // the step's
  std::vector<std::vector<T>> states(1, std::vector<T>(state_size)),
      grown(width, std::vector<T>(state_size));
  network.get_decoder_state(0, states[0].data());
  return search_beams<Hypothesis>(
      max_length, network.v, width, eos,
      [&](std::size_t t, const std::vector<Hypothesis> &beams, std::size_t b) {
        // Step t of the batch of one reads its state before it and its input token.
        network.set_decoder_state(t, states[b].data());
        network.inputs[t] = t == 0 ? sos : beams[b].output.back();
        network.decode(parameters, t, t + 1);
        network.get_decoder_state(t + 1, grown[b].data());
        return network.logits_at(t);
      },
      [&](const std::vector<BeamOrigin> &origins) {
        states = states_after(origins, states, grown);
      });
}

} // namespace attention::models
