// The walkthroughs of a pretrained checkpoint's models: none yet (a walkthrough of every layer and
// head is its own issue's); the kind's entries are defined here, beside where their traces go.
#include "attention/pretrained_session.hpp"
#include "attention/walkthrough.hpp"

namespace attention {

std::vector<WalkthroughEntry> ModelKind<PretrainedSession>::walkthroughs() { return {}; }

} // namespace attention
