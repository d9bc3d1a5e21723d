// The captioning task `shapes`: scenes the engine draws (nothing is downloaded), each with its
// caption in English or Chinese and, for every caption word, the regions of the image it names, so
// that the attention a captioner learns can be set beside the one it should learn.
//
// Scenes. One to three objects on a plain light-grey background, each a shape (circle, square,
// triangle), a colour (red, green, blue, yellow) and a size (small, big), placed in a slot of a
// 2 x 2 layout (row and column 0 or 1, top left first), at most one object a slot. A 32 x 32 image
// has four 16 x 16 slots; an object is centred in its slot, a big one 12 pixels across and a small
// one 6 (render()). The annotation grid is 8 x 8 cells of 4 x 4 pixels, so a slot is 4 x 4 cells:
// a big object covers all of them, a small one the middle 2 x 2.
//
// Captions name every object, so that each is a function of the image alone (a captioner can get
// every word right):
//   one object      "a big red circle"                        一个 红色 的 大 圆
//   two objects     "a big red circle above a small blue square"
//                                                             蓝色 的 小 方块 上面 有 一个 红色 的
//                                                             大 圆
//                   The higher one comes first, with "above" (also for diagonal neighbours: it is
//                   higher); side by side, the left one, with "left of".
//   three objects   "a big red circle below a small blue square and right of a green ..."
//                   The three form an L; its corner object comes first, then the one in its
//                   column ("above"/"below") and the one in its row ("left of"/"right of").
//                   Chinese: [column neighbour] 上面/下面 和 [row neighbour] 左边/右边 有 一个
//                   [corner]
// English names each object "a <size> <colour> <shape>"; Chinese "<colour> 的 <size> <shape>", and
// says where the first-named English object is from the others: "Y 上面 有 一个 X" (on Y's top
// there is an X) is "an X above a Y". So the Chinese caption names the objects in the reverse
// order, and a captioner's attention should visit them in that order. Chinese words are separated
// by spaces, as in the en-zh translation task.
//
// Regions. Each caption word has sure cells (the 8 x 8 grid's cells, row * 8 + column, holding at
// least one pixel of the object it names: its size, colour and shape words) and possible cells (a
// relation word, "above" 上面 "left" "of" 左边…, relates two objects: the cells of both, as the
// word is written by looking at both). Articles, "and", 的, 有, 和 and <eos> link nothing.
//
// Splits. A grammar index is a number of objects (index % 3 + 1) and, from index / 3, the objects
// and their slots (taken modulo the count's number of scenes: 96 of one object, 3456 of two, 55296
// of three). make_caption_task draws indices with numpy's RandomState(seed).randint(3 * 55296),
// skips scenes already drawn, and keeps the first train_size for training and the next test_size
// for testing. A scene of three counts as drawn once its three objects are, in the order the
// caption names them, whatever the layout: the test split never asks for three objects the
// training split has shown together. A third of the draws ask for one object, of which there are
// only 96, and a third for two, of 3456: with seed 0 the training split's 10000 scenes hold the 96
// of one object, 3203 of two and 6701 of three (some 280 of each object kind per slot, in varied
// company); the 500 test scenes, all unseen, 63 of two and 437 of three, and measure an exact
// match near 95% within about one point (one standard error). With 3000 training scenes a
// captioner learnt them by heart (loss 0.07) and captioned 59% of the test scenes exactly after
// 4000 steps; with 10000, 99% after 1500 (bench/captioner_native, λ = 0, seed 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "errors.hpp"
#include "translation_tasks.hpp" // Vocabulary

