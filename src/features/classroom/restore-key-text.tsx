import { useEffect, useState } from 'react';
import { getJson, TraineeKeyStateSchema, type TraineeKeyState } from './classroom-api.ts';
import { errorText } from '../../core/errors.ts';

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s ago`;
  const m = Math.round(s / 60);
  return m < 90 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}

/**
 * What "Restore the key <trainee> joined with" replaces, read when the dialog opens: the key the
 * trainee signs with now and when it was made, so the trainer does not undo a key the trainee made
 * on purpose without knowing it.
 */
export function RestoreKeyText({
  traineeId,
  name,
  login,
  now,
}: {
  traineeId: string;
  name: string;
  login: string;
  /** The classroom's clock (the snapshot's `at`), for "made … ago". */
  now: number;
}) {
  const [state, setState] = useState<TraineeKeyState | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    getJson(
      `/classroom/trainer/key?traineeId=${encodeURIComponent(traineeId)}`,
      TraineeKeyStateSchema,
      `${name}'s key`,
    ).then(
      (s) => live && setState(s),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [traineeId, name]);
  if (error)
    return (
      <p className="cl-error" role="alert">
        {error}
      </p>
    );
  if (!state) return <p role="status">Reading {name}&apos;s key…</p>;
  if (state.joinedKeyInUse)
    return (
      <p>
        The sandbox already verifies <code>{login}</code> with the key {name} joined with (RSA-
        {state.joined.keyBits}, fingerprint <code>{state.joined.keyFingerprint}</code>): there is nothing to
        restore.
      </p>
    );
  const made = state.current.registeredAt;
  return (
    <>
      <p>
        {name} now signs with another key: RSA-{state.current.keyBits}, fingerprint{' '}
        <code>{state.current.keyFingerprint}</code>
        {made !== null ? (
          <>
            , made <time dateTime={new Date(made).toISOString()}>{new Date(made).toLocaleTimeString()}</time>{' '}
            ({ago(now - made)})
          </>
        ) : null}
        .
      </p>
      <p>
        Restoring puts back the key {name} joined with (RSA-{state.joined.keyBits}, fingerprint{' '}
        <code>{state.joined.keyFingerprint}</code>) for <code>{login}</code>: the key above stops working, and{' '}
        {name}&apos;s browser must still hold the private key made at joining. Requests {name} signs with the
        key above are refused from then on, and not counted as {name}&apos;s mistakes.
      </p>
    </>
  );
}
