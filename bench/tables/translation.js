// The tables of bench/results/translation.json (bench/translation.js).
import { fixed, markdownTable, percent, ranOn, source, times } from './format.js';

const count = (n) => n.toLocaleString('en-US');

// bench/translation.js: parsing, and training throughput in target tokens per second
function translationThroughput(json) {
  const { corpus, throughput } = json;
  const { stats } = corpus;
  const share = (name, who) => throughput.vocabularyShare[name]?.[who];
  return (
    source('translation.json', ranOn(json, 'throughput', { pytorch: true })) +
    `Parsing and tokenizing the ${count(stats.pairs)} pairs (\`createTranslationTask\`, median of ` +
    `${corpus.ms.length}): ${fixed(0)(corpus.medianMs)} ms; vocabularies of ${count(stats.sourceVocabulary)} ` +
    `Spanish and ${count(stats.targetVocabulary)} English tokens, ${percent(stats.unknownShare)} of the ` +
    `validation tokens \`<unk>\`.\n\n` +
    markdownTable(
      [
        'model',
        'vocabularies',
        'ours',
        'PyTorch',
        'ours/PyTorch',
        'vocabulary-sized share, ours',
        'vocabulary-sized share, PyTorch',
      ],
      throughput.cases.map((c) => [
        c.name === 'seq2seq'
          ? `seq2seq ${c.embedding}/${c.hidden}`
          : `Transformer ${c.model}/${c.heads}/${c.feedforward}`,
        `${count(c.sourceVocabulary)}/${count(c.targetVocabulary)}`,
        fixed(0)(c.results.ours.tokensPerSecond),
        fixed(0)(c.results.PyTorch?.tokensPerSecond),
        times(2)(c.ratio),
        c.vocabulary === 'full' ? percent(share(c.name, 'ours')) : '',
        c.vocabulary === 'full' && share(c.name, 'PyTorch') != null ? percent(share(c.name, 'PyTorch')) : '',
      ]),
    )
  );
}

// bench/translation.js: the seq2seq model's BLEU by epoch and seed
function translationQuality(json) {
  const { quality } = json;
  const trial = quality.learningRateTrial
    .map((t) => `${t.learningRate}: BLEU ${fixed(2)(t.bleu)}, loss ${fixed(3)(t.loss)}`)
    .join('; ');
  return (
    source('translation.json', ranOn(json, 'quality')) +
    `Learning rate ${quality.learningRate}, chosen on seed 0's validation split after one epoch (${trial}).\n\n` +
    markdownTable(
      ['seed', 'epoch', 'steps', 'CPU s', 'validation BLEU', 'exact match', 'token accuracy', 'eval s', 'test BLEU'],
      quality.rows.flatMap((row) =>
        row.points.map((p, i) => [
          String(row.seed),
          String(p.epoch),
          String(p.steps),
          fixed(1)(p.seconds),
          fixed(2)(p.bleu),
          percent(p.exactMatch),
          percent(p.tokenAccuracy),
          fixed(1)(p.evaluationSeconds),
          i === row.points.length - 1 ? fixed(2)(row.test.bleu) : '',
        ]),
      ),
    )
  );
}

// bench/translation.js --threads: training on two threads against one
function translationThreads(json) {
  const { threadScaling: scaling } = json;
  const model = (row) =>
    row.name === 'seq2seq'
      ? `seq2seq ${row.embedding}/${row.hidden}`
      : `Transformer ${row.model}/${row.heads}/${row.feedforward}`;
  return (
    source('translation.json', ranOn(json, 'threadScaling')) +
    markdownTable(
      ['model', '1-minute load before each pair', '1 thread', `${scaling.threads} threads`, 'speed-up'],
      scaling.rows.map((row) => [
        model(row),
        row.loadavg.map((load) => fixed(2)(load[0])).join(', '),
        fixed(0)(row.one.tokensPerSecond),
        fixed(0)(row.many.tokensPerSecond),
        times(2)(row.speedup),
      ]),
    )
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({
  'bench-translation-throughput': translationThroughput(json),
  'bench-translation-quality': translationQuality(json),
  'bench-translation-threads': translationThreads(json),
});
