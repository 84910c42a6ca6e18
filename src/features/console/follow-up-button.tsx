import type { FormPreset } from '../../shared/contracts/contracts.ts';
import type { FollowUp } from './follow-ups.ts';

/** A button that opens the next operation with the ids this answer carries filled in. */
export function FollowUpButton({
  followUp,
  onNavigate,
}: {
  followUp: FollowUp;
  onNavigate: (to: { operationPath: string; preset?: FormPreset }) => void;
}) {
  return (
    <button
      type="button"
      className="ui-btn"
      onClick={() => onNavigate({ operationPath: followUp.path, preset: followUp.preset })}
    >
      Next: {followUp.title}
    </button>
  );
}
