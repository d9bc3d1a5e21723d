#include "attention/seq2seq_tasks.hpp"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <set>
#include <utility>

#include "attention/numpy_random.hpp"

namespace attention::tasks {

namespace {

using detail::Argument;
using detail::fail;

// The source positions [first, last) a target token translates. Every alignment of these grammars
// is one run of neighbouring positions, or none, so a grammar makes a pair without allocating: the
// search of gold_example makes hundreds of thousands.
struct Span {
  std::size_t first = 0, last = 0;
};

// A pair as a grammar makes it: tokens as text (views of the grammar's tables), without <eos>.
struct Pair {
  std::vector<std::string_view> source, target;
  std::vector<Span> alignment;

  void clear() {
    source.clear();
    target.clear();
    alignment.clear();
  }
  // Appends a source token and returns its position.
  std::size_t read(std::string_view token) {
    source.push_back(token);
    return source.size() - 1;
  }
  Span read_all(std::initializer_list<std::string_view> tokens) {
    Span span{source.size(), source.size()};
    for (std::string_view token : tokens)
      if (!token.empty())
        span.last = read(token) + 1;
    return span;
  }
  void write(std::string_view token, Span from) {
    target.push_back(token);
    alignment.push_back(from);
  }
  void write(std::string_view token, std::size_t from) { write(token, {from, from + 1}); }
};

// Grammar indices first … last - 1.
// Grammar indices first, first + stride, … below last.
struct Range {
  std::uint64_t first, last, stride = 1;
};

// The token of a space in a sentence of characters.
constexpr std::string_view space = "▁";

void add(Vocabulary &vocabulary, std::string_view token) {
  if (!vocabulary.find(token))
    vocabulary.tokens.emplace_back(token);
}

// ---- en-fr: "the small red cars are wet" -> "les petites voitures rouges sont mouillées" ----
namespace en_fr {

struct Noun {
  const char *english, *english_plural, *french, *french_plural;
  bool feminine;
};
// Nouns starting with a consonant, so that no article elides ("l'arbre") and no adjective takes
// its form before a vowel ("vieil", "nouvel").
constexpr Noun nouns[] = {{"dog", "dogs", "chien", "chiens", false},
                          {"cat", "cats", "chat", "chats", false},
                          {"horse", "horses", "cheval", "chevaux", false},
                          {"boat", "boats", "bateau", "bateaux", false},
                          {"book", "books", "livre", "livres", false},
                          {"car", "cars", "voiture", "voitures", true},
                          {"house", "houses", "maison", "maisons", true},
                          {"chair", "chairs", "chaise", "chaises", true},
                          {"table", "tables", "table", "tables", true},
                          {"flower", "flowers", "fleur", "fleurs", true}};

// French forms in the order masculine, feminine, masculine plural, feminine plural: the index is
// feminine + 2 * plural.
struct Adjective {
  const char *english;
  const char *french[4];
};
constexpr Adjective adjectives[] = {{"small", {"petit", "petite", "petits", "petites"}},
                                    {"big", {"grand", "grande", "grands", "grandes"}},
                                    {"wet", {"mouillé", "mouillée", "mouillés", "mouillées"}},
                                    {"dry", {"sec", "sèche", "secs", "sèches"}},
                                    {"old", {"vieux", "vieille", "vieux", "vieilles"}},
                                    {"new", {"nouveau", "nouvelle", "nouveaux", "nouvelles"}},
                                    {"red", {"rouge", "rouge", "rouges", "rouges"}},
                                    {"black", {"noir", "noire", "noirs", "noires"}},
                                    {"white", {"blanc", "blanche", "blancs", "blanches"}},
                                    {"green", {"vert", "verte", "verts", "vertes"}},
                                    {"blue", {"bleu", "bleue", "bleus", "bleues"}},
                                    {"grey", {"gris", "grise", "gris", "grises"}}};

// A sentence uses at most one adjective of a category, so none contradicts another ("the small
// car is big"). Categories are in English order (the small wet old red car); French puts size and
// age before the noun and the others after it, in the reverse order (la voiture rouge mouillée):
// that reordering is what takes the alignment off the diagonal.
struct Category {
  std::size_t first, count; // in adjectives[]
  bool before_noun;         // in French
};
constexpr Category categories[] = {{0, 2, true}, {2, 2, false}, {4, 2, true}, {6, 6, false}};
constexpr std::size_t category_count = std::size(categories);

constexpr std::uint64_t size() {
  std::uint64_t size = 2 * std::size(nouns);
  for (const Category &category : categories)
    size *= 1 + 2 * category.count;
  return size;
}

// Index digits: the noun, singular or plural, then for each category 0 (none), 1 … count (that
// adjective before the noun) or count + 1 … 2 count (after "is"/"are"). A sentence needs one or two
// adjectives after the verb (joined by "and") and at most two before the noun.
bool make(std::uint64_t index, Pair &pair) {
  const Noun &noun = nouns[index % std::size(nouns)];
  index /= std::size(nouns);
  const bool plural = index % 2;
  index /= 2;
  struct Use {
    const Adjective *adjective;
    bool before_noun;
    std::size_t position; // in the source
  };
  Use attributive[category_count], predicative[category_count];
  std::size_t attributives = 0, predicatives = 0;
  for (const Category &category : categories) {
    const std::size_t choice = index % (1 + 2 * category.count);
    index /= 1 + 2 * category.count;
    if (choice == 0)
      continue;
    const Use use{&adjectives[category.first + (choice - 1) % category.count], category.before_noun,
                  0};
    if (choice <= category.count)
      attributive[attributives++] = use;
    else
      predicative[predicatives++] = use;
  }
  if (attributives > 2 || predicatives == 0 || predicatives > 2)
    return false;

  pair.clear();
  const std::size_t the = pair.read("the");
  for (std::size_t i = 0; i < attributives; ++i)
    attributive[i].position = pair.read(attributive[i].adjective->english);
  const std::size_t noun_position = pair.read(plural ? noun.english_plural : noun.english);
  const std::size_t verb = pair.read(plural ? "are" : "is");
  std::size_t conjunction = 0;
  for (std::size_t i = 0; i < predicatives; ++i) {
    if (i)
      conjunction = pair.read("and");
    predicative[i].position = pair.read(predicative[i].adjective->english);
  }

  const int form = noun.feminine + 2 * plural;
  pair.write(plural ? "les" : noun.feminine ? "la" : "le", the);
  for (std::size_t i = 0; i < attributives; ++i)
    if (attributive[i].before_noun)
      pair.write(attributive[i].adjective->french[form], attributive[i].position);
  pair.write(plural ? noun.french_plural : noun.french, noun_position);
  for (std::size_t i = attributives; i-- > 0;)
    if (!attributive[i].before_noun)
      pair.write(attributive[i].adjective->french[form], attributive[i].position);
  pair.write(plural ? "sont" : "est", verb);
  for (std::size_t i = 0; i < predicatives; ++i) {
    if (i)
      pair.write("et", conjunction);
    pair.write(predicative[i].adjective->french[form], predicative[i].position);
  }
  return true;
}

// The noun and its number are an index's lowest digits (noun + 10 * plural): only the indices of
// the source's noun can make it, a twentieth of them.
Range indices_for(const std::vector<std::string_view> &source) {
  for (std::size_t n = 0; n < std::size(nouns); ++n)
    for (std::string_view word : source)
      if (word == nouns[n].english || word == nouns[n].english_plural) {
        const std::uint64_t plural = word == nouns[n].english_plural;
        return {n + std::size(nouns) * plural, size(), 2 * std::size(nouns)};
      }
  return {0, 0};
}

void list_words(Vocabulary &english, Vocabulary &french) {
  for (const char *word : {"the", "is", "are", "and"})
    add(english, word);
  for (const char *word : {"le", "la", "les", "est", "sont", "et"})
    add(french, word);
  for (const Noun &noun : nouns) {
    add(english, noun.english);
    add(english, noun.english_plural);
    add(french, noun.french);
    add(french, noun.french_plural);
  }
  for (const Adjective &adjective : adjectives) {
    add(english, adjective.english);
    for (const char *form : adjective.french)
      add(french, form);
  }
}

} // namespace en_fr

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

