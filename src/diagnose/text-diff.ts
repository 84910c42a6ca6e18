/** One run of a diff: text both have, text only the other side has (`added`), or only ours (`removed`). */
export interface DiffSegment {
  op: 'equal' | 'added' | 'removed';
  text: string;
}

/** Largest table a longest-common-subsequence pass may fill; beyond it the middle is one replacement. */
const MAX_CELLS = 2_000_000;

function lcsDiff<T>(
  a: readonly T[],
  b: readonly T[],
  eq: (x: T, y: T) => boolean,
): Array<{ op: DiffSegment['op']; item: T }> {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((item) => ({ op: 'removed' as const, item })),
      ...b.map((item) => ({ op: 'added' as const, item })),
    ];
  }
  // table[i][j] = LCS length of a[i..] and b[j..], flattened.
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] = eq(a[i]!, b[j]!)
        ? table[(i + 1) * w + j + 1]! + 1
        : Math.max(table[(i + 1) * w + j]!, table[i * w + j + 1]!);
    }
  }
  const out: Array<{ op: DiffSegment['op']; item: T }> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (eq(a[i]!, b[j]!)) {
      out.push({ op: 'equal', item: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * w + j]! >= table[i * w + j + 1]!) {
      out.push({ op: 'removed', item: a[i]! });
      i++;
    } else {
      out.push({ op: 'added', item: b[j]! });
      j++;
    }
  }
  while (i < n) out.push({ op: 'removed', item: a[i++]! });
  while (j < m) out.push({ op: 'added', item: b[j++]! });
  return out;
}

function push(out: DiffSegment[], op: DiffSegment['op'], text: string): void {
  if (text === '') return;
  const last = out[out.length - 1];
  if (last && last.op === op) last.text += text;
  else out.push({ op, text });
}

/**
 * The units a diff compares: a percent-escape is one unit (`%2B`), and so is a doubly encoded one
 * (`%2520`, an escape of an escape), so `%2520` against `%2B` reads as two escapes differing
 * rather than a shared `%2` and a soup of digits. A `+` and every other character (a whole code
 * point) are units of their own.
 */
export function diffAtoms(text: string): string[] {
  return text.match(/%25[0-9A-Fa-f]{2}|%[0-9A-Fa-f]{2}|[\s\S]/gu) ?? [];
}

/** Whole pairs of a base string or concatenation: atoms up to and including a separator (`%26`, `&`). */
function pairTokens(atoms: readonly string[]): string[] {
  const out: string[] = [];
  let cur = '';
  for (const a of atoms) {
    cur += a;
    if (a === '&' || a === '%26') {
      out.push(cur);
      cur = '';
    }
  }
  if (cur !== '') out.push(cur);
  return out;
}

/**
 * The difference between our text and another (the gateway's expected base string or
 * concatenation, the sandbox's signing input, a mistaken signer's base string): pairs are lined up
 * first, then a replaced pair is compared escape by escape, so a one-letter change shows as one
 * letter and `+` against `%20` as one unit against another. Every surface that shows a diff (the
 * debugger, the console's signature-mismatch view, the teaching mode, `paysign verify`) uses it.
 */
export function diffText(ours: string, theirs: string): DiffSegment[] {
  const a = diffAtoms(ours);
  const b = diffAtoms(theirs);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const out: DiffSegment[] = [];
  push(out, 'equal', a.slice(0, prefix).join(''));
  const byToken = lcsDiff(
    pairTokens(a.slice(prefix, a.length - suffix)),
    pairTokens(b.slice(prefix, b.length - suffix)),
    (x, y) => x === y,
  );
  // A run of removed tokens followed by as many added ones is a replacement: refine it by atom.
  for (let k = 0; k < byToken.length;) {
    if (byToken[k]!.op === 'equal') {
      push(out, 'equal', byToken[k]!.item);
      k++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (k < byToken.length && byToken[k]!.op !== 'equal') {
      if (byToken[k]!.op === 'removed') removed.push(byToken[k]!.item);
      else added.push(byToken[k]!.item);
      k++;
    }
    const gone = diffAtoms(removed.join(''));
    const come = diffAtoms(added.join(''));
    const units = lcsDiff(gone, come, (x, y) => x === y);
    // Letters that happen to match inside a rewritten word ("com" → "org" keeps an "o") read worse
    // than the whole word replaced: keep the fine view only when most of it is shared.
    const shared = units.filter((c) => c.op === 'equal').length;
    if (shared * 2 < Math.max(gone.length, come.length)) {
      push(out, 'removed', gone.join(''));
      push(out, 'added', come.join(''));
    } else for (const c of units) push(out, c.op, c.item);
  }
  push(out, 'equal', a.slice(a.length - suffix).join(''));
  return out;
}

/** Index of the first character where two texts differ; undefined when they are equal. */
export function firstDifferenceOffset(a: string, b: string): number | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export interface TermRow {
  index: number;
  ours?: { label: string; value: string };
  theirs?: { label: string; value: string };
  same: boolean;
}

/** Term-by-term comparison of two `control` signing inputs (ours against the sandbox's). */
export function compareTerms(
  ours: ReadonlyArray<{ label: string; value: string }>,
  theirs: ReadonlyArray<{ label: string; value: string }>,
): TermRow[] {
  const rows: TermRow[] = [];
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const o = ours[i];
    const t = theirs[i];
    rows.push({
      index: i,
      ...(o ? { ours: o } : {}),
      ...(t ? { theirs: t } : {}),
      same: o !== undefined && t !== undefined && o.value === t.value && o.label === t.label,
    });
  }
  return rows;
}
