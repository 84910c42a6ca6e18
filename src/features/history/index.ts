import type { Exchange } from '../../model/exchange.ts';
import { exchangeOfEntry } from './exchange-of-entry.ts';

export { recordExchange } from './record-exchange.ts';
// HistoryPage is not re-exported: the app imports history-page.tsx lazily, with its route.

/** Every stored exchange (already masked: card numbers first6…last4, no CVV, no keys), oldest first. */
export async function listExchanges(): Promise<Exchange[]> {
  const { listEntries } = await import('./history-db.ts');
  const { entries } = await listEntries();
  return entries.reverse().map(exchangeOfEntry);
}