  pair.write(subject.chinese, subject_position);
  if (time)
    pair.write(times[time - 1].chinese, time_words);
  if (negated)
    pair.write("不", negation);
  if (place) {
    pair.write("在", preposition);
    pair.write(places[place - 1].chinese, place_position);
  }
  pair.write(verb.chinese, verb_position);
  pair.write(objects[object].chinese, object_position);
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
  for (const Subject &subject : subjects) {
    add(english, subject.english);
    add(chinese, subject.chinese);
  }
  for (const Verb &verb : verbs) {
    add(english, verb.english);
    add(english, verb.english_third_person);
    add(chinese, verb.chinese);
  }
  for (const char *word : {"do", "does", "not"})
    add(english, word);
  add(chinese, "不");
  for (const Object &object : objects) {
    add(english, object.english);
    add(chinese, object.chinese);
  }
  for (const char *word : {"at", "in", "the"})
    add(english, word);
  add(chinese, "在");
  for (const Place &place : places) {
    add(english, place.english);
    add(chinese, place.chinese);
  }
  for (const Time &time : times) {
    for (const char *word : time.english)
      if (*word)
        add(english, word);
    add(chinese, time.chinese);
  }
}

} // namespace en_zh

// ---- dates: "23rd of November 2026" -> "2026-11-23", character by character ----
namespace dates {

// Two centuries, so that 1900 (not a leap year) and 2000 (a leap year) are both in.
constexpr int first_year = 1900, years = 200;
constexpr const char *month_names[] = {"January",   "February", "March",    "April",
                                       "May",       "June",     "July",     "August",
                                       "September", "October",  "November", "December"};
constexpr const char *month_abbreviations[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
// The ways people write a date, with strftime's codes: %Y the year, %B the month's name, %b its
// abbreviation, %m and %d the month and day in two digits, %n and %e without padding, %o the day
// with its ordinal suffix (23rd). Anything else stands for itself. Day before month when both are
// numbers, as in most of the world: there is no month-first numeric format, which would make
// "3/4/2026" ambiguous.
constexpr const char *formats[] = {"%e %B %Y",    "%e %b %Y", "%B %e, %Y", "%b %e, %Y", "%B %o %Y",
                                   "%o of %B %Y", "%d/%m/%Y", "%e/%n/%Y",  "%Y.%m.%d"};
constexpr std::string_view digits = "0123456789";

bool leap(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int days_in_month(int year, int month) {
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return days[month - 1] + (month == 2 && leap(year));
}

std::string_view ordinal_suffix(int day) {
  if (day / 10 != 1) // but 11th, 12th, 13th
    switch (day % 10) {
    case 1:
      return "st";
    case 2:
      return "nd";
    case 3:
      return "rd";
    }
  return "th";
}

// One token per character of ASCII text.
Span read_text(Pair &pair, std::string_view text) {
  Span span{pair.source.size(), pair.source.size()};
  for (std::size_t i = 0; i < text.size(); ++i)
    span.last = pair.read(text[i] == ' ' ? space : text.substr(i, 1)) + 1;
  return span;
}

// `value` in decimal digits, padded with zeros to `width`.
Span read_number(Pair &pair, int value, int width) {
  char text[4];
  int length = 0;
  for (; value > 0 || length < width; value /= 10)
    text[length++] = static_cast<char>(value % 10);
  Span span{pair.source.size(), pair.source.size()};
  while (length > 0)
    span.last = pair.read(digits.substr(static_cast<std::size_t>(text[--length]), 1)) + 1;
  return span;
}

// Writes `value` in `width` digits, each from its source digit, or all from `from` when the source
// wrote a name (`named`); a padding zero comes from the first digit it pads.
void write_number(Pair &pair, int value, int width, Span from, bool named) {
  char text[4];
  for (int i = width; i-- > 0; value /= 10)
    text[i] = static_cast<char>(value % 10);
  for (int i = 0; i < width; ++i) {
    Span source = from;
    if (!named) {
      const int padding = width - static_cast<int>(from.last - from.first);
      source.first += static_cast<std::size_t>(std::max(0, i - padding));
      source.last = source.first + 1;
    }
    pair.write(digits.substr(static_cast<std::size_t>(text[i]), 1), source);
  }
}

constexpr std::uint64_t per_year = 31 * 12 * std::size(formats);
constexpr std::uint64_t size() { return per_year * years; }

// Index digits: day (1 … 31; past the month's end makes no date), month, format, year. The year
// comes last, so that one year's dates are one run of indices (see indices_for).
bool make(std::uint64_t index, Pair &pair) {
  const int day = 1 + static_cast<int>(index % 31);
  index /= 31;
  const int month = 1 + static_cast<int>(index % 12);
  index /= 12;
  const char *format = formats[index % std::size(formats)];
  const int year = first_year + static_cast<int>(index / std::size(formats));
  if (day > days_in_month(year, month))
    return false;

  pair.clear();
  Span year_from, month_from, day_from;
  bool month_named = false;
  for (const char *c = format; *c; ++c) {
    if (*c != '%') {
      read_text(pair, {c, 1});
      continue;
    }
    switch (*++c) {
    case 'Y':
      year_from = read_number(pair, year, 4);
      break;
    case 'B':
    case 'b':
      month_from = read_text(pair, (*c == 'B' ? month_names : month_abbreviations)[month - 1]);
      month_named = true;
      break;
    case 'm':
    case 'n':
      month_from = read_number(pair, month, *c == 'm' ? 2 : 1);
      break;
    default: // d, e, o
      day_from = read_number(pair, day, *c == 'd' ? 2 : 1);
      if (*c == 'o')
        read_text(pair, ordinal_suffix(day));
    }
  }
  write_number(pair, year, 4, year_from, false);
  pair.write("-", Span{});
  write_number(pair, month, 2, month_from, month_named);
  pair.write("-", Span{});
  write_number(pair, day, 2, day_from, false);
  return true;
}

void list_words(Vocabulary &source, Vocabulary &target) {
  for (std::size_t i = 0; i < digits.size(); ++i) {
    add(source, digits.substr(i, 1));
    add(target, digits.substr(i, 1));
  }
  add(target, "-");
  Pair characters;
  for (const char *format : formats)
    for (const char *c = format; *c; ++c)
      if (*c == '%')
        ++c;
      else
        read_text(characters, {c, 1});
  for (const char *suffix : {"st", "nd", "rd", "th"})
    read_text(characters, suffix);
  for (const char *name : month_names)
    read_text(characters, name);
  for (std::string_view character : characters.source)
    add(source, character);
}

// Every format writes the year as the source's only run of four digits: only that year's indices
// can make the source, so gold_example searches those (4000 of them rather than 670000).
Range indices_for(const std::vector<std::string_view> &source) {
  int value = 0, digits_in_run = 0;
  for (std::string_view token : source) {
    const bool digit = token.size() == 1 && token[0] >= '0' && token[0] <= '9';
    value = digit ? 10 * value + (token[0] - '0') : 0;
    digits_in_run = digit ? digits_in_run + 1 : 0;
    if (digits_in_run == 4)
      break;
  }
  if (digits_in_run < 4 || value < first_year || value >= first_year + years)
    return {0, 0};
  const std::uint64_t first = static_cast<std::uint64_t>(value - first_year) * per_year;
  return {first, first + per_year};
}

} // namespace dates

struct Grammar {
  const char *id;
  Unit unit;
  std::size_t max_source_length, max_target_length; // see Task
  std::uint64_t size;                               // indices 0 … size - 1
  // Writes sentence `index` into `pair`; false when the index breaks a rule of the grammar.
  bool (*make)(std::uint64_t index, Pair &pair);
  // Adds every token the grammar writes on each side, in the order of its tables.
  void (*list_words)(Vocabulary &source, Vocabulary &target);
  // The indices that may make a source (words without <eos>): gold_example searches those.
  Range (*indices_for)(const std::vector<std::string_view> &source);
};

// The longest sentences the grammars make: en-fr 8 words on each side, en-zh 10 and 7, dates 22
// characters and 10. The limits leave room for a sentence a user writes with the same words.
const Grammar grammars[] = {{"en-fr", Unit::word, 12, 12, en_fr::size(), en_fr::make,
                             en_fr::list_words, en_fr::indices_for},
                            {"en-zh", Unit::word, 12, 12, en_zh::size(), en_zh::make,
                             en_zh::list_words, en_zh::indices_for},
                            {"dates", Unit::character, 24, 10, dates::size(), dates::make,
                             dates::list_words, dates::indices_for}};

const Grammar &find_grammar(const std::string &id) {
  for (const Grammar &grammar : grammars)
    if (id == grammar.id)
      return grammar;
  std::string known;
  for (const std::string &each : task_ids())
    known += (known.empty() ? "" : ", ") + each;
  fail(Argument("task"), "unknown task \"", id, "\": the tasks are ", known);
}

Example to_example(const Task &task, const Pair &pair) {
  Example example;
  for (std::string_view token : pair.source)
    example.source.push_back(task.source.find(token).value());
  example.source.push_back(Vocabulary::eos);
  for (std::string_view token : pair.target)
    example.target.push_back(task.target.find(token).value());
  example.target.push_back(Vocabulary::eos);
  for (const Span &span : pair.alignment) {
    example.alignment.emplace_back();
    for (std::size_t position = span.first; position < span.last; ++position)
      example.alignment.back().push_back(position);
  }
  example.alignment.push_back({pair.source.size()}); // <eos> from <eos>
  return example;
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The Unicode characters of UTF-8 text, each as its bytes (a stray byte stands alone).
std::vector<std::string_view> characters_of(std::string_view text) {
  std::vector<std::string_view> characters;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    characters.push_back(text.substr(i, length));
    i += std::min(length, text.size() - i);
  }
  return characters;
}

std::vector<std::string_view> split(std::string_view sentence, Unit unit) {
  std::vector<std::string_view> tokens;
  bool space_before = false;
  for (std::string_view character : characters_of(sentence)) {
    if (character.size() == 1 && is_space(character[0])) {
      space_before = true;
      continue;
    }
    if (unit == Unit::character) {
      if (space_before && !tokens.empty())
        tokens.push_back(space);
      tokens.push_back(character);
    } else if (space_before || tokens.empty()) {
      tokens.push_back(character);
    } else { // the next character of the same word
      tokens.back() = {tokens.back().data(), tokens.back().size() + character.size()};
    }
    space_before = false;
  }
  return tokens;
}

// The edit distance counted in characters, a swap of neighbours ("hrose") being one edit as an
// insertion, a deletion or a substitution is (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto x = characters_of(a), y = characters_of(b);
  const std::size_t width = y.size() + 1;
  std::vector<std::size_t> d((x.size() + 1) * width); // d[i * width + j]: x[..i) to y[..j)
  for (std::size_t i = 0; i <= x.size(); ++i)
    for (std::size_t j = 0; j <= y.size(); ++j) {
      std::size_t &cell = d[i * width + j];
      if (i == 0 || j == 0) {
        cell = i + j;
        continue;
      }
      cell = std::min({d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1,
                       d[(i - 1) * width + j - 1] + (x[i - 1] != y[j - 1])});
      if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
        cell = std::min(cell, d[(i - 2) * width + j - 2] + 1);
    }
  return d.back();
}

[[noreturn]] void fail_unknown(const Task &task, const Vocabulary &vocabulary,
                               std::string_view token, const char *side) {
  const std::string text(token);
  if (task.unit == Unit::character) {
    std::string known;
    for (std::size_t id = 2; id < vocabulary.tokens.size(); ++id)
      known += vocabulary.tokens[id];
    fail(Argument("sentence"), "unknown character \"", text, "\" in the ", task.id, " ", side,
         ", which takes only \"", known, "\"");
  }
  // The nearest words, up to three, nearest first (ties in vocabulary order), within half the
  // word's length (at least 1): farther ones would be noise.
  const std::size_t within = std::max<std::size_t>(1, characters_of(token).size() / 2);
  std::string suggestions;
  std::size_t suggested = 0;
  for (std::size_t distance = 1; distance <= within; ++distance)
    for (std::size_t id = 2; id < vocabulary.tokens.size() && suggested < 3; ++id)
      if (edit_distance(token, vocabulary.tokens[id]) == distance)
        suggestions += (suggested++ ? ", \"" : ": did you mean \"") + vocabulary.tokens[id] + "\"";
  fail(Argument("sentence"), "unknown word \"", text, "\" in the ", task.id, " ", side, suggestions,
       suggestions.empty() ? "" : "?");
}

} // namespace

