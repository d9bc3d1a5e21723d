// The kinds of trained model on the JavaScript side: one entry a kind, from its own file. The
// engine describes each kind (attn.modelFacts(kind): its configuration fields, which tell its
// models apart, which train() sets, their defaults and limits); an entry adds what the page and
// the API need besides:
//   create, facts  the names of its create and facts functions (createModel and modelFacts for
//                  that kind); a kind whose models are only loaded (its facts' abilities: not
//                  creates) has no create
//   probe(model, probe)  what every evaluation of a training run shows of the model as it learns
//                  (a matrix with rowLabels and colLabels)
//   walkthroughs   the names of the walkthroughs that show its models, in the page's order (the
//                  engine's: ModelKind<Session>::walkthroughs()), known before the models' module
//                  loads: a page opening on one loads it at once
//   goal           the measure of its evaluation a run's target is of (default: exactMatch)
//   reader         if its models learn the reader's own text: { create, load, sample(model, row) },
//                  the names of the functions that make such a task of the text and of the
//                  task's bytes (its save(): a training run's worker and a later visit take the
//                  task so, its text read once), and a held-out row ([input, reference] as the
//                  task's splits give them) as { source, output, reference }, a run's samples
//   shipped        the trained models the package ships in models/ (web/models/shipped.js says
//                  how they are made), by the fields of their identity that are not the
//                  defaults, each with the steps it trained for, and where a model is not one
//                  file (modelFile(entry)), its `files` under models/
//   parts({ call, platform, facts, tasks, modelOf })  → { api, methods(info, live, own),
//                  loadShipped? }: its own functions and model methods (tasks: the store of the
//                  reader's task objects, text-tasks.js; modelOf(info, own): the model object of a
//                  model its own functions made, whose methods get `own`, what the part keeps
//                  beside the engine's model), and for a kind whose shipped models are not one
//                  file each, loadShipped(entry), which reads one with platform.readModel(path)
import { deepFreeze, describe, fail } from './checks.js';
import { seq2seqKind } from './seq2seq.js';
import { captionerKind } from './captioner.js';
import { transformerKind } from './transformer.js';
import { classifierKind } from './classifier.js';
import { pretrainedKind } from './pretrained.js';

/** The kinds' entries, as the engine composes them (engine.js). */
export const KINDS = deepFreeze({
  seq2seq: seq2seqKind,
  captioner: captionerKind,
  transformer: transformerKind,
  classifier: classifierKind,
  pretrained: pretrainedKind,
});

/** Each kind's create and facts function names, its walkthroughs, its training runs' probe, the measure their target is of and its reader's tasks. */
export const MODEL_KINDS = deepFreeze(
  Object.fromEntries(
    Object.entries(KINDS).map(([kind, { create, facts, walkthroughs, probe, goal = 'exactMatch', reader }]) => [
      kind,
      { create, facts, walkthroughs, probe, goal, reader },
    ]),
  ),
);

/** The trained models the package ships in models/, each entry { kind, ...identity, steps }. */
export const SHIPPED_MODELS = deepFreeze(
  Object.entries(KINDS).flatMap(([kind, entry]) => entry.shipped.map((model) => ({ kind, ...model }))),
);

export const kindOf = (name, where) =>
  MODEL_KINDS[name] ??
  fail(`${where} must be one of ${Object.keys(MODEL_KINDS).join(', ')}, got ${describe(name)}`, where);
