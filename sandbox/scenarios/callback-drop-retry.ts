import type { ScenarioBehaviour } from './behaviour.ts';

/** The drop-retry scenario's dropped attempts (the gateway's retry then delivers). */
export const DROPPED_ATTEMPTS = 2;

/** `callback-drop-retry`: the first attempts are dropped, nothing reaches the merchant. */
export const callbackDropRetry: ScenarioBehaviour = {
  dropsAttempt: ({ attemptsBefore }) => attemptsBefore < DROPPED_ATTEMPTS,
};
