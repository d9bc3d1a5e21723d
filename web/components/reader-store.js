// The reader's own data kept between visits, in this origin's IndexedDB: the tasks of the texts
// they read, as the tasks' bytes, and the models trained on them. Nothing leaves the machine.
import { indexedDatabase } from './indexed-db.js';

const NAME = 'attention-stepper-reader';

/**
 * The store, or null where the browser has no IndexedDB: { tasks(), models(), putTask(entry),
 * putModel(entry), deleteTask(id) }. A task entry is { id, name, reader, bytes, size, lines }: the
 * engine's function that made the task (its kind's reader.create), the task's bytes (its save(),
 * which the kind's reader.load takes), their size and the number of lines kept (an entry kept
 * before tasks had bytes holds `data`, the options that read its text, instead of `bytes`); a
 * model entry { key, task, bytes }. Every call returns a promise.
 */
export function readerStore(indexedDB = globalThis.indexedDB) {
  if (!indexedDB) return null;
  const transaction = indexedDatabase(indexedDB, NAME, (db) => {
    db.createObjectStore('tasks', { keyPath: 'id' });
    db.createObjectStore('models', { keyPath: 'key' }).createIndex('task', 'task');
  });
  return {
    // entries kept before labelled sentences were read are all sentence pairs, counted as `pairs`
    tasks: () =>
      transaction(['tasks'], 'readonly', (tasks) => tasks.getAll()).then((entries) =>
        entries.map(({ pairs, ...entry }) => ({ reader: 'createTranslationTask', lines: pairs, ...entry })),
      ),
    models: () => transaction(['models'], 'readonly', (models) => models.getAll()),
    putTask: (entry) => transaction(['tasks'], 'readwrite', (tasks) => tasks.put(entry)),
    putModel: (entry) => transaction(['models'], 'readwrite', (models) => models.put(entry)),
    /** A task and the models trained on it. */
    deleteTask: (id) =>
      transaction(['tasks', 'models'], 'readwrite', (tasks, models) => {
        tasks.delete(id);
        const keys = models.index('task').getAllKeys(id);
        keys.onsuccess = () => keys.result.forEach((key) => models.delete(key));
      }),
  };
}
