// The pretrained checkpoint's browser test page: the fixture run on the page, then in a module
// worker, both published for the test to read.
import { runFixture } from './pretrained-run.js';

const NAME = 'gpt2';
const TEXT = 'the cat sat on the mat.';

const inWorker = () =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./pretrained-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage({ name: NAME, text: TEXT });
  });

const result = document.getElementById('result');
try {
  const page = await runFixture(NAME, TEXT);
  result.textContent = JSON.stringify({ page, worker: await inWorker() });
} catch (error) {
  result.textContent = JSON.stringify({ failed: `${error.message}\n${error.stack}` });
}
