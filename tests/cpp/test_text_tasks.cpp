#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "attention/seq2seq_session.hpp"
#include "attention/transformer_session.hpp"
#include "attention/translation_tasks.hpp"
#include "check_close.hpp"
#include "tasks/text_reading.hpp"

using namespace attention;
using namespace attention::tasks;

namespace {

std::vector<std::string> words(std::initializer_list<const char *> list) {
  return {list.begin(), list.end()};
}

std::vector<std::string> texts(const Vocabulary &vocabulary, const std::vector<std::size_t> &ids) {
  std::vector<std::string> out;
  for (std::size_t id : ids)
    out.push_back(vocabulary.tokens.at(id));
  return out;
}

// n lines "a{i % 7} b{i % 5} a{i / 35 % 7}\tx{i % 7} y{i % 5} x{i / 35 % 7} .": every word
// seen often, each pair different (up to 245).
std::string corpus(std::size_t n) {
  std::string text;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string a = std::to_string(i % 7), b = std::to_string(i % 5),
                      c = std::to_string(i / 35 % 7);
    text += "a" + a + " b" + b + " a" + c + "\tx" + a + " y" + b + " x" + c + " .\n";
  }
  return text;
}

TextTaskOptions options(double validation = 0.05, double test = 0.05) {
  TextTaskOptions o;
  o.validation = validation;
  o.test = test;
  return o;
}

} // namespace

TEST_CASE("text tasks: lines, columns, CRLF, a BOM and blank lines are read as pairs") {
  const std::string text = "\xEF\xBB\xBFGo.\tVa !\tCC-BY 2.0 (France) Attribution: tatoeba.org\r\n"
                           "\r\n"
                           "Run!\tCours !\r\n"
                           "  \t \n"
                           "Go.\tAllez !\n"
                           "Hi.\tSalut !\n";
  TextTaskOptions o = options(0, 1);
  o.min_count = 1;
  const Task task = make_text_task(text, o);
  CHECK(task.stats.pairs == 4); // the tab-only line is blank
  CHECK(task.train.size() == 3);
  CHECK(task.test.size() == 1);
  CHECK(task.validation.empty());
  CHECK(!task.gold_links); // the attribution column is no alignment
  CHECK(task.source.tokens.front() == "<sos>");
  CHECK(task.source.tokens.at(Vocabulary::unk) == "<unk>");
  // The most frequent first: "go" and "." twice in training, unless the test pair took one.
  std::set<std::string> given;
  for (const auto *split : {&task.train, &task.test})
    for (const Example &example : *split) {
      given.insert(example.source_text + "|" + example.target_text);
      CHECK(example.source.back() == Vocabulary::eos);
      CHECK(example.target.back() == Vocabulary::eos);
      CHECK(example.reference.size() + 1 == example.target.size());
    }
  CHECK(given == std::set<std::string>{"Go.|Va !", "Run!|Cours !", "Go.|Allez !", "Hi.|Salut !"});
  CHECK(task.id == "pairs-" + task.hash.substr(0, 8));
  CHECK(task.hash.size() == 16);

  o.source_column = 1; // French to English
  const Task swapped = make_text_task(text, o);
  CHECK(swapped.train.front().source_text == "Va !");
  CHECK(swapped.id != task.id);
}

