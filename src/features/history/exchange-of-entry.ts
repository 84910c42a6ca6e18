import type { Exchange } from '../../model/exchange.ts';
import type { HistoryEntry } from './history-schema.ts';

/** The stored exchange of an entry (already masked when it was stored). */
export function exchangeOfEntry(e: HistoryEntry): Exchange {
  return {
    operationPath: e.operationPath,
    profileName: e.profileName,
    targetName: e.targetName,
    sentAt: e.sentAt,
    request: e.request,
    ...(e.response ? { response: e.response } : {}),
    ...(e.error ? { error: e.error } : {}),
  };
}
