import type { ScenarioBehaviour } from './behaviour.ts';

/** `final-filtered`: the pending transactions end in `filtered`. */
export const finalFiltered: ScenarioBehaviour = {
  outcome: {
    pending_status: 'filtered',
    pending_error_message: 'Stopped by a fraud filter (scenario final-filtered)',
    pending_error_code: 'FILTERED',
  },
};
