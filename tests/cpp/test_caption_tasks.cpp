// The `shapes` captioning task: scenes, their pixels and cells, the en and zh grammars with their
// regions and categories, the split, and every error's argument.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "attention/caption_tasks.hpp"
#include "attention/numpy_random.hpp"
#include "trace_checks.hpp"

using namespace attention;
using namespace attention::tasks;

namespace {

std::string message_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const InputError &error) {
    return error.what();
  }
  return "(no error)";
}

// The scenes: a big red circle above a small blue square (one column), and a green
// triangle left of a yellow circle (one row).
Scene above_scene() {
  return make_scene({{"circle", "red", "big", 0, 1}, {"square", "blue", "small", 1, 1}});
}

std::vector<std::string> words(const CaptionTask &task, const CaptionExample &example) {
  std::vector<std::string> result;
  for (std::size_t id : example.caption)
    result.push_back(task.vocabulary.tokens[id]);
  return result;
}

float pixel(const Image &image, std::size_t channel, std::size_t y, std::size_t x) {
  return image.data[(channel * image.height + y) * image.width + x];
}

} // namespace

TEST_CASE("caption task shapes: a scene's pixels, channels first, objects centred in their slots") {
  const Image image = render(above_scene());
  CHECK(image.channels == 3);
  CHECK(image.height == 32);
  CHECK(image.width == 32);
  REQUIRE(image.data.size() == 3 * 32 * 32);
  CHECK(
      std::all_of(image.data.begin(), image.data.end(), [](float v) { return v >= 0 && v <= 1; }));
  // the big red circle fills the top-right slot's middle, 12 pixels across (columns 18 … 29)
  const float red[3] = {pixel(image, 0, 8, 24), pixel(image, 1, 8, 24), pixel(image, 2, 8, 24)};
  CHECK(red[0] > 0.8f);
  CHECK(red[1] < 0.2f);
  CHECK(red[2] < 0.2f);
  CHECK(pixel(image, 0, 8, 18) == red[0]);
  CHECK(pixel(image, 0, 8, 29) == red[0]);
  CHECK(pixel(image, 1, 8, 17) > 0.9f); // background
  CHECK(pixel(image, 1, 8, 30) > 0.9f);
  CHECK(pixel(image, 1, 2, 18) > 0.9f); // a circle: its bounding box's corner is background
  // the small blue square: rows and columns 21 … 26 of the bottom-right slot
  for (std::size_t y = 16; y < 32; ++y)
    for (std::size_t x = 16; x < 32; ++x) {
      const bool inside = y >= 21 && y <= 26 && x >= 21 && x <= 26;
      INFO(y, ", ", x);
      CHECK((pixel(image, 2, y, x) > 0.8f && pixel(image, 0, y, x) < 0.2f) == inside);
    }
  // the empty slots are background
  for (std::size_t y = 0; y < 32; ++y)
    for (std::size_t x = 0; x < 16; ++x)
      REQUIRE(pixel(image, 1, y, x) == pixel(image, 1, 0, 0));
  // a triangle points up: one pixel pair at its apex, its base 12 pixels wide
  const Image triangle = render(make_scene({{"triangle", "green", "big", 0, 0}}));
  CHECK(pixel(triangle, 0, 2, 7) != pixel(triangle, 0, 0, 0));
  CHECK(pixel(triangle, 0, 2, 6) == pixel(triangle, 0, 0, 0));
  CHECK(pixel(triangle, 0, 13, 2) != pixel(triangle, 0, 0, 0));
  CHECK(pixel(triangle, 0, 13, 1) == pixel(triangle, 0, 0, 0));
  CHECK(pixel(triangle, 0, 14, 7) == pixel(triangle, 0, 0, 0));
}

TEST_CASE("caption task shapes: an object's cells are the 8 x 8 grid's cells holding its pixels") {
  const Scene scene = above_scene();
  // big: its slot's 4 x 4 cells (columns 4 … 7, rows 0 … 3); small: the middle 2 x 2
  std::vector<std::size_t> big, small;
  for (std::size_t row = 0; row < 4; ++row)
    for (std::size_t column = 4; column < 8; ++column)
      big.push_back(row * 8 + column);
  CHECK(object_cells(scene.objects[0]) == big);
  CHECK(object_cells(scene.objects[1]) == std::vector<std::size_t>{45, 46, 53, 54});
  // a big triangle's apex is narrow: the top cell row holds pixels in its two middle cells only
  const auto triangle = object_cells(make_scene({{"triangle", "red", "big", 0, 0}}).objects[0]);
  CHECK(triangle == std::vector<std::size_t>{1, 2, 9, 10, 16, 17, 18, 19, 24, 25, 26, 27});
}

