// Compiled by `tsc -p tests/types` in npm test: the declarations accept real usage and reject
// misuse (each @ts-expect-error fails the build if the line becomes valid).
import {
  fieldsThat,
  loadAttention,
  modelFile,
  modelIdentity,
  MODEL_KINDS,
  SHIPPED_MODELS,
  toMatrix,
  trainModel,
  TRAINING_DEFAULTS,
  writeNpy,
  writeNpz,
  type ModelKind,
  type CaptionerModel,
  type ClassifierModel,
  type ClassificationTextTask,
  type LabelledSentence,
  type Explanation,
  type Scene,
  type WrittenScene,
  type Seq2seqModel,
  type TranslationTask,
  type TransformerModel,
  type TrainingProgress,
  type Tensor,
  type InputError,
  type InputField,
  type Label,
  type Matrix,
  type PreciseMatrix,
  type PreciseValues,
  type Stage,
  type Trace,
} from 'attention-stepper';

const attn = await loadAttention({ locateFile: (path) => `/assets/${path}` });
const threaded = await loadAttention({ threads: 4 });
const product32: Matrix<Float32Array> = attn.matmul({ rows: 1, cols: 1, data: new Float32Array(1) }, [[2]]);
const product64: Matrix<Float64Array> = attn.matmul([[1, 2]], [[3], [4]]);
const threadCount: number = threaded.threads;
// @ts-expect-error the thread count is a number
await loadAttention({ threads: 'auto' });
// @ts-expect-error the engine's thread count is fixed at load
threaded.threads = 2;
const loaded: Promise<void> = attn.loadModels();
const withModels: boolean = (await loadAttention({ models: true })).modelsLoaded;
// @ts-expect-error models is a boolean
await loadAttention({ models: 'yes' });

