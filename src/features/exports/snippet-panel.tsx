import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { isPayError } from '../../core/index.ts';
import {
  renderSnippet,
  SNIPPET_LANGUAGE_INFO,
  SNIPPET_LANGUAGES,
  type Snippet,
  type SnippetLanguage,
} from '../../exports/index.ts';
import { operationOf, schemeOf, type Place, type RequestDraft } from '../../model/index.ts';
import type { SigningContext } from '../../model/signing-context.ts';
import { CopyButton } from '../../ui/index.ts';
import { errorText } from '../../core/errors.ts';
import { downloadText } from './download.ts';

const SHORT: Record<SnippetLanguage, string> = {
  bash: 'bash',
  node: 'Node.js',
  python: 'Python',
  php: 'PHP',
  java: 'Java',
  csharp: 'C#',
};

function render(
  language: SnippetLanguage,
  draft: RequestDraft,
  context: SigningContext,
  place: Place,
  includeSecrets: boolean,
): { snippet: Snippet } | { error: string } {
  try {
    return {
      snippet: renderSnippet(language, draft, {
        place,
        baseUrl: context.target.baseUrl,
        endpoint: context.endpoint,
        credentials: context.credentials,
        includeSecrets,
      }),
    };
  } catch (e) {
    return { error: isPayError(e) ? e.message : errorText(e) };
  }
}

export function SnippetPanel({
  draft,
  context,
  place,
}: {
  draft: RequestDraft | null;
  context: SigningContext | null;
  place: Place;
}) {
  const [language, setLanguage] = useState<SnippetLanguage>('bash');
  const [includeSecrets, setIncludeSecrets] = useState(false);
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const id = useId();
  const result = useMemo(
    () => (draft && context ? render(language, draft, context, place, includeSecrets) : null),
    [language, draft, context, place, includeSecrets],
  );
  if (!draft) {
    return <p className="ex-empty">Open an operation in the workbench to export its request as code.</p>;
  }
  if (!context) return <p className="ex-empty">Waiting for the profile: fill in the profile bar.</p>;
  const rsa = schemeOf(operationOf(draft), draft) === 'oauth-rsa-sha256';

  const onKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    const n = SNIPPET_LANGUAGES.length;
    const to = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i + n - 1) % n : -1;
    if (to < 0) return;
    e.preventDefault();
    setLanguage(SNIPPET_LANGUAGES[to]!);
    tabs.current[to]?.focus();
  };

  return (
    <div className="ex-snippets">
      <p className="ex-note">
        Code that signs at run time for <code>{draft.operation}</code> with the form's current values, scheme
        and formula (
        {draft.pinned
          ? 'nonce and timestamp pinned, as in the form'
          : 'fresh nonce and timestamp on every run'}
        ). Secrets are read from <code>MERCHANT_CONTROL_KEY</code> / <code>MERCHANT_PRIVATE_KEY_FILE</code>;{' '}
        <code>PAY_DRY_RUN=1</code> prints the signature without sending.
      </p>
      <div role="tablist" aria-label="Snippet language" className="ex-tabs">
        {SNIPPET_LANGUAGES.map((lang, i) => (
          <button
            key={lang}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${lang}`}
            aria-selected={lang === language}
            aria-controls={`${id}-panel`}
            tabIndex={lang === language ? 0 : -1}
            className="ex-tab"
            onClick={() => setLanguage(lang)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {SHORT[lang]}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${id}-panel`}
        aria-labelledby={`${id}-tab-${language}`}
        className="ex-tabpanel"
      >
        <label className="ex-check">
          <input
            type="checkbox"
            checked={includeSecrets}
            onChange={(e) => setIncludeSecrets(e.target.checked)}
          />
          Include secrets
        </label>
        {includeSecrets ? (
          <p className="ex-warn" role="alert">
            The snippet now holds the merchant control key in plain text: anyone who reads it can sign as the
            merchant. Do not commit, paste or share it.
            {rsa
              ? ' The private key is never included: it is held as a non-extractable key; the snippet reads it from MERCHANT_PRIVATE_KEY_FILE.'
              : ''}
          </p>
        ) : null}
        {result && 'error' in result ? (
          <p className="ex-error" role="alert">
            {result.error}
          </p>
        ) : result ? (
          <>
            <div className="ex-actions">
              <span className="ex-file">{result.snippet.fileName}</span>
              <span className="ex-lang">{SNIPPET_LANGUAGE_INFO[language].label}</span>
              <CopyButton text={result.snippet.code} label={`Copy the ${SHORT[language]} snippet`} />
              <button
                type="button"
                className="ui-btn ui-btn-small"
                onClick={() => downloadText(result.snippet.fileName, result.snippet.code, 'text/plain')}
              >
                Download {result.snippet.fileName}
              </button>
            </div>
            <pre className="ex-code" role="region" aria-label={`${SHORT[language]} snippet`} tabIndex={0}>
              {result.snippet.code}
            </pre>
          </>
        ) : null}
      </div>
    </div>
  );
}
