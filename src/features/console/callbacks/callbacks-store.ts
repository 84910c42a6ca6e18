import { callbackUrl, InboxClient, sessionInbox, type InboxState } from '../../../browser/callback-inbox.ts';
import type { CallbackEvent } from '../../../contracts/callback-inbox.ts';

export { CallbackEventSchema, type CallbackEvent } from '../../../contracts/callback-inbox.ts';
export { callbackUrl, sessionInbox };

export type StreamState = InboxState;

interface Snapshot {
  events: CallbackEvent[];
  state: StreamState;
}

let snapshot: Snapshot = { events: [], state: 'idle' };
const listeners = new Set<() => void>();
let client: InboxClient | null = null;

function set(next: Partial<Snapshot>): void {
  snapshot = { ...snapshot, ...next };
  for (const l of listeners) l();
}

function start(): void {
  if (client) return;
  const c = new InboxClient(sessionInbox(), (e) => set({ events: [e, ...snapshot.events] }));
  c.subscribe(() => set({ state: c.getState() }));
  client = c;
  c.open();
}

export function subscribeCallbacks(l: () => void): () => void {
  listeners.add(l);
  start();
  return () => listeners.delete(l);
}

export function callbacksSnapshot(): Snapshot {
  return snapshot;
}

export function clearCallbacks(): void {
  set({ events: [] });
}
