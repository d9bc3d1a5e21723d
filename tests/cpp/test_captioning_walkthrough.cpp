// The captioning walkthrough: a captioner's caption of a scene, stage by stage, with the model's
// own numbers (as CaptionerSession::caption computes them), the scene's text form, and the errors'
// arguments, directly and through the walkthroughs' table.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>

#include "attention/captioning_walkthrough.hpp"
#include "attention/model_store.hpp"
#include "trace_checks.hpp"

using namespace attention;

namespace {

CaptionerSession<float> trained() {
  CaptionerSessionConfig config;
  config.channels = 4;
  config.annotation = 8;
  config.attention = 8;
  config.embedding = 8;
  config.hidden = 16;
  config.seed = 5;
  CaptionerSession<float> session(config);
  session.train(20, 16);
  return session;
}

} // namespace

TEST_CASE("parse_scene: a scene's text form, its errors blaming scene") {
  const tasks::Scene scene = parse_scene("big red circle 0 1; small blue square 1 0");
  REQUIRE(scene.objects.size() == 2);
  CHECK(scene.objects[0].shape == tasks::Shape::circle);
  CHECK(scene.objects[0].colour == tasks::Colour::red);
  CHECK(scene.objects[0].size == tasks::ObjectSize::big);
  CHECK(scene.objects[0].column == 1);
  CHECK(scene.objects[1].shape == tasks::Shape::square);
  CHECK(scene.objects[1].row == 1);
  CHECK(parse_scene("  small green triangle 1 1 ; ").objects.size() == 1);
  for (const char *bad :
       {"", ";", "big red circle 0", "big red circle 0 x", "big red circle -1 0",
        "big red circle 2 0", "big purple circle 0 0", "big red star 0 0", "huge red circle 0 0",
        "big red circle 0 0; small blue square 0 0",
        "big red circle 0 0; big red circle 0 1; big red circle 1 0; big red circle 1 1"}) {
    INFO(bad);
    CHECK(argument_of([&] { parse_scene(bad); }) == "scene");
  }
}