const score: number = attn.dotScore([5, 1, 20], [3, 12, 45]);
const scores: Float64Array = attn.dotScores([5, 1, 20], [[3, 12, 45]]);
const scores32: Float32Array = attn.dotScores(new Float32Array([5, 1, 20]), [[3, 12, 45]]);
const weights: Float64Array = attn.softmax(scores, { scale: 0.5, mask: [true, false] });
const logWeights: Float32Array = attn.logSoftmax(scores32, { mask: new Uint8Array([1, 1]) });
const applied: Matrix = attn.applyWeights(weights, { rows: 1, cols: 3, data: new Float64Array(3) });
const context: Float64Array = attn.contextVector(applied);
const { output, weights: w }: { output: Matrix; weights: Matrix } = attn.attention([[1]], [[1]], [[1]], {
  causal: true,
});
const f32: Matrix<Float32Array> = attn.attention({ rows: 1, cols: 1, data: new Float32Array(1) }, [[1]], [[1]]).output;
const self = attn.selfAttention(
  [[1, 0]],
  [
    [1, 0],
    [0, 1],
  ],
  [
    [1, 0],
    [0, 1],
  ],
  [
    [1, 0],
    [0, 1],
  ],
  { scale: 1 },
);
const queries: Matrix = self.queries;
const heads: Matrix[] = attn.multiHeadAttention([[1, 2]], {
  heads: 1,
  Wq: [[1]],
  Wk: [[1]],
  Wv: [[1]],
  Wo: [[1]],
}).weights;
const draws: Matrix = attn.randomState(42).randint(3, 3, 3);
const trace: Trace = attn.walkthrough('basics', { seed: 3 });
const first: Stage = trace.stages[0];
const exact: string[] | undefined = first.panels[0].exact;
const kind: string = first.kind;
const step: number | undefined = first.step;
const targets: string[] = trace.labels.target;
const fields: readonly Readonly<InputField>[] = attn.walkthroughInputs('scoring');
const limit: number | undefined = fields[0].kind === 'integer' ? fields[0].max : undefined;
let blamed = '';
try {
  attn.softmax([NaN]);
} catch (error) {
  blamed = (error as InputError).argument;
}
// @ts-expect-error the trace has no English text: titles come from the specs
const title: string = first.title;
const [firstTask] = attn.seq2seqTasks();
const [sentence, translation, alignment] = firstTask.examples[0];
const alignedTo: number = alignment[0][0];
// @ts-expect-error the tasks are read-only
firstTask.examples.push([sentence, translation, alignment]);
// @ts-expect-error walkthroughInputs takes a walkthrough name
attn.walkthroughInputs('reformer');
const model = attn.createSeq2seq({ task: 'en-fr', hidden: 16 });
const weights32: Float32Array = model.parameters()['encoder.gru.weight_ih_l0'].data;
const precise = attn.createSeq2seq({ task: 'dates', precision: 'float64' });
const weights64: Float64Array = precise.parameters()['decoder.out.bias'].data;
const trained: number = model.train({ steps: 1, batch: 8 }).loss;
const translated = model.translate('the car is red');
const topWord: string = translated.steps[0].top[0].token;
const row: Float32Array = translated.alignment.data;
const exactMatch: number = model.evaluate({ split: 'train' }).exactMatch;
const evaluated = model.evaluate();
// a task without gold links has no alignment measures
const aer: number = (evaluated.aer ?? 0) + (evaluated.alignedShare ?? 0) + evaluated.bleu / 100;
const category: string | undefined = evaluated.categories?.[0].category;
const [, , , possible, categories] = firstTask.examples[0];
const possibleLink: number = possible[0][0] + categories.length;
const bahdanau = attn.createSeq2seq({ task: 'en-fr', encoder: 'bidirectional', layers: 2 });
const guidedLoss: number = bahdanau.train({ steps: 1, guide: 1 }).loss + bahdanau.gradients([], { guide: 0.5 }).loss;
const encoderName: 'forward' | 'bidirectional' = bahdanau.config.encoder;
// @ts-expect-error encoders are named
attn.createSeq2seq({ task: 'en-fr', encoder: 'backward' });
// @ts-expect-error the guide is a number
bahdanau.train({ steps: 1, guide: 'strong' });
const saved: Uint8Array = model.save();
attn.loadModel(saved).dispose();
const tensor: Tensor = attn.readTensors(writeNpy({ rows: 1, cols: 2, data: [1, 2] })).arr_0;
const shape: number[] = tensor.shape;
const values: Float64Array = attn.readTensors(writeNpz({ W_Q: { shape: [2], data: scores32 } })).W_Q.data;
// @ts-expect-error readTensors takes bytes, not a file name
attn.readTensors('weights.npy');
// @ts-expect-error a tensor needs a shape or rows and cols
writeNpy({ data: [1, 2] });
model.setParameters(model.parameters());
const ids: number[] = model.tokenize('la voiture', 'target');
// @ts-expect-error the task is required
attn.createSeq2seq({ hidden: 16 });
// @ts-expect-error a task is an id or a task from text (any kept task's id is a string)
attn.createSeq2seq({ task: 42 });
// @ts-expect-error scoring functions are named
attn.createSeq2seq({ task: 'en-fr', scoring: 'cosine' });
// @ts-expect-error steps is required
model.train({ batch: 8 });
// @ts-expect-error the split is train or test
model.evaluate({ split: 'dev' });
// @ts-expect-error a float32 model's data is Float32Array
const wrongData: Float64Array = model.parameters()['decoder.out.bias'].data;
const best: string[] = model.translate('the car is red', { beam: 4 }).beams[0].target;
// @ts-expect-error a float32 model saves as float32 or float16
model.save({ dtype: 'float64' });
const text: string = attn.decimalFromLog(-781.126928011043);
const names: readonly string[] = attn.walkthroughNames;
const maxBeam: number = attn.seq2seqFacts().maxBeam;
// @ts-expect-error the names are the engine's, read-only
attn.walkthroughNames.push('transformer');

