// The `shapes` captioning task: scenes, their rendering, the en and zh caption grammars and the
// split (caption_tasks.hpp says what each is).
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "attention/caption_tasks.hpp"
#include "attention/numpy_random.hpp"
#include "tasks/task_parts.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

constexpr std::size_t object_kinds = 3 * 4 * 2; // shapes x colours x sizes
constexpr std::size_t slots = layout_rows * layout_columns;
constexpr std::size_t slot_pixels = scene_image_size / layout_rows; // 16
constexpr std::size_t cell_pixels = scene_image_size / region_rows; // 4

// Scenes of each number of objects: a kind per object, and the slots: any one; two in one of the
// six pairs of slots; three in all but one slot.
constexpr std::size_t one_object_scenes = object_kinds * slots;
constexpr std::size_t two_object_scenes = object_kinds * object_kinds * 6;
constexpr std::size_t three_object_scenes = object_kinds * object_kinds * object_kinds * slots;

// Light grey, and colours that stand apart from it and from each other in every channel mix.
constexpr float background[3] = {0.94f, 0.94f, 0.94f};
constexpr float palette[4][3] = {
    {0.86f, 0.15f, 0.15f}, {0.18f, 0.65f, 0.25f}, {0.17f, 0.35f, 0.85f}, {0.93f, 0.74f, 0.08f}};

// An object's words in a scene's text: its size, colour and shape, then its slot's row and column.
constexpr const char *named_parts[] = {"size", "colour", "shape"};
constexpr std::size_t object_words = 5;

const std::vector<std::string> &names_of(std::string_view part) {
  return part == "size" ? size_names() : part == "colour" ? colour_names() : shape_names();
}

std::optional<std::size_t> index_of(const std::vector<std::string> &names,
                                    const std::string &name) {
  const auto found = std::find(names.begin(), names.end(), name);
  return found == names.end() ? std::nullopt : std::optional(std::size_t(found - names.begin()));
}

