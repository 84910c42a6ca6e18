/**
 * The browser's one client of the console server's callback inbox: names an inbox, streams its
 * events (`/callbacks/<inbox>/events`), reads the kept ones when the stream (re)opens
 * (`/callbacks/<inbox>/list`) and parses every event with the contract. The workbench's callbacks
 * panel (this tab's session inbox) and each guided flow (an inbox of its own) use it.
 */
import '../catalog/zod-english.ts';
import { CallbackEventSchema, inboxPaths, type CallbackEvent } from '../contracts/callback-inbox.ts';
import { Store } from '../core/store.ts';

export { callbackUrl, newInboxName, sessionInbox } from './session-inbox.ts';

export type InboxState = 'idle' | 'connecting' | 'open' | 'error';

/** One inbox's stream; its snapshot is the stream's state. */
export class InboxClient extends Store<InboxState> {
  private source: EventSource | null = null;
  protected snap: InboxState = 'idle';
  private readonly seen = new Set<number>();

  constructor(
    readonly name: string,
    private readonly deliver: (e: CallbackEvent) => void,
  ) {
    super();
  }

  get url(): string {
    return `${location.origin}${inboxPaths(this.name).inbox}`;
  }

  private setState(s: InboxState): void {
    if (s !== this.snap) this.publish(s);
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
