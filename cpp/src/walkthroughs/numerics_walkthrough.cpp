// The numerics lab: one softmax in every precision, naive, shifted and in logs, then masked,
// scaled and tempered, each row as that precision rounds it.
#include "attention/walkthrough.hpp"

#include "trace_parts.hpp"

#include <cmath>
#include <cstdint>

#include "attention/numerics.hpp"
#include "attention/numpy_random.hpp"

namespace attention {

namespace {

using namespace trace_parts;

namespace nx = numerics;

using Rows = std::vector<std::pair<Label, nx::Values>>;

// A panel whose rows are rows of values of some precision each (all of one length), labelled.
Panel precision_rows(const char *name, const char *palette, const Rows &rows,
                     std::vector<Label> cols) {
  const std::size_t n = cols.size();
  Panel out = panel(name, palette, filled(rows.size(), n, 0.0), {}, std::move(cols));
  bool any_exact = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const nx::Values &row = rows[i].second;
    out.row_labels.push_back(rows[i].first);
    std::copy(row.values.begin(), row.values.end(), out.values.data() + i * n);
    out.bits.insert(out.bits.end(), row.bits.begin(), row.bits.end());
    any_exact = any_exact || !row.exact.empty();
  }
  if (any_exact)
    for (const auto &[label, row] : rows) {
      const auto &exact = row.exact.empty() ? std::vector<std::string>(n) : row.exact;
      out.exact.insert(out.exact.end(), exact.begin(), exact.end());
    }
  return out;
}

// The label of a row computed in precision `p`, which the other fields of a row label qualify.
Label precision_label(nx::Precision p) {
  Label label;
  label.precision = nx::precision_name(p);
  return label;
}

// One value row appended to another: the weights and their sum.
nx::Values joined(nx::Values a, const nx::Values &b) {
  if (!a.exact.empty() || !b.exact.empty()) {
    a.exact.resize(a.values.size());
    const auto exact = b.exact.empty() ? std::vector<std::string>(b.values.size()) : b.exact;
    a.exact.insert(a.exact.end(), exact.begin(), exact.end());
  }
  a.values.insert(a.values.end(), b.values.begin(), b.values.end());
  a.bits.insert(a.bits.end(), b.bits.begin(), b.bits.end());
  return a;
}

Trace numerics_trace(const NumericsInputs &in) {
  detail::require_values(in.scores, "scores");
  const std::size_t n = in.scores.size();
  require_size(n, "number of scores", max_scores, "scores");
  detail::require_equal_length(detail::Argument("mask"), in.mask.size(), "mask length", in.mask, n,
                               "scores length", in.scores);
  std::vector<std::uint8_t> keep;
  for (std::size_t j = 0; j < n; ++j) {
    if (in.mask(j) != 0 && in.mask(j) != 1)
      detail::fail(detail::Argument("mask"), "mask[", j, "] (", in.mask(j), ") must be 0 or 1");
    keep.push_back(static_cast<std::uint8_t>(in.mask(j)));
  }
  require_integer(in.seed, "seed", 0, max_seed);

  const std::vector<double> scores(in.scores.begin(), in.scores.end());
  const std::vector<Label> keys = plain(numbered("x", n, 1));
  const auto run = [&](nx::Form form, double scale = 1) {
    std::vector<nx::SoftmaxSteps> out;
    nx::SoftmaxOptions options;
    options.form = form;
    options.scale = scale;
    for (const nx::Precision p : nx::precisions)
      out.push_back(nx::softmax_steps(p, scores, options));
    return out;
  };
  // one row per precision of the rows `pick` chooses from each precision's steps
  const auto per_precision = [&](const std::vector<nx::SoftmaxSteps> &steps, auto pick) {
    Rows rows;
    for (std::size_t i = 0; i < steps.size(); ++i)
      rows.push_back({precision_label(nx::precisions[i]), pick(steps[i])});
    return rows;
  };

  Trace trace{"numerics", {}, {}, {}};
  const auto naive = run(nx::Form::naive);
  add_stage(
      trace, "naive",
      {precision_rows("x", "scores", per_precision(naive, [](auto &s) { return s.scores; }), keys),
       precision_rows("exp_x", "scores", per_precision(naive, [](auto &s) { return s.exps; }),
                      keys),
       precision_rows("weights", "weights", per_precision(naive, [](auto &s) { return s.weights; }),
                      keys)});

  const auto shifted = run(nx::Form::shifted);
  add_stage(trace, "shifted",
            {precision_rows("d", "scores",
                            per_precision(shifted, [](auto &s) { return s.shifted; }), keys),
             precision_rows("exp_d", "scores",
                            per_precision(shifted, [](auto &s) { return s.exps; }), keys),
             precision_rows("weights", "weights",
                            per_precision(shifted, [](auto &s) { return s.weights; }), keys)});

  const auto log = run(nx::Form::log);
  add_stage(trace, "underflow",
            {precision_rows("weights", "weights",
                            per_precision(shifted, [](auto &s) { return s.weights; }), keys),
             precision_rows("log_weights", "scores",
                            per_precision(log, [](auto &s) { return s.weights; }), keys)});

  std::vector<Label> with_sum = keys;
  with_sum.emplace_back().total = true;
  add_stage(trace, "rounding",
            {precision_rows(
                "weights", "weights",
                per_precision(shifted, [](auto &s) { return joined(s.weights, s.weights_sum); }),
                with_sum)});

  // each fill with the reader's mask, then with every score masked
  struct FillCase {
    const char *name;
    nx::Fill fill;
    double value;
  };
  const FillCase fills[] = {{"-inf", nx::Fill::negative_infinity, 0},
                            {"-1e9", nx::Fill::value, -1e9},
                            {"-1e4", nx::Fill::value, -1e4},
                            {"finfo.min", nx::Fill::lowest, 0}};
  std::vector<Panel> masked;
  for (const FillCase &fill : fills) {
    Rows rows;
    for (const bool all : {false, true})
      for (const nx::Precision p : nx::precisions) {
        nx::SoftmaxOptions options;
        options.keep = all ? std::vector<std::uint8_t>(n, 0) : keep;
        options.fill = fill.fill;
        options.fill_value = fill.value;
        Label label = precision_label(p);
        label.all_masked = all;
        rows.push_back({label, nx::softmax_steps(p, scores, options).weights});
      }
    masked.push_back(precision_rows(fill.name, "weights", rows, keys));
  }
  add_stage(trace, "masking", std::move(masked));

  // q·k of random q and k for growing d: its spread grows as sqrt(d), and the softmax saturates
  // unless the scores are divided by sqrt(d)
  NumpyRandomState random(in.seed);
  const std::size_t key_count = 4, widths[] = {4, 64, 1024};
  const std::vector<Label> dot_keys = plain(numbered("k", key_count, 1));
  Rows raw, unscaled, scaled_rows;
  for (const std::size_t d : widths) {
    const Matrix<double> q = random.randn(1, d), k = random.randn(key_count, d);
    std::vector<double> dots(key_count, 0.0);
    for (std::size_t j = 0; j < key_count; ++j)
      for (std::size_t i = 0; i < d; ++i)
        dots[j] += q(0, i) * k(j, i);
    Label width;
    width.width = d;
    raw.push_back({width, nx::softmax_steps(nx::Precision::float64, dots).scores});
    nx::SoftmaxOptions by_root;
    by_root.scale = 1 / std::sqrt(static_cast<double>(d));
    for (const nx::Precision p : nx::precisions) {
      Label label = precision_label(p);
      label.width = d;
      unscaled.push_back({label, nx::softmax_steps(p, dots).weights});
      scaled_rows.push_back({label, nx::softmax_steps(p, dots, by_root).weights});
    }
  }
  add_stage(trace, "scale",
            {precision_rows("scores", "scores", raw, dot_keys),
             precision_rows("weights", "weights", unscaled, dot_keys),
             precision_rows("scaled_weights", "weights", scaled_rows, dot_keys)});

  Rows tempered;
  for (const double t : {0.05, 0.5, 1.0, 5.0, 100.0}) {
    const auto steps = run(nx::Form::shifted, 1 / t);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      Label label = precision_label(nx::precisions[i]);
      label.temperature = t;
      tempered.push_back({label, steps[i].weights});
    }
  }
  add_stage(trace, "temperature", {precision_rows("weights", "weights", tempered, keys)});

  trace.output = shaped(1, n, shifted[3].weights.values.data()); // float64's weights
  return trace;
}
} // namespace

Trace numerics_walkthrough(const NumericsInputs &inputs) {
  return blaming_inputs([&] { return numerics_trace(inputs); }, "scores", "scores",
                        {"scores", "mask", "seed"});
}

} // namespace attention