TEST_CASE("text tasks: splits are held out from the seed, and the same text makes the same task") {
  std::string text; // 200 different pairs
  for (std::size_t i = 0; i < 200; ++i)
    text += "w" + std::to_string(i) + "\tv" + std::to_string(i) + "\n";
  const Task task = make_text_task(text, options());
  CHECK(task.test.size() == 10); // 5% of 200
  CHECK(task.validation.size() == 10);
  CHECK(task.train.size() == 180);
  std::set<std::string> seen;
  for (const auto *split : {&task.train, &task.validation, &task.test})
    for (const Example &example : *split)
      seen.insert(example.source_text + "\t" + example.target_text + "\n");
  CHECK(seen.size() == 200);
  // Training keeps the text's order.
  CHECK(std::is_sorted(task.train.begin(), task.train.end(), [&](const auto &a, const auto &b) {
    return text.find(a.source_text + "\t") < text.find(b.source_text + "\t");
  }));
  const Task again = make_text_task(text, options());
  CHECK(again.id == task.id);
  CHECK(again.test.front().source_text == task.test.front().source_text);
  TextTaskOptions other = options();
  other.seed = 1;
  const Task reseeded = make_text_task(text, other);
  CHECK(reseeded.id != task.id);
  CHECK(reseeded.test.front().source_text != task.test.front().source_text);
  CHECK(make_text_task(text, options(3, 4)).validation.size() == 3);
  CHECK(make_text_task(text, options(3, 4)).test.size() == 4);
  std::string many; // 5000 different pairs
  for (std::size_t i = 0; i < 5000; ++i)
    many += "w" + std::to_string(i) + "\tv" + std::to_string(i) + "\n";
  CHECK(make_text_task(many, options(0.4, 0.4)).test.size() == max_held_out);
}

TEST_CASE(
    "text tasks: the identity's hash is FNV-1a of std::to_string's text, as printf wrote it") {
  // A task's id stays what it was when the hash was made with std::to_string and snprintf (the
  // reader's tasks are kept by id in the browser).
  const auto printf_hash = [](std::string_view text, std::initializer_list<double> options) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    const auto add = [&](std::string_view bytes) {
      for (const char c : bytes)
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
      hash = (hash ^ 0xff) * 0x100000001b3ULL;
    };
    for (const double value : options)
      add(std::to_string(value));
    add(text);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return std::string(hex);
  };
  const auto check = [&](std::string_view text, std::initializer_list<double> options) {
    CHECK(reading::hash_of(text, options) == printf_hash(text, options));
  };
  check("", {1});
  check("Go.\tVa !\n", {});
  check("Go.\tVa !\n", {0, 1, -0.0});
  check("Go.\tVa !\n", {0.05, 0.1, 0.4999999, 1e-7, 2.5e-7});
  check("Go.\tVa !\n", {4294967295, 1e19, 3, 0.125});
}

TEST_CASE("text tasks: the vocabulary keeps frequent training words; the rest read as <unk>") {
  std::string text = corpus(100) + "rare words\tmots rares\n";
  TextTaskOptions o = options(0, 0);
  const Task task = make_text_task(text, o);
  CHECK(task.source.tokens.size() == 3 + 7 + 5);     // a0…a6, b0…b4
  CHECK(task.target.tokens.size() == 3 + 7 + 5 + 1); // x0…x6, y0…y4, "."
  CHECK(task.target.tokens[3] == ".");               // the most frequent (every line) first
  const Example &rare = task.train.back();
  CHECK(rare.source == std::vector<std::size_t>{Vocabulary::unk, Vocabulary::unk, Vocabulary::eos});
  CHECK(rare.reference == words({"mots", "rares"}));
  CHECK(tokenize(task, "A3 unheard", Side::source) ==
        std::vector<std::size_t>{*task.source.find("a3"), Vocabulary::unk, Vocabulary::eos});
  CHECK(sentence_tokens(task, "A3 unheard", Side::source) == words({"a3", "unheard"}));
  CHECK(detokenize(task, tokenize(task, "a3 b2", Side::source), Side::source) == "a3 b2");

  o.min_count = 1;
  o.max_vocabulary = 4;
  const Task capped = make_text_task(text, o);
  CHECK(capped.target.tokens.size() == 3 + 4);
  o.rules.lowercase = false;
  CHECK(make_text_task("Go\tVa\nGo\tVa\n", o).source.tokens.back() == "Go");

  // The unknown share is of the validation split's tokens.
  TextTaskOptions held = options(20, 0);
  held.min_count = 1;
  const Task shared = make_text_task(corpus(40) + "q q q q\tz z z z\n", held);
  std::size_t tokens = 0, unknown = 0;
  for (const Example &example : shared.validation)
    for (const auto *ids : {&example.source, &example.target})
      for (std::size_t i = 0; i + 1 < ids->size(); ++i) {
        ++tokens;
        unknown += (*ids)[i] == Vocabulary::unk;
      }
  CHECK(shared.stats.unknown_share == doctest::Approx(double(unknown) / double(tokens)));
}