namespace attention::tasks {

enum class Shape { circle, square, triangle };
enum class Colour { red, green, blue, yellow };
enum class ObjectSize { small, big };

// Their names, as a scene is described to the engine ("circle", "red", "big").
const std::vector<std::string> &shape_names();
const std::vector<std::string> &colour_names();
const std::vector<std::string> &size_names();

constexpr std::size_t layout_rows = 2, layout_columns = 2, max_scene_objects = 3;
constexpr std::size_t image_channels = 3, scene_image_size = 32;
constexpr std::size_t region_rows = 8, region_columns = 8; // the annotation grid

struct SceneObject {
  Shape shape;
  Colour colour;
  ObjectSize size;
  std::size_t row, column; // its slot
};

struct Scene {
  std::vector<SceneObject> objects;
};

// A scene as a caller describes it: names and a slot per object.
struct ObjectDescription {
  std::string shape, colour, size;
  std::int64_t row = 0, column = 0;
};

// What keeps a scene as written from being one: too few or too many objects (`object` unused), an
// object of other than five words, a size, colour or shape the task lacks (`part`), a slot that is
// not a whole row and column of the layout, or a slot an earlier object (`other`) holds.
struct SceneFault {
  enum class Kind { count, words, name, place, slot };
  Kind kind = Kind::count;
  std::size_t object = 0, other = 0;
  std::string part;
};
const char *scene_fault_name(SceneFault::Kind kind); // "count", "words", …

// A scene as its text writes it: objects separated by ";", each "<size> <colour> <shape> <row>
// <column>" ("big red circle 0 0; small blue square 1 1"), what a form field or an HTML attribute
// holds. Its objects' words as written, and every fault, in the objects' order.
struct WrittenScene {
  std::vector<std::vector<std::string>> objects;
  std::vector<SceneFault> faults;
};
WrittenScene read_scene(const std::string &text);
// A fault in words ("object 2 (big red circle 1 1) shares its slot with object 1").
std::string describe(const SceneFault &fault, const WrittenScene &scene);

// InputError blames "scene" with every fault the scene has, described.
Scene make_scene_from(const WrittenScene &scene);
Scene make_scene(const std::vector<ObjectDescription> &objects);
void validate(const Scene &scene);

// An image, channels first (CHW): value (c * height + y) * width + x.
struct Image {
  std::size_t channels = 0, height = 0, width = 0;
  std::vector<float> data;
};

// The scene drawn at scene_image_size, RGB in [0, 1]: a pixel belongs to an object when its centre
// lies inside the shape (a triangle points up); objects never overlap.
Image render(const Scene &scene);
// InputError blames "image" unless it has image_channels channels of scene_image_size squared,
// data of that size, and finite values.
void validate_image(const Image &image);
// The annotation grid's cells holding at least one of the object's pixels, in increasing order.
std::vector<std::size_t> object_cells(const SceneObject &object);

// What a caption word is; <eos> is `end`.
enum class CaptionCategory {
  article,
  size,
  colour,
  shape,
  relation,
  conjunction,
  particle,
  verb,
  end
};
// Its identifier ("article", …), which a page words in its own language.
const char *caption_category_name(CaptionCategory category);
// Size, colour and shape words name an object (regionAccuracy counts them).
inline bool names_object(CaptionCategory category) {
  return category == CaptionCategory::size || category == CaptionCategory::colour ||
         category == CaptionCategory::shape;
}

struct CaptionExample {
  Scene scene;                      // objects in the order the English caption names them
  std::vector<std::size_t> caption; // ids, ending with <eos>
  std::vector<std::vector<std::size_t>> cells;    // per token: its sure cells
  std::vector<std::vector<std::size_t>> possible; // per token: possible cells beside the sure ones
  std::vector<CaptionCategory> categories;        // per token
};

struct CaptionTask {
  std::string id, language;
  // <sos> (0), <eos> (1), then the grammar's words; categories: each one's (`end` for the two).
  Vocabulary vocabulary;
  std::vector<CaptionCategory> categories;
  std::size_t image_size = scene_image_size;
  std::size_t max_caption_length = 0; // in words, before <eos>
  std::vector<CaptionExample> train, test;
};

constexpr std::size_t caption_train_size = 10000, caption_test_size = 500;

const std::vector<std::string> &caption_task_ids();  // "shapes"
const std::vector<std::string> &caption_languages(); // "en", "zh"

// The task without its examples (vocabulary and limits), cheaply. InputError blames "task" or
// "language" for an unknown one.
CaptionTask empty_caption_task(const std::string &id, const std::string &language);
// The task with its split for `seed` (0 … 2**32 - 1, as numpy's; InputError blames "seed").
CaptionTask make_caption_task(const std::string &id, const std::string &language,
                              std::int64_t seed = 0);

// The scene's caption, cells and categories, as the grammar writes them (any valid scene has one).
CaptionExample describe(const CaptionTask &task, const Scene &scene);

// A caption's words (separated by whitespace) as ids ending with <eos>. InputError blames
// "caption" when it is empty, longer than max_caption_length, or holds a word the vocabulary lacks.
std::vector<std::size_t> tokenize_caption(const CaptionTask &task, const std::string &caption);
// The words up to the first <eos>, joined by spaces (<sos> skipped). InputError blames "ids" for
// an id outside the vocabulary.
std::string detokenize_caption(const CaptionTask &task, const std::vector<std::size_t> &ids);

// The task's "train" or "test" split; InputError blames "split" for any other name.
const std::vector<CaptionExample> &caption_split(const CaptionTask &task, const std::string &name);

} // namespace attention::tasks
