// The checkpoints a reader chose to keep on this device, in this origin's IndexedDB: each its
// files as Blobs (which the browser keeps on disk), its name and size. Nothing leaves the machine.
import { indexedDatabase } from './indexed-db.js';

const NAME = 'attention-stepper-checkpoints';

/**
 * The store, or null where the browser has no IndexedDB: { list(), put(entry), get(id),
 * delete(id) }, each a promise. An entry is { id, name, family, size, files: [{ path, file }] };
 * list() gives them without their files, newest first.
 */
export function checkpointStore(indexedDB = globalThis.indexedDB) {
  if (!indexedDB) return null;
  const checkpoints = indexedDatabase(indexedDB, NAME, (db) =>
    db.createObjectStore('checkpoints', { keyPath: 'id', autoIncrement: true }),
  );
  const transaction = (mode, action) => checkpoints(['checkpoints'], mode, action);
  return {
    list: () =>
      transaction('readonly', (store) => store.getAll()).then((entries) =>
        entries.reverse().map(({ files, ...entry }) => entry),
      ),
    put: (entry) => transaction('readwrite', (store) => store.put(entry)),
    get: (id) => transaction('readonly', (store) => store.get(id)),
    delete: (id) => transaction('readwrite', (store) => store.delete(id)),
  };
}
