import { useId, useState } from 'react';

export function downloadText(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-pem-file' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface PemOutputProps {
  label: string;
  short: string;
  pem: string;
  filename: string;
  note?: string;
  /** Called once the user copied or downloaded the key, i.e. kept it outside this page. */
  onSaved?: (how: 'copied' | 'downloaded') => void;
}

export function PemOutput({ label, short, pem, filename, note, onSaved }: PemOutputProps) {
  const id = useId();
  const [copyState, setCopyState] = useState<string | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(pem);
      setCopyState(`${short} copied to the clipboard.`);
      onSaved?.('copied');
    } catch {
      setCopyState('The browser refused the clipboard: select the text and press Ctrl+C (⌘C).');
    }
  }

  return (
    <div className="ky-pem">
      <label htmlFor={id}>{label}</label>
      {note && <p className="ky-note">{note}</p>}
      <textarea id={id} readOnly spellCheck={false} rows={Math.min(12, pem.split('\n').length)} value={pem} />
      <div className="ky-inline">
        <button type="button" className="ky-button" onClick={() => void copy()}>
          Copy {short}
        </button>
        <button
          type="button"
          className="ky-button"
          onClick={() => {
            downloadText(pem, filename);
            onSaved?.('downloaded');
          }}
        >
          Download {short}
        </button>
        <span role="status" className="ky-note">
          {copyState}
        </span>
      </div>
    </div>
  );
}
