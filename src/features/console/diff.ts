export interface DiffPart {
  kind: 'same' | 'ours' | 'theirs';
  text: string;
}

/**
 * Character-level diff of two strings (Myers' O(ND) algorithm), as runs of equal text, text only
 * in `ours` and text only in `theirs`. Beyond `maxEdits` differences it falls back to one
 * replaced middle between the common prefix and suffix.
 */
export function diffChars(ours: string, theirs: string, maxEdits = 2000): DiffPart[] {
  let start = 0;
  while (start < ours.length && start < theirs.length && ours[start] === theirs[start]) start++;
  let endA = ours.length;
  let endB = theirs.length;
  while (endA > start && endB > start && ours[endA - 1] === theirs[endB - 1]) {
    endA--;
    endB--;
  }
  const a = ours.slice(start, endA);
  const b = theirs.slice(start, endB);
  const middle = myers(a, b, maxEdits) ?? [
    ...(a ? [{ kind: 'ours' as const, text: a }] : []),
    ...(b ? [{ kind: 'theirs' as const, text: b }] : []),
  ];
  const parts: DiffPart[] = [];
  const push = (p: DiffPart) => {
    if (p.text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.kind === p.kind) last.text += p.text;
    else parts.push({ ...p });
  };
  push({ kind: 'same', text: ours.slice(0, start) });
  for (const p of middle) push(p);
  push({ kind: 'same', text: ours.slice(endA) });
  return parts;
}

function myers(a: string, b: string, maxEdits: number): DiffPart[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)) x = v[offset + k + 1]!;
      else x = v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d, k);
    }
  }
  return undefined;
}

function backtrack(
  a: string,
  b: string,
  trace: Int32Array[],
  offset: number,
  dEnd: number,
  kEnd: number,
): DiffPart[] {
  const out: DiffPart[] = [];
  let x = a.length;
  let y = b.length;
  let k = kEnd;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ kind: 'same', text: a[x - 1]! });
      x--;
      y--;
    }
    if (down) out.push({ kind: 'theirs', text: b[prevY]! });
    else out.push({ kind: 'ours', text: a[prevX]! });
    x = prevX;
    y = prevY;
    k = prevK;
  }
  while (x > 0 && y > 0) {
    out.push({ kind: 'same', text: a[x - 1]! });
    x--;
    y--;
  }
  return out.reverse();
}

export interface TermRow {
  index: number;
  ours?: { label: string; value: string };
  theirs?: { label: string; value: string };
  same: boolean;
}

/** Term-by-term comparison of two `control` signing inputs. */
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
