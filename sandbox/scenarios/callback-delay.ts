import { delayOf } from '../../src/catalog/scenarios.ts';
import type { ScenarioBehaviour } from './behaviour.ts';

/** `callback-delay`: every callback's first attempt is held. */
export const callbackDelay: ScenarioBehaviour = {
  holdCallback: (_attempt, pick) => delayOf(pick),
};
