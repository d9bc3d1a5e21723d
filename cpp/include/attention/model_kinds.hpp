// The kinds of trained model the engine makes: the one list of them. Each kind describes itself
// beside its session (ModelKind<Session>, model_kind.hpp); the model store, the model files and
// the binding serve every kind in this list as they are.
#pragma once

#include "captioner_session.hpp"
#include "classifier_session.hpp"
#include "pretrained_session.hpp"
#include "seq2seq_session.hpp"
#include "transformer_session.hpp"

// The test build's kinds besides (tests/kinds/, each added as a new kind is): no package has them.
#ifdef ATTENTION_TEST_KINDS
#include "frozen_session.hpp"
#include "toy_session.hpp"
#define ATTENTION_TEST_KIND_SESSIONS , ToySession, FrozenSession
#else
#define ATTENTION_TEST_KIND_SESSIONS
#endif

namespace attention {

using ModelKinds = KindList<Seq2seqSession, CaptionerSession, TransformerSession, ClassifierSession,
                            PretrainedSession ATTENTION_TEST_KIND_SESSIONS>;

} // namespace attention
