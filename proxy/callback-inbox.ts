import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { isCvvName, luhnValid, maskDigits } from '../src/catalog/index.ts';
import { openEventStream } from './event-stream.ts';
import { errorBody } from './upstream-errors.ts';
import { INBOX_NAME, type CallbackEvent } from '../src/contracts/callback-inbox.ts';

export { INBOX_NAME };
export type { CallbackEvent };

const MAX_FIELDS = 200;
const MAX_VALUE = 8192;

/** Fields the callback `control` signs, and identifiers: never masked, or the console could not check them. */
const NEVER_MASKED =
  /^(status|orderid|merchant_order|client_orderid|client-order-id|control|amount|type|currency)$|(^|[-_])(id|rrn|serial-number|approval-code)$|id$/i;

/**
 * Masks what looks like a full card number (13-19 digits, spaces or dashes allowed, Luhn-valid)
 * to its first six and last four digits, and drops CVVs; identifiers and the fields the callback
 * `control` signs are left as they are.
 */
export function maskCallbackFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (isCvvName(name)) {
      out[name] = value === '' ? '' : '***';
      continue;
    }
    const digits = value.replace(/[\s-]/g, '');
    if (!NEVER_MASKED.test(name) && /^\d{13,19}$/.test(digits) && luhnValid(digits)) {
      out[name] = maskDigits(digits);
      continue;
    }
    out[name] = value;
  }
  return out;
}

function fieldsOf(params: URLSearchParams, into: Record<string, string>): void {
  for (const [name, value] of params) {
    if (Object.keys(into).length >= MAX_FIELDS && !(name in into)) break;
    into[name.slice(0, 256)] = value.slice(0, MAX_VALUE);
  }
}

interface Inbox {
  events: CallbackEvent[];
  /** Bytes of each kept event (its JSON), parallel to `events`. */
  sizes: number[];
  bytes: number;
  streams: Set<ServerResponse>;
}

/**
 * The inbox's bounds. Sizes are those of each callback's JSON (what `/list` and the event stream
 * send). With them the callbacks kept take at most `maxTotalBytes` of JSON, whatever is sent.
 */
export interface InboxLimits {
  /** Callbacks kept per inbox (the oldest go first). */
  perInbox: number;
  /** Inboxes kept (the oldest without an open stream goes first). */
  maxInboxes: number;
  /** A larger callback is refused (413): a gateway's callback is well under 2 KiB. */
  maxCallbackBytes: number;
  /** Bytes kept per inbox (the oldest callbacks go first). */
  maxInboxBytes: number;
  /** Bytes kept in all inboxes together (the oldest callbacks, in any inbox, go first). */
  maxTotalBytes: number;
}

export const INBOX_LIMITS: Readonly<InboxLimits> = {
  perInbox: 200,
  maxInboxes: 1000,
  maxCallbackBytes: 16 * 1024,
  maxInboxBytes: 512 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
};

/** A callback over {@link InboxLimits.maxCallbackBytes}; nothing of it is kept. */
export class CallbackTooLargeError extends Error {
  override readonly name = 'CallbackTooLargeError';
}

/** The callbacks received, in memory, within {@link InboxLimits} (count and bytes, oldest first out). */
export class CallbackStore {
  private readonly inboxes = new Map<string, Inbox>();
  private nextId = 1;
  private total = 0;
  readonly limits: Readonly<InboxLimits>;

  constructor(limits: Partial<InboxLimits> = {}) {
    this.limits = { ...INBOX_LIMITS, ...limits };
  }

  /** Bytes of JSON kept in all inboxes. */
  get totalBytes(): number {
    return this.total;
  }

  inbox(name: string): Inbox {
    let box = this.inboxes.get(name);
    if (!box) {
      if (this.inboxes.size >= this.limits.maxInboxes) {
        for (const [oldName, old] of this.inboxes) {
          if (old.streams.size === 0) {
            this.total -= old.bytes;
            this.inboxes.delete(oldName);
            break;
          }
        }
      }
      box = { events: [], sizes: [], bytes: 0, streams: new Set() };
      this.inboxes.set(name, box);
    }
    return box;
  }

