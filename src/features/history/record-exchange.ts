import type { Exchange } from '../../model/exchange.ts';

/** Stores a sent request and its answer: card numbers masked, CVVs dropped, nothing secret. */
export async function recordExchange(ex: Exchange): Promise<void> {
  // Masking and IndexedDB code loads with the first send, not with the first form.
  const [{ buildEntry }, { putEntry }] = await Promise.all([
    import('./build-entry.ts'),
    import('./history-db.ts'),
  ]);
  await putEntry(buildEntry(ex, globalThis.crypto.randomUUID()));
}
