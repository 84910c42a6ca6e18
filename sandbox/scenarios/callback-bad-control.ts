import type { ScenarioBehaviour } from './behaviour.ts';

/** `callback-bad-control`: one forged `approved` callback (a wrong `control`) before the genuine one. */
export const callbackBadControl: ScenarioBehaviour = { forgesFirst: true };
