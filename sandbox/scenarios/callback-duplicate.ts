import type { ScenarioBehaviour } from './behaviour.ts';

/** `callback-duplicate`: every delivery twice, the second right after the first. */
export const callbackDuplicate: ScenarioBehaviour = { duplicates: true };
