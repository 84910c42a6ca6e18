import type { ScenarioBehaviour } from './behaviour.ts';

/** `stuck-processing`: no final status at all; without a deadline the sweep never picks them up. */
export const stuckProcessing: ScenarioBehaviour = {
  outcome: { pending_status: null, finalize_at: null },
};