std::optional<std::size_t> Vocabulary::find(std::string_view token) const {
  const auto at = std::find(tokens.begin(), tokens.end(), token);
  if (at == tokens.end())
    return std::nullopt;
  return static_cast<std::size_t>(at - tokens.begin());
}

const std::vector<std::string> &task_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> ids;
    for (const Grammar &grammar : grammars)
      ids.emplace_back(grammar.id);
    return ids;
  }();
  return ids;
}

Task empty_task(const std::string &id) {
  const Grammar &grammar = find_grammar(id);
  Task task;
  task.id = grammar.id;
  task.unit = grammar.unit;
  task.source.tokens = task.target.tokens = {"<sos>", "<eos>"};
  grammar.list_words(task.source, task.target);
  task.max_source_length = grammar.max_source_length;
  task.max_target_length = grammar.max_target_length;
  return task;
}

Task make_task(const std::string &id, std::int64_t seed) {
  Task task = empty_task(id);
  const Grammar &grammar = find_grammar(id);
  NumpyRandomState random(seed);
  std::set<std::vector<std::size_t>> drawn; // sources
  Pair pair;
  while (task.test.size() < test_size) {
    const auto index = static_cast<std::uint64_t>(
        random.randint(static_cast<std::int64_t>(grammar.size), 1, 1)(0, 0));
    if (!grammar.make(index, pair))
      continue;
    Example example = to_example(task, pair);
    if (drawn.insert(example.source).second)
      (task.train.size() < train_size ? task.train : task.test).push_back(std::move(example));
  }
  return task;
}

