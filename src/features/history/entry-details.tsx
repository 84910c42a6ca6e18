import { errorText } from '../../core/errors.ts';
import { useEffect, useId, useState } from 'react';
import { encodeFormBody } from '../../core/index.ts';
import { missingValues, type Place, type RequestDraft, type SigningRuntime } from '../../model/index.ts';
import { resignDraft } from '../../model/resign-draft.ts';
import { signingEnvFor, type SigningContext } from '../../model/signing-context.ts';
import { downloadText } from '../../browser/download.ts';
import { draftOfEntry } from './build-entry.ts';
import { curlOfEntry, harOfEntry } from './entry-tools.ts';
import { formatTime } from './history-format.ts';
import type { HistoryEntry } from './history-schema.ts';

function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** What signs a re-signed curl: the active profile, this console's place, the app's runtime. */
export interface Signing {
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
}

/** One entry's request and answer as stored, with Reopen, copies as curl and a HAR export. */
export function EntryDetails({
  entry,
  signing,
  onReopen,
  onClose,
}: {
  entry: HistoryEntry;
  signing: Signing;
  onReopen: (d: RequestDraft) => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const pinned = entry.draft?.pinned ?? entry.request.pinned;
  return (
    <article className="hy-details" aria-labelledby={titleId}>
      <header className="hy-details__header">
        <h2 id={titleId}>
          {entry.operationPath} <span className="hy-muted">· {formatTime(entry.sentAt)}</span>
        </h2>
        <div className="hy-inline">
          <button
            type="button"
            className="hy-button hy-button--primary"
            onClick={() => onReopen(draftOfEntry(entry))}
          >
            Reopen in the form
          </button>
          <CopyCurl entry={entry} signing={signing} />
          <button
            type="button"
            className="hy-button"
            onClick={() =>
              downloadText(
                `pay-console-${entry.operationPath.replace(/\//g, '-')}-${entry.sentAt.replace(/[:.]/g, '-')}.har`,
                `${JSON.stringify(harOfEntry(entry), null, 2)}\n`,
                'application/json',
              )
            }
          >
            Export as HAR
          </button>
          <button type="button" className="hy-button" onClick={onClose}>
            Close details
          </button>
        </div>
      </header>
      <dl className="hy-facts">
        <dt>Profile</dt>
        <dd>{entry.profileName}</dd>
        <dt>Target</dt>
        <dd>{entry.targetName}</dd>
        <dt>client_orderid</dt>
        <dd className="hy-mono">{entry.clientOrderId ?? '—'}</dd>
        <dt>Gateway order id</dt>
        <dd className="hy-mono">{entry.orderId ?? '—'}</dd>
        {pinned && (
          <>
            <dt>Pinned</dt>
            <dd className="hy-mono">
              {pinned.nonce && `nonce ${pinned.nonce} `}
              {pinned.timestamp && `timestamp ${pinned.timestamp}`}
            </dd>
          </>
        )}
      </dl>
      {entry.masked.length > 0 && (
        <p className="hy-note">
          Masked or dropped before storage: {entry.masked.join(', ')}. Reopening leaves these fields empty,
          and Re-send asks for{' '}
          {missingValues(draftOfEntry(entry))
            .map((m) => m.name)
            .join(', ') || 'them'}{' '}
          before anything is sent.
        </p>
      )}
      <h3>Request</h3>
      <pre className="hy-pre" aria-label="Stored request" tabIndex={0}>
        {`${entry.request.method} ${entry.request.url}\n${entry.request.headers.map((h) => `${h.name}: ${h.value}`).join('\n')}\n\n${encodeFormBody(entry.request.body).replace(/%2A/g, '*')}`}
      </pre>
      <table className="hy-table hy-table--pairs">
        <caption>Body parameters as stored</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {entry.request.body.map((p, i) => (
            <tr key={`${p.name}-${i}`}>
              <td className="hy-mono">{p.name}</td>
              <td className="hy-mono">{p.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Answer</h3>
      {entry.response ? (
        <>
          <p>
            HTTP {entry.response.status} in {Math.round(entry.response.elapsedMs)} ms
          </p>
          <pre className="hy-pre" aria-label="Stored answer" tabIndex={0}>
            {Object.entries(entry.response.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
            {'\n\n'}
            {prettyBody(entry.response.body)}
          </pre>
        </>
      ) : (
        <p className="hy-error">{entry.error ?? 'No answer was received.'}</p>
      )}
    </article>
  );
}

type CopyState = { kind: 'idle' } | { kind: 'copied'; what: string } | { kind: 'failed'; message: string };

/** The stored request (for the record), or the request signed again for a replay. */
function CopyCurl({ entry, signing }: { entry: HistoryEntry; signing: Signing }) {
  const [state, setState] = useState<CopyState>({ kind: 'idle' });
  const [toFill, setToFill] = useState<string[]>([]);
  useEffect(() => {
    if (state.kind !== 'copied') return;
    const t = setTimeout(() => setState({ kind: 'idle' }), 2000);
    return () => clearTimeout(t);
  }, [state]);
  const copy = (what: string, text: () => Promise<string>) =>
    text()
      .then((t) => navigator.clipboard.writeText(t))
      .then(
        () => setState({ kind: 'copied', what }),
        (e: unknown) => setState({ kind: 'failed', message: errorText(e) || 'Copy failed.' }),
      );
  const { context, place, runtime } = signing;
  return (
    <>
      <button
        type="button"
        className="hy-button"
        onClick={() => {
          setToFill([]);
          void copy('stored', () => Promise.resolve(curlOfEntry(entry)));
        }}
      >
        {state.kind === 'copied' && state.what === 'stored' ? 'Copied as curl' : 'Copy as curl'}
      </button>
      <button
        type="button"
        className="hy-button"
        disabled={!context}
        title={context ? undefined : 'Fill in the profile bar first: re-signing needs its keys.'}
        onClick={() =>
          void copy('re-signed', async () => {
            if (!context) throw new Error('No profile is active: fill in the profile bar first.');
            const again = await resignDraft(draftOfEntry(entry), signingEnvFor(context, place, runtime));
            setToFill(again.placeholders);
            return again.curl;
          })
        }
      >
        {state.kind === 'copied' && state.what === 're-signed'
          ? 'Copied re-signed curl'
          : 'Copy re-signed curl'}
      </button>
      <span role="status" className="hy-muted">
        {state.kind === 'failed'
          ? state.message
          : state.kind === 'copied' && state.what === 're-signed'
            ? `Fresh nonce and timestamp${toFill.length > 0 ? `; fill in ${toFill.join(', ')} (written FILL-IN-…): the signature covers them, so it verifies only once they are filled and signed again (Re-send)` : ''}.`
            : ''}
      </span>
    </>
  );
}
