// A static file server for the page and the browser tests: no server logic, just files with the
// right MIME types (application/wasm matters for streaming compilation).
// CLI: node scripts/serve.js [root]   (port from PORT, default 8080), cross-origin isolated.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The headers under which a page may share WebAssembly memory with workers (threads). */
export const CROSS_ORIGIN_ISOLATED = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
});

/** Serves `root` on `port` (0 picks a free one); resolves to the listening server. */
export function serve(root, port = 0, headers = {}) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return send(response, 403, 'forbidden');
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
    } catch {
      return send(response, 404, 'not found');
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...headers });
    createReadStream(file).pipe(response);
  });
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done(server)));
}

function send(response, status, text) {
  response.writeHead(status, { 'content-type': 'text/plain' });
  response.end(text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // isolated, so that the page computes and trains on one thread per core (docs/api.md, Threads)
  const server = await serve(process.argv[2] ?? '.', Number(process.env.PORT ?? 8080), CROSS_ORIGIN_ISOLATED);
  const { port } = server.address();
  console.log(`Serving ${resolve(process.argv[2] ?? '.')} at http://localhost:${port}/ (http://127.0.0.1:${port}/)`);
}