// @ts-expect-error a string is not a vector
attn.dotScores('5 1 20', [[1]]);
// @ts-expect-error the option is `mask`, not `masked`
attn.softmax([1, 2], { masked: [1, 0] });
// @ts-expect-error a Float64 call does not return Float32
const wrong: Float32Array = attn.softmax([1, 2]);
// @ts-expect-error heads is required
attn.multiHeadAttention([[1]], { Wq: [[1]], Wk: [[1]], Wv: [[1]], Wo: [[1]] });
// @ts-expect-error unknown walkthrough
attn.walkthrough('transformer');
// @ts-expect-error basics takes no `score`
attn.walkthrough('basics', { score: 'dot' });
// @ts-expect-error self-attention takes no `models`
attn.walkthrough('self-attention', { models: [] });

export { kind, step, targets, limit, title, blamed, alignedTo };
export { score, logWeights, context, output, w, f32, queries, heads, draws, exact, text, names, wrong };

const fused: null = attn.attention([[1]], [[1]], [[1]], { weights: false }).weights;
const materialised: Matrix = attn.attention([[1]], [[1]], [[1]], { weights: true }).weights;
export { fused, materialised };
const perHead: Matrix[] | null = attn.attention([[1, 2]], [[1, 2]], [[1, 2]], { heads: 2 }).weights;
export { perHead };

// toMatrix checks untyped input (parsed JSON, say) and converts it as the engine does
const parsed: unknown = JSON.parse('[[1, 2], [3, 4]]');
const checked64: Matrix<Float64Array> = toMatrix(parsed, 'matrix', Float64Array);
const checked32: Matrix<Float32Array> = toMatrix(parsed, 'matrix', Float32Array);
// @ts-expect-error Float64Array in, Float64Array data out
const checkedWrong: Matrix<Float32Array> = toMatrix(parsed, 'matrix', Float64Array);
// @ts-expect-error only Float64Array or Float32Array data
toMatrix(parsed, 'matrix', Int32Array);
// @ts-expect-error the name for messages is required
toMatrix(parsed);
export { checked64, checked32, checkedWrong };

// the seq2seq walkthrough, shipped models and training
// an entry's fields are its kind's, told apart by kind
const firstShipped = SHIPPED_MODELS[0];
const shipped: Promise<Seq2seqModel> | null =
  firstShipped.kind === 'seq2seq' ? attn.loadShippedModel({ kind: 'seq2seq', task: firstShipped.task }) : null;
