// Tasks from the reader's text as bytes and back (save_text_task, load_text_task and the
// classification tasks' pair): every field of the task as reading left it, so that a task read
// once is not read again where it travels (a training worker) or is kept (a later visit). One
// layout per struct, written and read by the same function: a Writer lays values out, a Reader
// takes them back in the same order. Whole numbers are LEB128 varints (a token id is a byte or
// two), a real number its 8 bytes, a string or list its length then its items. The bytes may come
// from anywhere (a browser's store): the Reader never reads past their end, and a task read back is
// checked as its models need it (every id within its vocabulary, every link within its sentence),
// else an InputError blames "bytes".
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attention/classification_tasks.hpp"
#include "attention/translation_tasks.hpp"
#include "tasks/text_reading.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

constexpr std::size_t version = 1;
const char *const translation_format = "attention-stepper/translation-task";
const char *const classification_format = "attention-stepper/classification-task";

// The largest value of each enum a file holds, which the Reader refuses beyond.
template <class Enum> constexpr std::size_t enum_max();
template <> constexpr std::size_t enum_max<Unit>() { return std::size_t(Unit::character); }
template <> constexpr std::size_t enum_max<WordCategory>() {
  return std::size_t(WordCategory::word);
}
template <> constexpr std::size_t enum_max<ReviewCategory>() {
  return std::size_t(ReviewCategory::contrast);
}

// The bytes refused: "bytes are not <what>: <parts…>", blaming "bytes".
template <class... Parts> [[noreturn]] void refuse(const char *what, const Parts &...parts) {
  fail(Argument("bytes"), "bytes are not ", what, ": ", parts...);
}

// A struct's fields in the file's order, for a Writer (const) or a Reader (to fill).
template <class Archive, class T> using Field = std::conditional_t<Archive::writes, const T, T>;

template <class A> void layout(A &a, Field<A, Vocabulary> &v) { a(v.tokens); }
template <class A> void layout(A &a, Field<A, TextRules> &r) {
  a(r.source_unit, r.target_unit, r.lowercase);
}
template <class A> void layout(A &a, Field<A, TextStats> &s) {
  a(s.pairs, s.dropped, s.unknown_share);
}
template <class A> void layout(A &a, Field<A, Example> &e) {
  a(e.source, e.target, e.alignment, e.possible, e.categories, e.source_text, e.target_text,
    e.reference);
}
template <class A> void layout(A &a, Field<A, Task> &t) {
  a(t.id, t.unit, t.text, t.source, t.target, t.max_source_length, t.max_target_length, t.train,
    t.validation, t.test, t.gold_links, t.name, t.hash, t.stats);
}
template <class A> void layout(A &a, Field<A, ClassificationExample> &e) {
  a(e.tokens, e.label, e.rationale, e.category, e.text);
}
template <class A> void layout(A &a, Field<A, ClassificationTask> &t) {
  a(t.id, t.language, t.vocabulary, t.labels, t.max_length, t.rationales, t.train, t.validation,
    t.test, t.text, t.name, t.hash, t.stats);
}

class Writer {
public:
  static constexpr bool writes = true;
  std::vector<std::uint8_t> bytes;

  template <class... T> void operator()(const T &...values) { (put(values), ...); }

private:
  void put(std::size_t value) {
    std::uint64_t v = value;
    do {
      bytes.push_back(static_cast<std::uint8_t>((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
      v >>= 7;
    } while (v);
  }
  void put(bool value) { put(std::size_t(value)); }
  void put(std::uint8_t value) { put(std::size_t(value)); }
  void put(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; ++i)
      bytes.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  }
  void put(const std::string &text) {
    put(text.size());
    bytes.insert(bytes.end(), text.begin(), text.end());
  }
  template <class E> std::enable_if_t<std::is_enum_v<E>> put(E value) {
    put(static_cast<std::size_t>(value));
  }
  template <class T> void put(const std::vector<T> &items) {
    put(items.size());
    for (const T &item : items)
      put(item);
  }
  template <class A, class B> void put(const std::pair<A, B> &pair) {
    put(pair.first);
    put(pair.second);
  }
  template <class T> void put(const std::optional<T> &value) {
    put(value.has_value());
    if (value)
      put(*value);
  }
  template <class T> std::enable_if_t<std::is_class_v<T>> put(const T &value) {
    layout(*this, value);
  }
};

class Reader {
public:
  static constexpr bool writes = false;
  Reader(const std::uint8_t *bytes, std::size_t size, const char *what)
      : at_(bytes), end_(bytes + size), what_(what) {}

  template <class... Parts> [[noreturn]] void refuse(const Parts &...parts) const {
    tasks::refuse(what_, parts...);
  }
  template <class... T> void operator()(T &...values) { (take(values), ...); }
  bool done() const { return at_ == end_; }

private:
  const std::uint8_t *at_, *end_;
  const char *what_;

  std::uint8_t byte() {
    if (at_ == end_)
      refuse("they end too soon");
    return *at_++;
  }
  void take(std::size_t &value) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = byte();
      if (shift > 56)
        refuse("a number is too long");
      v |= std::uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        break;
    }
    if (v > std::numeric_limits<std::size_t>::max())
      refuse("a number is too large");
    value = static_cast<std::size_t>(v);
  }
  // A count of items, each at least a byte: no more than the bytes left.
  std::size_t count() {
    std::size_t n;
    take(n);
    if (n > std::size_t(end_ - at_))
      refuse("a length runs past their end");
    return n;
  }
  void take(bool &value) {
    std::size_t v;
    take(v);
    if (v > 1)
      refuse("a flag is neither 0 nor 1");
    value = v == 1;
  }
  void take(std::uint8_t &value) {
    std::size_t v;
    take(v);
    if (v > 0xff)
      refuse("a byte holds ", v);
    value = static_cast<std::uint8_t>(v);
  }
  void take(double &value) {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i)
      bits |= std::uint64_t(byte()) << (8 * i);
    std::memcpy(&value, &bits, sizeof bits);
  }
  void take(std::string &text) {
    const std::size_t n = count();
    text.assign(reinterpret_cast<const char *>(at_), n);
    at_ += n;
  }
  template <class E> std::enable_if_t<std::is_enum_v<E>> take(E &value) {
    std::size_t v;
    take(v);
    if (v > enum_max<E>())
      refuse("an enumeration holds ", v);
    value = static_cast<E>(v);
  }
  template <class T> void take(std::vector<T> &items) {
    items.resize(count());
    for (T &item : items)
      take(item);
  }
  template <class A, class B> void take(std::pair<A, B> &pair) {
    take(pair.first);
    take(pair.second);
  }
  template <class T> void take(std::optional<T> &value) {
    bool present;
    take(present);
    value.reset();
    if (present)
      take(value.emplace());
  }
  template <class T> std::enable_if_t<std::is_class_v<T>> take(T &value) { layout(*this, value); }
};

