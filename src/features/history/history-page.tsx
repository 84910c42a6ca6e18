import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { RequestDraft } from '../../model/index.ts';
import { draftOfEntry } from './build-entry.ts';
import { EntryDetails, type Signing } from './entry-details.tsx';
import { clearEntries, deleteEntry, listEntries, onHistoryChange } from './history-db.ts';
import { Comparison } from './history-comparison.tsx';
import { formatTime, plural } from './history-format.ts';
import type { HistoryEntry } from './history-schema.ts';
import { HistorySession, type HistoryStore } from './history-session.ts';
import './history.css';
import { useStore } from '../../ui/use-store.ts';

const browserStore: HistoryStore = {
  list: listEntries,
  remove: deleteEntry,
  clear: clearEntries,
  onChange: onHistoryChange,
};

export function HistoryPage({
  onReopen,
  onResend,
  ...signing
}: {
  onReopen: (draft: RequestDraft) => void;
  /** Opens the entry's request in the workbench and sends it (masked card fields must be filled in). */
  onResend: (draft: RequestDraft) => void;
} & Signing) {
  const searchId = useId();
  const queries = useQueryClient();
  const [session] = useState(() => new HistorySession(browserStore, queries));
  useEffect(() => session.start(), [session]);
  const h = useStore(session);
  const { entries, shown, selected, picked, search } = h;
  const selectedId = selected?.id ?? null;

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
            onChange={(e) => session.setSearch(e.target.value)}
          />
          <span role="status" className="hy-count">
            {h.loading
              ? 'Loading…'
              : search
                ? `${shown.length} of ${plural(entries.length)}`
                : plural(entries.length)}
          </span>
          {h.confirmingClear ? (
            <span role="group" aria-label="Confirm clearing the history" className="hy-inline">
              <span>Delete all {plural(entries.length)}? This cannot be undone.</span>
              <button
                type="button"
                className="hy-button hy-button--danger"
                disabled={h.clearing}
                onClick={() => void session.clear()}
              >
                Yes, clear all
              </button>
              <button type="button" className="hy-button" onClick={() => session.cancelClear()}>
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="hy-button"
              disabled={entries.length === 0}
              onClick={() => session.askClear()}
            >
              Clear all history
            </button>
          )}
        </div>
        {h.error && (
          <p role="alert" className="hy-error">
            The history could not be read or changed: {h.error.message}. Reload the page; if it persists, the
            browser may block IndexedDB (private mode?).
          </p>
        )}
        {h.unreadable > 0 && (
          <p className="hy-note">{h.unreadable} stored entries are in an unknown format and are not shown.</p>
        )}
      </header>

      <div className="hy-layout">
        {entries.length === 0 && !h.loading ? (
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
                onClick={() => session.compare()}
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
                        onChange={() => session.togglePick(e.id)}
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
                          onClick={() => session.toggleDetails(e.id)}
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
                          disabled={h.removing}
                          onClick={() => void session.remove(e.id)}
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
            onClose={() => session.closeDetails()}
          />
        )}
        {h.comparing ? (
          <Comparison a={h.comparing[0]} b={h.comparing[1]} onClose={() => session.closeComparison()} />
        ) : null}
      </div>
    </section>
  );
}

function StatusBadge({ entry }: { entry: HistoryEntry }) {
  const http = entry.response?.status;
  const label = entry.outcome ?? (http !== undefined ? `HTTP ${http}` : 'no answer');
  // An unknown outcome is an open question, not a failure; once resolved, the gateway's answer counts.
  const failed =
    entry.error !== undefined && entry.resolvedAt === undefined && entry.outcome !== 'outcome unknown';
  const tone =
    failed ||
    (http !== undefined &&
      http >= 400 &&
      entry.resolvedAt === undefined &&
      entry.outcome !== 'outcome unknown') ||
    /declin|error|forbidden|filtered/.test(label)
      ? 'bad'
      : /approved/.test(label)
        ? 'good'
        : 'neutral';
  return (
    <span className={`hy-badge hy-badge--${tone}`}>
      {label}
      {http !== undefined && entry.outcome ? <span className="hy-badge__http"> · {http}</span> : null}
      {entry.resolvedAt !== undefined ? (
        <span className="hy-badge__http"> · after an unknown outcome</span>
      ) : null}
    </span>
  );
}
