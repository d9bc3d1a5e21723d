// The fixture run in a module worker, as a page's worker would run a checkpoint.
import { runFixture } from './pretrained-run.js';

self.onmessage = async ({ data }) => {
  try {
    self.postMessage(await runFixture(data.name, data.text));
  } catch (error) {
    self.postMessage({ error: error.message });
  }
};