TEST_CASE("caption task shapes: the issue's captions in English and Chinese, with regions and "
          "categories") {
  const CaptionTask en = empty_caption_task("shapes", "en"),
                    zh = empty_caption_task("shapes", "zh");
  const auto example = describe(en, above_scene());
  CHECK(detokenize_caption(en, example.caption) == "a big red circle above a small blue square");
  CHECK(words(en, example).back() == "<eos>");
  const auto circle = object_cells(above_scene().objects[0]),
             square = object_cells(above_scene().objects[1]);
  std::vector<std::size_t> both = circle;
  both.insert(both.end(), square.begin(), square.end());
  std::sort(both.begin(), both.end());
  using C = CaptionCategory;
  const std::vector<C> categories = {C::article, C::size, C::colour, C::shape, C::relation,
                                     C::article, C::size, C::colour, C::shape, C::end};
  CHECK(example.categories == categories);
  for (std::size_t t : {1, 2, 3})
    CHECK(example.cells[t] == circle);
  for (std::size_t t : {6, 7, 8})
    CHECK(example.cells[t] == square);
  for (std::size_t t : {0, 4, 5, 9})
    CHECK(example.cells[t].empty());
  CHECK(example.possible[4] == both); // "above" relates the two
  for (std::size_t t : {0, 1, 2, 3, 5, 6, 7, 8, 9})
    CHECK(example.possible[t].empty());
  // Chinese names the square first: 蓝色 的 小 方块 上面 有 一个 红色 的 大 圆
  const auto chinese = describe(zh, above_scene());
  CHECK(detokenize_caption(zh, chinese.caption) == "蓝色 的 小 方块 上面 有 一个 红色 的 大 圆");
  CHECK(chinese.cells[0] == square);
  CHECK(chinese.cells[3] == square);
  CHECK(chinese.possible[4] == both);
  CHECK(chinese.cells[7] == circle);
  CHECK(chinese.cells[10] == circle);
  CHECK(chinese.categories[1] == C::particle);
  CHECK(chinese.categories[5] == C::verb);
  CHECK(chinese.cells[1].empty());
  // side by side: the left one first, "left of"; the order the scene lists them in is irrelevant
  const Scene row =
      make_scene({{"circle", "yellow", "small", 0, 1}, {"triangle", "green", "small", 0, 0}});
  CHECK(detokenize_caption(en, describe(en, row).caption) ==
        "a small green triangle left of a small yellow circle");
  CHECK(detokenize_caption(zh, describe(zh, row).caption) ==
        "黄色 的 小 圆 左边 有 一个 绿色 的 小 三角形");
  // three: the corner of the L, then its column neighbour, then its row neighbour
  const Scene three = make_scene({{"square", "blue", "big", 0, 1},
                                  {"circle", "red", "small", 1, 0},
                                  {"triangle", "yellow", "big", 1, 1}});
  CHECK(detokenize_caption(en, describe(en, three).caption) ==
        "a big yellow triangle below a big blue square and right of a small red circle");
  CHECK(detokenize_caption(zh, describe(zh, three).caption) ==
        "蓝色 的 大 方块 下面 和 红色 的 小 圆 右边 有 一个 黄色 的 大 三角形");
  // one, and a diagonal pair (the higher one is "above")
  CHECK(detokenize_caption(en,
                           describe(en, make_scene({{"square", "green", "big", 1, 0}})).caption) ==
        "a big green square");
  CHECK(detokenize_caption(zh,
                           describe(zh, make_scene({{"square", "green", "big", 1, 0}})).caption) ==
        "一个 绿色 的 大 方块");
  CHECK(detokenize_caption(en, describe(en, make_scene({{"circle", "red", "big", 1, 0},
                                                        {"circle", "blue", "big", 0, 1}}))
                                   .caption) == "a big blue circle above a big red circle");
}

TEST_CASE("caption task shapes: vocabularies and their categories") {
  const CaptionTask en = empty_caption_task("shapes", "en"),
                    zh = empty_caption_task("shapes", "zh");
  CHECK(en.vocabulary.tokens == std::vector<std::string>{"<sos>", "<eos>", "a", "small", "big",
                                                         "red", "green", "blue", "yellow", "circle",
                                                         "square", "triangle", "above", "below",
                                                         "left", "of", "right", "and"});
  CHECK(zh.vocabulary.tokens.size() == 19);
  CHECK(en.categories.size() == en.vocabulary.tokens.size());
  CHECK(zh.categories.size() == zh.vocabulary.tokens.size());
  CHECK(en.categories[*en.vocabulary.find("of")] == CaptionCategory::relation);
  CHECK(zh.categories[*zh.vocabulary.find("的")] == CaptionCategory::particle);
  CHECK(std::string(caption_category_name(CaptionCategory::colour)) == "colour");
  CHECK(en.max_caption_length == 16);
  CHECK(zh.max_caption_length == 17);
  CHECK(en.image_size == 32);
}