const shippedSteps: number = SHIPPED_MODELS[0].steps;
// @ts-expect-error a shipped model is asked for by kind
attn.loadShippedModel({ task: 'en-fr' });
// every kind's, by the fields of its identity
const shippedCaptioner: Promise<CaptionerModel> = attn.loadShippedModel({ kind: 'captioner', language: 'en' });
const shippedClassifier: Promise<ClassifierModel> = attn.loadShippedModel({
  kind: 'classifier',
  language: 'zh',
  attention: 'uniform',
});
// @ts-expect-error a field of another kind
attn.loadShippedModel({ kind: 'captioner', scoring: 'dot' });
const shippedKinds: ModelKind[] = SHIPPED_MODELS.map((entry) => entry.kind);
attn.walkthrough('seq2seq', { model, sentence: 'the red car', beam: 2 });
// @ts-expect-error the seq2seq walkthrough needs a model
attn.walkthrough('seq2seq', { sentence: ['the'] });
const compared: Trace = attn.walkthrough('scoring', { models: [model], sentence: ['the', 'red', 'car'], step: 2 });
const byEncoder: Trace = attn.walkthrough('seq2seq', {
  model,
  compare: [model],
  comparison: 'encoder',
  encoder: 'default',
});
const encoderOf: string | undefined = byEncoder.models?.[0].encoder;
// @ts-expect-error models compare by scoring, encoder or guide
attn.walkthrough('seq2seq', { model, comparison: 'size' });
const file: string = modelFile({ kind: 'seq2seq', ...modelIdentity('seq2seq', model.config, attn.seq2seqFacts()) });
const guided: number = model.config.guide;
// @ts-expect-error the scoring walkthrough needs its models
attn.walkthrough('scoring', { step: 2 });
export {
  compared,
  byEncoder,
  encoderOf,
  file,
  guided,
  shippedSteps,
  shippedCaptioner,
  shippedClassifier,
  shippedKinds,
};
const trainer = trainModel({
  kind: 'seq2seq',
  model: { task: 'en-fr', scoring: 'general' },
  train: { learningRate: 0.01 },
  probe: { sentence: 'the red car is small' },
});
trainer.finished.then(({ bytes, threads }) => {
  const trainedOn: number = threads;
  const loaded = attn.loadModel(bytes);
  console.log(`trained on ${trainedOn} threads`);
  // a model of any kind: its kind says which
  return loaded.kind === 'seq2seq' ? loaded.translate('the car').target : loaded.kind;
});
trainer.addEventListener('progress', (event) => {
  const { probe, evaluation } = (event as CustomEvent<TrainingProgress<'seq2seq'>>).detail;
  const sources: string[] | undefined = probe?.colLabels;
  const exact: number | undefined = evaluation?.exactMatch;
  return [sources, exact];
});
// @ts-expect-error the probe of a seq2seq run is a sentence
trainModel({ kind: 'seq2seq', model: { task: 'en-fr' }, probe: { image: 1 } });
const steps: number = TRAINING_DEFAULTS.steps;
// one precision emulated: values with their exact text and bits
const preciseValues: PreciseValues = attn.softmax([927, 929], { precision: 'bfloat16' });
const preciseLog: PreciseValues = attn.logSoftmax([927, 929], { precision: 'float128', mask: [1, 0] });
const bits: string[] = preciseValues.bits;
const preciseAttention: PreciseMatrix = attn.attention([[1]], [[1]], [[1]], { precision: 'float16' }).output;
// @ts-expect-error an unknown precision
attn.softmax([1, 2], { precision: 'float8' });
// @ts-expect-error the precision option returns values with their bits, not a typed array
const notTyped: Float64Array = attn.softmax([1, 2], { precision: 'float32' });
const numericsTrace: Trace = attn.walkthrough('numerics', { scores: [1, 2, 3], mask: [1, 0, 1] });
const cellBits: string[] | undefined = numericsTrace.stages[0].panels[0].bits;
// a label is plain text or names and numbers the page words
const rowLabel: Label = numericsTrace.stages[0].panels[0].rowLabels[0];
const rowPrecision = typeof rowLabel !== 'string' && 'precision' in rowLabel ? rowLabel.precision : null;
const structured: Label[] = [
  'x1',
  { precision: 'float16', allMasked: true },
  { precision: 'float32', width: 64 },
  { precision: 'float64', temperature: 0.05 },
  { width: 1024 },
  { total: true },
  { metric: 'exactMatch' },
  { scoring: 'additive' },
];
// @ts-expect-error a measure the engine names
const unknownMetric: Label = { metric: 'f1' };
// @ts-expect-error precisions are named
const unknownPrecision: Label = { precision: 'float8' };
export { preciseValues, preciseLog, bits, preciseAttention, notTyped, cellBits, rowPrecision, structured };
export { unknownMetric, unknownPrecision };

// the Transformer: every layer's attention, per head
const transformer: TransformerModel<'float32'> = attn.createTransformer({ task: 'en-fr', heads: 4, encoderLayers: 1 });
const layerAttention: Float32Array[][] = transformer.translate('the car is red', { beam: 2 }).decoder[0].crossAttention;
const headAer: number | undefined = transformer.evaluate({ split: 'train' }).heads?.[0].aer;

