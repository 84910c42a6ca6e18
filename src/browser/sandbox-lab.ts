/**
 * The console's client of the local sandbox's scenario lab (`/sandbox/scenarios`, `/sandbox/clock`,
 * `/sandbox/relay`): every answer parsed with zod before a page reads it. Only lazy pages load this.
 */
import { z } from 'zod/mini';
import '../catalog/zod-english.ts';
import { ScenarioChoiceSchema, type ScenarioChoice } from '../catalog/scenarios.ts';

const ErrorBody = z.looseObject({ 'error-message': z.string() });

const LabState = z.object({
  merchants: z.array(
    z.object({ login: z.string(), choice: ScenarioChoiceSchema, clockAdvancedMs: z.number() }),
  ),
});
export type LabState = z.infer<typeof LabState>;

export const DeliverySchema = z.object({
  id: z.number(),
  orderId: z.number(),
  merchant: z.string(),
  kind: z.string(),
  mutation: z.nullable(z.string()),
  url: z.string(),
  at: z.number(),
  httpStatus: z.nullable(z.number()),
  result: z.string(),
  durationMs: z.nullable(z.number()),
  bodyExcerpt: z.nullable(z.string()),
  /** The attempt on the retry schedule (deliveries and drops), null for extra sends and replays. */
  attempt: z._default(z.nullable(z.number()), null),
  /** When the callback's next attempt is due (the sandbox's clock), while it waits for one. */
  nextAttemptAt: z._default(z.nullable(z.number()), null),
  /** Which of the order's URLs heard it (`server_callback_url`, `notify_url`) and why (issue 28). */
  urlField: z.optional(z.nullable(z.string())),
  urlWhy: z.optional(z.nullable(z.string())),
});
export type Delivery = z.infer<typeof DeliverySchema>;

const Advance = z.object({ advancedMs: z.number(), totalAdvancedMs: z.number(), steps: z.number() });
export type Advance = z.infer<typeof Advance>;

/** A recurring payment's schedule as `GET /sandbox/clock/:login` lists it (times in the merchant's time). */
const RecurringSchedule = z.object({
  recurringPaymentId: z.string(),
  orderId: z.string(),
  amount: z.string(),
  currency: z.string(),
  period: z.string(),
  interval: z.number(),
  status: z.enum(['active', 'stopped']),
  createdAt: z.number(),
  nextChargeAt: z.nullable(z.number()),
  nextChargeNo: z.number(),
  chargesMade: z.number(),
  charges: z.array(
    z.object({
      orderId: z.string(),
      clientOrderId: z.string(),
      chargeNo: z.number(),
      dueAt: z.number(),
      status: z.string(),
    }),
  ),
});
export type RecurringSchedule = z.infer<typeof RecurringSchedule>;

/** A callback the sandbox has yet to deliver, its next attempt in the merchant's time (issue 28). */
const PendingCallback = z.object({
  callbackId: z.number(),
  orderId: z.string(),
  clientOrderId: z.string(),
  type: z.string(),
  status: z.string(),
  urlField: z.string(),
  attempts: z.number(),
  nextAttemptAt: z.number(),
});
export type PendingCallback = z.infer<typeof PendingCallback>;

const ClockState = z.object({
  login: z.string(),
  clockAdvancedMs: z.number(),
  recurring: z.array(RecurringSchedule),
  callbacks: z.optional(z.array(PendingCallback)),
  retrySchedule: z.optional(z.string()),
});

const CheckReport = z.object({
  url: z.string(),
  passed: z.boolean(),
  results: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      outcome: z.enum(['passed', 'failed', 'skipped']),
      detail: z.string(),
      durationMs: z.number(),
      rule: z.object({ source: z.string(), section: z.string(), quote: z.string() }),
    }),
  ),
});
export type CheckReport = z.infer<typeof CheckReport>;

export const REPLAY_MUTATIONS = ['as-is', 'bad-control', 'amount', 'duplicate', 'stale'] as const;
export type ReplayMutation = (typeof REPLAY_MUTATIONS)[number];

async function call<T>(
  url: string,
  schema: z.ZodMiniType<T>,
  init?: { method: string; body: unknown },
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init?.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        ...(init ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(init ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch {
    throw new Error('Could not reach the local sandbox: is the console server (`npm start`) running?');
  }
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new Error(`The sandbox answered ${res.status} without JSON.`);
  }
  if (!res.ok) {
    const err = ErrorBody.safeParse(json);
    throw new Error(err.success ? err.data['error-message'] : `The sandbox answered ${res.status}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error('The sandbox answered in an unexpected shape.');
  return parsed.data;
}

const enc = encodeURIComponent;

export const labState = () => call('/sandbox/scenarios', LabState);

export const chooseScenarios = (login: string, choice: ScenarioChoice) =>
  call(`/sandbox/scenarios/merchants/${enc(login)}`, z.object({ choice: ScenarioChoiceSchema }), {
    method: 'PUT',
    body: { choice },
  });

export const advanceClock = (login: string, ms: number) =>
  call(`/sandbox/clock/${enc(login)}/advance`, Advance, { method: 'POST', body: { ms } });

export const clockState = (login: string) => call(`/sandbox/clock/${enc(login)}`, ClockState);

export const listDeliveries = (login: string | undefined, orderId?: string) =>
  call(
    `/sandbox/relay/deliveries?limit=50${login ? `&login=${enc(login)}` : ''}${orderId ? `&orderid=${enc(orderId)}` : ''}`,
    z.object({ deliveries: z.array(DeliverySchema) }),
  ).then((r) => r.deliveries);

export const replayDelivery = (id: number, mutation: ReplayMutation) =>
  call(`/sandbox/relay/deliveries/${id}/replay`, z.object({ delivery: DeliverySchema }), {
    method: 'POST',
    body: { mutation },
  }).then((r) => r.delivery);

export const checkHandler = (body: { url: string; login?: string; stateUrl?: string }) =>
  call('/sandbox/relay/handler-check', CheckReport, { method: 'POST', body });
