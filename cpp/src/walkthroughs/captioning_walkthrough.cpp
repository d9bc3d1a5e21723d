#include "attention/captioning_walkthrough.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "given_inputs.hpp"
#include "trace_parts.hpp"

namespace attention {

namespace {

using detail::Argument;
using detail::fail;
using namespace trace_parts;

// The grid's cells as "row,column", row-major: an overlay panel's columns.
Labels cell_labels(std::size_t rows, std::size_t columns) {
  Labels labels;
  for (std::size_t i = 0; i < rows * columns; ++i)
    labels.push_back(std::to_string(i / columns) + "," + std::to_string(i % columns));
  return labels;
}

// Row `row` of `m` (a row of L values) as the grid, rows x columns.
template <class T>
Matrix<double> as_grid(const Matrix<T> &m, std::size_t row, std::size_t rows, std::size_t columns) {
  auto out = Matrix<double>::from_shape({rows, columns});
  std::copy(m.data() + row * rows * columns, m.data() + (row + 1) * rows * columns, out.data());
  return out;
}

// The image as a panel: the channels' rows one after the other (3·S x S), rows "R1" … "B<S>".
Panel image_panel(const std::vector<float> &image, std::size_t size) {
  auto values = Matrix<double>::from_shape({tasks::image_channels * size, size});
  std::copy(image.begin(), image.end(), values.data());
  Labels rows;
  for (const char *channel : {"R", "G", "B"})
    for (const auto &label : numbered(channel, size, 1))
      rows.push_back(label);
  return panel("image", "image", std::move(values), rows, numbered("", size, 1));
}

// The encoder's stage: each region's ‖a_i‖ over the image, the annotations, and the channels
// that vary most across the regions as the grid (largest variance first, the lower channel of
// equal ones).
template <class T>
std::vector<Panel> encoder_panels(const Matrix<T> &annotations, std::size_t rows,
                                  std::size_t columns, const Labels &cells) {
  const std::size_t l = annotations.shape()[0], d = annotations.shape()[1];
  auto norms = Matrix<double>::from_shape({1, l});
  std::vector<double> mean(d, 0), variance(d, 0);
  for (std::size_t i = 0; i < l; ++i) {
    double sum = 0;
    for (std::size_t c = 0; c < d; ++c) {
      const double a = static_cast<double>(annotations(i, c));
      sum += a * a;
      mean[c] += a / double(l);
    }
    norms(0, i) = std::sqrt(sum);
  }
  for (std::size_t i = 0; i < l; ++i)
    for (std::size_t c = 0; c < d; ++c)
      variance[c] += std::pow(static_cast<double>(annotations(i, c)) - mean[c], 2) / double(l);
  std::vector<std::size_t> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return variance[a] > variance[b]; });
  std::vector<Panel> panels{
      panel("regions", "overlay", std::move(norms), Labels(1, "‖a‖"), cells),
      panel("annotations", "annotation", rows_of(annotations, 0, l), cells, numbered("", d, 1))};
  for (std::size_t k = 0; k < std::min(shown_channels, d); ++k) {
    const std::size_t c = order[k];
    auto grid = Matrix<double>::from_shape({rows, columns});
    for (std::size_t i = 0; i < l; ++i)
      grid.data()[i] = static_cast<double>(annotations(i, c));
    Panel channel =
        panel("", "annotation", std::move(grid), numbered("", rows, 0), numbered("", columns, 0));
    channel.name = "channel-" + std::to_string(c + 1);
    panels.push_back(std::move(channel));
  }
  return panels;
}

} // namespace

tasks::Scene parse_scene(const std::string &text) {
  return tasks::make_scene_from(tasks::read_scene(text));
}

