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

// The grammars' rules, read again from a review's words: each clause's polarity is its
// adjective's, flipped by "not"; "and" joins clauses of one polarity, "but" opposite ones and its
// second clause decides; the rationale is each deciding clause's "not" and adjective.
TEST_CASE("reviews: labels, rationales and categories follow negation and contrast") {
  struct Language {
    const char *name;
    std::set<std::string> positives, negatives;
    std::string no, both, contrast;
  };
  const Language languages[] = {{"en",
                                 {"good", "great", "excellent", "wonderful", "lovely", "perfect"},
                                 {"bad", "awful", "terrible", "poor", "horrible", "disappointing"},
                                 "not",
                                 "and",
                                 "but"},
                                {"zh",
                                 {"好", "棒", "出色", "完美", "精彩", "优秀"},
                                 {"差", "糟糕", "可怕", "差劲", "无聊", "一般"},
                                 "不",
                                 "而且",
                                 "但是"}};
  for (const auto &language : languages) {
    const ClassificationTask task = make_classification_task("reviews", language.name, 0);
    for (const auto *split : {&task.train, &task.test})
      for (const auto &example : *split) {
        const std::string text = text_of(task, example);
        INFO(text);
        std::vector<int> polarity(1, 0); // per clause: +1, -1
        std::vector<bool> negated(1, false);
        std::vector<std::size_t> clause_of; // per token
        std::string conjunction;
        const auto polar = [&](const std::string &word) {
          return language.positives.count(word) || language.negatives.count(word);
        };
        for (std::size_t id : example.tokens) {
          const std::string &word = task.vocabulary.tokens[id];
          if (word == language.both || word == language.contrast) {
            conjunction = word;
            polarity.push_back(0);
            negated.push_back(false);
          }
          clause_of.push_back(polarity.size() - 1);
          if (word == language.no)
            negated.back() = true;
          if (polar(word))
            polarity.back() = (language.positives.count(word) ? 1 : -1) * (negated.back() ? -1 : 1);
        }
        REQUIRE(polarity.size() <= 2);
        for (int p : polarity)
          CHECK(p != 0);
        if (conjunction == language.both)
          CHECK(polarity[0] == polarity[1]);
        if (conjunction == language.contrast)
          CHECK(polarity[0] == -polarity[1]);
        CHECK(example.label == (polarity.back() > 0 ? 1u : 0u));
        const auto category = conjunction == language.contrast    ? ReviewCategory::contrast
                              : negated.front() || negated.back() ? ReviewCategory::negation
                                                                  : ReviewCategory::plain;
        CHECK(example.category == category);
        for (std::size_t i = 0; i < example.tokens.size(); ++i) {
          const std::string &word = task.vocabulary.tokens[example.tokens[i]];
          const bool deciding = conjunction != language.contrast || clause_of[i] == 1;
          CHECK(example.rationale[i] == (deciding && (word == language.no || polar(word))));
          // an intensifier after "not" only before a positive adjective; in Chinese only 太
          if (word == language.no && !polar(task.vocabulary.tokens[example.tokens[i + 1]])) {
            CHECK(language.positives.count(task.vocabulary.tokens[example.tokens[i + 2]]));
            if (language.no == "不")
              CHECK(task.vocabulary.tokens[example.tokens[i + 1]] == "太");
          }
        }
      }
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