  private dropOldest(box: Inbox): void {
    box.events.shift();
    const size = box.sizes.shift() ?? 0;
    box.bytes -= size;
    this.total -= size;
  }

  /** Drops the oldest callback of all inboxes (the inbox whose first event has the lowest id). */
  private dropGloballyOldest(): void {
    let oldest: Inbox | undefined;
    let oldestName = '';
    for (const [name, box] of this.inboxes) {
      const first = box.events[0];
      if (first && (!oldest || first.id < oldest.events[0]!.id)) {
        oldest = box;
        oldestName = name;
      }
    }
    if (!oldest) return;
    this.dropOldest(oldest);
    if (oldest.events.length === 0 && oldest.streams.size === 0) this.inboxes.delete(oldestName);
  }

  /**
   * Keeps one callback (fields masked) and sends it to the inbox's open streams. Throws
   * {@link CallbackTooLargeError} when its JSON is over the per-callback bound.
   */
  add(
    name: string,
    method: string,
    fields: Record<string, string>,
    source: CallbackEvent['source'],
  ): CallbackEvent {
    const event: CallbackEvent = {
      id: this.nextId,
      inbox: name,
      receivedAt: new Date().toISOString(),
      method,
      source,
      query: maskCallbackFields(fields),
    };
    const json = JSON.stringify(event);
    const size = Buffer.byteLength(json);
    if (size > this.limits.maxCallbackBytes) {
      throw new CallbackTooLargeError(
        `The callback is ${size} bytes as JSON; the inbox keeps callbacks of at most ${this.limits.maxCallbackBytes} bytes. Send fewer or shorter fields.`,
      );
    }
    this.nextId++;
    const box = this.inbox(name);
    box.events.push(event);
    box.sizes.push(size);
    box.bytes += size;
    this.total += size;
    while (box.events.length > this.limits.perInbox || box.bytes > this.limits.maxInboxBytes)
      this.dropOldest(box);
    while (this.total > this.limits.maxTotalBytes) this.dropGloballyOldest();
    const frame = `id: ${event.id}\ndata: ${json}\n\n`;
    for (const stream of box.streams) stream.write(frame);
    return event;
  }

  list(name: string): CallbackEvent[] {
    return this.inboxes.get(name)?.events.slice() ?? [];
  }

  clear(name: string): void {
    const box = this.inboxes.get(name);
    if (box) {
      this.total -= box.bytes;
      box.events = [];
      box.sizes = [];
      box.bytes = 0;
    }
  }

  /** Ends every open event stream (server shutdown). */
  closeAll(): void {
    for (const box of this.inboxes.values()) {
      for (const stream of box.streams) stream.end();
      box.streams.clear();
    }
  }
}

export function sseFrame(event: CallbackEvent): string {
  return `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
}

export interface CallbackInboxOptions {
  store: CallbackStore;
  keepAliveMs: number;
  /** Open event streams allowed per inbox. */
  maxStreams?: number;
}

function inboxParam(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const name = (request.params as { inbox?: string }).inbox ?? '';
  if (INBOX_NAME.test(name)) return name;
  void reply
    .code(400)
    .send(
      errorBody('INBOX_INVALID', 'An inbox name is 1-64 letters, digits, "_" or "-", like /callbacks/demo.'),
    );
  return undefined;
}

function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

function customerPage(authentication: boolean): string {
  const title = authentication ? 'Authentication done' : 'Payment page done';
  const what = authentication
    ? 'The issuer sent its result to the console, which uploads it in the tab that started the payment.'
    : 'The gateway sent the outcome to the console: the tab that started the payment shows it.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · pay-console</title></head>
<body><main><h1>${title}, you can close this tab</h1><p>${what}</p></main></body></html>
`;
}

/**
 * The callback inbox, registered under `/callbacks`: `GET|POST /<inbox>` receives a gateway
 * callback and answers 200 `OK` (a browser, i.e. `Accept: text/html`, gets a page telling the
 * customer they can close the tab); `GET /<inbox>/events` streams the callbacks as server-sent
 * events; `GET /<inbox>/list` returns the kept ones. The server never sees the control key:
 * checking a callback's `control` is the console's job.
 */
