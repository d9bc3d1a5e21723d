#include "attention/seq2seq_walkthrough.hpp"
#include "attention/transformer_walkthrough.hpp"

#include <algorithm>
#include <string_view>
#include <variant>

#include "core/decimal.hpp"
#include "given_inputs.hpp"
#include "trace_parts.hpp"

namespace attention {

namespace {

using namespace trace_parts;

// The measures of a model on the test split a panel shows, by name (the page words them).
std::vector<Label> metric_labels() {
  std::vector<Label> labels(3);
  labels[0].metric = "exactMatch";
  labels[1].metric = "alignmentAccuracy";
  labels[2].metric = "aer";
  return labels;
}

// A model as a label of `names` of its fields; by default all that tells it apart, so that the
// page describes it as it is.
template <class T>
Label model_label(const Seq2seqSession<T> &session,
                  std::initializer_list<std::string_view> names = {"scoring", "encoder", "layers",
                                                                   "guide"}) {
  return trace_parts::model_label(session.config(), ModelKind<Seq2seqSession>::fields(), names);
}

// The model's own measures on the test split: exact match, alignment accuracy and AER (one row,
// or exact match and BLEU / 100 for a task without gold links,
// named by its scoring function), and for each kind of target word the share whose largest weight
// falls on a sure or possible gold link, and the share that looks at the one source word most of
// the others look at instead (each row labelled with the kind, its count of words and that word).
template <class T> std::vector<Panel> own_measures(Seq2seqSession<T> &session) {
  const Seq2seqEvaluation evaluation = session.test_evaluation();
  const Label model = model_label(session, {"scoring"});
  if (!session.task().gold_links) { // no gold links: no alignment to score, and BLEU instead
    auto metrics = Matrix<double>::from_shape({1, 2});
    metrics(0, 0) = evaluation.exact_match;
    metrics(0, 1) = evaluation.bleu / 100;
    std::vector<Label> labels(2);
    labels[0].metric = "exactMatch";
    labels[1].metric = "bleu";
    return {panel("measures", "weights", std::move(metrics), {model}, labels)};
  }
  auto metrics = Matrix<double>::from_shape({1, 3});
  metrics(0, 0) = evaluation.exact_match;
  metrics(0, 1) = evaluation.alignment_accuracy;
  metrics(0, 2) = evaluation.aer;
  std::vector<Label> kinds, columns(2);
  columns[0].metric = "alignedShare";
  columns[1].metric = "insteadShare";
  auto shares = Matrix<double>::from_shape({evaluation.categories.size(), 2});
  for (std::size_t i = 0; i < evaluation.categories.size(); ++i) {
    const auto &category = evaluation.categories[i]; // count > 0
    Label &kind = kinds.emplace_back();
    kind.category = tasks::word_category_name(category.category);
    kind.count = category.count;
    if (category.instead)
      kind.instead = session.task().source.tokens[*category.instead];
    shares(i, 0) = double(category.aligned) / double(category.count);
    shares(i, 1) = double(category.instead_count) / double(category.count);
  }
  std::vector<Panel> panels;
  panels.push_back(panel("measures", "weights", std::move(metrics), {model}, metric_labels()));
  panels.push_back(panel("by_category", "neutral", std::move(shares), kinds, columns));
  return panels;
}

// The compared field of a model's label, as text: its name ("additive"), or for a number
// "guide=" and the number.
std::string compared_value(const Label &model, Comparison comparison) {
  const char *name = comparison_name(comparison);
  const FieldValue &value = *model.field(name);
  if (const auto *text = std::get_if<std::string>(&value))
    return *text;
  return std::string(name) + "=" + detail::format_shortest(std::get<double>(value));
}

// The compared models, checked (one task, each its own value of the compared field), as labels
// that keep what tells them apart: the compared field, and any other that is not the same in all
// (comparing scoring functions, Bahdanau's encoder reads both ways where Luong's read one).
template <class T>
std::vector<Label> compared_labels(const tasks::Task &task,
                                   const std::vector<Seq2seqSession<T> *> &models,
                                   Comparison comparison, const char *argument) {
  std::vector<Label> labels;
  for (std::size_t k = 0; k < models.size(); ++k) {
    if (models[k]->task().id != task.id)
      detail::fail(detail::Argument(argument), argument, "[", k, "] translates ",
                   models[k]->task().id, ", not ", task.id);
    labels.push_back(model_label(*models[k]));
    for (std::size_t other = 0; other < k; ++other)
      if (compared_value(labels[other], comparison) == compared_value(labels[k], comparison))
        detail::fail(detail::Argument(argument), argument, "[", other, "] and ", argument, "[", k,
                     "] are both ", compared_value(labels[k], comparison), ": comparing by ",
                     comparison_name(comparison), " takes models that differ in it");
  }
  // the fields that are the compared one or differ among the models, in their order
  std::vector<std::string> kept;
  for (const auto &entry : labels[0].model)
    if (entry.first == comparison_name(comparison) ||
        std::any_of(labels.begin(), labels.end(),
                    [&](const Label &label) { return *label.field(entry.first) != entry.second; }))
      kept.push_back(entry.first);
  for (Label &label : labels)
    label.model.erase(std::remove_if(label.model.begin(), label.model.end(),
                                     [&](const auto &entry) {
                                       return std::find(kept.begin(), kept.end(), entry.first) ==
                                              kept.end();
                                     }),
                      label.model.end());
  return labels;
}

// Each compared model's alignment of `source` (a panel named by its compared field), and their
// measures on the test split.
template <class T>
std::vector<Panel> compare(const Seq2seqSession<T> &session, const std::vector<TokenId> &source,
                           const std::vector<Seq2seqSession<T> *> &compared,
                           Comparison comparison) {
  const tasks::Task &task = session.task();
  const Labels source_tokens = tokens_of(task.source, source);
  const std::vector<Label> models = compared_labels(task, compared, comparison, "compare");
  const std::vector<Label> metric_names = metric_labels();
  std::vector<Panel> panels;
  auto metrics = Matrix<double>::from_shape({compared.size(), metric_names.size()});
  for (std::size_t k = 0; k < compared.size(); ++k) {
    Seq2seqSession<T> &other = *compared[k];
    const auto translation = other.model().translate(source, task.max_target_length + 1);
    const Labels target = tokens_of(task.target, translation.output);
    Panel alignment =
        panel("", "weights", rows_of(translation.weights, 0, target.size()), target, source_tokens);
    alignment.name = compared_value(model_label(other), comparison);
    panels.push_back(std::move(alignment));
    const Seq2seqEvaluation evaluation = other.test_evaluation();
    metrics(k, 0) = evaluation.exact_match;
    metrics(k, 1) = evaluation.alignment_accuracy;
    metrics(k, 2) = evaluation.aer;
  }
  panels.push_back(panel("metrics", "weights", std::move(metrics), models, metric_names));
  return panels;
}

// The encoder's stage: both ways, each direction's states (→h_j, ←h_j, H/2 wide) before the
// annotations they make; then the decoder's start s_0.
template <class T>
std::vector<Panel> encoder_panels(const Seq2seqTrace<T> &t, Encoder encoder,
                                  const Labels &source_tokens) {
  const std::size_t n = source_tokens.size(), h = t.encoder_states.shape()[1];
  std::vector<Panel> panels;
  if (encoder == Encoder::bidirectional) {
    auto forward = Matrix<double>::from_shape({n, h / 2}),
         backward = Matrix<double>::from_shape({n, h / 2});
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < h / 2; ++i) {
        forward(j, i) = static_cast<double>(t.encoder_states(j, i));
        backward(j, i) = static_cast<double>(t.encoder_states(j, h / 2 + i));
      }
    panels.push_back(panel("forward_states", "annotation", std::move(forward), source_tokens,
                           numbered("", h / 2, 1)));
    panels.push_back(panel("backward_states", "annotation", std::move(backward), source_tokens,
                           numbered("", h / 2, 1)));
  }
  panels.push_back(panel("encoder_states", "annotation", rows_of(t.encoder_states, 0, n),
                         source_tokens, numbered("", h, 1)));
  panels.push_back(panel("decoder_start", "decoder", rows_of(t.initial_state, 0, 1),
                         Labels(1, "s0"), numbered("", h, 1)));
  return panels;
}

} // namespace