// a translation task of the reader's pairs, and models of it
const task: TranslationTask = attn.createTranslationTask({
  pairs: [['Go.', 'Va !']],
  unit: { target: 'character' },
  validation: 0,
  test: 0,
});
const taskTokens: string[] = task.tokenize('Go on.', 'source');
const held: readonly (readonly [string, string])[] = task.test;
const unknownShare: number = task.stats.unknownShare + task.stats.dropped.empty;
const onTask: Seq2seqModel<'float32'> = attn.createSeq2seq({ task });
const onTaskId = attn.createModel({ kind: 'transformer', task: task.id });
const bleu: number = onTask.evaluate({ split: 'validation' }).bleu + onTaskId.evaluate().loss;
const maxPairs: number = attn.translationTaskFacts().maxPairs;
// @ts-expect-error: units are word or character
attn.createTranslationTask({ text: 'a\tb', unit: 'letter' });
export { taskTokens, held, unknownShare, bleu, maxPairs };
// a task as bytes, loaded again, and a run given the task (sent as its bytes) or the bytes
const taskBytes: Uint8Array = task.save();
const taskAgain: TranslationTask = attn.loadTranslationTask(taskBytes);
trainModel({ kind: 'seq2seq', model: { task: task.id }, task: taskAgain, probe: { sentence: 'Go.' } });
trainModel({ kind: 'transformer', model: { task: task.id }, task: taskBytes, probe: { sentence: 'Go.' } });
// @ts-expect-error a classifier learns no translation task
trainModel({ kind: 'classifier', model: { task: 'reviews' }, task: taskAgain, probe: { sentence: 'Go.' } });
const loadName: string | undefined = MODEL_KINDS.seq2seq.reader?.load;
export { loadName };
transformer.train({ steps: 1, guide: 1 });
const transformerGradients = transformer.gradients([['the car', 'la voiture']], { guide: 0.5 }).gradients;
const preciseTransformer = attn.createTransformer({ task: 'dates', precision: 'float64' });
const transformerParameters: Float64Array = Object.values(preciseTransformer.parameters())[0].data;
// @ts-expect-error the Transformer's sizes are numbers
attn.createTransformer({ task: 'en-fr', heads: 'two' });
// @ts-expect-error no validation split for the Transformer
transformer.evaluate({ split: 'validation' });
const modelDefault: number = attn.transformerFacts().defaults.model;
// its walkthrough, with the GRU model to compare its best head with
const stepped: Trace = attn.walkthrough('transformer', { model: transformer, layer: 1, head: 2, compare: [model] });
// @ts-expect-error the transformer walkthrough needs a model
attn.walkthrough('transformer', { layer: 1 });
export { layerAttention, headAer, transformerGradients, transformerParameters, modelDefault, stepped };

