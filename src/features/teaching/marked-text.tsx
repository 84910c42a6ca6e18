import { diffText } from '../../diagnose/index.ts';

/**
 * One side of a comparison, its own text exactly, with the characters the other side does not
 * have marked: `ours` marks what only the first text has, `theirs` what only the second has.
 */
export function MarkedText({
  ours,
  theirs,
  side,
  label,
  block = true,
}: {
  ours: string;
  theirs: string;
  side: 'ours' | 'theirs';
  label: string;
  block?: boolean;
}) {
  const keep = side === 'ours' ? 'removed' : 'added';
  const parts =
    ours === theirs
      ? [{ op: 'equal' as const, text: side === 'ours' ? ours : theirs }]
      : diffText(ours, theirs);
  const content = parts
    .filter((p) => p.op === 'equal' || p.op === keep)
    .map((p, i) => (p.op === 'equal' ? <span key={i}>{p.text}</span> : <mark key={i}>{p.text}</mark>));
  return block ? (
    <pre className="ui-code teach-marked" role="group" aria-label={label}>
      {content}
    </pre>
  ) : (
    <output className="teach-marked teach-signature" aria-label={label}>
      {content}
    </output>
  );
}
