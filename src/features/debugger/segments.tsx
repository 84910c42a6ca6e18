import type { DiffSegment } from '../../diagnose/index.ts';

export function Segments({ segments, label }: { segments: readonly DiffSegment[]; label: string }) {
  return (
    <pre className="ui-code dbg-diff" role="group" aria-label={label}>
      {segments.map((s, i) =>
        s.op === 'equal' ? (
          <span key={i}>{s.text}</span>
        ) : s.op === 'removed' ? (
          <del key={i}>{s.text}</del>
        ) : (
          <ins key={i}>{s.text}</ins>
        ),
      )}
    </pre>
  );
}

export function Legend({ ours, theirs }: { ours: string; theirs: string }) {
  return (
    <p className="dbg-legend dbg-diff">
      <del>struck through</del>: only in {ours} · <ins>underlined</ins>: only in {theirs}
    </p>
  );
}
