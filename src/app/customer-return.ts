// zod/mini: the shell listens for returns on the first page.
import { z } from 'zod/mini';
import { DRAFT_VERSION, type RequestDraft } from '../model/index.ts';
import type { Exchange } from '../model/exchange.ts';
import { OWN_ORDERS_KEY } from '../browser/recent-orders-session.ts';

/**
 * The customer comes back from the issuer in a new tab (the 3-D Secure page opens with noopener),
 * which has no secrets unless they are remembered. The return page passes what the issuer returned
 * to the console tab that sent the order, over a same-origin BroadcastChannel; that tab fills its
 * upload form and signs it. Only the issuer's own fields cross the channel, never a key or control.
 */
const CHANNEL = 'pay-console-customer-return';

const value = z.string().check(z.maxLength(20_000));
const ReturnFieldsSchema = z.strictObject({
  cres: z.optional(value),
  PaRes: z.optional(value),
  MD: z.optional(value),
  threeDSServerTransID: z.optional(value),
  orderid: z.optional(value),
  client_orderid: z.optional(value),
});
export type ReturnFields = z.infer<typeof ReturnFieldsSchema>;
const FIELD_NAMES = Object.keys(ReturnFieldsSchema.shape) as Array<keyof ReturnFields>;

const messageId = z.string().check(z.minLength(1), z.maxLength(64));
const MessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('return'), id: messageId, fields: ReturnFieldsSchema }),
  z.strictObject({ type: z.literal('taken'), id: messageId }),
]);

/**
 * What the customer came back with: the fields the gateway POSTed (the server put them in a meta
 * element, proxy/posted-return.ts), else the address's query (an older sandbox, a GET redirect).
 */
export function returnQuery(): { fields: URLSearchParams; posted: boolean } {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="pay-console-posted-return"]');
  return meta
    ? { fields: new URLSearchParams(meta.content), posted: true }
    : { fields: new URLSearchParams(location.search), posted: false };
}

/** The issuer's fields of a return address's query; nothing else (no control, no status). */
export function returnFieldsOf(q: URLSearchParams): ReturnFields {
  const out: ReturnFields = {};
  for (const k of FIELD_NAMES) {
    const v = q.get(k);
    if (v !== null) out[k] = v;
  }
  return out;
}

export function uploadDraft(f: ReturnFields): { title: string; draft: RequestDraft } | null {
  const ids = { 'client-order-id': f.client_orderid ?? '', orderid: f.orderid ?? f.MD ?? '' };
  if (f.cres) {
    return {
      title: 'Upload the CRes (upload-cres-result)',
      draft: {
        v: DRAFT_VERSION,
        operation: '3ds/v1/upload-cres-result',
        values: { ...ids, cRes: f.cres },
        extras: [],
      },
    };
  }
  if (f.PaRes) {
    return {
      title: 'Upload the PaRes (upload-pares-result)',
      draft: {
        v: DRAFT_VERSION,
        operation: '3ds/v1/upload-pares-result',
        values: { ...ids, paRes: f.PaRes },
        extras: [],
      },
    };
  }
  return null;
}

/**
 * Order ids this tab sent or was answered with: a return for one of them belongs here. Kept in this
 * tab's sessionStorage, so a reload of the sending tab still takes its customer's return (the
 * customer's own tab, opened without an opener, starts with none).
 */
const OWN_LIMIT = 100;

function ownOrders(): string[] {
  try {
    const parsed = z.array(z.string()).safeParse(JSON.parse(sessionStorage.getItem(OWN_ORDERS_KEY) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function noteOrders(ex: Exchange): void {
  const ids: string[] = [];
  const addId = (v: unknown) => {
    if (typeof v === 'string' && v !== '') ids.push(v);
    else if (typeof v === 'number') ids.push(String(v));
  };
  for (const p of ex.request.body) if (p.name === 'client_orderid' || p.name === 'orderid') addId(p.value);
  if (ex.response) {
    try {
      const body: unknown = JSON.parse(ex.response.body);
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        const b = body as Record<string, unknown>;
        addId(b['paynet-order-id']);
        addId(b['merchant-order-id']);
      }
    } catch {
      // not JSON: the request's ids are enough
    }
  }
  if (ids.length === 0) return;
  const kept = [...new Set([...ids, ...ownOrders()])].slice(0, OWN_LIMIT);
  try {
    sessionStorage.setItem(OWN_ORDERS_KEY, JSON.stringify(kept));
  } catch {
    // storage refused: a reload forgets them
  }
}

function ownsReturn(f: ReturnFields): boolean {
  const own = new Set(ownOrders());
  return [f.client_orderid, f.orderid, f.MD].some((id) => id !== undefined && own.has(id));
}

function openChannel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
}

/**
 * The return page's side: announces the issuer's fields and calls `onTaken` once the tab that sent
 * the order has taken them. Returns the function that closes the channel.
 */
export function announceReturn(fields: ReturnFields, onTaken: () => void): () => void {
  const channel = openChannel();
  if (!channel) return () => {};
  const id = globalThis.crypto.randomUUID();
  channel.onmessage = (e: MessageEvent) => {
    const m = MessageSchema.safeParse(e.data);
    if (m.success && m.data.type === 'taken' && m.data.id === id) onTaken();
  };
  channel.postMessage({ type: 'return', id, fields });
  return () => channel.close();
}

/**
 * A console tab's side: a return for an order this tab sent is handed to `onReturn` (once per
 * announcement) and acknowledged. Returns the function that stops listening.
 */
export function listenForReturns(onReturn: (fields: ReturnFields) => void): () => void {
  const channel = openChannel();
  if (!channel) return () => {};
  const handled = new Set<string>();
  channel.onmessage = (e: MessageEvent) => {
    const m = MessageSchema.safeParse(e.data);
    if (!m.success || m.data.type !== 'return' || handled.has(m.data.id)) return;
    if (!ownsReturn(m.data.fields) || !uploadDraft(m.data.fields)) return;
    handled.add(m.data.id);
    channel.postMessage({ type: 'taken', id: m.data.id });
    onReturn(m.data.fields);
  };
  return () => channel.close();
}
