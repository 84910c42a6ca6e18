import type { Exchange } from '../../shared/contracts/contracts.ts';
import { listEntries } from './history-db.ts';

export { recordExchange } from './record-exchange.ts';
export { HistoryPage } from './history-page.tsx';

/** Every stored exchange (already masked: card numbers first6…last4, no CVV, no keys), oldest first. */
export async function listExchanges(): Promise<Exchange[]> {
  const { entries } = await listEntries();
  return entries.reverse().map((e) => ({
    operationPath: e.operationPath,
    profileName: e.profileName,
    targetName: e.targetName,
    sentAt: e.sentAt,
    request: e.request,
    ...(e.response ? { response: e.response } : {}),
    ...(e.error ? { error: e.error } : {}),
  }));
}
