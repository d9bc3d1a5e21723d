// A database of this origin's IndexedDB as the page's stores use it (reader-store.js,
// checkpoint-store.js): opened once, on first use, and a transaction as a promise.

/**
 * transaction(names, mode, action) over the database `name` at version 1 of `indexedDB`, its
 * object stores made by upgrade(db): action(...stores) runs inside one transaction over the
 * stores `names`, and the promise resolves to its request's result once the transaction completes.
 */
export function indexedDatabase(indexedDB, name, upgrade) {
  let opened = null;
  const open = () =>
    (opened ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => upgrade(request.result);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }));
  return async (names, mode, action) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(names, mode);
      const request = action(...names.map((store) => tx.objectStore(store)));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = tx.onabort = () => reject(tx.error);
    });
  };
}
