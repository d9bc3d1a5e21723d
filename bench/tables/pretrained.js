// The tables of bench/results/pretrained.json (bench/pretrained.js).
import { fixed, markdownTable, ranOn, source, times } from './format.js';

function pretrainedSpeed(json) {
  const rows = json.runs.map((run) => [
    run.engine,
    String(run.threads),
    fixed(0)(run.loadMBps),
    run.peakOverParameters ? times(2)(run.peakOverParameters) : '–',
    fixed(1)(run.forwardMs),
    fixed(2)(run.generateMsPerToken),
  ]);
  if (json.torch)
    rows.push([
      `PyTorch ${json.torch.torch} (native)`,
      '1',
      fixed(0)(json.torch.loadMBps),
      '–',
      fixed(1)(json.torch.forwardMs),
      fixed(2)(json.torch.generateMsPerToken),
    ]);
  const speedups = json.speedups.map(
    (s) =>
      `${s.threads} thread${s.threads > 1 ? 's' : ''}: forward ${times(2)(s.forward)}, generation ${times(2)(s.generate)}`,
  );
  return (
    source('pretrained.json', ranOn(json, 'runs', { pytorch: true })) +
    markdownTable(
      [
        'engine',
        'threads',
        'load MB/s',
        'heap peak / parameters',
        `forward, ${json.model.tokens} tokens, ms`,
        'ms per token',
      ],
      rows,
    ) +
    `\n\nOurs over onnxruntime-web (its time over ours): ${speedups.join('; ')}. The last token's logits agree with PyTorch's within ${Math.max(...Object.values(json.agreement)).toExponential(1)}; greedy tokens ${json.sameTokens ? 'the same in every run' : 'differ between runs'}.\n`
  );
}

/** Its tables, by the name of their blocks in the docs. */
export default (json) => ({ 'bench-pretrained': pretrainedSpeed(json) });
