import { useSyncExternalStore } from 'react';
import { onRecentOrdersCleared, RECENT_ORDERS_KEY } from '../../../browser/recent-orders-session.ts';
import { recordAnswer, RecentOrdersSchema, type RecentOrder } from './recent-ids.ts';
import { Signal } from '../../../core/store.ts';

/**
 * Kept in localStorage, so every tab of the console sees the ids of the others' answers (a tab
 * opened later, the customer's return tab) and a reload keeps them. Ids, amounts and statuses only:
 * nothing secret, no card data.
 */
const KEY = RECENT_ORDERS_KEY;
const change = new Signal();
let cache: RecentOrder[] | null = null;

function changed(): void {
  cache = null;
  change.fire();
}

onRecentOrdersCleared(changed);
// Another tab's answer (or its "Clear all history").
if (typeof window !== 'undefined')
  window.addEventListener('storage', (e) => {
    if (e.key === KEY || e.key === null) changed();
  });

function read(): RecentOrder[] {
  if (cache) return cache;
  try {
    const parsed = RecentOrdersSchema.safeParse(JSON.parse(localStorage.getItem(KEY) ?? '[]'));
    cache = parsed.success ? parsed.data : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(list: RecentOrder[]): void {
  cache = list;
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // storage refused: the list lasts for this page
  }
  change.fire();
}

/** Records the ids of one answer (see {@link recordAnswer}). */
export function rememberAnswer(
  operation: string,
  sent: ReadonlyArray<{ name: string; value: string }>,
  answer: unknown,
  at: string,
): void {
  const before = read();
  const after = recordAnswer(before, operation, sent, answer, at);
  if (JSON.stringify(after) !== JSON.stringify(before)) write(after);
}

export function recentOrders(): RecentOrder[] {
  return read();
}

/** This session's orders, newest first, re-rendering when an answer adds one. */
export function useRecentOrders(): RecentOrder[] {
  return useSyncExternalStore(change.subscribe, read, () => []);
}