template <class T>
Trace seq2seq_walkthrough(Seq2seqSession<T> &session, const std::string &sentence, std::size_t beam,
                          const std::vector<Seq2seqSession<T> *> &compared, Comparison comparison) {
  check_from_one(beam, max_walkthrough_beam, "beam");
  const tasks::Task &task = session.task();
  const auto source = session.tokenize(sentence, tasks::Side::source);
  const auto translation = session.translate(source, beam);
  const Seq2seqTrace<T> &t = translation.trace;
  const std::size_t n = source.size(), m = t.output.size();
  const std::size_t e = session.config().embedding, h = session.config().hidden;

  const Labels source_tokens = tokens_of(task.source, source);
  const Labels target_tokens = tokens_of(task.target, t.output);

  Trace trace;
  trace.walkthrough = "seq2seq";
  trace.labels = {{"source", source_tokens}, {"target", target_tokens}};
  // a task from text reads a word it lacks as <unk>: the words, and the nearest it has
  if (task.text) {
    Labels unknown, nearest;
    for (const auto &word : tasks::unknown_words(task, sentence, tasks::Side::source)) {
      unknown.push_back(word.word);
      std::string near;
      for (const auto &candidate : word.nearest)
        near += (near.empty() ? "" : " ") + candidate;
      nearest.push_back(near);
    }
    trace.labels.emplace_back("unknown", std::move(unknown));
    trace.labels.emplace_back("nearest", std::move(nearest));
  }
  trace.stages.push_back({"source",
                          "source",
                          0,
                          {panel("embeddings", "annotation", rows_of(t.source_embeddings, 0, n),
                                 source_tokens, numbered("", e, 1))}});
  trace.models = {model_label(session)};
  trace.stages.push_back(
      {"encoder", "encoder", 0, encoder_panels(t, session.config().encoder, source_tokens)});
  const Labels hidden = numbered("", h, 1);
  for (std::size_t step = 1; step <= m; ++step) {
    const std::size_t row = step - 1;
    const Labels at_step(1, target_tokens[row]);
    std::vector<Panel> panels{
        panel("decoder_state", "decoder", rows_of(t.decoder_states, row, 1), at_step, hidden),
        panel("scores", "scores", rows_of(t.scores, row, 1), at_step, source_tokens),
        panel("weights", "weights", rows_of(t.weights, row, 1), at_step, source_tokens),
        panel("context", "context", rows_of(t.contexts, row, 1), at_step, hidden)};
    if (t.attentional.size())
      panels.push_back(
          panel("attentional", "decoder", rows_of(t.attentional, row, 1), at_step, hidden));
    panels.push_back(top_panel(translation.top[row], task.target));
    panels.push_back(panel("alignment", "weights", rows_of(t.weights, 0, step),
                           Labels(target_tokens.begin(), target_tokens.begin() + step),
                           source_tokens));
    trace.stages.push_back({"step-" + std::to_string(step), "step", step, std::move(panels)});
  }

  std::vector<Panel> last{
      panel("alignment", "weights", rows_of(t.weights, 0, m), target_tokens, source_tokens)};
  // The gold alignment, for the produced tokens up to where they leave the grammar's translation.
  if (const auto gold = tasks::gold_example(task, sentence))
    last.push_back(
        panel("gold", "neutral", gold_links(*gold, t.output, n), target_tokens, source_tokens));
  if (beam > 1)
    last.push_back(beams_panel(translation.beams, [&](const std::vector<std::size_t> &ids) {
      return tasks::detokenize(task, ids, tasks::Side::target);
    }));
  for (Panel &measured : own_measures(session))
    last.push_back(std::move(measured));
  trace.stages.push_back({"alignment", "alignment", 0, std::move(last)});
  if (!compared.empty())
    trace.stages.push_back(
        {"compare", "compare", 0, compare(session, source, compared, comparison)});
  trace.output = rows_of(t.weights, 0, m);
  return trace;
}

