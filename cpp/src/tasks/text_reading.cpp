// What the readers of the reader's text share (text_reading.hpp says what each is).
#include "tasks/text_reading.hpp"

#include <algorithm>
#include <cstdint>

#include "attention/numpy_random.hpp"
#include "core/decimal.hpp"
#include "tasks/text.hpp"

namespace attention::tasks {

const char *unit_name(Unit unit) { return unit == Unit::word ? "word" : "character"; }

Unit parse_unit(const std::string &name, const char *argument) {
  if (name != "word" && name != "character")
    detail::fail(detail::Argument(argument), argument, " must be word or character, got \"",
                 name.substr(0, 40), "\"");
  return name == "word" ? Unit::word : Unit::character;
}

void name_from_file(TextReadingOptions &options, std::string_view file) {
  constexpr std::size_t most = 40;
  if (const std::size_t slash = file.find_last_of("/\\"); slash != std::string_view::npos)
    file.remove_prefix(slash + 1);
  if (const std::size_t dot = file.rfind('.'); dot != std::string_view::npos)
    file = file.substr(0, dot);
  std::string name;
  for (std::size_t i = 0; i < file.size(); ++i) {
    if (std::string(" \t\r\n\v\f").find(file[i]) == std::string::npos) {
      name += file[i];
    } else if (name.empty() || name.back() != '-') {
      name += '-';
    }
  }
  if (name.size() > most) {
    std::size_t end = most;
    while (end > 0 && (static_cast<unsigned char>(name[end]) & 0xC0) == 0x80)
      --end; // not inside a character's bytes
    name.resize(end);
  }
  if (!name.empty())
    options.name = name;
}

namespace reading {

using detail::Argument;
using detail::fail;

void Offenders::add(std::size_t line) {
  if (lines_.size() < shown)
    lines_.push_back(line);
  ++count_;
}

std::string Offenders::text() const {
  std::string out = count_ == 1 ? "line " : "lines ";
  for (std::size_t i = 0; i < lines_.size(); ++i)
    out += (i ? ", " : "") + std::to_string(lines_[i]);
  if (count_ > lines_.size())
    out += " and " + std::to_string(count_ - lines_.size()) + " more";
  return out;
}

namespace {

std::vector<Line> lines_of(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);
  std::vector<Line> lines;
  std::size_t number = 0;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
      continue;
    Line &entry = lines.emplace_back(Line{number, {}});
    for (std::size_t from = 0;;) {
      const std::size_t tab = line.find('\t', from);
      entry.columns.push_back(line.substr(from, tab - from));
      if (tab == std::string_view::npos)
        break;
      from = tab + 1;
    }
  }
  return lines;
}

std::size_t line_of_offset(std::string_view text, std::size_t offset) {
  return static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n')) + 1;
}

std::size_t held_out(double share, std::size_t lines, const char *argument,
                     const TextNames &names) {
  if (!(share >= 0) || share > double(max_held_out) ||
      (share >= 0.5 && share != static_cast<double>(static_cast<std::size_t>(share))))
    fail(Argument(argument), argument, " (", share,
         ") must be a share from 0 to below 0.5, or a whole number of ", names.line, "s up to ",
         max_held_out);
  const auto count =
      share < 0.5
          ? std::max<std::size_t>(share > 0, static_cast<std::size_t>(share * double(lines)))
          : static_cast<std::size_t>(share);
  return std::min(count, max_held_out);
}

// Whether text is UTF-16 rather than UTF-8: its byte order mark (FF FE or FE FF), or text that
// begins with two characters of ASCII each beside a NUL byte, as UTF-16 without the mark writes
// them.
bool is_utf16(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  if (text.size() < 2)
    return false;
  if ((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF))
    return true;
  if (text.size() < 4)
    return false;
  const bool little = byte(1) == 0 && byte(3) == 0 && byte(0) != 0 && byte(2) != 0;
  const bool big = byte(0) == 0 && byte(2) == 0 && byte(1) != 0 && byte(3) != 0;
  return (little && byte(0) < 0x80 && byte(2) < 0x80) || (big && byte(1) < 0x80 && byte(3) < 0x80);
}

} // namespace

std::vector<Line> read_lines(std::string_view text, const TextNames &names) {
  const char *argument = names.argument;
  if (text.size() > max_text_bytes)
    fail(Argument(argument), argument, " holds ", text.size(), " bytes; at most ", max_text_bytes,
         " (20 MB) are read");
  if (is_utf16(text))
    fail(Argument(argument), argument,
         " is UTF-16 text, not UTF-8 (as Windows saves \"Unicode\"): save the file as UTF-8");
  if (const std::size_t at = invalid_utf8_at(text); at != std::string_view::npos)
    fail(Argument(argument), argument, " is not UTF-8 text: line ", line_of_offset(text, at),
         " holds bytes that are not UTF-8 (save the file as UTF-8)");
  if (const std::size_t at = text.find('\0'); at != std::string_view::npos)
    fail(Argument(argument), argument, " holds a NUL character on line ", line_of_offset(text, at),
         ": it is not a text file");
  std::vector<Line> lines = lines_of(text);
  if (lines.empty())
    fail(Argument(argument), argument, " is empty: give one ", names.line, " a line, ", names.form);
  if (lines.size() > max_text_pairs)
    fail(Argument(argument), argument, " holds ", lines.size(), " lines; at most ", max_text_pairs,
         " ", names.line, "s are read");
  return lines;
}

