import { Signal } from '../core/store.ts';

/**
 * Where the console keeps the ids of its answers (the console's "ids from earlier answers", shared
 * by its tabs in localStorage), so that clearing the history can forget them too without one
 * feature importing another.
 */
export const RECENT_ORDERS_KEY = 'pay-console.recent-orders';

/** The order ids this tab sent (sessionStorage), by which it knows its customer's return. */
export const OWN_ORDERS_KEY = 'pay-console.own-orders';

const cleared = new Signal();

/** Forgets the order ids of earlier answers, in every tab (with "Clear all history"). */
export function clearRecentOrders(): void {
  try {
    localStorage.removeItem(RECENT_ORDERS_KEY);
    sessionStorage.removeItem(OWN_ORDERS_KEY);
  } catch {
    // storage refused: nothing was kept there
  }
  cleared.fire();
}

export const onRecentOrdersCleared = cleared.subscribe;
