import { useFormState, type Control } from 'react-hook-form';
import type { FieldValues } from './meta.ts';
import { unsignableValues } from '../../../model/unsignable-values.ts';
import type { RequestDraft } from '../../../model/request-draft.ts';

/**
 * The failed Send's summary of the parameters that need attention, kept to those still invalid: a
 * fixed field leaves it, and it goes when none is left.
 */
export function InvalidSummary({
  names,
  draft,
  control,
  onSendAnyway,
}: {
  names: string[];
  /** The form's request now: a value that cannot be signed gets no "Send anyway". */
  draft: () => RequestDraft;
  control: Control<FieldValues>;
  onSendAnyway: () => void;
}) {
  const { errors } = useFormState({ control, name: names });
  const still = names.filter((n) => errors[n] !== undefined);
  if (still.length === 0) return null;
  // The exchange would refuse it unsigned: say what to fix instead of offering a send.
  const blocked = unsignableValues(draft()).map((u) => u.name);
  return (
    <div className="wb-invalid" role="alert">
      {still.length} parameter{still.length === 1 ? '' : 's'} need{still.length === 1 ? 's' : ''} attention:{' '}
      {still.slice(0, 4).join(', ')}
      {still.length > 4 ? '…' : ''}.{' '}
      {blocked.length > 0 ? (
        `${blocked.join(', ')} cannot be signed as ${blocked.length === 1 ? 'it stands' : 'they stand'}: fix ${blocked.length === 1 ? 'it' : 'them'} to send.`
      ) : (
        <button type="button" className="ui-btn ui-btn-small" onClick={onSendAnyway}>
          Send anyway
        </button>
      )}
    </div>
  );
}
