// The engine and the components, imported by package name and bundled by Vite.
import { loadAttention } from 'attention-stepper';
import 'attention-stepper/components';

const attn = await loadAttention();
const annotations = [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
];
const scores = attn.dotScores([5, 1, 20], annotations);
const trace = attn.walkthrough('self-attention');
document.getElementById('result').textContent = JSON.stringify({
  scores: Array.from(scores),
  word1: Array.from(trace.output.data.slice(0, 3)),
});
