import { useFormState, type Control } from 'react-hook-form';
import type { FieldValues } from './meta.ts';

/**
 * The failed Send's summary of the parameters that need attention, kept to those still invalid: a
 * fixed field leaves it, and it goes when none is left.
 */
export function InvalidSummary({
  names,
  control,
  onSendAnyway,
}: {
  names: string[];
  control: Control<FieldValues>;
  onSendAnyway: () => void;
}) {
  const { errors } = useFormState({ control, name: names });
  const still = names.filter((n) => errors[n] !== undefined);
  if (still.length === 0) return null;
  return (
    <div className="wb-invalid" role="alert">
      {still.length} parameter{still.length === 1 ? '' : 's'} need{still.length === 1 ? 's' : ''} attention:{' '}
      {still.slice(0, 4).join(', ')}
      {still.length > 4 ? '…' : ''}.{' '}
      <button type="button" className="ui-btn ui-btn-small" onClick={onSendAnyway}>
        Send anyway
      </button>
    </div>
  );
}