// the captioner: scenes, images and a word's attention over the grid
const [shapesTask] = attn.captionTasks();
const scene: Scene = shapesTask.examples[0].scene;
const image = attn.renderScene({ objects: [{ shape: 'circle', colour: 'red', size: 'big', row: 0, column: 1 }] });
const captioner: CaptionerModel<'float32'> = attn.createCaptioner({ task: 'shapes', language: 'zh', hidden: 32 });
const wordWeights: Float32Array = captioner.caption(scene).steps[0].weights.data;
const fromImage: string[] = captioner.caption(image, { beam: 3 }).words;
const regionAccuracy: number = captioner.evaluate().regionAccuracy;
captioner.train({ steps: 1, regularization: 0 });
const captionLoss: number = captioner.gradients([{ scene, caption: shapesTask.examples[0].caption }]).loss;
// @ts-expect-error the captioner takes no guide
captioner.train({ steps: 1, guide: 1 });
// @ts-expect-error an unknown shape
attn.renderScene({ objects: [{ shape: 'star', colour: 'red', size: 'big', row: 0, column: 0 }] });
const parsedScene: Scene = attn.parseScene('big red circle 0 1; small blue square 1 0');
// @ts-expect-error a scene's text, not its objects
attn.parseScene(scene);
const written: WrittenScene = attn.readScene('big purple circle 0 1; small blue square 0 1');
const faultKinds: ('count' | 'words' | 'name' | 'place' | 'slot')[] = written.faults.map((fault) => fault.kind);
// @ts-expect-error a fault's part is a size, colour or shape
const faultPart: 'row' | undefined = written.faults[0].part;
// @ts-expect-error a captioner's language is en or zh
attn.createCaptioner({ task: 'shapes', language: 'fr' });
const shapeNames: readonly string[] = attn.captionerFacts().shapes;
const captionerRun = trainModel({
  kind: 'captioner',
  model: { task: 'shapes', language: 'en', channels: 8 },
  train: { regularization: 0 },
  probe: { scene },
});
captionerRun.addEventListener('progress', (event) => {
  const { probe, evaluation } = (event as CustomEvent<TrainingProgress<'captioner'>>).detail;
  return [probe?.rowLabels, evaluation?.regionAccuracy];
});
trainModel({ kind: 'transformer', model: { task: 'en-zh' }, train: { guide: 1 }, probe: { sentence: 'I eat rice' } });
// @ts-expect-error the probe of a captioner run is a scene
trainModel({ kind: 'captioner', model: { task: 'shapes' }, probe: { sentence: 'a red circle' } });
// one create function for every kind: its options and model are the kind's
const madeCaptioner: CaptionerModel = attn.createModel({ kind: 'captioner', task: 'shapes', hidden: 32 });
const madeTransformer: TransformerModel = attn.createModel({ kind: 'transformer', task: 'en-fr', heads: 4 });
// @ts-expect-error a Transformer has no scoring function
attn.createModel({ kind: 'transformer', task: 'en-fr', scoring: 'dot' });
// @ts-expect-error a captioner's train() weighs its regulariser, not guided alignment
madeCaptioner.train({ steps: 1, guide: 1 });
const lossWeight: string = attn.modelFacts('seq2seq').lossWeight;
const scoringNames: readonly string[] = attn.modelFacts('seq2seq').scorings;
const identityFields: string[] = fieldsThat(attn.modelFacts('captioner'), 'identity');
export { wordWeights, fromImage, regionAccuracy, captionLoss, shapeNames, parsedScene };
export { madeTransformer, lossWeight, scoringNames, identityFields };

// the classifier: reviews, the weights over a sentence's words and the checks of them
const [reviews] = attn.classificationTasks();
const [reviewText, reviewLabel, reviewRationale] = reviews.examples[0];
const classifier: ClassifierModel<'float64'> = attn.createClassifier({
  task: 'reviews',
  encoder: 'none',
  attention: 'uniform',
  precision: 'float64',
});
const reviewWeights: Float64Array = classifier.classify(reviewText).weights;
const reviewStates: Float64Array = classifier.classify(reviewText).states.data;
const explanation: Explanation = classifier.explain('the food was not good');
const tauLeaveOneOut: number | null = explanation.tau.leaveOneOut;
// @ts-expect-error τ may be undefined (null): a number is not enough
const tauGradients: number = explanation.tau.gradients;
const reviewLoss: number = classifier.gradients([[reviewText, reviewLabel, reviewRationale]], { rationale: 1 }).loss;
classifier.train({ steps: 1, rationale: 0.5 });
// @ts-expect-error a classifier weighs its rationale's term, not guided alignment
classifier.train({ steps: 1, guide: 1 });
const rationaleShare: number | undefined = classifier.evaluate().rationaleShare;
const reviewIds: number[] = classifier.tokenize(reviewText);
const reviewLabels: readonly string[] = classifier.task.labels;
// @ts-expect-error the encoder is a bigru or none
attn.createClassifier({ task: 'reviews', encoder: 'lstm' });
const madeClassifier: ClassifierModel = attn.createModel({ kind: 'classifier', task: 'reviews', hidden: 16 });
// the sentiment walkthrough: a classifier, the uniform model beside it
const sentimentTrace: Trace = attn.walkthrough('sentiment', {
  model: madeClassifier,
  uniform: classifier,
  sentence: ['the', 'food', 'was', 'good'],
});
const attentionLabel: Label = { attention: 'uniform' };
// @ts-expect-error the sentiment walkthrough reads a trained classifier
attn.walkthrough('sentiment', { sentence: ['the', 'food', 'was', 'good'] });
const classifierRun = trainModel({
  kind: 'classifier',
  model: { task: 'reviews' },
  probe: { sentence: 'the food was good' },
});
classifierRun.addEventListener('progress', (event) => {
  const { probe, evaluation } = (event as CustomEvent<TrainingProgress<'classifier'>>).detail;
  return [probe?.colLabels, evaluation?.negationContrastAccuracy];
});
export { reviewWeights, reviewStates, tauLeaveOneOut, tauGradients, reviewLoss, rationaleShare, reviewIds };
export { reviewLabels, madeClassifier };