TEST_CASE("caption task shapes: one seed gives one split, another another; no scene twice") {
  const CaptionTask a = make_caption_task("shapes", "en", 0),
                    b = make_caption_task("shapes", "en", 0),
                    c = make_caption_task("shapes", "en", 1),
                    zh = make_caption_task("shapes", "zh", 0);
  REQUIRE(a.train.size() == caption_train_size);
  REQUIRE(a.test.size() == caption_test_size);
  const auto key = [](const Scene &scene) {
    std::vector<std::size_t> key;
    for (const auto &o : scene.objects)
      key.insert(key.end(), {std::size_t(o.shape), std::size_t(o.colour), std::size_t(o.size),
                             o.row, o.column});
    return key;
  };
  bool same = true, other = true;
  std::set<std::vector<std::size_t>> seen;
  std::size_t counts[4] = {};
  for (std::size_t i = 0; i < a.train.size(); ++i) {
    same = same && key(a.train[i].scene) == key(b.train[i].scene) &&
           a.train[i].caption == b.train[i].caption;
    other = other && key(a.train[i].scene) == key(c.train[i].scene);
    CHECK(key(a.train[i].scene) == key(zh.train[i].scene)); // the languages share the scenes
    seen.insert(key(a.train[i].scene));
    ++counts[a.train[i].scene.objects.size()];
  }
  for (const auto &example : a.test)
    seen.insert(key(example.scene));
  CHECK(same);
  CHECK_FALSE(other);
  CHECK(seen.size() == caption_train_size + caption_test_size);
  // a third of the draws ask for one object, of which there are only 96
  CHECK(counts[1] == 96);
  CHECK(counts[2] > 3000);
  CHECK(counts[3] > 6000);
  // A scene of three is drawn once whatever its layout: the objects of a test scene of three, in
  // the order its caption names them, are never a training scene's.
  const auto objects = [](const Scene &scene) {
    std::vector<std::size_t> key;
    for (const auto &o : scene.objects)
      key.insert(key.end(), {std::size_t(o.shape), std::size_t(o.colour), std::size_t(o.size)});
    return key;
  };
  std::set<std::vector<std::size_t>> trained;
  for (const auto &example : a.train)
    if (example.scene.objects.size() == 3)
      trained.insert(objects(example.scene));
  std::size_t test_threes = 0;
  for (const auto &example : a.test)
    if (example.scene.objects.size() == 3) {
      ++test_threes;
      CHECK(trained.count(objects(example.scene)) == 0);
    }
  CHECK(test_threes > 400);
  // the first draw, as numpy makes it: index = RandomState(0).randint(3 * 55296)
  NumpyRandomState random(0);
  const auto first = static_cast<std::size_t>(random.randint(3 * 55296, 1, 1)(0, 0));
  CHECK(a.train[0].scene.objects.size() == first % 3 + 1);
}

TEST_CASE(
    "caption task shapes: every example's caption is what describe writes, within the limits, each "
    "object word on its object's cells") {
  for (const char *language : {"en", "zh"}) {
    const CaptionTask task = make_caption_task("shapes", language, 3);
    std::size_t longest = 0;
    for (const auto *split : {&task.train, &task.test})
      for (const auto &example : *split) {
        REQUIRE(example.caption.back() == Vocabulary::eos);
        REQUIRE(example.cells.size() == example.caption.size());
        REQUIRE(example.possible.size() == example.caption.size());
        REQUIRE(example.categories.size() == example.caption.size());
        longest = std::max(longest, example.caption.size() - 1);
        for (std::size_t t = 0; t < example.caption.size(); ++t) {
          REQUIRE(task.categories[example.caption[t]] == example.categories[t]);
          REQUIRE(names_object(example.categories[t]) == !example.cells[t].empty());
          REQUIRE((example.categories[t] == CaptionCategory::relation) ==
                  !example.possible[t].empty());
        }
        REQUIRE(tokenize_caption(task, detokenize_caption(task, example.caption)) ==
                example.caption);
      }
    CHECK(longest == task.max_caption_length);
  }
}