template <class T>
Trace captioning_walkthrough(CaptionerSession<T> &session, const tasks::Scene &scene,
                             std::size_t beam) {
  check_from_one(beam, max_captioning_beam, "beam");
  const tasks::CaptionTask &task = session.task();
  const CaptionResult<T> result = session.caption(scene, beam);
  const CaptionerTrace<T> &t = result.trace;
  const std::size_t m = t.output.size(), l = t.weights.shape()[1];
  const std::size_t rows = session.model().grid_rows(), columns = session.model().grid_columns();
  const std::size_t h = t.states.shape()[1], d = t.gates.shape()[1];
  Labels words;
  for (auto id : t.output)
    words.push_back(task.vocabulary.tokens[id]);
  const Labels cells = cell_labels(rows, columns);

  Trace trace;
  trace.walkthrough = "captioning";
  trace.labels = {{"caption", words}};
  trace.stages.push_back({"scene", "scene", 0, {image_panel(result.image, task.image_size)}});
  trace.stages.push_back(
      {"encoder", "encoder", 0, encoder_panels(t.annotations, rows, columns, cells)});
  const Labels grid_rows = numbered("", rows, 0), grid_columns = numbered("", columns, 0);
  for (std::size_t step = 1; step <= m; ++step) {
    const std::size_t row = step - 1;
    const Labels word(1, words[row]);
    std::vector<Panel> panels{
        panel("decoder_state", "decoder", rows_of(t.states, row, 1),
              Labels(1, "h" + std::to_string(row)), numbered("", h, 1)),
        panel("scores", "scores", as_grid(t.scores, row, rows, columns), grid_rows, grid_columns),
        panel("weights", "weights", as_grid(t.weights, row, rows, columns), grid_rows,
              grid_columns),
        panel("attention", "overlay", rows_of(t.weights, row, 1), word, cells),
        panel("gate", "context", rows_of(t.gates, row, 1), Labels(1, "β"), numbered("", d, 1))};
    panels.push_back(top_panel(result.top[row], task.vocabulary));
    trace.stages.push_back({"step-" + std::to_string(step), "step", step, std::move(panels)});
  }

  // The grammar's regions of each word, up to where the caption leaves the grammar's.
  const tasks::CaptionExample gold = tasks::describe(task, scene);
  auto linked = Matrix<double>::from_shape({m, l});
  std::fill(linked.data(), linked.data() + m * l, 0.0);
  for (std::size_t row = 0; row < std::min(m, gold.caption.size()); ++row) {
    if (gold.caption[row] != static_cast<std::size_t>(t.output[row]))
      break;
    for (auto cell : gold.cells[row])
      linked(row, cell) = 1;
    for (auto cell : gold.possible[row])
      linked(row, cell) = 0.5;
  }
  std::vector<Panel> last{panel("figure", "overlay", rows_of(t.weights, 0, m), words, cells),
                          panel("gold", "overlay", std::move(linked), words, cells),
                          panel("alignment", "weights", rows_of(t.weights, 0, m), words, cells)};
  if (beam > 1)
    last.push_back(beams_panel(result.beams, [&](const std::vector<std::size_t> &ids) {
      return tasks::detokenize_caption(task, ids);
    }));
  const CaptionEvaluation evaluation = session.test_evaluation();
  auto measures = Matrix<double>::from_shape({1, 3});
  measures(0, 0) = evaluation.exact_match;
  measures(0, 1) = evaluation.token_accuracy;
  measures(0, 2) = evaluation.region_accuracy;
  std::vector<Label> metrics(3);
  metrics[0].metric = "exactMatch";
  metrics[1].metric = "tokenAccuracy";
  metrics[2].metric = "regionAccuracy";
  last.push_back(panel("measures", "weights", std::move(measures),
                       trace_parts::plain(Labels(1, task.language)), std::move(metrics)));
  trace.stages.push_back({"caption", "caption", 0, std::move(last)});
  trace.output = rows_of(t.weights, 0, m);
  return trace;
}

template Trace captioning_walkthrough<float>(CaptionerSession<float> &, const tasks::Scene &,
                                             std::size_t);
template Trace captioning_walkthrough<double>(CaptionerSession<double> &, const tasks::Scene &,
                                              std::size_t);

// ---------------------------------------------------------------------------------------------
// The captioning walkthrough's entry in the walkthroughs' table: a captioner's caption of a scene.
// The task and language pick the model (the caller's); the scene is text, as parse_scene reads it
// (a form field, an HTML attribute).

namespace {

using namespace inputs;

std::vector<InputField> captioning_inputs() {
  const auto &task_ids = tasks::caption_task_ids();
  const auto &languages = tasks::caption_languages();
  return {texts_field("task", InputKind::choice, Labels(1, task_ids.front()), task_ids),
          texts_field("language", InputKind::choice, Labels(1, languages.front()), languages),
          texts_field("scene", InputKind::tokens,
                      {"big", "red", "circle", "0", "0;", "small", "blue", "square", "1", "1"}),
          integer_field("beam", 1, 1, std::int64_t(max_captioning_beam)),
          model_field("model", InputKind::model)};
}

Trace captioning_from(const GivenInputs &given) {
  const auto fields = captioning_inputs();
  return stored_model(one_model(given, "one captioner"))
      .as<CaptionerSession>()
      .visit([&](auto &session) {
        // the task and language given with a model must be the model's
        for (auto [name, own] : {std::pair{"task", &session.config().task},
                                 std::pair{"language", &session.config().language}})
          if (const auto value = texts(given, name, fields).front(); value != *own)
            detail::fail(detail::Argument(name), "inputs.", name, " (", value,
                         ") is not the model's (", *own, ")");
        std::string scene;
        for (const auto &word : texts(given, "scene", fields))
          scene += word + " ";
        return captioning_walkthrough(session, parse_scene(scene), size(given, "beam", fields));
      });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<CaptionerSession>::walkthroughs() {
  return {{"captioning", captioning_inputs, captioning_from}};
}

} // namespace attention
