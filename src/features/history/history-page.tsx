import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { encodeFormBody } from '../../core/index.ts';
import { diffText } from '../../diagnose/text-diff.ts';
import { missingValues, type Place, type RequestDraft, type SigningRuntime } from '../../model/index.ts';
import { resignDraft } from '../../model/resign-draft.ts';
import { signingEnvFor, type SigningContext } from '../../shared/contracts/contracts.ts';
import { downloadText } from '../../shared/browser/download.ts';
import { draftOfEntry, matchesSearch } from './build-entry.ts';
import { compareEntries, curlOfEntry, harOfEntry } from './entry-tools.ts';
import { clearEntries, deleteEntry, listEntries, onHistoryChange } from './history-db.ts';
import type { HistoryEntry } from './history-schema.ts';
import './history.css';

const QUERY_KEY = ['history'] as const;

function plural(n: number): string {
  return n === 1 ? '1 entry' : `${n} entries`;
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

function prettyBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** What signs a re-signed curl: the active profile, this console's place, the app's runtime. */
interface Signing {
  context: SigningContext | null;
  place: Place;
  runtime: SigningRuntime;
}

export function HistoryPage({
  onReopen,
  onResend,
  ...signing
}: {
  onReopen: (draft: RequestDraft) => void;
  /** Opens the entry's request in the workbench and sends it (masked card fields must be filled in). */
  onResend: (draft: RequestDraft) => void;
} & Signing) {
  const queryClient = useQueryClient();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const [picked, setPicked] = useState<string[]>([]);
  const [comparing, setComparing] = useState<[string, string] | null>(null);

  const history = useQuery({ queryKey: QUERY_KEY, queryFn: listEntries });
  useEffect(
    () => onHistoryChange(() => void queryClient.invalidateQueries({ queryKey: QUERY_KEY })),
    [queryClient],
  );

  const remove = useMutation({
    mutationFn: deleteEntry,
    onSuccess: (_v, id) => {
      if (id === selectedId) setSelectedId(null);
      return queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
  });
  const clear = useMutation({
    mutationFn: clearEntries,
    onSuccess: () => {
      setSelectedId(null);
      setConfirmClear(false);
      return queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    },
  });

  const entries = useMemo(() => history.data?.entries ?? [], [history.data]);
  const shown = useMemo(() => entries.filter((e) => matchesSearch(e, search)), [entries, search]);
  // Details of an entry the search hides are hidden with it.
  const selected = shown.find((e) => e.id === selectedId) ?? null;
  const failure = history.error ?? remove.error ?? clear.error;
  const togglePick = (id: string) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const pair = comparing
    ? ([entries.find((e) => e.id === comparing[0]), entries.find((e) => e.id === comparing[1])] as const)
    : null;

  return (
    <section className="hy-page" aria-labelledby={`${searchId}-title`}>
      <header className="hy-header">
        <h1 id={`${searchId}-title`}>History</h1>
        <p className="hy-note">
          Every request sent from this browser and its answer, kept in this browser only. Card numbers are
          masked to the first six and last four digits and CVVs are dropped before anything is stored; keys
          are never stored.
        </p>
        <div className="hy-toolbar">
          <label htmlFor={searchId}>Search history</label>
          <input
            id={searchId}
            type="search"
            placeholder="operation, client_orderid, status, target…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <span role="status" className="hy-count">
            {history.isPending
              ? 'Loading…'
              : search
                ? `${shown.length} of ${plural(entries.length)}`
                : plural(entries.length)}
          </span>
          {confirmClear ? (
            <span role="group" aria-label="Confirm clearing the history" className="hy-inline">
              <span>Delete all {plural(entries.length)}? This cannot be undone.</span>
              <button
                type="button"
                className="hy-button hy-button--danger"
                disabled={clear.isPending}
                onClick={() => clear.mutate()}
              >
                Yes, clear all
              </button>
              <button type="button" className="hy-button" onClick={() => setConfirmClear(false)}>
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="hy-button"
              disabled={entries.length === 0}
              onClick={() => setConfirmClear(true)}
            >
              Clear all history
            </button>
          )}
        </div>
        {failure && (
          <p role="alert" className="hy-error">
            The history could not be read or changed: {failure.message}. Reload the page; if it persists, the
            browser may block IndexedDB (private mode?).
          </p>
        )}
        {(history.data?.unreadable ?? 0) > 0 && (
          <p className="hy-note">
            {history.data!.unreadable} stored entries are in an unknown format and are not shown.
          </p>
        )}
      </header>

      <div className="hy-layout">
        {entries.length === 0 && !history.isPending ? (
          <p className="hy-empty">
            Nothing sent yet. Requests you send from an operation&apos;s page appear here.
          </p>
        ) : (
          <div className="hy-table-wrap">
            <div className="hy-inline hy-compare-bar">
              <span className="hy-muted">Tick two entries to compare them side by side.</span>
              <button
                type="button"
                className="hy-button"
                disabled={picked.length !== 2}
                onClick={() => setComparing([picked[0]!, picked[1]!])}
              >
                Compare selected
              </button>
            </div>
            <table className="hy-table">
              <caption className="ui-visually-hidden">Requests sent, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="ui-visually-hidden">Compare</span>
                  </th>
                  <th scope="col">Time</th>
                  <th scope="col">Operation</th>
                  <th scope="col">client_orderid</th>
                  <th scope="col">Status</th>
                  <th scope="col">Target</th>
                  <th scope="col">
                    <span className="ui-visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((e) => (
                  <tr key={e.id} className={e.id === selectedId ? 'hy-row--selected' : undefined}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Compare ${e.operationPath} sent ${formatTime(e.sentAt)}`}
                        checked={picked.includes(e.id)}
                        onChange={() => togglePick(e.id)}
                      />
                    </td>
                    <td>
                      <time dateTime={e.sentAt}>{formatTime(e.sentAt)}</time>
                    </td>
                    <td className="hy-mono">{e.operationPath}</td>
                    <td className="hy-mono">{e.clientOrderId ?? '—'}</td>
                    <td>
                      <StatusBadge entry={e} />
                    </td>
                    <td>{e.targetName}</td>
                    <td>
                      <div className="hy-actions">
                        <button
                          type="button"
                          className="hy-button"
                          aria-expanded={e.id === selectedId}
                          onClick={() => setSelectedId(e.id === selectedId ? null : e.id)}
                        >
                          {e.id === selectedId ? 'Hide details' : 'Details'}
                        </button>
                        <button type="button" className="hy-button" onClick={() => onReopen(draftOfEntry(e))}>
                          Reopen
                        </button>
                        <button type="button" className="hy-button" onClick={() => onResend(draftOfEntry(e))}>
                          Re-send
                        </button>
                        <button
                          type="button"
                          className="hy-button"
                          disabled={remove.isPending}
                          onClick={() => remove.mutate(e.id)}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {selected && (
          <EntryDetails
            entry={selected}
            signing={signing}
            onReopen={onReopen}
            onClose={() => setSelectedId(null)}
          />
        )}
        {pair && pair[0] && pair[1] ? (
          <Comparison a={pair[0]} b={pair[1]} onClose={() => setComparing(null)} />
        ) : null}
      </div>
    </section>
  );
}

function StatusBadge({ entry }: { entry: HistoryEntry }) {
  const http = entry.response?.status;
  const label = entry.outcome ?? (http !== undefined ? `HTTP ${http}` : 'no answer');
  const tone =
    entry.error || (http !== undefined && http >= 400) || /declin|error|forbidden|filtered/.test(label)
      ? 'bad'
      : /approved/.test(label)
        ? 'good'
        : 'neutral';
  return (
    <span className={`hy-badge hy-badge--${tone}`}>
      {label}
      {http !== undefined && entry.outcome ? <span className="hy-badge__http"> · {http}</span> : null}
    </span>
  );
}

function EntryDetails({
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
        (e: unknown) =>
          setState({ kind: 'failed', message: e instanceof Error ? e.message : 'Copy failed.' }),
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

/** One side of a changed value: what both share, and what only this side has, marked. */
function DiffSide({ ours, theirs, side }: { ours: string; theirs: string; side: 'a' | 'b' }) {
  const segments = diffText(ours, theirs);
  return (
    <>
      {segments.map((seg, i) =>
        seg.op === 'equal' ? (
          <span key={i}>{seg.text}</span>
        ) : (side === 'a' && seg.op === 'removed') || (side === 'b' && seg.op === 'added') ? (
          <mark key={i} className="hy-diff-mark">
            {seg.text}
          </mark>
        ) : null,
      )}
    </>
  );
}

function Comparison({ a, b, onClose }: { a: HistoryEntry; b: HistoryEntry; onClose: () => void }) {
  const titleId = useId();
  const [onlyChanged, setOnlyChanged] = useState(true);
  const rows = compareEntries(a, b);
  const changed = rows.filter((r) => !r.same).length;
  const shown = onlyChanged ? rows.filter((r) => !r.same) : rows;
  return (
    <article className="hy-details hy-comparison" aria-labelledby={titleId}>
      <header className="hy-details__header">
        <h2 id={titleId}>Comparison</h2>
        <div className="hy-inline">
          <label className="hy-inline">
            <input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} />
            Only differences
          </label>
          <button type="button" className="hy-button" onClick={onClose}>
            Close comparison
          </button>
        </div>
      </header>
      <p className="hy-note" role="status">
        {changed === 0 ? 'The two entries are the same.' : `${changed} of ${rows.length} fields differ.`}
      </p>
      <table className="hy-table hy-table--pairs">
        <caption className="ui-visually-hidden">The two entries field by field</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">
              {a.operationPath} · {formatTime(a.sentAt)}
            </th>
            <th scope="col">
              {b.operationPath} · {formatTime(b.sentAt)}
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.label} className={r.same ? undefined : 'hy-row--changed'}>
              <th scope="row" className="hy-mono">
                {r.label}
              </th>
              <td className="hy-mono">
                {r.a === undefined ? (
                  <em>absent</em>
                ) : r.same || r.b === undefined ? (
                  r.a
                ) : (
                  <DiffSide ours={r.a} theirs={r.b} side="a" />
                )}
              </td>
              <td className="hy-mono">
                {r.b === undefined ? (
                  <em>absent</em>
                ) : r.same || r.a === undefined ? (
                  r.b
                ) : (
                  <DiffSide ours={r.a} theirs={r.b} side="b" />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}
