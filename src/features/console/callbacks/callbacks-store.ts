import { z } from 'zod/mini';

export const CallbackEventSchema = z.object({
  id: z.number(),
  inbox: z.string(),
  receivedAt: z.string(),
  method: z.string(),
  source: z.string(),
  query: z.record(z.string(), z.string()),
});
export type CallbackEvent = z.infer<typeof CallbackEventSchema>;

const KEY = 'pay-console.callback-inbox';

function newInboxName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = 's-';
  for (const b of crypto.getRandomValues(new Uint8Array(16))) out += alphabet[b % alphabet.length];
  return out;
}

let inbox: string | null = null;

/** This browser session's callback inbox (kept for the tab's life, like the session's secrets). */
export function sessionInbox(): string {
  if (inbox) return inbox;
  const saved = sessionStorage.getItem(KEY);
  inbox = saved && /^[A-Za-z0-9_-]{1,64}$/.test(saved) ? saved : newInboxName();
  sessionStorage.setItem(KEY, inbox);
  return inbox;
}

export function callbackUrl(): string {
  return `${location.origin}/callbacks/${sessionInbox()}`;
}

export type StreamState = 'idle' | 'connecting' | 'open' | 'error';

interface Snapshot {
  events: CallbackEvent[];
  state: StreamState;
}

let snapshot: Snapshot = { events: [], state: 'idle' };
const listeners = new Set<() => void>();
let source: EventSource | null = null;

function set(next: Partial<Snapshot>): void {
  snapshot = { ...snapshot, ...next };
  for (const l of listeners) l();
}

function start(): void {
  if (source) return;
  set({ state: 'connecting' });
  source = new EventSource(`/callbacks/${sessionInbox()}/events`);
  source.onopen = () => set({ state: 'open' });
  source.onerror = () => set({ state: source?.readyState === EventSource.CLOSED ? 'error' : 'connecting' });
  source.onmessage = (e: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(e.data);
    } catch {
      return;
    }
    const parsed = CallbackEventSchema.safeParse(data);
    if (!parsed.success || snapshot.events.some((x) => x.id === parsed.data.id)) return;
    set({ events: [parsed.data, ...snapshot.events] });
  };
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
