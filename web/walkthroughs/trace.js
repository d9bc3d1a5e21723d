// Reading an engine trace by name, never by position: a stage's panels are found by their name.

/** The panel of `stage` called `name` (the notebook's variable, e.g. 'attention_weights'). */
export function panelOf(stage, name) {
  const panel = stage.panels.find((candidate) => candidate.name === name);
  if (!panel) throw new Error(`stage ${stage.id} has no panel ${name}`);
  return panel;
}
