/**
 * The local sandbox's scenario lab on the wire (`/sandbox/scenarios`, `/sandbox/clock`,
 * `/sandbox/relay`): the sandbox's relay types its records with it and the console's client
 * (`src/browser/sandbox-lab.ts`) parses every answer with it.
 */
import { z } from 'zod/mini';
import { ScenarioChoiceSchema } from '../catalog/scenarios.ts';

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
});
export type DeliveryRecord = z.infer<typeof DeliverySchema>;
export type Delivery = DeliveryRecord;

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

/** `GET /sandbox/clock/<login>`. */
export const ClockStateSchema = z.object({
  login: z.string(),
  clockAdvancedMs: z.number(),
  recurring: z.array(RecurringScheduleSchema),
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
export const DeliveriesAnswerSchema = z.object({ deliveries: z.array(DeliverySchema) });
/** `POST /sandbox/relay/deliveries/<id>/replay`. */
export const ReplayAnswerSchema = z.object({ delivery: DeliverySchema });