TEST_CASE("text tasks: pairs longer than maxLength are dropped and counted") {
  TextTaskOptions o = options(0, 0);
  o.min_count = 1;
  o.max_length = 3;
  const Task task = make_text_task("a b\tx y\na b c d\tx\na\tx y z w v\n.\t!\na\tb\n", o);
  CHECK(task.stats.pairs == 3);
  CHECK(task.stats.dropped == std::vector<std::pair<std::string, std::size_t>>{
                                  {"sourceTooLong", 1}, {"targetTooLong", 1}});
  CHECK(task.max_source_length == 3);
}

TEST_CASE(
    "text tasks: a pair that repeats an earlier one is dropped, so no test pair is trained on") {
  TextTaskOptions o = options(1, 1);
  // the same tokens (spaces and case as the tokenizer reads them) twice, and a pair whose sides
  // differ only in where one token ends
  const Task task = make_text_task("a b\tx\nA  b\tx\nc\td\nab\tx\na\tb x\ne\tf\n", o);
  CHECK(task.stats.pairs == 5);
  CHECK(task.stats.dropped == std::vector<std::pair<std::string, std::size_t>>{{"duplicate", 1}});
}

TEST_CASE("text tasks: a Pharaoh column gives gold links, in the sentences' direction") {
  TextTaskOptions o = options(0, 0);
  o.min_count = 1;
  const Task task = make_text_task("the red car\tla voiture rouge\t0-0 1-2 2-1 2?0\n", o);
  CHECK(task.gold_links);
  const Example &example = task.train.front();
  CHECK(example.alignment ==
        std::vector<std::vector<std::size_t>>{{0}, {2}, {1}, {3}}); // <eos> from <eos>
  CHECK(example.possible == std::vector<std::vector<std::size_t>>{{2}, {}, {}, {}});
  o.source_column = 1;
  // French to English: the file's links stay English-French, the task's French-English.
  const Task swapped = make_text_task("the red car\tla voiture rouge\t0-0 1-2 2-1 2?0\n", o);
  CHECK(swapped.train.front().alignment ==
        std::vector<std::vector<std::size_t>>{{0}, {2}, {1}, {3}}); // the, red, car, <eos>
  CHECK(swapped.train.front().possible == std::vector<std::vector<std::size_t>>{{}, {}, {0}, {}});
  o.find_alignment = false;
  CHECK(!make_text_task("a\tb\t0-0\n", o).gold_links);
}