// A row or column as written: a whole number below `limit`.
std::optional<std::size_t> place_of(const std::string &word, std::size_t limit) {
  if (word.empty() || word.size() > 9 ||
      !std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  std::size_t value = 0; // the digits by hand: std::stoul would bring strtoul into the module
  for (const char c : word)
    value = value * 10 + std::size_t(c - '0');
  return value < limit ? std::optional(value) : std::nullopt;
}

// Every fault of the objects' words, in their order (the one checker of a scene, however given).
std::vector<SceneFault> faults_of(const std::vector<std::vector<std::string>> &objects) {
  using Kind = SceneFault::Kind;
  std::vector<SceneFault> faults;
  const auto add = [&](Kind kind, std::size_t object, std::size_t other = 0,
                       std::string part = {}) {
    faults.push_back({kind, object, other, std::move(part)});
  };
  if (objects.empty() || objects.size() > max_scene_objects)
    add(Kind::count, 0);
  std::vector<std::optional<std::pair<std::size_t, std::size_t>>> slots(objects.size());
  for (std::size_t k = 0; k < objects.size(); ++k) {
    const auto &words = objects[k];
    if (words.size() != object_words) {
      add(Kind::words, k);
      continue;
    }
    for (std::size_t i = 0; i < std::size(named_parts); ++i)
      if (!index_of(names_of(named_parts[i]), words[i]))
        add(Kind::name, k, 0, named_parts[i]);
    const auto row = place_of(words[3], layout_rows), column = place_of(words[4], layout_columns);
    if (!row || !column) {
      add(Kind::place, k);
      continue;
    }
    slots[k] = std::pair(*row, *column);
    for (std::size_t other = 0; other < k; ++other)
      if (slots[other] == slots[k]) {
        add(Kind::slot, k, other);
        break;
      }
  }
  return faults;
}

std::string joined(const std::vector<std::string> &words, const char *separator) {
  std::string text;
  for (const auto &word : words)
    text += (text.empty() ? "" : separator) + word;
  return text;
}

// A caller's text, quoted short enough for a message.
std::string quoted(const std::string &text) {
  return "\"" + (text.size() > 40 ? text.substr(0, 40) + "…" : text) + "\"";
}

// Whether the pixel whose centre is (u, v) half-pixels from the slot's centre (odd numbers, so
// every test is exact in integers) lies inside the object: extent e pixels from the centre to the
// outermost pixel centres (6 big, 3 small).
bool inside(Shape shape, ObjectSize size, int u, int v) {
  const int e = size == ObjectSize::big ? 11 : 5; // 2 e - 1: the outermost centres' half-pixels
  switch (shape) {
  case Shape::square:
    return std::abs(u) <= e && std::abs(v) <= e;
  case Shape::circle: // its radius one pixel past the outermost centres
    return u * u + v * v <= (e + 2) * (e + 2);
  case Shape::triangle: // apex up: the half-width grows from 1/2 pixel to e + 1/2
    return std::abs(v) <= e && 2 * std::abs(u) <= v + e + 2;
  }
  return false;
}

// Calls f(x, y) for each pixel of the object.
template <class F> void for_each_pixel(const SceneObject &object, F &&f) {
  const std::size_t x0 = object.column * slot_pixels, y0 = object.row * slot_pixels;
  for (std::size_t y = 0; y < slot_pixels; ++y)
    for (std::size_t x = 0; x < slot_pixels; ++x) {
      const int u = 2 * int(x) + 1 - int(slot_pixels), v = 2 * int(y) + 1 - int(slot_pixels);
      if (inside(object.shape, object.size, u, v))
        f(x0 + x, y0 + y);
    }
}

// ---- the grammars ----

struct Words {
  const char *article; // "a" / 一个
  const char *sizes[2], *colours[4], *shapes[3];
  const char *above, *below, *left[2], *right[2]; // relations: one or two words
  const char *conjunction;                        // "and" / 和
  const char *particle, *verb;                    // zh: 的, 有
  std::size_t longest; // words: three objects, the longest relations, the joining words
};

constexpr Words english{"a",
                        {"small", "big"},
                        {"red", "green", "blue", "yellow"},
                        {"circle", "square", "triangle"},
                        "above",
                        "below",
                        {"left", "of"},
                        {"right", "of"},
                        "and",
                        nullptr,
                        nullptr,
                        16};
constexpr Words chinese{"一个",
                        {"小", "大"},
                        {"红色", "绿色", "蓝色", "黄色"},
                        {"圆", "方块", "三角形"},
                        "上面",
                        "下面",
                        {"左边", nullptr},
                        {"右边", nullptr},
                        "和",
                        "的",
                        "有",
                        17};

const Words &words_of(const std::string &language) { return language == "zh" ? chinese : english; }

// A caption as the grammar writes it: tokens with their cells and categories.
struct Writer {
  const CaptionTask &task;
  const Scene &scene;
  std::vector<std::vector<std::size_t>> cells_of; // per object
  CaptionExample example;

  void word(const char *token, CaptionCategory category, std::vector<std::size_t> sure = {},
            std::vector<std::size_t> possible = {}) {
    example.caption.push_back(task.vocabulary.find(token).value());
    example.cells.push_back(std::move(sure));
    example.possible.push_back(std::move(possible));
    example.categories.push_back(category);
  }
  void object(std::size_t k, bool article) {
    const Words &w = words_of(task.language);
    const SceneObject &o = scene.objects[k];
    if (article)
      word(w.article, CaptionCategory::article);
    const char *size = w.sizes[std::size_t(o.size)], *colour = w.colours[std::size_t(o.colour)];
    if (w.particle) { // <colour> 的 <size> <shape>
      word(colour, CaptionCategory::colour, cells_of[k]);
      word(w.particle, CaptionCategory::particle);
      word(size, CaptionCategory::size, cells_of[k]);
    } else {
      word(size, CaptionCategory::size, cells_of[k]);
      word(colour, CaptionCategory::colour, cells_of[k]);
    }
    word(w.shapes[std::size_t(o.shape)], CaptionCategory::shape, cells_of[k]);
  }
  // The relation of object `from` to object `to` (above, below, left of, right of).
  void relation(std::size_t from, std::size_t to) {
    const Words &w = words_of(task.language);
    const SceneObject &a = scene.objects[from], &b = scene.objects[to];
    std::vector<std::size_t> both = cells_of[from];
    both.insert(both.end(), cells_of[to].begin(), cells_of[to].end());
    std::sort(both.begin(), both.end());
    const char *const *relation_words = nullptr;
    const char *one[2] = {a.row < b.row ? w.above : w.below, nullptr};
    if (a.row == b.row)
      relation_words = a.column < b.column ? w.left : w.right;
    else
      relation_words = one;
    for (std::size_t i = 0; i < 2 && relation_words[i]; ++i)
      word(relation_words[i], CaptionCategory::relation, {}, both);
  }
};

// The objects in the order English names them: the higher (or, side by side, the left) of two
// first; of three, the corner of their L, then its column neighbour, then its row neighbour.
std::vector<std::size_t> naming_order(const Scene &scene) {
  const auto &o = scene.objects;
  if (o.size() == 1)
    return {0};
  if (o.size() == 2) {
    const bool first_leads = o[0].row != o[1].row ? o[0].row < o[1].row : o[0].column < o[1].column;
    return first_leads ? std::vector<std::size_t>{0, 1} : std::vector<std::size_t>{1, 0};
  }
  for (std::size_t corner = 0; corner < 3; ++corner) {
    const std::size_t a = (corner + 1) % 3, b = (corner + 2) % 3;
    if (o[a].column == o[corner].column && o[b].row == o[corner].row)
      return {corner, a, b};
    if (o[b].column == o[corner].column && o[a].row == o[corner].row)
      return {corner, b, a};
  }
  return {0, 1, 2}; // not reached: three slots of four always form an L
}

void list_words(const Words &w, CaptionTask &task) {
  const auto add = [&](const char *token, CaptionCategory category) {
    if (token && !task.vocabulary.find(token)) {
      task.vocabulary.tokens.emplace_back(token);
      task.categories.push_back(category);
    }
  };
  add(w.article, CaptionCategory::article);
  for (const char *size : w.sizes)
    add(size, CaptionCategory::size);
  for (const char *colour : w.colours)
    add(colour, CaptionCategory::colour);
  for (const char *shape : w.shapes)
    add(shape, CaptionCategory::shape);
  for (const char *relation : {w.above, w.below, w.left[0], w.left[1], w.right[0], w.right[1]})
    add(relation, CaptionCategory::relation);
  add(w.conjunction, CaptionCategory::conjunction);
  add(w.particle, CaptionCategory::particle);
  add(w.verb, CaptionCategory::verb);
}

// Object kind k: shape k % 3, colour k / 3 % 4, size k / 12.
SceneObject object_of(std::size_t kind, std::size_t slot) {
  return {static_cast<Shape>(kind % 3), static_cast<Colour>(kind / 3 % 4),
          static_cast<ObjectSize>(kind / 12), slot / layout_columns, slot % layout_columns};
}

// Grammar index `index`'s scene (its objects in naming order); `key` identifies it.
Scene scene_of(std::uint64_t index, std::pair<std::size_t, std::uint64_t> &key) {
  const std::size_t count = index % 3 + 1;
  std::uint64_t j = index / 3;
  Scene scene;
  if (count == 1) {
    j %= one_object_scenes;
    scene.objects = {object_of(j % object_kinds, j / object_kinds)};
  } else if (count == 2) {
    j %= two_object_scenes;
    // the pairs of slots, the first-named first: side by side, then one above the other
    constexpr std::size_t pairs[6][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {0, 3}, {1, 2}};
    const auto &pair = pairs[j % 6];
    scene.objects = {object_of(j / 6 % object_kinds, pair[0]),
                     object_of(j / 6 / object_kinds, pair[1])};
  } else {
    // the empty slot; the corner is its diagonal, then its column and row neighbours
    const std::size_t empty = j % slots, corner = slots - 1 - empty;
    const std::size_t column_neighbour = corner ^ 2, row_neighbour = corner ^ 1;
    j /= slots;
    scene.objects = {object_of(j % object_kinds, corner),
                     object_of(j / object_kinds % object_kinds, column_neighbour),
                     object_of(j / object_kinds / object_kinds, row_neighbour)};
  }
  key = {count, j};
  return scene;
}

} // namespace

