// The kinds of trained model the engine makes: the one list of them. Each kind describes itself
// beside its session (ModelKind<Session>, model_kind.hpp); the model store, the model files and
// the binding serve every kind in this list as they are.
#pragma once

#include "captioner_session.hpp"
#include "classifier_session.hpp"
#include "seq2seq_session.hpp"
#include "transformer_session.hpp"

namespace attention {

using ModelKinds =
    KindList<Seq2seqSession, CaptionerSession, TransformerSession, ClassifierSession>;

} // namespace attention