void check_options(const TextReadingOptions &options) {
  const std::string &name = options.name;
  if (name.empty() || name.size() > 60 || name.find_first_of(" \t\r\n/\\") != std::string::npos ||
      invalid_utf8_at(name) != std::string::npos)
    fail(Argument("name"), "name must be 1 to 60 bytes of UTF-8 without spaces, \"/\" or \"\\\"");
  if (options.min_count < 1)
    fail(Argument("minCount"), "minCount must be at least 1");
  if (options.max_vocabulary < 1 || options.max_vocabulary > max_text_vocabulary)
    fail(Argument("maxVocabulary"), "maxVocabulary (", options.max_vocabulary,
         ") must be from 1 to ", max_text_vocabulary);
  if (options.max_length < 1 || options.max_length > max_text_length)
    fail(Argument("maxLength"), "maxLength (", options.max_length, ") must be from 1 to ",
         max_text_length);
  if (options.seed < 0 || options.seed > max_seed)
    fail(Argument("seed"), "seed (", options.seed, ") must be from 0 to ", max_seed);
}

std::string hash_of(std::string_view text, std::initializer_list<double> options) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  const auto add = [&](std::string_view bytes) {
    for (const char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 0x100000001b3ULL;
    }
    hash ^= 0xff; // a separator no UTF-8 byte is
    hash *= 0x100000001b3ULL;
  };
  // std::to_string's "%f" and the hex digits without printf, which would bring its
  // floating-point formatting into the WebAssembly module (core/decimal.hpp)
  for (const double value : options)
    add(detail::format_fixed(value, 6));
  add(text);
  std::string hex(16, '0');
  for (std::size_t i = 16; i-- > 0; hash >>= 4)
    hex[i] = "0123456789abcdef"[hash & 15];
  return hex;
}

std::string id_of(const std::string &name, const std::string &hash) {
  return name + "-" + hash.substr(0, 8);
}

void check_kept(std::size_t kept, std::size_t lines, const Dropped &dropped,
                const TextReadingOptions &options, const TextNames &names) {
  if (kept)
    return;
  std::string why;
  for (const auto &[reason, count] : dropped)
    why += (why.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
  fail(Argument(names.argument), names.argument, ": every one of the ", lines, " ", names.line,
       "s was dropped (", why, "; maxLength is ", options.max_length, ")");
}

Split split_lines(std::size_t count, const TextReadingOptions &options, const TextNames &names) {
  const std::size_t test = held_out(options.test, count, "test", names);
  const std::size_t validation = held_out(options.validation, count, "validation", names);
  if (test + validation >= count)
    fail(Argument(options.validation > 0 ? "validation" : "test"), "holding out ", validation,
         " validation and ", test, " test ", names.line, "s leaves none of the ", count,
         " to train on");
  const std::vector<std::size_t> order = NumpyRandomState(options.seed).shuffled(count);
  // order[0 .. test) is the test split, then validation, then training (in the text's order).
  Split split;
  split.test.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(test));
  split.validation.assign(order.begin() + static_cast<std::ptrdiff_t>(test),
                          order.begin() + static_cast<std::ptrdiff_t>(test + validation));
  split.train.assign(order.begin() + static_cast<std::ptrdiff_t>(test + validation), order.end());
  std::sort(split.train.begin(), split.train.end());
  return split;
}

Vocabulary vocabulary_of(const std::vector<const std::vector<std::string> *> &sentences,
                         const TextReadingOptions &options) {
  std::unordered_map<std::string_view, std::size_t> index; // token -> its entry
  std::vector<std::pair<std::string_view, std::size_t>> counts;
  for (const auto *sentence : sentences)
    for (const std::string &token : *sentence) {
      const auto [at, added] = index.emplace(token, counts.size());
      if (added)
        counts.emplace_back(token, 0);
      ++counts[at->second].second;
    }
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  Vocabulary vocabulary;
  vocabulary.tokens = {"<sos>", "<eos>", "<unk>"};
  for (const auto &[token, count] : counts) {
    if (count < options.min_count || vocabulary.tokens.size() - 3 == options.max_vocabulary)
      break;
    vocabulary.tokens.emplace_back(token);
  }
  return vocabulary;
}

Ids::Ids(const Vocabulary &vocabulary) {
  for (std::size_t id = 0; id < vocabulary.tokens.size(); ++id)
    ids_.emplace(vocabulary.tokens[id], id);
}

std::size_t Ids::operator()(const std::string &token) const {
  const auto found = ids_.find(token);
  return found == ids_.end() ? Vocabulary::unk : found->second;
}

void UnknownShare::add(const std::vector<std::size_t> &ids, std::size_t ends) {
  tokens_ += ids.size() - ends;
  unknown_ += static_cast<std::size_t>(std::count(ids.begin(), ids.end(), Vocabulary::unk));
}

} // namespace reading
} // namespace attention::tasks
