import { errorText } from '../core/errors.ts';
import type { BuiltRequest, Credentials } from '../core/index.ts';
import { decodeFormBody, percentEncode } from '../core/percent-encode.ts';
import { findOperation, isCvvName } from '../catalog/index.ts';
import { TEST_CARD } from '../catalog/test-cards.ts';
import type { Capsule, CapsuleStep } from '../diagnose/capsule/capsule.ts';
import { buildDraft, type SigningEnv, type SigningRuntime } from '../model/build-draft.ts';
import { draftFromCapture } from '../model/import-draft.ts';
import { isWithheld, type DraftValue, type RequestDraft } from '../model/request-draft.ts';
import { missingValues } from '../model/missing-values.ts';

/** The sandbox merchant a capsule is replayed into (`POST /sandbox/merchants`): never the incident's. */
export interface ReplayMerchant {
  login: string;
  controlKey: string;
  endpointId: string;
  endpointGroupId: string;
  /** Its private key, imported, for the RSA-SHA256 operations. */
  privateKey?: CryptoKey;
}

export interface ReplayPorts {
  runtime: SigningRuntime;
  /** Sends one built request to the sandbox: its HTTP status and body text. */
  send(request: BuiltRequest): Promise<{ status: number; body: string }>;
  /** Waits between two steps (the capsule's gap, compressed). */
  wait(ms: number): Promise<void>;
}

export interface ReplayOptions {
  /** The sandbox's base URL, everything before `/api/`, e.g. `http://127.0.0.1:4174/sandbox/paynet`. */
  baseUrl: string;
  /** The console's origin, for the return page. */
  origin: string;
  /** Where the sandbox's callbacks go; absent, the capsule's callback URLs are left out (never the merchant's). */
  callbackUrl?: string;
  /** The capsule's gaps are divided by this (default 60: a minute becomes a second)… */
  compress?: number;
  /** …and capped at this many milliseconds (default 1000). */
  maxGapMs?: number;
  onStep?: (result: ReplayStepResult, done: number, total: number) => void;
}

export type ReplayOutcome = 'same' | 'differs' | 'no-record' | 'not-sent';

export interface ReplayStepResult {
  /** The capsule step's index (0-based). */
  index: number;
  kind: CapsuleStep['kind'];
  operation: string;
  outcome: ReplayOutcome;
  /** What the sandbox answered (its HTTP status and the fields compared), when the step was sent. */
  sandboxStatus: number | null;
  /** The sandbox's `error-message`, when it refused the step: why, in its words. */
  sandboxMessage?: string;
  /** Each compared field that differs: what the merchant's log recorded, what the sandbox answered. */
  differences: Array<{ field: string; captured: string; sandbox: string }>;
  /** What the replay changed or why it did not send: the card, the CVV, the callback URL, a problem. */
  notes: string[];
}

export interface ReplayReport {
  login: string;
  steps: ReplayStepResult[];
  counts: Record<ReplayOutcome, number>;
  /** True when any sent step's answer differs from the recorded one. */
  divergent: boolean;
}

/** The answer's fields a replay compares: what the gateway decided, not its fresh ids. */
export const COMPARED_FIELDS = ['type', 'status', 'error-code', 'transaction-type'] as const;

const CALLBACK_FIELDS = new Set(['server_callback_url', 'notify_url']);
const ORDER_ID_FIELDS = ['orderid', 'order-id'];

/** An answer's top-level fields, whatever its dialect: JSON, form-encoded, or `key=value` lines. */
export function answerFields(text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!text) return out;
  const norm = (k: string) => k.trim().toLowerCase().replaceAll('_', '-');
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const doc = JSON.parse(trimmed) as unknown;
      if (doc && typeof doc === 'object')
        for (const [k, v] of Object.entries(doc))
          if (typeof v === 'string' || typeof v === 'number') out.set(norm(k), String(v).trim());
      return out;
    } catch {
      // Not JSON after all: read as pairs.
    }
  }
  for (const line of trimmed.split(/\r?\n/))
    for (const p of decodeFormBody(line.trim())) if (p.name) out.set(norm(p.name), p.value.trim());
  return out;
}

function orderIdOf(fields: Map<string, string>): string | undefined {
  return fields.get('paynet-order-id') ?? fields.get('orderid') ?? fields.get('order-id');
}

