import { z } from 'zod/mini';
import type { CryptoPort } from '../../core/crypto-port.ts';
import { decodeFormBody, percentEncode } from '../../core/percent-encode.ts';
import { maskPair, scrubText } from '../../catalog/card-data.ts';
import { diagnose } from '../diagnose.ts';
import { asCallbackCapture } from '../steps/callback-capture.ts';
import type { IncidentItem } from './split-incident.ts';
import { checkStateRules, type StateFinding } from './state-rules.ts';

export const CAPSULE_KIND = 'pay-console.capsule';

const Pair = z.object({ name: z.string(), value: z.string() });
const StepSchema = z.object({
  index: z.int(),
  source: z.string(),
  time: z.nullable(z.number()),
  kind: z.enum(['request', 'callback', 'return']),
  operation: z.string(),
  clientOrderId: z.string(),
  orderId: z.string(),
  method: z.string(),
  url: z.string(),
  headers: z.array(Pair),
  params: z.array(Pair),
  answerStatus: z.nullable(z.number()),
  answer: z.nullable(z.string()),
  verdict: z.enum(['ok', 'mismatch', 'cannot-check', 'not-signed']),
  causes: z.array(z.object({ id: z.string(), title: z.string(), confidence: z.string() })),
  hash: z.string(),
});
export type CapsuleStep = z.infer<typeof StepSchema>;

export const CapsuleSchema = z.object({
  kind: z.literal(CAPSULE_KIND),
  version: z.literal(1),
  note: z.string(),
  steps: z.array(StepSchema),
  orders: z.array(
    z.object({ clientOrderId: z.string(), orderIds: z.array(z.string()), steps: z.array(z.number()) }),
  ),
  findings: z.array(
    z.object({ rule: z.string(), step: z.number(), clientOrderId: z.string(), message: z.string() }),
  ),
  skipped: z.int(),
  head: z.string(),
});
export type Capsule = z.infer<typeof CapsuleSchema>;

export interface CapsuleKeys {
  controlKey?: string;
  publicKey?: CryptoKey;
  login?: string;
}

/** Keys in a stable order: the text a step's hash covers. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

const sha256 = (crypto: CryptoPort, text: string) => crypto.sha256Hex(new TextEncoder().encode(text));

/** Headers a capsule keeps: what says how the request was signed and sent, never a cookie or a password. */
const KEPT_HEADERS = new Set(['host', 'content-type', 'accept', 'authorization', 'user-agent']);

function keptHeaders(h: Record<string, string>): Array<{ name: string; value: string }> {
  return Object.entries(h)
    .filter(([k, v]) => KEPT_HEADERS.has(k) && !(k === 'authorization' && !/^\s*OAuth\s/i.test(v)))
    .map(([name, value]) => ({ name, value: scrubText(value) }));
}

function maskedPairs(pairs: ReadonlyArray<{ name: string; value: string }>, op?: string) {
  return pairs
    .map((p) => maskPair(p, op))
    .filter((p): p is { name: string; value: string } => p !== undefined);
}