TEST_CASE("text tasks: bad text and options name the argument and the lines at fault") {
  const TextTaskOptions o = options(0, 0);
  check_input_error([&] { make_text_task("", o); }, "pairs is empty", "pairs");
  check_input_error([&] { make_text_task("\n \r\n", o); }, "pairs is empty", "pairs");
  check_input_error([&] { make_text_task("a\tb\nno tab\nc\td\nnone\n", o); },
                    "lines 2, 4 without a tab", "pairs");
  check_input_error([&] { make_text_task("a\tb\nc\xff\td\n", o); }, "line 2 holds bytes", "pairs");
  // UTF-16, with its byte order mark or without, is named as what it is
  const std::string marked{'\xff', '\xfe', 'a', '\0', '\t', '\0', 'b', '\0'};
  const std::string unmarked{'\0', 'a', '\0', '\t', '\0', 'b'};
  for (const std::string &utf16 : {marked, unmarked})
    check_input_error([&] { make_text_task(utf16, o); }, "is UTF-16 text, not UTF-8", "pairs");
  check_input_error([&] { make_text_task(std::string("a\tb\nc\td\0e\n", 11), o); },
                    "NUL character on line 2", "pairs");
  check_input_error([&] { make_text_task("a b\tc\t0-0\nd\te\t0-5\nf\tg\tx\n", o); },
                    "lines 2, 3 of column 2", "pairs");
  TextTaskOptions short_ones = o;
  short_ones.max_length = 1;
  check_input_error([&] { make_text_task("a b\tc\n.\t\n", short_ones); },
                    "every one of the 2 pairs was dropped (1 empty, 1 sourceTooLong", "pairs");
  check_input_error([&] { make_text_task(std::string(max_text_bytes + 1, 'a'), o); },
                    "at most 20000000", "pairs");
  std::string many;
  for (std::size_t i = 0; i <= max_text_pairs; ++i)
    many += "a\tb\n";
  check_input_error([&] { make_text_task(many, o); }, "at most 200000 pairs", "pairs");
  check_input_error([&] { make_text_task("a\tb\nc\td\n", options(1, 1)); }, "leaves none",
                    "validation");
  check_input_error([&] { make_text_task("a\tb\n", options(0.5, 0)); }, "below 0.5", "validation");
  check_input_error([&] { make_text_task("a\tb\n", options(0, -1)); }, "below 0.5", "test");
  for (const auto &[field, set] :
       std::vector<std::pair<std::string, std::function<void(TextTaskOptions &)>>>{
           {"name", [](TextTaskOptions &x) { x.name = "my pairs"; }},
           {"name", [](TextTaskOptions &x) { x.name = ""; }},
           {"sourceColumn", [](TextTaskOptions &x) { x.source_column = 2; }},
           {"alignmentColumn", [](TextTaskOptions &x) { x.alignment = 1; }},
           {"minCount", [](TextTaskOptions &x) { x.min_count = 0; }},
           {"maxVocabulary", [](TextTaskOptions &x) { x.max_vocabulary = 0; }},
           {"maxLength", [](TextTaskOptions &x) { x.max_length = max_text_length + 1; }},
           {"seed", [](TextTaskOptions &x) { x.seed = -1; }}}) {
    TextTaskOptions bad = o;
    set(bad);
    check_input_error([&] { make_text_task("a\tb\n", bad); }, "", field);
  }
}

TEST_CASE("text tasks: a task of a file is named after it") {
  const auto named = [](const std::string &file) {
    tasks::TextTaskOptions options;
    tasks::name_from_file(options, file);
    return options.name;
  };
  CHECK(named("eng-fra.txt") == "eng-fra");
  CHECK(named("C:\\data\\my  pairs\tof.tsv") == "my-pairs-of");
  CHECK(named(".tsv") == "pairs");
  CHECK(named("") == "pairs");
  // 40 bytes at most, whole characters only: 13 of 3 bytes
  std::string long_name;
  for (int i = 0; i < 20; ++i)
    long_name += "\xE8\xAF\x91";
  CHECK(named(long_name + ".txt").size() == 39);
}

TEST_CASE("text tasks: BLEU as sacreBLEU defines it, on hand-computed corpora") {
  Bleu same;
  same.add(words({"a", "b", "c", "d"}), words({"a", "b", "c", "d"}));
  CHECK(same.score() == doctest::Approx(100));
  Bleu short_output; // every precision 1; brevity exp(1 - 8/5)
  short_output.add(words({"a", "b", "c", "d", "e"}),
                   words({"a", "b", "c", "d", "e", "f", "g", "h"}));
  CHECK(short_output.score() == doctest::Approx(54.88116360940264));
  Bleu no_four_grams; // a 3-token corpus has no 4-gram: the precision is 0, and so is BLEU
  no_four_grams.add(words({"a", "b", "c"}), words({"a", "b", "c"}));
  CHECK(no_four_grams.score() == 0);
  Bleu clipped; // 9/11, 6/9, 3/7, 1/5 after clipping ("the" thrice against twice); c 11 > r 10
  clipped.add(words({"the", "cat", "the", "cat", "on", "the", "mat"}),
              words({"the", "cat", "is", "on", "the", "mat"}));
  clipped.add(words({"a", "b", "c", "d"}), words({"a", "b", "c", "d"}));
  CHECK(clipped.score() == doctest::Approx(46.49999903730474));
  Bleu empty;
  CHECK(empty.score() == 0);
  empty.add({}, words({"a"}));
  CHECK(empty.score() == 0);
}

