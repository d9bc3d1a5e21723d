// numpy's legacy RandomState, its state held here: the draws np.random.seed(seed) then randint,
// rand and randn make, bit for bit.
import { integer } from './checks.js';

/** randomState(seed) over `module`; `call` runs an export and throws its error. */
export function randomApi(module, call) {
  return {
    randomState(seed) {
      let state = call('randomSeed', integer(seed, 'seed', 0, module.maxSeed));
      const draw = (kind, high, rows, cols) => {
        const result = call(
          'randomDraw',
          state,
          kind,
          high,
          integer(rows, 'rows', 1, 2 ** 26),
          integer(cols, 'cols', 1, 2 ** 26),
        );
        state = result.state;
        return result.values;
      };
      return {
        randint: (high, rows, cols) => draw('randint', integer(high, 'high', 1, 2 ** 53), rows, cols),
        rand: (rows, cols) => draw('rand', 0, rows, cols),
        randn: (rows, cols) => draw('randn', 0, rows, cols),
      };
    },
  };
}