const std::vector<std::string> &shape_names() {
  static const std::vector<std::string> names = {"circle", "square", "triangle"};
  return names;
}
const std::vector<std::string> &colour_names() {
  static const std::vector<std::string> names = {"red", "green", "blue", "yellow"};
  return names;
}
const std::vector<std::string> &size_names() {
  static const std::vector<std::string> names = {"small", "big"};
  return names;
}

const char *caption_category_name(CaptionCategory category) {
  constexpr const char *names[] = {"article",     "size",     "colour", "shape", "relation",
                                   "conjunction", "particle", "verb",   "end"};
  return names[static_cast<std::size_t>(category)];
}

const char *scene_fault_name(SceneFault::Kind kind) {
  constexpr const char *names[] = {"count", "words", "name", "place", "slot"};
  return names[static_cast<std::size_t>(kind)];
}

WrittenScene read_scene(const std::string &text) {
  WrittenScene scene;
  // objects split at ";", words at the C locale's white space (as std::istream reads them)
  const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    std::vector<std::string> words;
    for (std::size_t i = start; i < end;) {
      const std::size_t first = i;
      while (i < end && !space(text[i]))
        ++i;
      if (i > first)
        words.emplace_back(text, first, i - first);
      while (i < end && space(text[i]))
        ++i;
    }
    if (!words.empty())
      scene.objects.push_back(std::move(words));
    start = end + 1;
  }
  scene.faults = faults_of(scene.objects);
  return scene;
}

