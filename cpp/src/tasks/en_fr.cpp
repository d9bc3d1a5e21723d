// The en-fr task's grammar.
#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "tasks/grammar.hpp"

namespace attention::tasks {

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

  // The article and the adjectives agree with the noun: it is their possible link.
  const int form = noun.feminine + 2 * plural;
  pair.write(plural          ? "les"
             : noun.feminine ? "la"
                             : "le",
             the, WordCategory::article, noun_position);
  for (std::size_t i = 0; i < attributives; ++i)
    if (attributive[i].before_noun)
      pair.write(attributive[i].adjective->french[form], attributive[i].position,
                 WordCategory::adjective, noun_position);
  pair.write(plural ? noun.french_plural : noun.french, noun_position, WordCategory::noun);
  for (std::size_t i = attributives; i-- > 0;)
    if (!attributive[i].before_noun)
      pair.write(attributive[i].adjective->french[form], attributive[i].position,
                 WordCategory::adjective, noun_position);
  pair.write(plural ? "sont" : "est", verb, WordCategory::verb);
  for (std::size_t i = 0; i < predicatives; ++i) {
    if (i)
      pair.write("et", conjunction, WordCategory::conjunction);
    pair.write(predicative[i].adjective->french[form], predicative[i].position,
               WordCategory::adjective, noun_position);
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

namespace en_fr {

// The nouns, and each category of adjectives, with common words of the same kind.
std::vector<WordKind> word_kinds() {
  WordKind noun{"noun",
                {},
                {"bird", "fish", "cow", "bike", "bus", "truck", "tree", "bed", "desk", "lamp",
                 "cup", "pen", "birds", "trees", "bikes", "buses"}};
  for (const Noun &n : nouns)
    noun.words.insert(noun.words.end(), {n.english, n.english_plural});
  std::vector<WordKind> kinds{
      noun,
      {"size", {}, {"tiny", "huge", "large", "little", "tall", "short"}},
      {"state", {}, {"damp", "dirty", "clean", "soaked"}},
      {"age", {}, {"young", "ancient", "modern"}},
      {"colour", {}, {"purple", "orange", "pink", "brown", "yellow", "violet", "gold", "silver"}}};
  for (std::size_t c = 0; c < category_count; ++c)
    for (std::size_t a = 0; a < categories[c].count; ++a)
      kinds[1 + c].words.push_back(adjectives[categories[c].first + a].english);
  return kinds;
}

} // namespace en_fr

const Grammar en_fr_grammar{"en-fr",
                            Unit::word,
                            12,
                            12,
                            en_fr::size(),
                            en_fr::make,
                            en_fr::list_words,
                            en_fr::indices_for,
                            en_fr::word_kinds};

} // namespace attention::tasks
