/**
 * Where this tab keeps the ids of its answers (the console's "ids from earlier answers"), so that
 * clearing the history can forget them too without one feature importing another.
 */
export const RECENT_ORDERS_KEY = 'pay-console.recent-orders';

const cleared = new Set<() => void>();

/** Forgets this session's order ids (with "Clear all history"). */
export function clearRecentOrders(): void {
  try {
    sessionStorage.removeItem(RECENT_ORDERS_KEY);
  } catch {
    // storage refused: nothing was kept there
  }
  for (const l of cleared) l();
}

export function onRecentOrdersCleared(listener: () => void): () => void {
  cleared.add(listener);
  return () => cleared.delete(listener);
}