std::vector<std::size_t> tokenize(const Task &task, const std::string &sentence, Side side) {
  const bool source = side == Side::source;
  const Vocabulary &vocabulary = source ? task.source : task.target;
  const std::size_t max_length = source ? task.max_source_length : task.max_target_length;
  const char *side_name = source ? "source" : "target";
  const std::vector<std::string_view> tokens = split(sentence, task.unit);
  if (tokens.empty())
    fail(Argument("sentence"), "sentence is empty");
  if (tokens.size() > max_length)
    fail(Argument("sentence"), "sentence has ", tokens.size(),
         task.unit == Unit::word ? " words" : " characters", "; the ", task.id, " ", side_name,
         " takes at most ", max_length);
  std::vector<std::size_t> ids;
  for (std::string_view token : tokens) {
    const auto id = vocabulary.find(token);
    if (!id || *id == Vocabulary::sos || *id == Vocabulary::eos) // specials are not typed
      fail_unknown(task, vocabulary, token, side_name);
    ids.push_back(*id);
  }
  ids.push_back(Vocabulary::eos);
  return ids;
}

std::string detokenize(const Task &task, const std::vector<std::size_t> &ids, Side side) {
  const Vocabulary &vocabulary = side == Side::source ? task.source : task.target;
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] >= vocabulary.tokens.size())
      fail(Argument("ids"), "ids[", i, "] (", ids[i], ") is outside the ", task.id, " ",
           side == Side::source ? "source" : "target", " vocabulary of ", vocabulary.tokens.size(),
           " tokens");
  std::string text;
  for (std::size_t id : ids) {
    if (id == Vocabulary::eos)
      break;
    if (id == Vocabulary::sos)
      continue;
    const std::string &token = vocabulary.tokens[id];
    if (task.unit == Unit::character)
      text += token == space ? " " : token;
    else
      text += (text.empty() ? "" : " ") + token;
  }
  return text;
}

std::optional<Example> gold_example(const Task &task, const std::string &sentence) {
  const Grammar &grammar = find_grammar(task.id);
  const std::vector<std::size_t> ids = tokenize(task, sentence, Side::source);
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i + 1 < ids.size(); ++i) // all but <eos>
    words.push_back(task.source.tokens[ids[i]]);
  const Range range = grammar.indices_for(words);
  Pair pair;
  for (std::uint64_t index = range.first; index < range.last; index += range.stride)
    if (grammar.make(index, pair) && pair.source == words)
      return to_example(task, pair);
  return std::nullopt;
}

const std::vector<Example> &split_of(const Task &task, const std::string &name) {
  if (name == "train")
    return task.train;
  if (name == "test")
    return task.test;
  detail::fail(detail::Argument("split"), "split must be train or test, got \"", name.substr(0, 40),
               "\"");
}

} // namespace attention::tasks