template <class T>
Trace scoring_walkthrough(const std::vector<Seq2seqSession<T> *> &models,
                          const std::string &sentence, std::size_t step, Comparison comparison) {
  if (models.empty())
    detail::fail(detail::Argument("models"), "models must hold at least one model");
  Seq2seqSession<T> &first = *models.front();
  const tasks::Task &task = first.task();
  const std::vector<Label> labels = compared_labels(task, models, comparison, "models");
  const auto source = first.tokenize(sentence, tasks::Side::source);
  const auto gold = tasks::gold_example(task, sentence);
  std::vector<TokenId> target = gold
                                    ? std::vector<TokenId>(gold->target.begin(), gold->target.end())
                                    : first.translate(source).trace.output;
  // a translation the length limit stopped still ends the way teacher forcing needs
  if (target.back() != first.model().config().eos)
    target.push_back(first.model().config().eos);
  if (step < 1 || step > target.size())
    detail::fail(detail::Argument("step"), "step (", step, ") must be between 1 and ",
                 target.size(), ", the length of the translation \"",
                 tasks::detokenize(task, std::vector<std::size_t>(target.begin(), target.end()),
                                   tasks::Side::target),
                 "\" with <eos>");

  const Labels source_tokens = tokens_of(task.source, source);
  const Labels target_tokens = tokens_of(task.target, target);
  const std::size_t row = step - 1;
  const Labels word(1, target_tokens[row]);
  std::vector<Panel> annotations, states, scores, weights;
  Trace trace;
  for (Seq2seqSession<T> *model : models) {
    const std::size_t h = model->config().hidden;
    const ScoreFunction scoring = model->config().scoring;
    trace.models.push_back(model_label(*model));
    const std::string name = compared_value(trace.models.back(), comparison);
    const Seq2seqTrace<T> t = model->model().trace(source, target);
    annotations.push_back(panel(name.c_str(), "annotation",
                                rows_of(t.encoder_states, 0, source.size()), source_tokens,
                                numbered("", h, 1)));
    // Bahdanau scores with the state before the step: at the first, the decoder's start s_0
    const bool before = scoring == ScoreFunction::additive;
    states.push_back(panel(name.c_str(), "decoder",
                           !before ? rows_of(t.decoder_states, row, 1)
                           : row   ? rows_of(t.decoder_states, row - 1, 1)
                                   : rows_of(t.initial_state, 0, 1),
                           word, numbered("", h, 1)));
    scores.push_back(panel(name.c_str(), "scores", rows_of(t.scores, row, 1), word, source_tokens));
    weights.push_back(
        panel(name.c_str(), "weights", rows_of(t.weights, row, 1), word, source_tokens));
  }
  auto output = Matrix<double>::from_shape({weights.size(), source.size()});
  for (std::size_t k = 0; k < weights.size(); ++k)
    std::copy(weights[k].values.data(), weights[k].values.data() + source.size(),
              output.data() + k * source.size());
  if (gold) {
    auto linked = Matrix<double>::from_shape({1, source.size()});
    std::fill(linked.data(), linked.data() + source.size(), 0.0);
    mark_links(*gold, row, &linked(0, 0));
    weights.push_back(panel("gold", "neutral", std::move(linked), word, source_tokens));
  }

  trace.walkthrough = "scoring";
  trace.labels = {{"source", source_tokens}, {"target", target_tokens}};
  trace.stages = {{"encoder-states", "encoder-states", 0, std::move(annotations)},
                  {"decoder-states", "decoder-states", 0, std::move(states)},
                  {"compare-scores", "compare-scores", 0, std::move(scores)},
                  {"compare-weights", "compare-weights", 0, std::move(weights)}};
  trace.output = std::move(output);
  return trace;
}