std::string describe(const SceneFault &fault, const WrittenScene &scene) {
  using Kind = SceneFault::Kind;
  using std::to_string;
  if (fault.kind == Kind::count)
    return "a scene holds 1 to " + to_string(max_scene_objects) + " objects, not " +
           to_string(scene.objects.size());
  const auto &words = scene.objects[fault.object];
  std::string out =
      "scene object " + to_string(fault.object + 1) + " (" + quoted(joined(words, " ")) + ") ";
  if (fault.kind == Kind::words)
    out += "must be five words: size colour shape row column, as \"big red circle 0 1\"";
  else if (fault.kind == Kind::name)
    out += "has an unknown " + fault.part + "; the " + fault.part + "s are " +
           joined(names_of(fault.part), ", ");
  else if (fault.kind == Kind::place)
    out += "is off the canvas: its row must be from 0 to " + to_string(layout_rows - 1) +
           " and its column from 0 to " + to_string(layout_columns - 1);
  else
    out += "and scene object " + to_string(fault.other + 1) + " share the slot (row " + words[3] +
           ", column " + words[4] + "): one object a slot";
  return out;
}

Scene make_scene_from(const WrittenScene &written) {
  if (!written.faults.empty()) {
    std::vector<std::string> messages;
    for (const auto &fault : written.faults)
      messages.push_back(describe(fault, written));
    fail(Argument("scene"), joined(messages, "; "));
  }
  Scene scene;
  for (const auto &words : written.objects)
    scene.objects.push_back(
        {Shape(*index_of(shape_names(), words[2])), Colour(*index_of(colour_names(), words[1])),
         ObjectSize(*index_of(size_names(), words[0])), *place_of(words[3], layout_rows),
         *place_of(words[4], layout_columns)});
  return scene;
}