TEST_CASE("read_scene: a scene's text as written, with every fault it has, in the objects' order") {
  const WrittenScene fine = read_scene("  big red circle 0 1 ;small blue square 1 0; ");
  REQUIRE(fine.objects.size() == 2);
  CHECK(fine.objects[1] == std::vector<std::string>{"small", "blue", "square", "1", "0"});
  CHECK(fine.faults.empty());

  // four objects: too many; the second repeats the first's slot; the third names an unknown
  // colour and lies off the canvas; the fourth is three words
  const WrittenScene bad =
      read_scene("big red circle 0 0; small blue square 0 0; big purple triangle 5 x; big red");
  std::vector<std::string> faults;
  for (const SceneFault &fault : bad.faults)
    faults.push_back(std::string(scene_fault_name(fault.kind)) + " " +
                     std::to_string(fault.object) + " " + fault.part + " " +
                     std::to_string(fault.other));
  CHECK(faults == std::vector<std::string>{"count 0  0", "slot 1  0", "name 2 colour 0",
                                           "place 2  0", "words 3  0"});
  CHECK(describe(bad.faults[0], bad) == "a scene holds 1 to 3 objects, not 4");
  CHECK(describe(bad.faults[1], bad) ==
        "scene object 2 (\"small blue square 0 0\") and scene object 1 share the slot (row 0, "
        "column 0): one object a slot");
  CHECK(describe(bad.faults[2], bad) ==
        "scene object 3 (\"big purple triangle 5 x\") has an unknown colour; the colours are red, "
        "green, blue, yellow");
  CHECK(describe(bad.faults[4], bad).find("must be five words") != std::string::npos);
  // made, the scene's error says every fault
  const std::string message = message_of([&] { make_scene_from(bad); });
  for (const SceneFault &fault : bad.faults)
    CHECK(message.find(describe(fault, bad)) != std::string::npos);
  CHECK(read_scene("").faults.size() == 1);
}

TEST_CASE("caption task shapes: bad scenes, images, captions, tasks and seeds name the argument") {
  const CaptionTask task = empty_caption_task("shapes", "en");
  CHECK(argument_of([] { make_scene({}); }) == "scene");
  CHECK(argument_of([] {
          make_scene({{"circle", "red", "big", 0, 0},
                      {"circle", "red", "big", 0, 1},
                      {"circle", "red", "big", 1, 0},
                      {"circle", "red", "big", 1, 1}});
        }) == "scene");
  CHECK(message_of([] {
          make_scene({{"hexagon", "red", "big", 0, 0}});
        }).find("the shapes are circle, square, triangle") != std::string::npos);
  CHECK(argument_of([] { make_scene({{"circle", "purple", "big", 0, 0}}); }) == "scene");
  CHECK(argument_of([] { make_scene({{"circle", "red", "huge", 0, 0}}); }) == "scene");
  CHECK(message_of([] {
          make_scene({{"circle", "red", "big", 2, 0}});
        }).find("off the canvas") != std::string::npos);
  CHECK(argument_of([] { make_scene({{"circle", "red", "big", 0, -1}}); }) == "scene");
  CHECK(message_of([] {
          make_scene({{"circle", "red", "big", 1, 1}, {"square", "blue", "small", 1, 1}});
        }).find("share the slot") != std::string::npos);
  CHECK(argument_of([] { render(Scene{}); }) == "scene");
  Scene off = above_scene();
  off.objects[1].column = 5;
  CHECK(argument_of([&] { render(off); }) == "scene");
  Image image = render(above_scene());
  CHECK(argument_of([&] { validate_image(image); }) == "(no error)");
  Image bad = image;
  bad.data[100] = std::nanf("");
  CHECK(argument_of([&] { validate_image(bad); }) == "image");
  bad = image;
  bad.channels = 1;
  CHECK(argument_of([&] { validate_image(bad); }) == "image");
  bad = image;
  bad.height = bad.width = 16;
  CHECK(argument_of([&] { validate_image(bad); }) == "image");
  bad = image;
  bad.data.pop_back();
  CHECK(argument_of([&] { validate_image(bad); }) == "image");
  CHECK(argument_of([&] { tokenize_caption(task, "a big purple circle"); }) == "caption");
  CHECK(argument_of([&] { tokenize_caption(task, "  "); }) == "caption");
  CHECK(argument_of([&] { tokenize_caption(task, "<eos>"); }) == "caption");
  CHECK(argument_of([&] { tokenize_caption(task, "a a a a a a a a a a a a a a a a a"); }) ==
        "caption");
  CHECK(argument_of([&] { detokenize_caption(task, {2, 99}); }) == "ids");
  CHECK(argument_of([] { empty_caption_task("faces", "en"); }) == "task");
  CHECK(argument_of([] { empty_caption_task("shapes", "fr"); }) == "language");
  CHECK(argument_of([] { make_caption_task("shapes", "en", -1); }) == "seed");
  CHECK(argument_of([] { make_caption_task("shapes", "en", std::int64_t(1) << 32); }) == "seed");
  CHECK(argument_of([&] { caption_split(task, "dev"); }) == "split");
}
