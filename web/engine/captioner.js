// The captioners' own part (models.js makes, loads and trains models of every kind): their task,
// scenes the engine draws, and a captioner's vocabulary, gradients and captions.
import { deepFreeze, describe, fail, integer, options, sharedOnce, toVector } from './checks.js';
import { beamOf, joinRows, numberOption } from './models.js';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// A scene as the engine takes it, { objects: [{ shape, colour, size, row, column }] }, checked for
// type (`where` names it in the message; the argument is "scene"); the engine checks the names and
// the layout.
function sceneOf(value, where) {
  if (!isObject(value) || !Array.isArray(value.objects))
    fail(
      `${where} must be a scene { objects: [{ shape, colour, size, row, column }] }, got ${describe(value)}`,
      'scene',
    );
  return {
    objects: value.objects.map((object, i) => {
      const at = `${where}.objects[${i}]`;
      if (!isObject(object))
        fail(`${at} must be { shape, colour, size, row, column }, got ${describe(object)}`, 'scene');
      for (const key of ['shape', 'colour', 'size'])
        if (typeof object[key] !== 'string')
          fail(`${at}.${key} must be a string, got ${describe(object[key])}`, 'scene');
      for (const key of ['row', 'column'])
        if (!Number.isInteger(object[key]))
          fail(`${at}.${key} must be an integer, got ${describe(object[key])}`, 'scene');
      return { shape: object.shape, colour: object.colour, size: object.size, row: object.row, column: object.column };
    }),
  };
}

// An image { channels, height, width, data } (CHW), its data as a Float32Array; the engine checks
// its size and values.
function imageOf(value) {
  const size = (key) => integer(value[key], `image.${key}`, 0, 2 ** 31);
  return {
    channels: size('channels'),
    height: size('height'),
    width: size('width'),
    data: toVector(value.data, 'image.data', Float32Array),
  };
}

function checkedSceneText(scene) {
  if (typeof scene !== 'string')
    fail(`scene must be a scene's text ("big red circle 0 1; …"), got ${describe(scene)}`, 'scene');
  return scene;
}

/** The captioner kind's part over `call` and its `facts`, as seq2seq.js has it. */
export function captionerParts({ call, facts }) {
  return {
    api: {
      captionTasks: sharedOnce(call, 'captionTasks'),
      renderScene: (scene) => call('renderScene', sceneOf(scene, 'scene')),
      // a scene's text, as a form field or an HTML attribute holds it, read by the engine that reads
      // the captioning walkthrough's
      parseScene: (scene) => call('parseScene', checkedSceneText(scene)),
      // the same text as written, with every fault that keeps it from being a scene
      readScene: (scene) => call('readScene', checkedSceneText(scene)),
    },
    methods: (info, live) => ({
      vocab: deepFreeze(info.vocab),
      gradients(examples, opts) {
        const h = live();
        if (!Array.isArray(examples))
          fail(`examples must be an array of { scene, caption }, got ${describe(examples)}`, 'examples');
        const pairs = examples.map((example, i) => {
          if (!isObject(example))
            fail(`examples[${i}] must be { scene, caption }, got ${describe(example)}`, 'examples');
          if (typeof example.caption !== 'string')
            fail(`examples[${i}].caption must be a string, got ${describe(example.caption)}`, 'caption');
          return [sceneOf(example.scene, `examples[${i}].scene`), example.caption];
        });
        const o = options(opts, 'options', ['regularization']);
        return call('captionerGradients', h, pairs, numberOption(o.regularization, 'options.regularization'));
      },
      caption(input, opts) {
        const h = live();
        const beam = beamOf(opts, facts);
        if (isObject(input) && 'objects' in input) return call('captionerCaption', h, sceneOf(input, 'scene'), beam);
        if (isObject(input) && 'data' in input) return call('captionerCaption', h, imageOf(input), beam);
        return fail(
          `scene must be a scene { objects } or an image { channels, height, width, data }, got ${describe(input)}`,
          'scene',
        );
      },
    }),
  };
}

/** The captioner kind's entry in the kinds' table (kinds.js). */
export const captionerKind = {
  create: 'createCaptioner',
  facts: 'captionerFacts',
  walkthroughs: ['captioning'],
  // the attention over the probe's scene as the model captions it: its output tokens by the
  // grid's regions, each labelled "row,column"; and the image, its channels' rows one after the
  // other (a page draws the attention over it)
  probe(model, { scene }) {
    const { steps, image } = model.caption(scene);
    const { rows, cols } = steps[0].weights;
    return {
      ...joinRows(steps.map((step) => step.weights.data)),
      rowLabels: steps.map((step) => step.token),
      colLabels: Array.from({ length: rows * cols }, (_, i) => `${Math.floor(i / cols)},${i % cols}`),
      image: { rows: image.channels * image.height, cols: image.width, data: image.data },
    };
  },
  shipped: [{ task: 'shapes', language: 'en', steps: 1500 }],
  parts: captionerParts,
};