/** The status a gateway answer or a callback names. */
export function statusOf(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  return /(?:^|[&\s{,"])status"?\s*[=:]\s*"?([a-z_]+)/i.exec(text)?.[1]?.toLowerCase();
}

async function stepOf(item: IncidentItem, keys: CapsuleKeys, crypto: CryptoPort) {
  const callback = asCallbackCapture(item.request);
  const url = new URL(item.request.url);
  const pairs = callback ? decodeFormBody(callback.body) : decodeFormBody(item.request.body);
  const get = (...names: string[]) => names.map((n) => pairs.find((p) => p.name === n)?.value).find((v) => v);
  let verdict: CapsuleStep['verdict'] = 'not-signed';
  let operation = callback ? 'callback' : '';
  let causes: CapsuleStep['causes'] = [];
  try {
    const d = await diagnose({
      capture: item.request,
      crypto,
      headersComplete: item.headersComplete,
      urlSchemeKnown: item.schemeKnown,
      ...(item.time !== undefined ? { now: item.time } : {}),
      ...(keys.controlKey !== undefined ? { controlKey: keys.controlKey } : {}),
      ...(keys.publicKey ? { publicKey: keys.publicKey } : {}),
      ...(keys.login ? { login: keys.login } : {}),
    });
    operation = d.operationPath;
    verdict = d.verdict;
    causes = d.likelyCauses.map((c) => ({ id: c.mistakeId, title: c.title, confidence: c.confidence }));
  } catch {
    operation ||= url.pathname;
  }
  const kind: CapsuleStep['kind'] = callback
    ? item.request.method.toUpperCase() === 'GET'
      ? 'callback'
      : 'return'
    : 'request';
  const query = maskedPairs(
    [...url.searchParams].map(([name, value]) => ({ name, value })),
    operation,
  );
  const masked = new URL(url.origin + url.pathname);
  const step: Omit<CapsuleStep, 'hash'> = {
    index: 0,
    source: item.source,
    time: item.time ?? null,
    kind,
    operation,
    clientOrderId: get('client_orderid', 'client-order-id', 'merchant_order') ?? '',
    orderId: get('orderid', 'order-id') ?? '',
    method: item.request.method,
    url: `${masked.href}${query.length > 0 ? `?${query.map((p) => `${percentEncode(p.name)}=${percentEncode(p.value)}`).join('&')}` : ''}`,
    headers: keptHeaders(item.request.headers),
    params: kind === 'callback' ? [] : maskedPairs(decodeFormBody(item.request.body), operation),
    answerStatus: item.answerStatus ?? null,
    answer: item.answerBody !== undefined ? scrubText(item.answerBody).slice(0, 2000) : null,
    verdict,
    causes,
  };
  return step;
}

/**
 * An incident's capsule: every request, callback and return, in time order (the order given where
 * a capture has no time), each diagnosed with the keys given (used here, never written), masked by
 * construction (card numbers to 6+4, CVVs and secrets dropped, only the signing headers kept),
 * grouped by order, checked against the state rules, and hash-chained: each step's hash covers the
 * previous one and the step, the head covers the last step, the orders and the findings.
 * @throws Error when a key given would be written (it never is; the check is the guarantee).
 */
export async function buildCapsule(
  items: readonly IncidentItem[],
  keys: CapsuleKeys,
  crypto: CryptoPort,
  skipped = 0,
): Promise<Capsule> {
  const drafts = [];
  for (const item of items) drafts.push(await stepOf(item, keys, crypto));
  const order = drafts
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (a.s.time !== null && b.s.time !== null ? a.s.time - b.s.time : 0) || a.i - b.i)
    .map((x, index) => ({ ...x.s, index }));
  const steps: CapsuleStep[] = [];
  let prev = '';
  for (const s of order) {
    prev = await sha256(crypto, prev + canonical(s));
    steps.push({ ...s, hash: prev });
  }
  const byOrder = new Map<string, { clientOrderId: string; orderIds: string[]; steps: number[] }>();
  for (const s of steps) {
    const key = s.clientOrderId || `orderid:${s.orderId}`;
    const o = byOrder.get(key) ?? { clientOrderId: s.clientOrderId, orderIds: [], steps: [] };
    if (s.orderId && !o.orderIds.includes(s.orderId)) o.orderIds.push(s.orderId);
    o.steps.push(s.index);
    byOrder.set(key, o);
  }
  const orders = [...byOrder.values()];
  const findings: StateFinding[] = checkStateRules(steps);
  const head = await sha256(crypto, prev + canonical({ orders, findings }));
  const capsule: Capsule = {
    kind: CAPSULE_KIND,
    version: 1,
    note: 'Secret-free and card-masked by construction; each step hash-chained (paysign capsule verify).',
    steps,
    orders,
    findings,
    skipped,
    head,
  };
  const text = JSON.stringify(capsule);
  if (keys.controlKey && keys.controlKey.length >= 4 && text.includes(keys.controlKey))
    throw new Error('the capsule would hold the control key: refused');
  return capsule;
}

export interface CapsuleCheck {
  ok: boolean;
  /** The first step whose hash does not follow (a change to it or before it), or -1. */
  brokenAt: number;
  problems: string[];
}

/** Checks a capsule's chain and its derived parts (orders and findings) against its steps. */
export async function verifyCapsule(value: unknown, crypto: CryptoPort): Promise<CapsuleCheck> {
  const parsed = CapsuleSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      brokenAt: -1,
      problems: [
        `not a capsule: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`,
      ],
    };
  const c = parsed.data;
  const problems: string[] = [];
  let prev = '';
  let brokenAt = -1;
  for (const [i, s] of c.steps.entries()) {
    const { hash, ...rest } = s;
    prev = await sha256(crypto, prev + canonical(rest));
    if (prev !== hash && brokenAt === -1) {
      brokenAt = i;
      problems.push(
        `step ${i + 1} (${s.source}) was changed: its hash does not follow from the step and the one before`,
      );
    }
    if (brokenAt !== -1) prev = hash;
  }
  const head = await sha256(crypto, prev + canonical({ orders: c.orders, findings: c.findings }));
  if (brokenAt === -1 && head !== c.head)
    problems.push('the orders or the findings were changed: the head hash does not follow');
  const again = checkStateRules(c.steps);
  if (canonical(again) !== canonical(c.findings)) problems.push('the findings are not what the steps give');
  return { ok: problems.length === 0, brokenAt, problems };
}
