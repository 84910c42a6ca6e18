import { delayOf } from '../../src/catalog/scenarios.ts';
import type { ScenarioBehaviour } from './behaviour.ts';

/** `callback-reorder`: the first transaction's callback is held, so later ones arrive before it. */
export const callbackReorder: ScenarioBehaviour = {
  holdCallback: ({ isFirstTransaction }, pick) => (isFirstTransaction() ? delayOf(pick) : undefined),
};