TEST_CASE("captioning walkthrough: the caption stage by stage, the model's own values") {
  auto session = trained();
  const tasks::Scene scene = parse_scene("big red circle 0 0; small blue square 1 1");
  const Trace trace = captioning_walkthrough(session, scene);
  const auto caption = session.caption(scene);
  const auto &t = caption.trace;
  const std::size_t m = t.output.size();
  CHECK(trace.walkthrough == "captioning");
  REQUIRE(trace.stages.size() == m + 3);
  CHECK(trace.stages[0].id == "scene");
  CHECK(trace.stages[1].id == "encoder");
  CHECK(trace.stages[2].id == "step-1");
  CHECK(trace.stages.back().id == "caption");
  REQUIRE(trace.labels[0].first == "caption");
  CHECK(trace.labels[0].second.size() == m);

  const Panel &image = panel_of(trace.stages[0], "image");
  CHECK(image.palette == "image");
  REQUIRE(image.values.shape()[0] == 96);
  REQUIRE(image.values.shape()[1] == 32);
  CHECK(std::equal(caption.image.begin(), caption.image.end(), image.values.data()));

  const Stage &encoder = trace.stages[1];
  CHECK(panel_of(encoder, "annotations").values.shape()[0] == 64);
  CHECK(panel_of(encoder, "annotations").row_labels[9].text == "1,1");
  CHECK(panel_of(encoder, "regions").palette == "overlay");
  // four channels, each as the 8 x 8 grid, of decreasing variance over the regions
  std::vector<double> variances;
  for (const Panel &panel : encoder.panels)
    if (panel.name.rfind("channel-", 0) == 0) {
      const std::size_t c = std::stoul(panel.name.substr(8)) - 1;
      REQUIRE(panel.values.shape()[0] == 8);
      double mean = 0, variance = 0;
      for (std::size_t i = 0; i < 64; ++i) {
        CHECK(panel.values.data()[i] == double(t.annotations(i, c)));
        mean += panel.values.data()[i] / 64;
      }
      for (std::size_t i = 0; i < 64; ++i)
        variance += (panel.values.data()[i] - mean) * (panel.values.data()[i] - mean);
      variances.push_back(variance);
    }
  REQUIRE(variances.size() == shown_channels);
  CHECK(std::is_sorted(variances.rbegin(), variances.rend()));

  for (std::size_t step = 1; step <= m; ++step) {
    const Stage &stage = trace.stages[1 + step];
    CHECK(stage.kind == "step");
    CHECK(stage.step == step);
    const auto &weights = panel_of(stage, "weights").values;
    const auto &attention = panel_of(stage, "attention").values;
    REQUIRE(weights.shape()[0] == 8);
    for (std::size_t i = 0; i < 64; ++i) {
      CHECK(weights.data()[i] == double(t.weights(step - 1, i)));
      CHECK(attention.data()[i] == double(t.weights(step - 1, i)));
      CHECK(panel_of(stage, "scores").values.data()[i] == double(t.scores(step - 1, i)));
    }
    CHECK(panel_of(stage, "gate").values(0, 3) == double(t.gates(step - 1, 3)));
    CHECK(panel_of(stage, "decoder_state").values(0, 2) == double(t.states(step - 1, 2)));
    const Panel &top = panel_of(stage, "top");
    CHECK(top.values.shape()[0] == caption_top_k);
    CHECK(top.values(0, 0) == double(caption.top[step - 1][0].second));
    CHECK(top.row_labels[0].text == trace.labels[0].second[step - 1]);
  }

  const Stage &last = trace.stages.back();
  CHECK(panel_of(last, "figure").values == trace.output);
  CHECK(panel_of(last, "figure").values.shape()[0] == m);
  const CaptionEvaluation evaluation = session.test_evaluation();
  const Panel &measures = panel_of(last, "measures");
  CHECK(measures.values(0, 0) == evaluation.exact_match);
  CHECK(measures.values(0, 2) == evaluation.region_accuracy);
  CHECK(measures.col_labels[2].metric == "regionAccuracy");
  // the gold regions, up to where the caption leaves the grammar's
  const tasks::CaptionExample gold = tasks::describe(session.task(), scene);
  const Panel &linked = panel_of(last, "gold");
  for (std::size_t row = 0; row < m; ++row) {
    const bool same = row < gold.caption.size() &&
                      std::equal(t.output.begin(), t.output.begin() + row + 1, gold.caption.begin(),
                                 [](auto a, auto b) { return std::size_t(a) == b; });
    for (std::size_t cell : gold.cells[std::min(row, gold.cells.size() - 1)])
      CHECK(linked.values(row, cell) == (same ? 1.0 : 0.0));
  }
}

TEST_CASE("captioning walkthrough: a beam, and through the table with its errors' arguments") {
  auto session = trained();
  const tasks::Scene scene = parse_scene("small green triangle 1 0");
  const Trace beamed = captioning_walkthrough(session, scene, 3);
  CHECK(panel_of(beamed.stages.back(), "beams").values.shape()[0] >= 1);
  CHECK(argument_of([&] { captioning_walkthrough(session, scene, 0); }) == "beam");
  CHECK(argument_of([&] { captioning_walkthrough(session, scene, 6); }) == "beam");

  const auto bytes = session.save();
  const int handle = load_model(bytes.data(), bytes.size());
  const auto given = [&](const std::string &scene_text, const std::string &language = "en") {
    GivenInputs in;
    auto h = Matrix<double>::from_shape({1, 1});
    h(0, 0) = handle;
    in.numbers = {{"model", h}};
    Labels words;
    std::string word;
    for (std::istringstream stream(scene_text); stream >> word;)
      words.push_back(word);
    in.texts = {{"scene", words}, {"language", Labels(1, language)}};
    return in;
  };
  const Trace table = walkthrough("captioning", given("small green triangle 1 0"));
  CHECK(table.output == captioning_walkthrough(session, scene).output);
  CHECK(argument_of([&] { walkthrough("captioning", given("small green triangle 1 0", "zh")); }) ==
        "language");
  CHECK(argument_of([&] { walkthrough("captioning", given("small pink triangle 1 0")); }) ==
        "scene");
  CHECK(argument_of([&] { walkthrough("captioning", given("small green triangle 3 0")); }) ==
        "scene");
  CHECK(argument_of([&] { walkthrough("captioning", GivenInputs{}); }) == "model");
  dispose_model(handle);
}
