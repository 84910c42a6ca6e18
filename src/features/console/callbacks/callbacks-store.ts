import { callbackUrl, InboxClient, sessionInbox, type InboxState } from '../../../browser/callback-inbox.ts';
import type { CallbackEvent } from '../../../contracts/callback-inbox.ts';
import { Store } from '../../../core/store.ts';

export { CallbackEventSchema, type CallbackEvent } from '../../../contracts/callback-inbox.ts';
export { callbackUrl, sessionInbox };

export type StreamState = InboxState;

interface Snapshot {
  events: CallbackEvent[];
  state: StreamState;
}

/** This tab's callbacks; the inbox's stream opens with the first reader and stays open. */
class Callbacks extends Store<Snapshot> {
  protected snap: Snapshot = { events: [], state: 'idle' };
  private client: InboxClient | null = null;

  set(next: Partial<Snapshot>): void {
    this.publish({ ...this.snap, ...next });
  }

  protected override onFirstListener(): void {
    if (this.client) return;
    const c = new InboxClient(sessionInbox(), (e) => this.set({ events: [e, ...this.snap.events] }));
    c.subscribe(() => this.set({ state: c.getSnapshot() }));
    this.client = c;
    c.open();
  }
}

const callbacks = new Callbacks();

export const subscribeCallbacks = callbacks.subscribe;
export const callbacksSnapshot = callbacks.getSnapshot;

export function clearCallbacks(): void {
  callbacks.set({ events: [] });
}
