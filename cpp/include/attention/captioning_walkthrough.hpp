// The captioning walkthrough (issue 22's page): a captioner's caption of one scene, stage by stage,
// as a Trace like the other walkthroughs' (numbers and structure only):
//   scene     the image the model sees ("image", palette "image": 3·S x S, the RGB channels one
//             after the other, CHW, in [0, 1])
//   encoder   the annotation grid: each region's ‖a_i‖ over the image ("regions", palette
//             "overlay": 1 x L), every annotation ("annotations", L x D, rows "row,column"), and
//             the shown_channels channels that vary most across the regions, each as the grid
//             (a panel "channel-<c>", c from 1, grid rows x columns; largest variance first: a
//             channel the same everywhere says nothing of where things are)
//   step (t)  decoder step t: the state it attends from ("decoder_state", h_{t-1}), the scores
//             e_t ("scores") and weights α_t ("weights") of the regions as the grid, α_t over the
//             image ("attention", palette "overlay": 1 x L), the gate β_t ("gate", 1 x D) and the
//             likeliest next words ("top", a column)
//   caption   every word's attention over the image ("figure", overlay, m x L, a row a word), the
//             grammar's gold regions of the same words ("gold", overlay, 1 at sure cells, 0.5 at
//             possible ones, up to where the caption leaves the grammar's), the whole alignment
//             as numbers ("alignment", m x L), with a beam its hypotheses ("beams"), and the
//             model's exact match, token accuracy and region accuracy on the test split
//             ("measures", 1 x 3, columns { metric })
// An overlay panel's columns are the grid's cells, row-major, labelled "row,column": the page draws
// each row as a map over the scene stage's image. Labels: "caption" (the words, <eos> last unless
// the length limit stopped it).
#pragma once

#include <cstddef>
#include <string>

#include "captioner_session.hpp"
#include "walkthrough.hpp"

namespace attention {

// The widest beam the walkthrough searches with, and how many annotation channels it shows.
constexpr std::size_t max_captioning_beam = 5, shown_channels = 4;

// A scene as text (tasks::read_scene's), made: InputError blames "scene" with every fault.
tasks::Scene parse_scene(const std::string &text);

// InputError blames "scene" (the session's checks) or "beam" (outside 1 … max_captioning_beam).
template <class T>
Trace captioning_walkthrough(CaptionerSession<T> &session, const tasks::Scene &scene,
                             std::size_t beam = 1);

extern template Trace captioning_walkthrough<float>(CaptionerSession<float> &, const tasks::Scene &,
                                                    std::size_t);
extern template Trace captioning_walkthrough<double>(CaptionerSession<double> &,
                                                     const tasks::Scene &, std::size_t);

} // namespace attention
