#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "attention/classifier_session.hpp"
#include "check_close.hpp"

using namespace attention;
using namespace attention::tasks;

namespace {

// n lines of an easy, separable toy set: a word of the label's own (an animal, a vehicle, a food)
// among words every label shares, with punctuation; each line different up to 72 (a line that
// repeats one is dropped).
std::string toy(std::size_t n) {
  const char *fillers[] = {"i", "saw", "a", "the", "today", "really"};
  const char *words[3][4] = {{"cat", "dog", "horse", "cow"},
                             {"car", "bus", "train", "bike"},
                             {"apple", "bread", "rice", "soup"}};
  const char *labels[] = {"animal", "vehicle", "food"};
  std::string text;
  for (std::size_t i = 0; i < n; ++i)
    text += std::string(fillers[i % 6]) + " " + words[i % 3][(i / 3) % 4] + ", " +
            fillers[(i / 12) % 6] + "!\t" + labels[i % 3] + "\n";
  return text;
}

ClassificationTextOptions options(double validation = 0.1, double test = 0.1) {
  ClassificationTextOptions o;
  o.validation = validation;
  o.test = test;
  o.min_count = 1;
  return o;
}

std::vector<std::size_t> labels_of(const std::vector<ClassificationExample> &examples) {
  std::vector<std::size_t> out;
  for (const auto &example : examples)
    out.push_back(example.label);
  return out;
}

std::vector<std::string> texts_of(const std::vector<ClassificationExample> &examples) {
  std::vector<std::string> out;
  for (const auto &example : examples)
    out.push_back(example.text);
  return out;
}

// Articles 1 to 7 of the Universal Declaration of Human Rights in five of the UN's languages
// (tests/fixtures/udhr_languages.tsv), labelled by language.
std::string udhr() {
  std::ifstream file(TENSOR_FIXTURES "../udhr_languages.tsv", std::ios::binary);
  REQUIRE(file);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("classification text: lines, the label column, labels in byte order, texts as given") {
  const std::string text = "\xEF\xBB\xBFGreat food!\tpos\textra\r\n"
                           "\r\n"
                           "Awful service.\t neg \n"
                           "  \t \n"
                           "Not bad at all 😀\tpos\n"
                           "Horrible, horrible.\tneg\n";
  const ClassificationTask task = make_classification_text_task(text, options(0, 1));
  CHECK(task.labels == std::vector<std::string>{"neg", "pos"}); // trimmed, in byte order
  CHECK(task.stats.pairs == 4);
  CHECK(task.train.size() == 3);
  CHECK(task.test.size() == 1);
  CHECK(task.validation.empty());
  CHECK_FALSE(task.rationales);
  CHECK(task.text.has_value());
  CHECK(task.name == "sentences");
  CHECK(task.id == "sentences-" + task.hash.substr(0, 8));
  CHECK(task.hash.size() == 16);
  CHECK(task.vocabulary.tokens[Vocabulary::unk] == "<unk>");
  std::set<std::string> all;
  for (const auto *split : {&task.train, &task.test})
    for (const auto &example : *split) {
      all.insert(example.text + "|" + task.labels[example.label]);
      CHECK(example.rationale.empty());
      CHECK(example.category == ReviewCategory::plain);
    }
  CHECK(all == std::set<std::string>{"Great food!|pos", "Awful service.|neg",
                                     "Not bad at all 😀|pos", "Horrible, horrible.|neg"});
  // words lower-cased, punctuation and emoji tokens of their own
  CHECK(sentence_tokens(task, "Not BAD 😀!") == std::vector<std::string>{"not", "bad", "😀", "!"});
  CHECK(detokenize(task, tokenize(task, "horrible food")) == "horrible food");
  CHECK(tokenize(task, "never seen")[0] == Vocabulary::unk);

  // the label in the first column, the text in the second
  ClassificationTextOptions first = options(0, 1);
  first.label_column = 0;
  const ClassificationTask swapped =
      make_classification_text_task("a\tgood day\nb\tbad day\na\tgood night\n", first);
  CHECK(swapped.labels == std::vector<std::string>{"a", "b"});
  CHECK(swapped.stats.pairs == 3);
  CHECK(
      swapped.id !=
      make_classification_text_task("a\tgood day\nb\tbad day\na\tgood night\n", options(0, 1)).id);
}

TEST_CASE("classification text: splits are held out from the seed; the same text makes the same "
          "task") {
  const std::string text = toy(60);
  const ClassificationTask a = make_classification_text_task(text, options(6, 6));
  const ClassificationTask b = make_classification_text_task(text, options(6, 6));
  CHECK(a.id == b.id);
  CHECK(texts_of(a.test) == texts_of(b.test));
  CHECK(texts_of(a.validation) == texts_of(b.validation));
  CHECK(a.test.size() == 6);
  CHECK(a.validation.size() == 6);
  CHECK(a.train.size() == 48);
  ClassificationTextOptions other = options(6, 6);
  other.seed = 1;
  const ClassificationTask c = make_classification_text_task(text, other);
  CHECK(c.id != a.id);
  CHECK(texts_of(c.test) != texts_of(a.test));
  // numpy's RandomState(0).permutation(60)[:6] are the test lines: 26, 35, 59, 28, 11, 2 (from 0)
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line.substr(0, line.find('\t')));
  CHECK(texts_of(a.test) ==
        std::vector<std::string>{lines[26], lines[35], lines[59], lines[28], lines[11], lines[2]});
  // training lines in the text's order
  auto train = texts_of(a.train);
  std::vector<std::string> ordered;
  for (const auto &line : lines)
    if (std::find(train.begin(), train.end(), line) != train.end())
      ordered.push_back(line);
  CHECK(train == ordered);
}

TEST_CASE("classification text: long and empty sentences are dropped; the vocabulary is the "
          "training words'") {
  ClassificationTextOptions o = options(0, 0);
  o.max_length = 3;
  o.min_count = 2;
  const ClassificationTask task =
      make_classification_text_task("a b\tx\na c\ty\n. . . .\tx\n   \tx\na b c d\ty\nb !\tx\n", o);
  CHECK(task.stats.pairs == 3);
  CHECK(task.stats.dropped ==
        std::vector<std::pair<std::string, std::size_t>>{{"empty", 1}, {"tooLong", 2}});
  // a sentence with its label again is dropped; with another label it is another line
  const ClassificationTask repeated =
      make_classification_text_task("a b\tx\na b\tx\na b\ty\nc\tx\nd\ty\n", options(0, 0));
  CHECK(repeated.stats.pairs == 4);
  CHECK(repeated.stats.dropped ==
        std::vector<std::pair<std::string, std::size_t>>{{"duplicate", 1}});
  // "a" and "b" twice in the sentences kept; "c" and "!" once
  CHECK(task.vocabulary.tokens == std::vector<std::string>{"<sos>", "<eos>", "<unk>", "a", "b"});
}

TEST_CASE("classification text: bad text and options name the argument") {
  const ClassificationTextOptions o = options(0, 0);
  std::string eleven;
  for (int i = 0; i < 11; ++i)
    eleven += "w" + std::to_string(i) + "\tlabel" + std::to_string(i) + "\n";
  ClassificationTextOptions third = o;
  third.label_column = 2;
  // text, options, words of the message, argument
  const std::vector<std::tuple<std::string, ClassificationTextOptions, std::string, std::string>>
      bad{{"", o, "text is empty", "text"},
          {"a\tx\nno label\nb\ty\n", o, "line 2 without column 1", "text"},
          {"a\tx\nb\t \n", o, "line 2 of column 1 hold no label", "text"},
          {"a\tx\nb\ty\n", third, "lines 1, 2 without column 2", "labelColumn"},
          {"a\tx\nb\tx\n", o, "text holds 1 label (\"x\")", "text"},
          {eleven, o, "text holds 11 labels", "text"},
          {"a\tx\nb\xff\ty\n", o, "line 2 holds bytes", "text"},
          {"\tx\n \ty\n", o, "every one of the 2 sentences was dropped", "text"}};
  for (const auto &entry : bad) // (clang 14 captures no structured binding in a lambda)
    check_input_error(
        [&] { make_classification_text_task(std::get<0>(entry), std::get<1>(entry)); },
        std::get<2>(entry), std::get<3>(entry));
  check_input_error([&] { make_classification_text_task("a\tx\nb\ty\n", options(1, 1)); },
                    "leaves none", "validation");
  check_input_error([&] { make_classification_text_task("a\tx\nb\ty\n", options(0, 0.5)); },
                    "below 0.5", "test");
  for (const auto &[field, set] :
       std::vector<std::pair<std::string, std::function<void(ClassificationTextOptions &)>>>{
           {"name", [](ClassificationTextOptions &x) { x.name = "my sentences"; }},
           {"labelColumn", [](ClassificationTextOptions &x) { x.label_column = 100; }},
           {"minCount", [](ClassificationTextOptions &x) { x.min_count = 0; }},
           {"maxVocabulary", [](ClassificationTextOptions &x) { x.max_vocabulary = 0; }},
           {"maxLength", [](ClassificationTextOptions &x) { x.max_length = 0; }},
           {"seed", [](ClassificationTextOptions &x) { x.seed = -1; }}}) {
    ClassificationTextOptions bad = o;
    set(bad);
    check_input_error([&] { make_classification_text_task("a\tx\nb\ty\n", bad); }, "", field);
  }
}

TEST_CASE("classification text: a classifier learns a reader's toy set, evaluates it without "
          "rationales, and a saved model loads alone") {
  ClassificationTextOptions o = options(12, 12);
  o.name = "toy";
  const auto task = keep_classification_task(make_classification_text_task(toy(120), o));
  CHECK(kept_classification_task(task->id) == task);
  CHECK(keep_classification_task(make_classification_text_task(toy(120), o)) == task);

  ClassifierSessionConfig config;
  config.task = task->id;
  config.embedding = 16;
  config.hidden = 16;
  ClassifierSession<double> session(config);
  CHECK(&session.task() == task.get());
  const auto before = session.evaluate(classification_split(*task, "validation"));
  CHECK(before.accuracy < 0.7);
  session.train(80, 16, 0.02);
  const auto after = session.evaluate(classification_split(*task, "validation"));
  CHECK(after.accuracy > before.accuracy);
  CHECK(after.accuracy >= 0.9);
  CHECK(after.accuracy > after.majority);
  CHECK_FALSE(after.rationale_share.has_value());
  CHECK_FALSE(after.negation_contrast_accuracy.has_value());
  REQUIRE(after.categories.size() == 1);
  CHECK(after.categories[0].category == ReviewCategory::plain);
  CHECK(after.confusion.size() == 3);
  CHECK(session.test_evaluation().accuracy >= 0.9);
  CHECK(task->labels[session.classify("I saw a horse today").label] == "animal");
  CHECK(session.explain("the bus, really").leave_one_out.size() == 4);
  check_input_error([&] { session.train(1, 16, 0.01, 1, 1.0); }, "marks no rationales",
                    "rationale");

  const auto bytes = session.save();
  // kept twice, it stays until forgotten twice
  forget_classification_task(task->id);
  CHECK(kept_classification_task(task->id) == task);
  forget_classification_task(task->id);
  CHECK(kept_classification_task(task->id) == nullptr);
  auto loaded = ModelKind<ClassifierSession>::load<double>(bytes.data(), bytes.size());
  CHECK(loaded.task().labels == task->labels);
  CHECK(loaded.task().vocabulary.tokens == task->vocabulary.tokens);
  CHECK(loaded.task().train.empty());
  CHECK(loaded.save() == bytes);
  CHECK(loaded.classify("a cow!").trace.probabilities(0) ==
        session.classify("a cow!").trace.probabilities(0));
  check_input_error([&] { classification_split(loaded.task(), "test"); }, "make the task", "split");
  check_input_error([&] { ClassifierSession<double> gone(config); }, "task from text", "task");
  // with the text kept again, a loaded model evaluates on it
  keep_classification_task(make_classification_text_task(toy(120), o));
  auto again = ModelKind<ClassifierSession>::load<double>(bytes.data(), bytes.size());
  CHECK(again.test_evaluation().accuracy == session.test_evaluation().accuracy);
  forget_classification_task(task->id);
}

TEST_CASE("classification text: real sentences in five scripts and languages (the UDHR)") {
  ClassificationTextOptions characters = options(0, 5);
  characters.unit = Unit::character;
  characters.max_length = 100;
  const ClassificationTask by_character = make_classification_text_task(udhr(), characters);
  CHECK(by_character.stats.pairs + by_character.stats.dropped.at(0).second == 35);
  CHECK(by_character.stats.dropped.at(0).first == "tooLong");
  CHECK(sentence_tokens(by_character, "人人 Все").size() == 6); // a space is a token of its own
  ClassificationTextOptions o = options(0, 5);
  o.min_count = 1;
  o.max_length = 40;
  const ClassificationTask task = make_classification_text_task(udhr(), o);
  CHECK(task.labels == std::vector<std::string>{"de", "en", "fr", "ru", "zh"});
  CHECK(task.stats.pairs == 35);
  CHECK(task.test.size() == 5);
  CHECK(sentence_tokens(task, "人人生而自由，在尊严") ==
        std::vector<std::string>{"人", "人", "生", "而", "自", "由", "，", "在", "尊", "严"});
  CHECK(sentence_tokens(task, "Würde, 👍🏽!") ==
        std::vector<std::string>{"würde", ",", "👍🏽", "!"});

  const auto shared = std::make_shared<const ClassificationTask>(task);
  ClassifierSessionConfig config;
  config.task = task.id;
  config.embedding = 16;
  config.hidden = 16;
  ClassifierSession<float> session(config, shared);
  session.train(60, 15, 0.02);
  CHECK(session.evaluate(task.train).accuracy >= 0.9);
  CHECK(task.labels[session.classify("人人有权享有受教育的权利。").label] == "zh");
  CHECK(task.labels[session.classify("Каждый человек имеет право на образование.").label] == "ru");
}
