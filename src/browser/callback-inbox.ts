/**
 * The browser's one client of the console server's callback inbox: names an inbox, streams its
 * events (`/callbacks/<inbox>/events`), reads the kept ones when the stream (re)opens
 * (`/callbacks/<inbox>/list`) and parses every event with the contract. The workbench's callbacks
 * panel (this tab's session inbox) and each guided flow (an inbox of its own) use it.
 */
import '../catalog/zod-english.ts';
import {
  CallbackEventSchema,
  INBOX_NAME,
  inboxPaths,
  type CallbackEvent,
} from '../contracts/callback-inbox.ts';

export type InboxState = 'idle' | 'connecting' | 'open' | 'error';

/** A fresh inbox name: `prefix` and random letters and digits (`s-…`, `flow-…`). */
export function newInboxName(prefix: string, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = prefix;
  for (const b of crypto.getRandomValues(new Uint8Array(length))) out += alphabet[b % alphabet.length];
  return out;
}

const SESSION_KEY = 'pay-console.callback-inbox';
let session: string | null = null;

/** This browser session's callback inbox (kept for the tab's life, like the session's secrets). */
export function sessionInbox(): string {
  if (session) return session;
  const saved = sessionStorage.getItem(SESSION_KEY);
  session = saved && INBOX_NAME.test(saved) ? saved : newInboxName('s-', 16);
  sessionStorage.setItem(SESSION_KEY, session);
  return session;
}

/** The absolute URL of this session's inbox: what a request's callback or return URL points to. */
export function callbackUrl(): string {
  return `${location.origin}${inboxPaths(sessionInbox()).inbox}`;
}

/**
 * One inbox's stream. Each event is delivered once (by id) to `deliver`, whether it came on the
 * stream or from the list read when the stream opens; `subscribe` / `getState` report the stream.
 */
export class InboxClient {
  private source: EventSource | null = null;
  private state: InboxState = 'idle';
  private readonly seen = new Set<number>();
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly name: string,
    private readonly deliver: (e: CallbackEvent) => void,
  ) {}

  get url(): string {
    return `${location.origin}${inboxPaths(this.name).inbox}`;
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
    const parsed = CallbackEventSchema.safeParse(raw);
    if (!parsed.success || this.seen.has(parsed.data.id)) return;
    this.seen.add(parsed.data.id);
    this.deliver(parsed.data);
  }

  open(): void {
    if (this.source) return;
    this.setState('connecting');
    const source = new EventSource(inboxPaths(this.name).events);
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
      const res = await fetch(inboxPaths(this.name).list, { headers: { Accept: 'application/json' } });
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
    this.setState('idle');
  }
}
