import { delayOf } from '../../src/catalog/scenarios.ts';
import type { ScenarioBehaviour } from './behaviour.ts';

/** `latency`: every answer after an added delay (a timer), nothing else changes. */
export const latency: ScenarioBehaviour = {
  heldMs: (pick) => delayOf(pick),
  answer: async (reply, pick, sleep) => {
    await sleep(delayOf(pick));
    return reply;
  },
};
