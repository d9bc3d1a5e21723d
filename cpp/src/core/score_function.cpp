#include "attention/score_function.hpp"

#include "attention/errors.hpp"

namespace attention {

ScoreFunction parse_score_function(const std::string &name, const char *argument) {
  for (auto score : score_functions)
    if (score_function_name(score) == name)
      return score;
  detail::fail(detail::Argument(argument), argument, " (\"", name,
               "\") must be one of additive, dot, general, concat");
}

std::string score_function_name(ScoreFunction score) {
  switch (score) {
  case ScoreFunction::additive:
    return "additive";
  case ScoreFunction::dot:
    return "dot";
  case ScoreFunction::general:
    return "general";
  case ScoreFunction::concat:
    return "concat";
  }
  return "";
}

} // namespace attention
