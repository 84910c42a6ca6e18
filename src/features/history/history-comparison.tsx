import { useId, useState } from 'react';
import { diffText } from '../../diagnose/text-diff.ts';
import { compareEntries } from './entry-tools.ts';
import { formatTime } from './history-format.ts';
import type { HistoryEntry } from './history-schema.ts';

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

export function Comparison({ a, b, onClose }: { a: HistoryEntry; b: HistoryEntry; onClose: () => void }) {
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
