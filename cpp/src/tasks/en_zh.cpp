// The en-zh task's grammar.
#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "tasks/grammar.hpp"

namespace attention::tasks {

// ---- en-zh: "she does not read books at school tomorrow" -> "她 明天 不 在 学校 看 书" ----
namespace en_zh {

struct Subject {
  const char *english, *chinese;
  bool third_person_singular; // "she reads", "she does not read"
};
constexpr Subject subjects[] = {{"I", "我", false},    {"you", "你", false},
                                {"he", "他", true},    {"she", "她", true},
                                {"we", "我们", false}, {"they", "他们", false}};

struct Object {
  const char *english, *chinese;
};
constexpr Object objects[] = {{"rice", "饭"},    {"noodles", "面条"}, {"apples", "苹果"},
                              {"bread", "面包"}, {"tea", "茶"},       {"coffee", "咖啡"},
                              {"water", "水"},   {"books", "书"},     {"newspapers", "报纸"},
                              {"letters", "信"}, {"movies", "电影"},  {"TV", "电视"}};

// "read" and "watch" are both 看.
struct Verb {
  const char *english, *english_third_person, *chinese;
  const char *objects; // the English objects it takes, separated by spaces
};
constexpr Verb verbs[] = {
    {"eat", "eats", "吃", "rice noodles apples bread"},
    {"cook", "cooks", "做", "rice noodles"},
    {"drink", "drinks", "喝", "tea coffee water"},
    {"read", "reads", "看", "books newspapers letters"},
    {"write", "writes", "写", "books letters"},
    {"watch", "watches", "看", "movies TV"},
    {"buy", "buys", "买", "noodles apples bread tea coffee books newspapers"}};

bool takes(const Verb &verb, std::string_view object) {
  const std::string_view list = verb.objects;
  for (std::size_t start = 0; start < list.size();) {
    const std::size_t end = std::min(list.find(' ', start), list.size());
    if (list.substr(start, end - start) == object)
      return true;
    start = end + 1;
  }
  return false;
}

struct Place {
  const char *preposition;
  bool article;
  const char *english, *chinese;
};
constexpr Place places[] = {{"at", false, "home", "家"},       {"at", false, "school", "学校"},
                            {"at", true, "office", "办公室"},  {"in", true, "park", "公园"},
                            {"in", true, "library", "图书馆"}, {"in", true, "kitchen", "厨房"},
                            {"at", true, "restaurant", "饭馆"}};

struct Time {
  const char *english[2]; // one or two words
  const char *chinese;
};
constexpr Time times[] = {{{"today", ""}, "今天"},
                          {{"tomorrow", ""}, "明天"},
                          {{"tonight", ""}, "今晚"},
                          {{"every", "day"}, "每天"}};

constexpr std::uint64_t size() {
  return std::size(subjects) * std::size(verbs) * std::size(objects) * (1 + std::size(places)) *
         (1 + std::size(times)) * 2;
}

// Index digits: subject, verb, object (a pair the verb does not take makes no sentence), place (0:
// none), time (0: none), negation. English: subject, verb, object, place, time; Chinese: subject,
// time, 不, 在 place, verb, object.
bool make(std::uint64_t index, Pair &pair) {
  const Subject &subject = subjects[index % std::size(subjects)];
  index /= std::size(subjects);
  const Verb &verb = verbs[index % std::size(verbs)];
  index /= std::size(verbs);
  const std::size_t object = index % std::size(objects);
  index /= std::size(objects);
  if (!takes(verb, objects[object].english))
    return false;
  const std::size_t place = index % (1 + std::size(places));
  index /= 1 + std::size(places);
  const std::size_t time = index % (1 + std::size(times));
  index /= 1 + std::size(times);
  const bool negated = index % 2;

  pair.clear();
  const std::size_t subject_position = pair.read(subject.english);
  std::size_t negation = 0, verb_position;
  if (negated) {
    pair.read(subject.third_person_singular ? "does" : "do");
    negation = pair.read("not");
    verb_position = pair.read(verb.english);
  } else {
    verb_position =
        pair.read(subject.third_person_singular ? verb.english_third_person : verb.english);
  }
  const std::size_t object_position = pair.read(objects[object].english);
  std::size_t preposition = 0, place_position = 0;
  if (place) {
    preposition = pair.read(places[place - 1].preposition);
    if (places[place - 1].article)
      pair.read("the");
    place_position = pair.read(places[place - 1].english);
  }
  Span time_words;
  if (time)
    time_words = pair.read_all({times[time - 1].english[0], times[time - 1].english[1]});

  // Possible links: 不 <- the "do"/"does" that carries the negation, a place <- its "the".
  pair.write(subject.chinese, subject_position, WordCategory::subject);
  if (time)
    pair.write(times[time - 1].chinese, time_words, WordCategory::time);
  if (negated)
    pair.write("不", negation, WordCategory::negation, negation - 1);
  if (place) {
    pair.write("在", preposition, WordCategory::preposition);
    if (places[place - 1].article)
      pair.write(places[place - 1].chinese, place_position, WordCategory::place,
                 place_position - 1);
    else
      pair.write(places[place - 1].chinese, place_position, WordCategory::place);
  }
  pair.write(verb.chinese, verb_position, WordCategory::verb);
  pair.write(objects[object].chinese, object_position, WordCategory::object);
  return true;
}

// The subject and the verb are an index's lowest digits (subject + 6 * verb): the subject is the
// source's first word and the verb one of its words, so only a forty-second of the indices can
// make it.
Range indices_for(const std::vector<std::string_view> &source) {
  for (std::size_t subject = 0; subject < std::size(subjects); ++subject) {
    if (source.empty() || source[0] != subjects[subject].english)
      continue;
    for (std::size_t verb = 0; verb < std::size(verbs); ++verb)
      for (std::string_view word : source)
        if (word == verbs[verb].english || word == verbs[verb].english_third_person)
          return {subject + std::size(subjects) * verb, size(),
                  std::size(subjects) * std::size(verbs)};
  }
  return {0, 0};
}

void list_words(Vocabulary &english, Vocabulary &chinese) {
  // a table's words, each entry's English then Chinese
  const auto add_both = [&](const auto &table) {
    for (const auto &entry : table) {
      add(english, entry.english);
      add(chinese, entry.chinese);
    }
  };
  add_both(subjects);
  for (const Verb &verb : verbs) {
    add(english, verb.english);
    add(english, verb.english_third_person);
    add(chinese, verb.chinese);
  }
  for (const char *word : {"do", "does", "not"})
    add(english, word);
  add(chinese, "不");
  add_both(objects);
  for (const char *word : {"at", "in", "the"})
    add(english, word);
  add(chinese, "在");
  add_both(places);
  for (const Time &time : times) {
    for (const char *word : time.english)
      if (*word)
        add(english, word);
    add(chinese, time.chinese);
  }
}

} // namespace en_zh

namespace en_zh {

// The objects, verbs and places, with common words of the same kind.
std::vector<WordKind> word_kinds() {
  std::vector<WordKind> kinds{
      {"thing", {}, {"milk", "juice", "cake", "eggs", "soup", "fish", "magazines", "songs"}},
      {"verb", {}, {"like", "likes", "make", "makes", "see", "sees", "sell", "sells"}},
      {"place", {}, {"work", "church", "shop", "market", "garden", "hospital", "station"}}};
  for (const Object &object : objects)
    kinds[0].words.push_back(object.english);
  for (const Verb &verb : verbs)
    kinds[1].words.insert(kinds[1].words.end(), {verb.english, verb.english_third_person});
  for (const Place &place : places)
    kinds[2].words.push_back(place.english);
  return kinds;
}

} // namespace en_zh

const Grammar en_zh_grammar{"en-zh",
                            Unit::word,
                            12,
                            12,
                            en_zh::size(),
                            en_zh::make,
                            en_zh::list_words,
                            en_zh::indices_for,
                            en_zh::word_kinds};

} // namespace attention::tasks