template <class Task> std::vector<std::uint8_t> save(const Task &task, const char *format) {
  Writer writer;
  writer(std::string(format), version, task);
  return std::move(writer.bytes);
}

template <class Task>
Task load(const std::uint8_t *bytes, std::size_t size, const char *format, const char *what) {
  Reader reader(bytes, size, what);
  std::string read_format;
  reader(read_format);
  if (read_format != format)
    reader.refuse("they begin with \"", read_format.substr(0, 60), "\"");
  std::size_t read_version;
  reader(read_version);
  if (read_version != version)
    reader.refuse("their version is ", read_version, ", this engine reads ", version);
  Task task;
  reader(task);
  if (!reader.done())
    reader.refuse("bytes follow the task");
  // what every task from text holds, as reading made it
  if (!task.text || task.train.empty() || task.id != reading::id_of(task.name, task.hash))
    reader.refuse("the task's rules, training split or identity are missing");
  if (task.stats.pairs != task.train.size() + task.validation.size() + task.test.size())
    reader.refuse("its statistics do not count its splits");
  return task;
}

// Every id of `ids` within `vocabulary`.
bool within(const std::vector<std::size_t> &ids, const Vocabulary &vocabulary) {
  for (const std::size_t id : ids)
    if (id >= vocabulary.tokens.size())
      return false;
  return true;
}

bool ends_with_eos(const std::vector<std::size_t> &ids) {
  return !ids.empty() && ids.back() == Vocabulary::eos;
}

// A pair as the models read it: both sides within their vocabularies and lengths and ending with
// <eos>, one alignment entry, possible entry, category and reference word each target token (but
// <eos>, which has no reference), every link within the source.
bool readable(const Example &e, const Task &task) {
  const std::size_t n = e.target.size();
  if (!ends_with_eos(e.source) || !ends_with_eos(e.target) || !within(e.source, task.source) ||
      !within(e.target, task.target) || e.source.size() > task.max_source_length + 1 ||
      n > task.max_target_length + 1 || e.alignment.size() != n || e.possible.size() != n ||
      e.categories.size() != n || e.reference.size() + 1 != n)
    return false;
  for (const auto *links : {&e.alignment, &e.possible})
    for (const auto &linked : *links)
      for (const std::size_t source : linked)
        if (source >= e.source.size())
          return false;
  return true;
}

bool readable(const ClassificationExample &e, const ClassificationTask &task) {
  return !e.tokens.empty() && e.tokens.size() <= task.max_length &&
         within(e.tokens, task.vocabulary) && e.label < task.labels.size() &&
         (e.rationale.empty() || e.rationale.size() == e.tokens.size());
}

template <class Task> bool splits_readable(const Task &task) {
  for (const auto *split : {&task.train, &task.validation, &task.test})
    for (const auto &example : *split)
      if (!readable(example, task))
        return false;
  return true;
}

// A vocabulary of a task from text: <sos>, <eos>, <unk> and its words.
bool has_specials(const Vocabulary &vocabulary) {
  return vocabulary.tokens.size() > Vocabulary::unk;
}

} // namespace

std::vector<std::uint8_t> save_text_task(const Task &task) {
  return save(task, translation_format);
}

Task load_text_task(const std::uint8_t *bytes, std::size_t size) {
  const char *what = "a saved translation task";
  Task task = load<Task>(bytes, size, translation_format, what);
  if (!has_specials(task.source) || !has_specials(task.target) || !splits_readable(task))
    refuse(what, "a pair holds a token or link its task lacks");
  return task;
}

std::vector<std::uint8_t> save_classification_text_task(const ClassificationTask &task) {
  return save(task, classification_format);
}

ClassificationTask load_classification_text_task(const std::uint8_t *bytes, std::size_t size) {
  const char *what = "a saved classification task";
  ClassificationTask task = load<ClassificationTask>(bytes, size, classification_format, what);
  if (!has_specials(task.vocabulary) || task.labels.size() < min_text_labels ||
      task.labels.size() > max_text_labels || !splits_readable(task))
    refuse(what, "a sentence holds a token or label its task lacks");
  return task;
}

} // namespace attention::tasks