// a classification task of the reader's labelled sentences, and a classifier of it
const sentences: ClassificationTextTask = attn.createClassificationTask({
  text: 'Great food!\tpos\nAwful.\tneg',
  labelColumn: 1,
  unit: 'word',
  minCount: 1,
  validation: 0,
  test: 0,
});
const sentenceLabels: readonly string[] = sentences.labels;
const heldSentences: readonly LabelledSentence[] = sentences.test;
const sentenceTokens: string[] = sentences.tokenize('Not bad 😀');
const sentenceCount: number = sentences.stats.sentences + sentences.examples.length;
const onSentences: ClassifierModel = attn.createClassifier({ task: sentences });
const onSentencesId: ClassifierModel = attn.createModel({ kind: 'classifier', task: sentences.id });
const sentencesAccuracy: number = onSentences.evaluate({ split: 'validation' }).accuracy;
const noNegation: number | undefined = onSentencesId.evaluate().negationContrastAccuracy;
const maxTextLabels: number = attn.classifierFacts().text.maxLabels;
// @ts-expect-error a task of sentences reads one unit
attn.createClassificationTask({ text: 'a\tb', unit: { source: 'word' } });
// @ts-expect-error the sentences are its text
attn.createClassificationTask({ pairs: [['a', 'b']] });
const sentencesRun = trainModel({
  kind: 'classifier',
  model: { task: 'reviews' },
  task: { text: 'Great food!\tpos\nAwful.\tneg', validation: 0 },
  probe: { sentence: 'great' },
});
const sentencesAgain = attn.loadClassificationTask(sentences.save());
trainModel({
  kind: 'classifier',
  model: { task: sentencesAgain.id },
  task: sentencesAgain,
  probe: { sentence: 'great' },
});
sentences.dispose();
export { sentenceLabels, heldSentences, sentenceTokens, sentenceCount, sentencesAccuracy, noNegation };
export { maxTextLabels, sentencesRun };

// A pretrained checkpoint: its files one by one, a folder's files, or a folder's URL; one of them.
declare const folderInput: HTMLInputElement;
const fromFiles = await attn.loadPretrained({
  config: '{}',
  weights: new Uint8Array(8),
  onProgress: ({ phase, bytesRead, totalBytes }) => console.log(phase, bytesRead, totalBytes ?? '?'),
});
const fromFolder = await attn.loadPretrained({
  files: folderInput.files ?? [],
  onEstimate: (estimate) => {
    if (estimate.bytes > 2 ** 30) throw new Error('too big');
  },
});
const fetched = await attn.fetchCheckpoint('https://example.org/gpt2/', { onConfig: (text) => JSON.parse(text) });
const fromUrl = await attn.loadPretrained({ files: fetched, signal: new AbortController().signal });
await attn.loadPretrained({ url: 'https://example.org/gpt2/', precision: 'float64' });
// @ts-expect-error a folder's files give the config: not both
await attn.loadPretrained({ files: fetched, config: '{}' });
// @ts-expect-error the files given one by one need their weights
await attn.loadPretrained({ config: '{}' });
// @ts-expect-error a URL is text
await attn.loadPretrained({ url: new URL('https://example.org/') });
export { fromFiles, fromFolder, fromUrl };