/** Compares a sandbox answer with the recorded one, field by field. */
export function diffAnswers(
  step: Pick<CapsuleStep, 'answerStatus' | 'answer'>,
  status: number,
  body: string,
): { outcome: 'same' | 'differs' | 'no-record'; differences: ReplayStepResult['differences'] } {
  if (step.answerStatus === null && step.answer === null) return { outcome: 'no-record', differences: [] };
  const differences: ReplayStepResult['differences'] = [];
  if (step.answerStatus !== null && step.answerStatus !== status)
    differences.push({ field: 'HTTP status', captured: String(step.answerStatus), sandbox: String(status) });
  const captured = answerFields(step.answer);
  const sandbox = answerFields(body);
  for (const f of COMPARED_FIELDS) {
    const c = captured.get(f);
    const s = sandbox.get(f);
    if (c !== undefined && c.toLowerCase() !== (s ?? '').toLowerCase())
      differences.push({ field: f, captured: c, sandbox: s ?? '(absent)' });
  }
  return { outcome: differences.length > 0 ? 'differs' : 'same', differences };
}

/** The step as a captured request again, for the model's import. */
function captureOf(step: CapsuleStep) {
  return {
    method: step.method,
    url: step.url,
    headers: Object.fromEntries(step.headers.map((h) => [h.name.toLowerCase(), h.value])),
    body: step.params.map((p) => `${percentEncode(p.name)}=${percentEncode(p.value)}`).join('&'),
  };
}

interface Ids {
  /** The merchant's order id → the sandbox's, learned from the answers. */
  byOrderId: Map<string, string>;
  /** client_orderid → the sandbox's order id, for a step whose recorded answer named none. */
  byClientOrderId: Map<string, string>;
}

/** The step's draft with the sandbox's merchant, ids and test card in place of the incident's. */
function rewrite(draft: RequestDraft, step: CapsuleStep, m: ReplayMerchant, ids: Ids, opts: ReplayOptions) {
  const notes: string[] = [];
  const op = findOperation(draft.operation);
  const values: Record<string, DraftValue> = {};
  const swap = (name: string, v: DraftValue): DraftValue | undefined => {
    if (name === 'login') return m.login;
    if (CALLBACK_FIELDS.has(name) && v !== '') {
      if (opts.callbackUrl === undefined) {
        notes.push(`${name} left out: the sandbox never calls the merchant's own server.`);
        return undefined;
      }
      return opts.callbackUrl;
    }
    if (isWithheld(v) && v.withheld === 'card-number') {
      const masked = step.params.find((p) => p.name === name)?.value ?? '';
      const same =
        masked.slice(0, 6) === TEST_CARD.number.slice(0, 6) &&
        masked.slice(-4) === TEST_CARD.number.slice(-4);
      if (!same) notes.push(`${name} is masked in the capsule: the sandbox's test card was sent.`);
      return TEST_CARD.number;
    }
    if (typeof v === 'string' && ORDER_ID_FIELDS.includes(name)) {
      const mapped = ids.byOrderId.get(v) ?? ids.byClientOrderId.get(step.clientOrderId);
      if (mapped === undefined) notes.push(`${name} ${v} was not created by an earlier step: sent as it is.`);
      return mapped ?? v;
    }
    return v;
  };
  for (const [name, v] of Object.entries(draft.values)) {
    const next = swap(name, v);
    if (next !== undefined) values[name] = next;
  }
  const extras = draft.extras.flatMap((e) => {
    const next = swap(e.name, e.value);
    return next === undefined ? [] : [{ name: e.name, value: next }];
  });
  for (const f of op?.fields ?? [])
    if (isCvvName(f.name) && (values[f.name] ?? '') === '' && step.params.length > 0) {
      values[f.name] = '123';
      notes.push(`${f.name} is never in a capsule: 123 (approved) was sent.`);
    }
  const endpoint =
    draft.endpoint?.kind === 'group'
      ? { kind: 'group' as const, id: m.endpointGroupId }
      : { kind: 'endpoint' as const, id: m.endpointId };
  return { draft: { ...draft, values, extras, endpoint }, notes };
}

/**
 * Replays a capsule's requests, in order, into a sandbox merchant made for it: each re-signed with
 * that merchant's keys (the incident's merchant's key is never needed), its ids (endpoint, login,
 * the order ids the sandbox gave earlier steps) and the sandbox's test card in place of the masked
 * one, the gaps between steps compressed; each answer compared with the one the logs recorded.
 * Callbacks and returns the merchant received are listed, not sent: the sandbox sends its own.
 */