export const callbackInbox: FastifyPluginAsync<CallbackInboxOptions> = async (app, opts) => {
  const { store } = opts;
  const maxStreams = opts.maxStreams ?? 32;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: store.limits.maxCallbackBytes },
    (_req, body, done) => done(null, new URLSearchParams(body as string)),
  );
  // Any other body is accepted and ignored: the gateway's callbacks carry their fields in the query.
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: store.limits.maxCallbackBytes },
    (_req, _body, done) => done(null, undefined),
  );

  const receive = async (request: FastifyRequest, reply: FastifyReply) => {
    const name = inboxParam(request, reply);
    if (name === undefined) return reply;
    const fields: Record<string, string> = {};
    const q = (request.raw.url ?? '').indexOf('?');
    const query = q >= 0 ? new URLSearchParams((request.raw.url ?? '').slice(q + 1)) : new URLSearchParams();
    fieldsOf(query, fields);
    const hasQuery = [...query.keys()].length > 0;
    const body = request.body instanceof URLSearchParams ? request.body : undefined;
    if (body) fieldsOf(body, fields);
    const hasBody = body !== undefined && [...body.keys()].length > 0;
    try {
      store.add(
        name,
        request.method,
        fields,
        hasQuery && hasBody ? 'query+body' : hasBody ? 'body' : 'query',
      );
    } catch (err) {
      if (!(err instanceof CallbackTooLargeError)) throw err;
      return reply.code(413).send(errorBody('CALLBACK_TOO_LARGE', err.message));
    }
    // A customer's browser sent back here (3-D Secure or hosted form redirect_url) gets a page that
    // says what happened; a gateway's server callback keeps its plain `OK`.
    if (wantsHtml(request.headers.accept)) {
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'")
        .header('cache-control', 'no-store')
        .send(customerPage(fields.cres !== undefined || fields.PaRes !== undefined));
    }
    return reply.code(200).type('text/plain; charset=utf-8').send('OK');
  };
  const receiver = { config: { access: 'callback-receiver' } } as const;
  const reader = { config: { access: 'callback-reader' } } as const;
  app.get('/:inbox', receiver, receive);
  app.post('/:inbox', receiver, receive);

  app.delete('/:inbox', reader, async (request, reply) => {
    const name = inboxParam(request, reply);
    if (name === undefined) return reply;
    store.clear(name);
    return reply.code(204).send();
  });

  app.get('/:inbox/list', reader, async (request, reply) => {
    const name = inboxParam(request, reply);
    if (name === undefined) return reply;
    return reply.header('cache-control', 'no-store').send(store.list(name));
  });

  app.get('/:inbox/events', reader, async (request, reply) => {
    const name = inboxParam(request, reply);
    if (name === undefined) return reply;
    const box = store.inbox(name);
    if (box.streams.size >= maxStreams) {
      return reply
        .code(429)
        .send(
          errorBody(
            'TOO_MANY_STREAMS',
            `Inbox "${name}" already has ${maxStreams} open event streams; close some tabs.`,
          ),
        );
    }
    const res = openEventStream(reply, 3000);
    res.write(': connected\n\n');
    const lastId = Number(request.headers['last-event-id']);
    if (Number.isSafeInteger(lastId) && lastId > 0) {
      for (const e of box.events) if (e.id > lastId) res.write(sseFrame(e));
    }
    box.streams.add(res);
    const timer = setInterval(() => res.write(': keep-alive\n\n'), opts.keepAliveMs);
    const stop = () => {
      clearInterval(timer);
      box.streams.delete(res);
    };
    res.on('close', stop);
    res.on('error', stop);
    return reply;
  });

  app.addHook('preClose', async () => {
    store.closeAll();
  });

  app.all('/*', receiver, async (_request, reply) =>
    reply
      .code(404)
      .send(
        errorBody(
          'NOT_FOUND',
          'Unknown callback address. Use /callbacks/<inbox> (GET or POST), /callbacks/<inbox>/events or /callbacks/<inbox>/list.',
        ),
      ),
  );
};
