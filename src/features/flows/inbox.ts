import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import type { InboxEvent } from './flow-run-types.ts';

const EventSchema = z.object({
  id: z.number(),
  receivedAt: z.string(),
  query: z.record(z.string(), z.string()),
});

export type InboxState = 'connecting' | 'open' | 'error';

function randomName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = 'flow-';
  for (const b of crypto.getRandomValues(new Uint8Array(20))) out += alphabet[b % alphabet.length];
  return out;
}

/**
 * A callback inbox of the console's server for one flow page: the gateway's callbacks and the
 * customer's returns (redirect_url points here too) arrive as server-sent events.
 */
export class FlowInbox {
  readonly name = randomName();
  private source: EventSource | null = null;
  private state: InboxState = 'connecting';
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deliver: (e: InboxEvent) => void) {}

  get url(): string {
    return `${location.origin}/callbacks/${this.name}`;
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getState = (): InboxState => this.state;

  private setState(s: InboxState): void {
    if (s === this.state) return;
    this.state = s;
    for (const l of this.listeners) l();
  }

  private take(raw: unknown): void {
    const parsed = EventSchema.safeParse(raw);
    if (parsed.success) this.deliver(parsed.data);
  }

  open(): void {
    if (this.source) return;
    const source = new EventSource(`/callbacks/${this.name}/events`);
    this.source = source;
    source.onopen = () => {
      this.setState('open');
      void this.refresh();
    };
    source.onerror = () => this.setState(source.readyState === EventSource.CLOSED ? 'error' : 'connecting');
    source.onmessage = (e: MessageEvent<string>) => {
      try {
        this.take(JSON.parse(e.data));
      } catch {
        // a keep-alive or a broken frame: nothing to deliver
      }
    };
  }

  /** Reads the kept events (those sent while the stream was down). */
  async refresh(): Promise<void> {
    try {
      const res = await fetch(`/callbacks/${this.name}/list`, { headers: { Accept: 'application/json' } });
      if (!res.ok) return;
      const list: unknown = await res.json();
      if (Array.isArray(list)) for (const e of list) this.take(e);
    } catch {
      // the stream reconnects by itself; the list is only a fallback
    }
  }

  close(): void {
    this.source?.close();
    this.source = null;
  }
}
