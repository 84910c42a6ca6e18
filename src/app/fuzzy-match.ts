/**
 * Fuzzy matching for the command palette: every word of the query must appear in the text as a
 * subsequence (letters in order, gaps allowed). Matches at word starts and in runs score higher,
 * so "sale" ranks "Sale" above "Sale form", and "v2s" still finds "v2/sale".
 */
export interface FuzzyMatch {
  score: number;
  /** Indexes of the matched characters in the text, for highlighting. */
  positions: number[];
}

function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1]!;
  return !/[a-z0-9]/i.test(prev) || (/[a-z]/.test(prev) && /[A-Z]/.test(text[i]!));
}

function matchWord(text: string, lower: string, word: string): FuzzyMatch | null {
  // A contiguous hit is best; prefer one at a word start.
  let at = -1;
  for (let i = lower.indexOf(word); i !== -1; i = lower.indexOf(word, i + 1)) {
    if (at === -1) at = i;
    if (isWordStart(text, i)) {
      at = i;
      break;
    }
  }
  if (at !== -1) {
    const positions = Array.from({ length: word.length }, (_, k) => at + k);
    return { score: word.length * 3 + (isWordStart(text, at) ? 6 : 0) + (at === 0 ? 4 : 0), positions };
  }
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  for (const ch of word) {
    const i = lower.indexOf(ch, from);
    if (i === -1) return null;
    const run = positions.length > 0 && positions[positions.length - 1] === i - 1;
    score += 1 + (run ? 2 : 0) + (isWordStart(text, i) ? 2 : 0);
    positions.push(i);
    from = i + 1;
  }
  return { score, positions };
}

/** The match of `query` in `text`, or null; an empty query matches everything with score 0. */
export function fuzzyMatch(query: string, text: string): FuzzyMatch | null {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const lower = text.toLowerCase();
  let score = 0;
  const positions = new Set<number>();
  for (const w of words) {
    const m = matchWord(text, lower, w);
    if (!m) return null;
    score += m.score;
    for (const p of m.positions) positions.add(p);
  }
  // Shorter texts are closer to what was typed.
  return {
    score: words.length === 0 ? 0 : score - text.length / 100,
    positions: [...positions].sort((a, b) => a - b),
  };
}

/** Items that match, best first; ties keep their order (pages, then operations, then requests). */
export function rankItems<T>(items: readonly T[], query: string, textOf: (item: T) => string): T[] {
  return items
    .map((item, index) => ({ item, index, m: fuzzyMatch(query, textOf(item)) }))
    .filter((x): x is { item: T; index: number; m: FuzzyMatch } => x.m !== null)
    .sort((a, b) => b.m.score - a.m.score || a.index - b.index)
    .map((x) => x.item);
}
