import type { Exchange } from '../../model/exchange.ts';

/** Stores a sent request and its answer: card numbers masked, CVVs dropped, nothing secret. */
export async function recordExchange(ex: Exchange): Promise<void> {
  // Masking and IndexedDB code loads with the first send, not with the first form.
  const [{ buildEntry }, { putEntry, resolveUnknownOutcomes }] = await Promise.all([
    import('./build-entry.ts'),
    import('./history-db.ts'),
  ]);
  const entry = buildEntry(ex, globalThis.crypto.randomUUID());
  await putEntry(entry);
  // A status answer that found the order resolves the unknown outcomes of the requests about it.
  await resolveUnknownOutcomes(entry);
}