Scene make_scene(const std::vector<ObjectDescription> &objects) {
  WrittenScene written;
  for (const ObjectDescription &d : objects)
    written.objects.push_back(
        {d.size, d.colour, d.shape, std::to_string(d.row), std::to_string(d.column)});
  written.faults = faults_of(written.objects);
  return make_scene_from(written);
}

// A scene made in C++ (a task's, or one changed since): checked as its words would be.
void validate(const Scene &scene) {
  std::vector<ObjectDescription> objects;
  const auto name = [](const std::vector<std::string> &names, auto value) {
    return std::size_t(value) < names.size() ? names[std::size_t(value)] : std::string("?");
  };
  for (const SceneObject &o : scene.objects)
    objects.push_back({name(shape_names(), o.shape), name(colour_names(), o.colour),
                       name(size_names(), o.size), std::int64_t(o.row), std::int64_t(o.column)});
  make_scene(objects);
}

Image render(const Scene &scene) {
  validate(scene);
  const std::size_t n = scene_image_size, plane = n * n;
  Image image{image_channels, n, n, std::vector<float>(image_channels * plane)};
  for (std::size_t c = 0; c < image_channels; ++c)
    std::fill(image.data.begin() + c * plane, image.data.begin() + (c + 1) * plane, background[c]);
  for (const SceneObject &object : scene.objects)
    for_each_pixel(object, [&](std::size_t x, std::size_t y) {
      for (std::size_t c = 0; c < image_channels; ++c)
        image.data[c * plane + y * n + x] = palette[std::size_t(object.colour)][c];
    });
  return image;
}

void validate_image(const Image &image) {
  if (image.channels != image_channels || image.height != scene_image_size ||
      image.width != scene_image_size)
    fail(Argument("image"), "image must have ", image_channels, " channels of ", scene_image_size,
         " x ", scene_image_size, " pixels, not ", image.channels, " of ", image.height, " x ",
         image.width);
  if (image.data.size() != image.channels * image.height * image.width)
    fail(Argument("image"), "image holds ", image.data.size(), " values, not the ",
         image.channels * image.height * image.width, " of ", image.channels, " x ", image.height,
         " x ", image.width);
  for (std::size_t i = 0; i < image.data.size(); ++i)
    if (!std::isfinite(image.data[i]))
      fail(Argument("image"), "image holds a non-finite value (", image.data[i], ") at flat index ",
           i);
}

std::vector<std::size_t> object_cells(const SceneObject &object) {
  std::set<std::size_t> cells;
  for_each_pixel(object, [&](std::size_t x, std::size_t y) {
    cells.insert(y / cell_pixels * region_columns + x / cell_pixels);
  });
  return {cells.begin(), cells.end()};
}

const std::vector<std::string> &caption_task_ids() {
  static const std::vector<std::string> ids = {"shapes"};
  return ids;
}

const std::vector<std::string> &caption_languages() { return grammar_languages(); }

CaptionTask empty_caption_task(const std::string &id, const std::string &language) {
  if (id != "shapes")
    fail(Argument("task"), "unknown captioning task \"", id.substr(0, 40),
         "\": the task is shapes");
  check_grammar_language(language);
  CaptionTask task;
  task.id = id;
  task.language = language;
  task.vocabulary.tokens = {"<sos>", "<eos>"};
  task.categories = {CaptionCategory::end, CaptionCategory::end};
  const Words &w = words_of(language);
  list_words(w, task);
  task.max_caption_length = w.longest;
  return task;
}

