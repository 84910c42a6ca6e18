import { findOperation } from '../../../catalog/index.ts';
import type { RequestDraft } from '../../../model/index.ts';
import { carriedIds, followUpDraft } from '../follow-ups/follow-ups.ts';
import type { SendAborted } from './send-lifecycle.ts';

/** A send that was cancelled or timed out: say so, and offer the status check that tells what happened. */
export function SendStopped({
  error,
  onNavigate,
}: {
  error: SendAborted;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  const status = findOperation('v2/status');
  const ids = carriedIds(error.sent, undefined);
  return (
    <div className="wb-stopped" role="alert">
      <p className="wb-error">{error.message}</p>
      {status && ids.clientOrderId ? (
        <button
          type="button"
          className="ui-btn ui-btn-small"
          onClick={() =>
            onNavigate({ operationPath: status.path, draft: followUpDraft(status, ids, () => '') })
          }
        >
          Check with status
        </button>
      ) : null}
    </div>
  );
}
