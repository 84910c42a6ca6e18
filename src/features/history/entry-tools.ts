import { encodeFormBody, shellQuote } from '../../core/index.ts';
import { exchangesToHar, type Har } from '../../exports/index.ts';
import { exchangeOfEntry } from './exchange-of-entry.ts';
import type { HistoryEntry } from './history-schema.ts';

/**
 * The stored request as a curl command: the headers and form body as they were sent, card numbers
 * masked as stored (so it re-sends only once they are filled in).
 */
export function curlOfEntry(e: HistoryEntry): string {
  const parts = [`curl -sS -X ${e.request.method} ${shellQuote(e.request.url)}`];
  for (const h of e.request.headers) parts.push(`-H ${shellQuote(`${h.name}: ${h.value}`)}`);
  parts.push(`--data-raw ${shellQuote(encodeFormBody(e.request.body))}`);
  return parts.join(' \\\n  ');
}

/** One entry as a HAR 1.2 log, with the export's own masking applied again. */
export function harOfEntry(e: HistoryEntry, creatorVersion?: string): Har {
  return exchangesToHar([exchangeOfEntry(e)], creatorVersion);
}

export interface CompareRow {
  /** What the row compares, e.g. `body amount`, `header Authorization`, `answer status`. */
  label: string;
  a: string | undefined;
  b: string | undefined;
  same: boolean;
}

function byName(pairs: ReadonlyArray<{ name: string; value: string }>): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of pairs) m.set(p.name, m.has(p.name) ? `${m.get(p.name)!}, ${p.value}` : p.value);
  return m;
}

function union<T>(a: Iterable<T>, b: Iterable<T>): T[] {
  return [...new Set([...a, ...b])];
}

function answerFields(e: HistoryEntry): Map<string, string> {
  const out = new Map<string, string>();
  if (!e.response) return out;
  try {
    const body: unknown = JSON.parse(e.response.body);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const [k, v] of Object.entries(body)) out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      return out;
    }
  } catch {
    // Not JSON: compared as one text below.
  }
  out.set('(body)', e.response.body);
  return out;
}

/**
 * Two history entries side by side, field by field: the request line, each header and body
 * parameter by name (in the order of the first, then what only the second has), then the answer's
 * status and its fields. A missing side is `undefined`.
 */
export function compareEntries(a: HistoryEntry, b: HistoryEntry): CompareRow[] {
  const rows: CompareRow[] = [];
  const row = (label: string, x: string | undefined, y: string | undefined) =>
    rows.push({ label, a: x, b: y, same: x === y });
  row('operation', a.operationPath, b.operationPath);
  row('sent at', a.sentAt, b.sentAt);
  row('target', a.targetName, b.targetName);
  row('URL', a.request.url, b.request.url);
  const ha = byName(a.request.headers);
  const hb = byName(b.request.headers);
  for (const n of union(ha.keys(), hb.keys())) row(`header ${n}`, ha.get(n), hb.get(n));
  const ba = byName(a.request.body);
  const bb = byName(b.request.body);
  for (const n of union(ba.keys(), bb.keys())) row(`body ${n}`, ba.get(n), bb.get(n));
  row(
    'answer status',
    a.response ? `HTTP ${a.response.status}` : (a.error ?? 'no answer'),
    b.response ? `HTTP ${b.response.status}` : (b.error ?? 'no answer'),
  );
  const ra = answerFields(a);
  const rb = answerFields(b);
  for (const n of union(ra.keys(), rb.keys())) row(`answer ${n}`, ra.get(n), rb.get(n));
  return rows;
}
