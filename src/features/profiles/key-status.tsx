import { useId, useState, type ChangeEvent } from 'react';
import { readKeyFile } from '../../browser/read-key-file.ts';
import { describeKey } from './key-import.ts';
import type { KeyState } from './profiles-provider.tsx';
import { InlineCode } from '../../ui/inline-code.tsx';

export function KeyFileButton({ disabled, onText }: { disabled: boolean; onText: (text: string) => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  async function read(e: ChangeEvent<HTMLInputElement>) {
    const result = await readKeyFile(e);
    if (!result) return;
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    onText(result.text);
  }
  return (
    <>
      <label className={disabled ? 'pf-button pf-file pf-file--disabled' : 'pf-button pf-file'} htmlFor={id}>
        Open a key file
      </label>
      <input
        id={id}
        type="file"
        className="ui-visually-hidden"
        accept=".pem,.key,.txt,.p8,text/plain"
        disabled={disabled}
        onChange={(e) => void read(e)}
      />
      {error && (
        <span role="alert" className="pf-error">
          {error}
        </span>
      )}
    </>
  );
}

export function KeyStatus({ id, keyState }: { id: string; keyState: KeyState }) {
  let text: string;
  let tone = 'pf-key-status';
  if (keyState.status === 'none') text = 'No private key: v4 operations need one.';
  else if (keyState.status === 'importing') text = 'Reading the key…';
  else {
    const summary = describeKey(keyState.inspection);
    if (keyState.error) {
      text = `${keyState.inspection.kind === 'garbage' ? '' : `${summary}. `}${keyState.error}`;
      tone += ' pf-error';
    } else {
      const converted =
        keyState.inspection.kind === 'pkcs1-private' ? ' — converted to PKCS#8 for Web Crypto' : '';
      text = `${summary}${converted}`;
      if (keyState.inspection.warnings.length > 0) text += `. ${keyState.inspection.warnings.join(' ')}`;
    }
  }
  // A read key's summary stays on one line (the whole fingerprint is in the text and the tooltip):
  // two lines would make the bar taller than the place the first render holds for it.
  const oneLine = keyState.status === 'done' && !keyState.error;
  if (oneLine) tone += ' pf-key-status--one-line';
  return (
    <p id={id} className={tone} role="status" aria-live="polite" title={oneLine ? text : undefined}>
      <InlineCode text={text} />
    </p>
  );
}
