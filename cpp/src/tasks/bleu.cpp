#include <algorithm>
#include <cmath>
#include <map>

#include "attention/translation_tasks.hpp"

namespace attention::tasks {

namespace {

// The sentence's n-grams of one order, counted.
std::map<std::vector<std::string_view>, std::size_t> ngrams(const std::vector<std::string> &tokens,
                                                            std::size_t n) {
  std::map<std::vector<std::string_view>, std::size_t> counts;
  for (std::size_t i = 0; i + n <= tokens.size(); ++i)
    ++counts[std::vector<std::string_view>(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                           tokens.begin() + static_cast<std::ptrdiff_t>(i + n))];
  return counts;
}

} // namespace

void Bleu::add(const std::vector<std::string> &output, const std::vector<std::string> &reference) {
  output_length_ += output.size();
  reference_length_ += reference.size();
  for (std::size_t n = 1; n <= 4; ++n) {
    const auto reference_counts = ngrams(reference, n);
    for (const auto &[ngram, count] : ngrams(output, n)) {
      const auto found = reference_counts.find(ngram);
      matches_[n - 1] += found == reference_counts.end() ? 0 : std::min(count, found->second);
    }
    totals_[n - 1] += output.size() >= n ? output.size() - n + 1 : 0;
  }
}

double Bleu::score() const {
  double log_precisions = 0;
  for (std::size_t n = 0; n < 4; ++n) {
    if (matches_[n] == 0)
      return 0;
    log_precisions += std::log(double(matches_[n]) / double(totals_[n]));
  }
  const double brevity = output_length_ < reference_length_
                             ? std::exp(1 - double(reference_length_) / double(output_length_))
                             : 1.0;
  return 100 * brevity * std::exp(log_precisions / 4);
}

} // namespace attention::tasks
