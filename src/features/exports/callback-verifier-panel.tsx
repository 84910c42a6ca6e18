import { useId, useState } from 'react';
import { SNIPPET_LANGUAGE_INFO, SNIPPET_LANGUAGES, type SnippetLanguage } from '../../exports/index.ts';
import { callbackVerifier } from '../../exports/snippets/callback-verifier.ts';
import { CopyButton } from '../../ui/index.ts';

/** Beside "Export code": a program that checks a callback's `control`, in each export language. */
export function CallbackVerifierPanel() {
  const [language, setLanguage] = useState<SnippetLanguage>('bash');
  const id = useId();
  const { fileName, code } = callbackVerifier(language);
  return (
    <div className="ex-snippet">
      <p className="ex-note">
        Your callback handler&apos;s first check: recompute <code>control</code> = SHA-1 of status + orderid +
        merchant_order + the control key (<code>merchant_order</code> falls back to{' '}
        <code>client_orderid</code>), and refuse a mismatch with a 4xx. Run it with the callback&apos;s query
        string; the key comes from <code>PAY_CONTROL_KEY</code>. It prints <code>valid</code> (exit 0) or{' '}
        <code>invalid</code> (exit 1).
      </p>
      <label className="ex-check" htmlFor={`${id}-lang`}>
        Language{' '}
        <select
          id={`${id}-lang`}
          value={language}
          onChange={(e) => setLanguage(e.target.value as SnippetLanguage)}
        >
          {SNIPPET_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {SNIPPET_LANGUAGE_INFO[l].label}
            </option>
          ))}
        </select>
      </label>
      <div className="ex-actions">
        <span className="ex-file">{fileName}</span>
        <CopyButton text={code} label="Copy the callback verifier" />
      </div>
      <pre className="ex-code" role="region" aria-label="Callback verifier" tabIndex={0}>
        {code}
      </pre>
    </div>
  );
}