CaptionExample describe(const CaptionTask &task, const Scene &scene) {
  validate(scene);
  const std::vector<std::size_t> order = naming_order(scene);
  Scene named;
  for (std::size_t k : order)
    named.objects.push_back(scene.objects[k]);
  Writer w{task, named, {}, {}};
  for (const SceneObject &object : named.objects)
    w.cells_of.push_back(object_cells(object));
  const Words &words = words_of(task.language);
  if (task.language == "en") {
    w.object(0, true);
    if (named.objects.size() > 1) {
      w.relation(0, 1);
      w.object(1, true);
    }
    if (named.objects.size() > 2) {
      w.word(words.conjunction, CaptionCategory::conjunction);
      w.relation(0, 2);
      w.object(2, true);
    }
  } else { // [Y] 上面 (和 [Z] 左边) 有 一个 [X]
    if (named.objects.size() > 1) {
      w.object(1, false);
      w.relation(0, 1);
    }
    if (named.objects.size() > 2) {
      w.word(words.conjunction, CaptionCategory::conjunction);
      w.object(2, false);
      w.relation(0, 2);
    }
    if (named.objects.size() > 1)
      w.word(words.verb, CaptionCategory::verb);
    w.object(0, true);
  }
  w.word("<eos>", CaptionCategory::end);
  w.example.scene = std::move(named);
  return std::move(w.example);
}

CaptionTask make_caption_task(const std::string &id, const std::string &language,
                              std::int64_t seed) {
  CaptionTask task = empty_caption_task(id, language);
  if (seed < 0 || seed > max_seed)
    fail(Argument("seed"), "seed (", seed, ") must be between 0 and 2**32 - 1, as numpy's");
  NumpyRandomState random(seed);
  std::set<std::pair<std::size_t, std::uint64_t>> drawn;
  std::pair<std::size_t, std::uint64_t> key;
  while (task.test.size() < caption_test_size) {
    const auto index = static_cast<std::uint64_t>(
        random.randint(static_cast<std::int64_t>(3 * three_object_scenes), 1, 1)(0, 0));
    const Scene scene = scene_of(index, key);
    if (!drawn.insert(key).second)
      continue;
    (task.train.size() < caption_train_size ? task.train : task.test)
        .push_back(describe(task, scene));
  }
  return task;
}

std::vector<std::size_t> tokenize_caption(const CaptionTask &task, const std::string &caption) {
  std::vector<std::size_t> ids;
  std::size_t words = 0;
  for (std::size_t start = 0; start < caption.size();) {
    const std::size_t begin = caption.find_first_not_of(" \t\n\r\f\v", start);
    if (begin == std::string::npos)
      break;
    const std::size_t end = std::min(caption.find_first_of(" \t\n\r\f\v", begin), caption.size());
    const std::string word = caption.substr(begin, end - begin);
    const auto id = task.vocabulary.find(word);
    if (!id || *id == Vocabulary::sos || *id == Vocabulary::eos) {
      std::string known;
      for (std::size_t k = 2; k < task.vocabulary.tokens.size(); ++k)
        known += (known.empty() ? "" : ", ") + task.vocabulary.tokens[k];
      fail(Argument("caption"), "unknown word \"", word.substr(0, 40), "\" in the ", task.id, " ",
           task.language, " caption; its words are ", known);
    }
    ids.push_back(*id);
    ++words;
    start = end;
  }
  if (ids.empty())
    fail(Argument("caption"), "caption is empty");
  if (words > task.max_caption_length)
    fail(Argument("caption"), "caption has ", words, " words; the ", task.id, " ", task.language,
         " captions have at most ", task.max_caption_length);
  ids.push_back(Vocabulary::eos);
  return ids;
}

std::string detokenize_caption(const CaptionTask &task, const std::vector<std::size_t> &ids) {
  std::string text;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    check_id(ids, i, task.vocabulary, task.id, task.language);
    if (ids[i] == Vocabulary::eos)
      break;
    if (ids[i] != Vocabulary::sos)
      text += (text.empty() ? "" : " ") + task.vocabulary.tokens[ids[i]];
  }
  return text;
}

const std::vector<CaptionExample> &caption_split(const CaptionTask &task, const std::string &name) {
  if (name == "train")
    return task.train;
  if (name == "test")
    return task.test;
  fail(Argument("split"), "split must be train or test, got \"", name.substr(0, 40), "\"");
}

} // namespace attention::tasks