const char *comparison_name(Comparison comparison) {
  switch (comparison) {
  case Comparison::scoring:
    return "scoring";
  case Comparison::encoder:
    return "encoder";
  case Comparison::guide:
    return "guide";
  }
  return "";
}

Comparison parse_comparison(const std::string &name, const char *argument) {
  for (const Comparison comparison : comparisons)
    if (name == comparison_name(comparison))
      return comparison;
  detail::fail(detail::Argument(argument), argument, " must be scoring, encoder or guide, got \"",
               name.substr(0, 40), "\"");
}

template <class T> CompareAlignment seq2seq_alignment(Seq2seqSession<T> &session) {
  return [&session](const std::vector<TokenId> &source, const std::vector<TokenId> &target) {
    // a translation the length limit stopped still ends the way teacher forcing needs
    std::vector<TokenId> forced = target;
    if (forced.back() != session.model().config().eos)
      forced.push_back(session.model().config().eos);
    const Seq2seqTrace<T> t = session.model().trace(source, forced);
    return ComparedAlignment{model_label(session), rows_of(t.weights, 0, target.size()),
                             session.test_evaluation().aer};
  };
}

template CompareAlignment seq2seq_alignment<float>(Seq2seqSession<float> &);
template CompareAlignment seq2seq_alignment<double>(Seq2seqSession<double> &);
template Trace scoring_walkthrough<float>(const std::vector<Seq2seqSession<float> *> &,
                                          const std::string &, std::size_t, Comparison);
