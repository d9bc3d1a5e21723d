// Types of what a model of every kind has (re-exported by index.d.ts), declared once: each kind's
// model type (in its <kind>-types.d.ts) extends ModelOf with its own methods.
/** A model's precision: its parameters' and its results' arrays. */
export type ModelPrecision = 'float32' | 'float64';

/** A tensor under its PyTorch name: row-major data of the model's precision. */
export interface NamedTensor<A extends Float32Array | Float64Array = Float32Array | Float64Array> {
  shape: number[];
  data: A;
}

/** The typed array of a precision. */
export type PrecisionArray<P extends ModelPrecision> = P extends 'float64' ? Float64Array : Float32Array;

/**
 * A model of kind K in precision P: C its configuration (the create options, all given), E its
 * evaluation, W the name of train()'s loss weight (a number >= 0, default 0), S its splits. Call
 * dispose() when done.
 */
export interface ModelOf<K extends string, P extends ModelPrecision, C, E, W extends string, S extends string> {
  readonly kind: K;
  readonly config: Readonly<C>;
  /** copies, under PyTorch's names in state_dict order */
  parameters(): Record<string, NamedTensor<PrecisionArray<P>>>;
  /** every parameter, by the same names and shapes */
  setParameters(named: Record<string, { shape: number[]; data: ArrayLike<number> }>): void;
  /** optimiser steps (Adam, clipping at global norm 1) on minibatches of the training split
   * shuffled from the seed; the batch and learning rate default to the kind's facts' */
  train(options: { steps: number; batch?: number; learningRate?: number } & { [name in W]?: number }): {
    step: number;
    loss: number;
  };
  /** the split (default 'test') */
  evaluate(options?: { split?: S }): E;
  /** computes what the model's walkthrough computes once per model (its measures on the test
   * split) a batch per task, so that a page stays responsive; its walkthrough then starts at once */
  prepare(): Promise<void>;
  /** safetensors bytes (its metadata: "format" "attention-stepper/<kind>", the configuration,
   * "precision"); `dtype: 'float16'` stores the parameters rounded to float16 (half the size; a
   * load widens them exactly) */
  save(options?: { dtype?: P | 'float16' }): Uint8Array;
  /** frees the model; later calls throw */
  dispose(): void;
}

/** A model's train() options but steps: what a training run may set. */
export type TrainOptionsOf<M extends { train(options: never): unknown }> = Omit<Parameters<M['train']>[0], 'steps'>;
