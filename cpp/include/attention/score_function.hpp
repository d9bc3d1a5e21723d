// The four ways of scoring a decoder state against the encoder's annotations, by name: shared by
// the walkthroughs and the models that score, so neither depends on the other.
#pragma once

#include <string>

namespace attention {

enum class ScoreFunction { additive, dot, general, concat };

inline constexpr ScoreFunction score_functions[] = {ScoreFunction::additive, ScoreFunction::dot,
                                                    ScoreFunction::general, ScoreFunction::concat};

// "additive", "dot", "general" or "concat"; any other name throws InputError blaming `argument`
// (the walkthrough's field is "score").
ScoreFunction parse_score_function(const std::string &name, const char *argument = "score");
std::string score_function_name(ScoreFunction score);

} // namespace attention