TEST_CASE("text tasks: kept by id, a seq2seq model and a Transformer train on one, evaluate it "
          "with BLEU, and a saved model loads alone") {
  TextTaskOptions o = options(10, 10);
  o.name = "toy";
  const auto task = keep_task(make_text_task(corpus(120), o));
  CHECK(kept_task(task->id) == task);
  CHECK(find_task(task->id) == task);
  CHECK(keep_task(make_text_task(corpus(120), o)) == task); // the same text and options

  Seq2seqSessionConfig config;
  config.task = task->id;
  config.embedding = 8;
  config.hidden = 16;
  Seq2seqSession<double> session(config);
  CHECK(&session.task() == task.get());
  session.train(60, 16, 0.02);
  const auto evaluation = session.evaluate(session.split("validation"));
  CHECK(evaluation.bleu >= 0);
  CHECK(evaluation.bleu <= 100);
  CHECK(evaluation.loss > 0);
  CHECK(session.split("test").size() == 10);
  check_input_error(
      [&] {
        Seq2seqSessionConfig held = config;
        held.validation = 5;
        Seq2seqSession<float> refused(held);
      },
      "holds its own validation pairs", "validation");

  const auto bytes = session.save();
  // kept twice, it stays until forgotten twice
  forget_task(task->id);
  CHECK(kept_task(task->id) == task);
  forget_task(task->id);
  CHECK(kept_task(task->id) == nullptr);
  auto loaded = ModelKind<Seq2seqSession>::load<double>(bytes.data(), bytes.size());
  CHECK(loaded.task().source.tokens == task->source.tokens);
  CHECK(loaded.task().target.tokens == task->target.tokens);
  CHECK(loaded.task().train.empty());
  const auto source = loaded.tokenize("a3 b1 unheard", Side::source);
  CHECK(source.back() == Vocabulary::eos);
  CHECK(loaded.translate(source).trace.output == session.translate(source).trace.output);
  CHECK(loaded.save() == bytes);
  check_input_error([&] { Seq2seqSession<double> gone(config); }, "unknown task", "task");

  keep_task(make_text_task(corpus(120), o));
  TransformerSessionConfig transformer;
  transformer.task = task->id;
  transformer.model = 8;
  transformer.heads = 2;
  transformer.feedforward = 16;
  TransformerSession<double> t(transformer);
  t.train(20, 16, 0.01);
  const auto result = t.evaluate(split(t.task(), "test"));
  CHECK(result.loss > 0);
  CHECK(result.bleu >= 0);
  forget_task(task->id);
}

TEST_CASE("text tasks: a grammar's sample text reads back as its pairs, with its gold links") {
  for (const std::string id : {"en-fr", "dates"}) {
    const Task grammar = make_task(id);
    const SampleText sample = sample_text(id);
    TextTaskOptions o = options(0, 0);
    o.rules.source_unit = o.rules.target_unit = sample.unit;
    o.rules.lowercase = false;
    o.max_length = sample.max_length;
    const Task read = make_text_task(sample.text, o);
    CHECK(read.gold_links);
    REQUIRE(read.train.size() == grammar.train.size() + grammar.test.size());
    // one token a grammar token: the same links, in the same places
    for (std::size_t i = 0; i < 50; ++i) {
      const Example &want = grammar.train[i], &got = read.train[i];
      CHECK(texts(read.source, got.source) == texts(grammar.source, want.source));
      CHECK(got.alignment == want.alignment);
      CHECK(got.possible == want.possible);
    }
  }
  // en-zh's words of two characters read as two tokens, each with the word's links
  const SampleText zh = sample_text("en-zh");
  const std::string line = zh.text.substr(0, zh.text.find('\n'));
  TextTaskOptions o = options(0, 0);
  o.max_length = zh.max_length;
  const Task read = make_text_task(zh.text, o);
  CHECK(read.train.size() == 2400);
  const Example &first = read.train.front();
  CHECK(first.target.size() > make_task("en-zh").train.front().target.size());
  for (std::size_t t = 0; t + 1 < first.target.size(); ++t)
    for (std::size_t j : first.alignment[t])
      CHECK(j + 1 < first.source.size());
  INFO(line);
}
