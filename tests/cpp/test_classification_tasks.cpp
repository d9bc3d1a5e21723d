#include <doctest/doctest.h>

#include <set>
#include <string>

#include "attention/classification_tasks.hpp"
#include "check_close.hpp"

using namespace attention::tasks;

namespace {

std::string text_of(const ClassificationTask &task, const ClassificationExample &example) {
  return detokenize(task, example.tokens);
}

} // namespace

TEST_CASE("reviews: splits of the translation tasks' sizes, distinct, deterministic by seed") {
  for (const auto &language : classification_languages()) {
    INFO(language);
    const ClassificationTask task = make_classification_task("reviews", language, 0);
    CHECK(task.labels == std::vector<std::string>{"negative", "positive"});
    CHECK(task.train.size() == train_size);
    CHECK(task.test.size() == test_size);
    std::set<std::vector<std::size_t>> seen;
    for (const auto *split : {&task.train, &task.test})
      for (const auto &example : *split) {
        CHECK(seen.insert(example.tokens).second);
        CHECK(example.tokens.size() <= task.max_length);
        CHECK(example.rationale.size() == example.tokens.size());
        CHECK(example.label < 2);
        // tokenize reads a review's text back as its ids
        CHECK(tokenize(task, text_of(task, example)) == example.tokens);
      }
    const ClassificationTask again = make_classification_task("reviews", language, 0);
    CHECK(again.test.front().tokens == task.test.front().tokens);
    CHECK(make_classification_task("reviews", language, 1).test.front().tokens !=
          task.test.front().tokens);
  }
}

TEST_CASE("reviews: the test split holds negation and contrast reviews, both labels in each") {
  for (const auto &language : classification_languages()) {
    INFO(language);
    const ClassificationTask task = make_classification_task("reviews", language, 0);
    std::size_t count[3][2] = {};
    for (const auto &example : task.test)
      ++count[static_cast<std::size_t>(example.category)][example.label];
    for (std::size_t category = 0; category < 3; ++category)
      for (std::size_t label = 0; label < 2; ++label) {
        INFO(review_category_name(static_cast<ReviewCategory>(category)), " label ", label);
        CHECK(count[category][label] >= 40);
      }
  }
}

// The English grammar's rules, read again from a review's words: each clause's polarity is its
// adjective's, flipped by "not"; "and" joins clauses of one polarity, "but" opposite ones and its
// second clause decides; the rationale is each deciding clause's "not" and adjective.
TEST_CASE("reviews: labels, rationales and categories follow negation and contrast (en)") {
  const ClassificationTask task = make_classification_task("reviews", "en", 0);
  const std::set<std::string> positives = {"good",      "great",  "excellent",
                                           "wonderful", "lovely", "perfect"},
                              negatives = {"bad",  "awful",    "terrible",
                                           "poor", "horrible", "disappointing"};
  for (const auto *split : {&task.train, &task.test})
    for (const auto &example : *split) {
      const std::string text = text_of(task, example);
      INFO(text);
      std::vector<int> polarity(1, 0); // per clause: +1, -1
      std::vector<bool> negated(1, false);
      std::vector<std::size_t> clause_of; // per token
      std::string conjunction;
      for (std::size_t id : example.tokens) {
        const std::string &word = task.vocabulary.tokens[id];
        if (word == "and" || word == "but") {
          conjunction = word;
          polarity.push_back(0);
          negated.push_back(false);
        }
        clause_of.push_back(polarity.size() - 1);
        if (word == "not")
          negated.back() = true;
        if (positives.count(word) || negatives.count(word))
          polarity.back() = (positives.count(word) ? 1 : -1) * (negated.back() ? -1 : 1);
      }
      REQUIRE(polarity.size() <= 2);
      for (int p : polarity)
        CHECK(p != 0);
      if (conjunction == "and")
        CHECK(polarity[0] == polarity[1]);
      if (conjunction == "but")
        CHECK(polarity[0] == -polarity[1]);
      CHECK(example.label == (polarity.back() > 0 ? 1u : 0u));
      const auto category = conjunction == "but"                ? ReviewCategory::contrast
                            : negated.front() || negated.back() ? ReviewCategory::negation
                                                                : ReviewCategory::plain;
      CHECK(example.category == category);
      for (std::size_t i = 0; i < example.tokens.size(); ++i) {
        const std::string &word = task.vocabulary.tokens[example.tokens[i]];
        const bool deciding = conjunction != "but" || clause_of[i] == 1;
        const bool polar = word == "not" || positives.count(word) || negatives.count(word);
        CHECK(example.rationale[i] == (deciding && polar));
      }
    }
}

TEST_CASE("reviews: zh reviews read as words separated by spaces, 不 and 但是 decide") {
  const ClassificationTask task = make_classification_task("reviews", "zh", 0);
  const std::size_t no = tokenize(task, "不").front(), but = tokenize(task, "但是").front();
  for (const auto &example : task.test) {
    bool negated = false, contrasted = false;
    for (std::size_t i = 0; i < example.tokens.size(); ++i) {
      negated |= example.tokens[i] == no;
      contrasted |= example.tokens[i] == but;
      if (example.tokens[i] == no && !contrasted)
        CHECK(example.rationale[i] == (example.category != ReviewCategory::contrast));
    }
    CHECK((example.category == ReviewCategory::contrast) == contrasted);
    if (!contrasted)
      CHECK((example.category == ReviewCategory::negation) == negated);
  }
}

TEST_CASE("reviews: bad input blames its argument") {
  const ClassificationTask task = empty_classification_task("reviews", "en");
  CHECK(task.train.empty());
  CHECK(tokenize(task, "The food was GOOD.") == tokenize(task, "the food was good"));
  check_input_error([&] { tokenize(task, "   "); }, "empty", "sentence");
  check_input_error([&] { tokenize(task, "the food was goood"); }, "did you mean \"good\"",
                    "sentence");
  check_input_error([&] { tokenize(task, "the food was <eos>"); }, "unknown word", "sentence");
  std::string longest;
  for (std::size_t i = 0; i <= task.max_length; ++i)
    longest += "good ";
  check_input_error([&] { tokenize(task, longest); }, "at most", "sentence");
  check_input_error([&] { empty_classification_task("tweets", "en"); }, "reviews", "task");
  check_input_error([&] { empty_classification_task("reviews", "fr"); }, "en or zh", "language");
  check_input_error([&] { make_classification_task("reviews", "en", -1); }, "2**32", "seed");
  check_input_error([&] { classification_split(task, "validation"); }, "train or test", "split");
  check_input_error([&] { detokenize(task, {1000}); }, "outside", "ids");
}
