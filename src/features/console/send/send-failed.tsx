import { useState } from 'react';
import { useWatch, type Control } from 'react-hook-form';
import type { RequestDraft } from '../../../model/index.ts';
import type { FieldValues } from '../form/meta.ts';
import type { SendAborted } from './send-lifecycle.ts';
import { SendStopped } from './send-stopped.tsx';

/**
 * Why the last Send failed. An unknown outcome points to the answer area; a cancel or a timeout offers the status check (SendStopped); any
 * other message (a refusal before the request left: `amount` "10,5", an unresolved variable)
 * belongs to the request as it was, and goes once a field changes.
 */
export function SendFailed({
  error,
  unknown,
  control,
  onNavigate,
}: {
  error: Error;
  /** The request may have reached the gateway: the answer area says what to do. */
  unknown: boolean;
  control: Control<FieldValues>;
  onNavigate: (to: { operationPath: string; draft?: RequestDraft }) => void;
}) {
  if (unknown)
    return (
      <p className="wb-error" role="status">
        {error.message} Outcome unknown: see the answer area.
      </p>
    );
  if (error.name === 'SendAborted')
    return <SendStopped error={error as SendAborted} onNavigate={onNavigate} />;
  return <Refusal error={error} control={control} />;
}

function Refusal({ error, control }: { error: Error; control: Control<FieldValues> }) {
  const values = JSON.stringify(useWatch({ control }));
  // The form as it was when this error came: a new error starts from the form of its own send.
  const [at, setAt] = useState({ error, values });
  if (at.error !== error) setAt({ error, values });
  else if (at.values !== values) return null;
  return (
    <p className="wb-error" role="alert">
      {error.message}
    </p>
  );
}
