/**
 * The local sandbox's scenario lab on the wire (`/sandbox/scenarios`, `/sandbox/clock`,
 * `/sandbox/relay`): the sandbox's relay types its records with it and the console's client
 * (`src/browser/sandbox-lab.ts`) parses every answer with it.
 */
import { z } from 'zod/mini';
import { ScenarioChoiceSchema } from '../catalog/scenarios.ts';
import type { CallbackUrlField } from '../catalog/callback-routes.ts';

/** The request fields a callback can go to (`src/catalog/callback-routes.ts`). */
const CALLBACK_URL_FIELDS = [
  'server_callback_url',
  'notify_url',
] as const satisfies readonly CallbackUrlField[];

/** A refusal of the lab's admin routes (the gateway's error shape). */
export const LabErrorSchema = z.looseObject({ 'error-message': z.string() });

/** `GET /sandbox/scenarios`: each merchant's chosen scenarios and its test clock. */
export const LabStateSchema = z.object({
  merchants: z.array(
    z.object({ login: z.string(), choice: ScenarioChoiceSchema, clockAdvancedMs: z.number() }),
  ),
});
export type LabState = z.infer<typeof LabStateSchema>;

/** What the relay did with a callback (`sandbox/relay/`): one kind per row. */
export const DELIVERY_KINDS = [
  'delivery',
  'duplicate',
  'forged',
  'dropped',
  'held',
  'refused',
  'replay',
] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];

/** One row of the relay's record: the callback sent and the handler's answer. */
export const DeliverySchema = z.object({
  id: z.number(),
  callbackId: z.nullable(z.number()),
  orderId: z.number(),
  merchant: z.string(),
  kind: z.enum(DELIVERY_KINDS),
  mutation: z.nullable(z.string()),
  url: z.string(),
  at: z.number(),
  httpStatus: z.nullable(z.number()),
  result: z.string(),
  durationMs: z.nullable(z.number()),
  bodyExcerpt: z.nullable(z.string()),
  /** The request field whose URL this went to (null: recorded before the sandbox kept it). */
  urlField: z.nullable(z.enum(CALLBACK_URL_FIELDS)),
});
export type DeliveryRecord = z.infer<typeof DeliverySchema>;

/**
 * A record as the relay's routes answer it: why its URL heard about the transaction and, in the
 * list, its attempt on the retry schedule and, while its callback waits, when the next one is due
 * (the sandbox's clock; the merchant's time adds its test clock's advance).
 */
export const DeliveryViewSchema = z.extend(DeliverySchema, {
  urlWhy: z._default(z.nullable(z.string()), null),
  attempt: z._default(z.nullable(z.number()), null),
  nextAttemptAt: z._default(z.nullable(z.number()), null),
});
export type Delivery = z.infer<typeof DeliveryViewSchema>;

/** `POST /sandbox/clock/<login>/advance`. */
export const AdvanceSchema = z.object({
  advancedMs: z.number(),
  totalAdvancedMs: z.number(),
  steps: z.number(),
});
export type Advance = z.infer<typeof AdvanceSchema>;

/** A recurring payment's schedule as `GET /sandbox/clock/:login` lists it (times in the merchant's time). */
export const RecurringScheduleSchema = z.object({
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
export type RecurringSchedule = z.infer<typeof RecurringScheduleSchema>;

/** A callback the sandbox has yet to deliver, its next attempt in the merchant's time (issue 28). */
export const PendingCallbackSchema = z.object({
  callbackId: z.number(),
  orderId: z.string(),
  clientOrderId: z.string(),
  type: z.string(),
  status: z.string(),
  urlField: z.string(),
  attempts: z.number(),
  nextAttemptAt: z.number(),
});
export type PendingCallback = z.infer<typeof PendingCallbackSchema>;

/** `GET /sandbox/clock/<login>`. */
export const ClockStateSchema = z.object({
  login: z.string(),
  clockAdvancedMs: z.number(),
  recurring: z.array(RecurringScheduleSchema),
  callbacks: z.optional(z.array(PendingCallbackSchema)),
  retrySchedule: z.optional(z.string()),
});

/** `POST /sandbox/relay/handler-check`. */
export const CheckReportSchema = z.object({
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
export type CheckReport = z.infer<typeof CheckReportSchema>;

export const REPLAY_MUTATIONS = ['as-is', 'bad-control', 'amount', 'duplicate', 'stale'] as const;
export type ReplayMutation = (typeof REPLAY_MUTATIONS)[number];

/** `PUT /sandbox/scenarios/merchants/<login>`. */
export const ChooseAnswerSchema = z.object({ choice: ScenarioChoiceSchema });
/** `GET /sandbox/relay/deliveries`. */
export const DeliveriesAnswerSchema = z.object({ deliveries: z.array(DeliveryViewSchema) });
/** `POST /sandbox/relay/deliveries/<id>/replay`. */
export const ReplayAnswerSchema = z.object({ delivery: DeliveryViewSchema });