template Trace scoring_walkthrough<double>(const std::vector<Seq2seqSession<double> *> &,
                                           const std::string &, std::size_t, Comparison);
template Trace seq2seq_walkthrough<float>(Seq2seqSession<float> &, const std::string &, std::size_t,
                                          const std::vector<Seq2seqSession<float> *> &, Comparison);
template Trace seq2seq_walkthrough<double>(Seq2seqSession<double> &, const std::string &,
                                           std::size_t,
                                           const std::vector<Seq2seqSession<double> *> &,
                                           Comparison);

// ---------------------------------------------------------------------------------------------
// The entries of scoring and seq2seq in the walkthroughs' table

namespace {

using namespace inputs;

Labels score_names() { return names_of(score_functions, score_function_name); }

// What picks a model (the caller's): its task, scoring function, encoder ("default": the scoring
// function's, default_encoder, which the page resolves), layers and guided alignment's weight λ
// (as format_shortest writes it: the menu's "0", "0.5", "1").
std::vector<InputField> model_identity_inputs() {
  Labels encoders{"default"};
  for (auto encoder : attention::encoders)
    encoders.push_back(encoder_name(encoder));
  return {task_field(),
          texts_field("scoring", InputKind::choice,
                      Labels(1, score_function_name(ScoreFunction::additive)), score_names()),
          texts_field("encoder", InputKind::choice, Labels(1, "default"), encoders),
          integer_field("layers", 1, 1, std::int64_t(max_layers)),
          texts_field("guide", InputKind::choice, Labels(1, "0"), {"0", "0.5", "1"})};
}
// What compared models differ in.
InputField comparison_field() {
  const Labels names = names_of(comparisons, comparison_name);
  return texts_field("comparison", InputKind::choice, Labels(1, names.front()), names);
}

// The caller's models, each its own value of the field compared, the others as the identity's
// inputs say (the field compared aside).
std::vector<InputField> scoring_inputs() {
  auto fields = model_identity_inputs();
  fields.push_back(comparison_field());
  fields.push_back(sample_sentence());
  fields.push_back(integer_field("step", 2, 1, std::int64_t(max_sentence_length)));
  fields.push_back(model_field("models", InputKind::models));
  return fields;
}

// The identity's inputs pick the model (the caller's); `compare` adds models to compare, each its
// own value of the field `comparison` names.
std::vector<InputField> seq2seq_inputs() {
  auto fields = model_identity_inputs();
  fields.push_back(sample_sentence());
  fields.push_back(integer_field("beam", 1, 1, std::int64_t(max_walkthrough_beam)));
  fields.push_back(comparison_field());
  fields.push_back(model_field("model", InputKind::model));
  fields.push_back(model_field("compare", InputKind::models, true));
  return fields;
}

Comparison comparison_of(const GivenInputs &given, const std::vector<InputField> &fields) {
  return parse_comparison(texts(given, "comparison", fields).front(), "comparison");
}

Trace seq2seq_from(const GivenInputs &given) {
  const auto fields = seq2seq_inputs();
  return trace_of_model<Seq2seqSession>(
      given, "one seq2seq model", "compare", [&](auto &session, const auto &compared) {
        return seq2seq_walkthrough(session, sentence(given, fields), size(given, "beam", fields),
                                   compared, comparison_of(given, fields));
      });
}

Trace scoring_from(const GivenInputs &given) {
  const std::vector<int> models = handles(given, "models");
  if (models.empty())
    detail::fail(detail::Argument("models"), "inputs.models must hold at least one seq2seq model");
  const auto fields = scoring_inputs();
  return stored_model(models[0], "models").as<Seq2seqSession>("models").visit([&](auto &first) {
    using T = typename precision_of<std::decay_t<decltype(first)>>::type;
    const Comparison comparison = comparison_of(given, fields);
    const auto sessions = sessions_of<Seq2seqSession, T>(models, "models");
    for (const auto *session : sessions)
      require_models_own(given, *session, comparison_name(comparison));
    return scoring_walkthrough(sessions, sentence(given, fields), size(given, "step", fields),
                               comparison);
  });
}

} // namespace

std::vector<WalkthroughEntry> ModelKind<Seq2seqSession>::walkthroughs() {
  return {{"scoring", scoring_inputs, scoring_from}, {"seq2seq", seq2seq_inputs, seq2seq_from}};
}

} // namespace attention
