import type { ScenarioBehaviour } from './behaviour.ts';

/** `final-error`: the pending transactions end in `error`. */
export const finalError: ScenarioBehaviour = {
  outcome: {
    pending_status: 'error',
    pending_error_message: 'Processing error at the acquirer (scenario final-error)',
    pending_error_code: 'PROCESSING_ERROR',
  },
};
