import type { Exchange } from '../../shared/contracts/contracts.ts';
import { buildEntry } from './build-entry.ts';
import { putEntry } from './history-db.ts';

/** Stores a sent request and its answer: card numbers masked, CVVs dropped, nothing secret. */
export async function recordExchange(ex: Exchange): Promise<void> {
  await putEntry(buildEntry(ex, globalThis.crypto.randomUUID()));
}
