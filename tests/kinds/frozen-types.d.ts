// The frozen kind's types (tests/kinds/frozen_session.hpp): a kind whose models are only loaded and
// run, joining the public ones by declaration merging. The tests' package has it as
// web/engine/frozen-types.d.ts.
import type { LabelledMatrix, ModelFacts } from './index.js';
import type { ModelPrecision, NamedTensor, PrecisionArray } from './model-types.js';

export interface FrozenFacts extends Omit<ModelFacts, 'lossWeight' | 'maxSteps' | 'defaults'> {
  defaults: Readonly<{ precision: ModelPrecision; task: string; language: string; embedding: number }>;
  languages: readonly string[];
}

export interface FrozenConfig {
  task: string;
  language: string;
  embedding: number;
  precision: ModelPrecision;
}

/** A model only loaded (loadModel) and run: no train(), no save(). */
export interface FrozenModel<P extends ModelPrecision = ModelPrecision> {
  readonly kind: 'frozen';
  readonly config: Readonly<FrozenConfig>;
  readonly vocab: readonly string[];
  parameters(): Record<string, NamedTensor<PrecisionArray<P>>>;
  evaluate(): Record<string, never>;
  prepare(): Promise<void>;
  read(sentence: string): { weights: PrecisionArray<P>; tokens: string[] };
  dispose(): void;
}

export interface FrozenWalkthroughInputs {
  model: FrozenModel;
  language?: string;
  sentence?: string;
}

declare module './index.js' {
  interface ModelKinds {
    frozen: {
      model: FrozenModel;
      options: never;
      probe: { sentence: string };
      probeView: LabelledMatrix;
      evaluation: Record<string, never>;
      train: never;
      facts: FrozenFacts;
      label: { language?: string };
    };
  }
  interface ModelWalkthroughInputs {
    frozen: FrozenWalkthroughInputs;
  }
  interface AttentionEngine {
    frozenFacts(): FrozenFacts;
  }
}
