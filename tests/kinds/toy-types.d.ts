// The toy kind's types (tests/kinds/toy_session.hpp), joining the public ones by declaration
// merging as every kind's do. The tests' package has it as web/engine/toy-types.d.ts.
import type { LabelledMatrix, ModelFacts } from './index.js';
import type { ModelOf, ModelPrecision, TrainOptionsOf } from './model-types.js';

export interface ToyFacts extends ModelFacts {
  languages: readonly string[];
}

export interface ToyOptions<P extends ModelPrecision = ModelPrecision> {
  task: string;
  language?: string;
  embedding?: number;
  seed?: number;
  precision?: P;
}

export interface ToyEvaluation {
  accuracy: number;
}

export interface ToyModel<P extends ModelPrecision = ModelPrecision> extends ModelOf<
  'toy',
  P,
  Required<ToyOptions<P>>,
  ToyEvaluation,
  'rationale',
  'train' | 'test'
> {
  readonly labels: readonly string[];
  readonly vocab: readonly string[];
  read(sentence: string): { label: string; weights: Float32Array | Float64Array; tokens: string[] };
}

export interface ToyWalkthroughInputs {
  model: ToyModel;
  task?: string;
  language?: string;
  sentence?: string;
}

declare module './index.js' {
  interface ModelKinds {
    toy: {
      model: ToyModel;
      options: ToyOptions<'float32'>;
      probe: { sentence: string };
      probeView: LabelledMatrix;
      evaluation: ToyEvaluation;
      train: TrainOptionsOf<ToyModel>;
      facts: ToyFacts;
      label: { language?: string };
    };
  }
  interface ModelWalkthroughInputs {
    toy: ToyWalkthroughInputs;
  }
  interface AttentionEngine {
    toyFacts(): ToyFacts;
    createToy<P extends ModelPrecision = 'float32'>(options: ToyOptions<P>): ToyModel<P>;
  }
}