export async function replayCapsule(
  capsule: Capsule,
  merchant: ReplayMerchant,
  ports: ReplayPorts,
  opts: ReplayOptions,
): Promise<ReplayReport> {
  const credentials: Credentials = {
    login: merchant.login,
    controlKey: merchant.controlKey,
    ...(merchant.privateKey ? { privateKey: merchant.privateKey } : {}),
  };
  const env = {
    place: { origin: opts.origin, inboxUrl: opts.callbackUrl ?? '', login: merchant.login },
    baseUrl: opts.baseUrl,
    endpoint: { kind: 'endpoint' as const, id: merchant.endpointId },
    credentials,
    runtime: ports.runtime,
  };
  const ids: Ids = { byOrderId: new Map(), byClientOrderId: new Map() };
  const steps: ReplayStepResult[] = [];
  const compress = opts.compress ?? 60;
  const maxGap = opts.maxGapMs ?? 1000;
  let lastTime: number | null = null;
  for (const step of capsule.steps) {
    const base = { index: step.index, kind: step.kind, operation: step.operation, sandboxStatus: null };
    let result: ReplayStepResult;
    if (step.kind !== 'request') {
      result = {
        ...base,
        outcome: 'not-sent',
        differences: [],
        notes: [`a ${step.kind} the merchant received: the sandbox sends its own, it is not replayed.`],
      };
    } else {
      if (step.time !== null && lastTime !== null && step.time > lastTime)
        await ports.wait(Math.min((step.time - lastTime) / compress, maxGap));
      if (step.time !== null) lastTime = step.time;
      result = await replayStep(step, merchant, ids, env, ports, opts, base);
    }
    steps.push(result);
    opts.onStep?.(result, steps.length, capsule.steps.length);
  }
  const counts: Record<ReplayOutcome, number> = { same: 0, differs: 0, 'no-record': 0, 'not-sent': 0 };
  for (const s of steps) counts[s.outcome] += 1;
  return { login: merchant.login, steps, counts, divergent: counts.differs > 0 };
}

async function replayStep(
  step: CapsuleStep,
  merchant: ReplayMerchant,
  ids: Ids,
  env: SigningEnv,
  ports: ReplayPorts,
  opts: ReplayOptions,
  base: Pick<ReplayStepResult, 'index' | 'kind' | 'operation' | 'sandboxStatus'>,
): Promise<ReplayStepResult> {
  const notSent = (why: string): ReplayStepResult => ({
    ...base,
    outcome: 'not-sent',
    differences: [],
    notes: [why],
  });
  let draft: RequestDraft;
  try {
    draft = draftFromCapture(captureOf(step)).draft;
  } catch (e) {
    return notSent(`not replayed: ${errorText(e)}`);
  }
  const changed = rewrite(draft, step, merchant, ids, opts);
  // Fresh nonce and timestamp: the captured ones were used (the gateway refuses a used nonce).
  const { pinned: _used, ...fresh } = changed.draft;
  const missing = [...new Set(missingValues(fresh).map((m) => m.name))];
  if (missing.length > 0) return notSent(`not replayed: ${missing.join(', ')} missing from the capsule.`);
  const built = await buildDraft(fresh, env);
  if (built.problems.length > 0) return notSent(`not replayed: ${built.problems[0]!.message}`);
  let answer: { status: number; body: string };
  try {
    answer = await ports.send(built);
  } catch (e) {
    return notSent(`the sandbox could not be reached: ${errorText(e)}`);
  }
  const fields = answerFields(answer.body);
  const sandboxId = orderIdOf(fields);
  const message = fields.get('error-message');
  if (sandboxId !== undefined) {
    const recorded = orderIdOf(answerFields(step.answer)) ?? (step.orderId || undefined);
    if (recorded !== undefined && !ids.byOrderId.has(recorded)) ids.byOrderId.set(recorded, sandboxId);
    if (step.clientOrderId && !ids.byClientOrderId.has(step.clientOrderId))
      ids.byClientOrderId.set(step.clientOrderId, sandboxId);
  }
  const diff = diffAnswers(step, answer.status, answer.body);
  return {
    ...base,
    sandboxStatus: answer.status,
    ...(message !== undefined ? { sandboxMessage: message } : {}),
    ...diff,
    notes: changed.notes,
  };
}
