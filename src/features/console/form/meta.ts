import type { Scheme } from '../../../core/index.ts';
import type { ExtraParam, FormulaRow } from './form-params.ts';

/** The parts of the form that are not API fields: extra rows, formula terms, scheme, pinned values. */
export interface MetaValues {
  extras: ExtraParam[];
  formula: FormulaRow[];
  scheme: Scheme;
  pin: boolean;
  nonce: string;
  timestamp: string;
}

export type FieldValues = Record<string, string | undefined>;
