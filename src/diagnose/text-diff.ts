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

/** Splits a base string or concatenation after each pair separator (`%26`, `&`), so whole pairs line up. */
function tokens(text: string): string[] {
  return text.split(/(?<=%26|&)/);
}

/**
 * The difference between our text and another (the gateway's expected base string or
 * concatenation, pasted): pairs are lined up first, then a replaced pair is compared character by
 * character, so a one-letter change shows as one letter.
 */
export function diffText(ours: string, theirs: string): DiffSegment[] {
  let prefix = 0;
  while (prefix < ours.length && prefix < theirs.length && ours[prefix] === theirs[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < ours.length - prefix &&
    suffix < theirs.length - prefix &&
    ours[ours.length - 1 - suffix] === theirs[theirs.length - 1 - suffix]
  )
    suffix++;
  const out: DiffSegment[] = [];
  push(out, 'equal', ours.slice(0, prefix));
  const a = ours.slice(prefix, ours.length - suffix);
  const b = theirs.slice(prefix, theirs.length - suffix);
  const byToken = lcsDiff(tokens(a), tokens(b), (x, y) => x === y);
  // A run of removed tokens followed by as many added ones is a replacement: refine it by character.
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
    const gone = removed.join('');
    const come = added.join('');
    const chars = lcsDiff([...gone], [...come], (x, y) => x === y);
    // Letters that happen to match inside a rewritten word ("com" → "org" keeps an "o") read worse
    // than the whole word replaced: keep the character view only when most of it is shared.
    const shared = chars.filter((c) => c.op === 'equal').length;
    if (shared * 2 < Math.max([...gone].length, [...come].length)) {
      push(out, 'removed', gone);
      push(out, 'added', come);
    } else for (const c of chars) push(out, c.op, c.item);
  }
  push(out, 'equal', ours.slice(ours.length - suffix));
  return out;
}

/** Index of the first character where two texts differ; undefined when they are equal. */
export function firstDifferenceOffset(a: string, b: string): number | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
