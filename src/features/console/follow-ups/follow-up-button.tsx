import type { RequestDraft } from '../../../model/index.ts';
import type { FollowUp } from './follow-ups.ts';

/** A button that opens the next operation with the ids this answer carries filled in. */
export function FollowUpButton({
  followUp,
  onNavigate,
}: {
  followUp: FollowUp;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  return (
    <button
      type="button"
      className="ui-btn"
      onClick={() => onNavigate({ operationPath: followUp.path, draft: followUp.draft })}
    >
      Next: {followUp.title}
    </button>
  );
}
