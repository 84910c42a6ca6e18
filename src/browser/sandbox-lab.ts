/**
 * The console's client of the local sandbox's scenario lab (`/sandbox/scenarios`, `/sandbox/clock`,
 * `/sandbox/relay`): every answer parsed with zod before a page reads it. Only lazy pages load this.
 */
import type { z } from 'zod/mini';
import '../catalog/zod-english.ts';
import type { ScenarioChoice } from '../catalog/scenarios.ts';
import {
  AdvanceSchema,
  CheckReportSchema,
  ChooseAnswerSchema,
  ClockStateSchema,
  DeliveriesAnswerSchema,
  LabErrorSchema,
  LabStateSchema,
  ReplayAnswerSchema,
  type ReplayMutation,
} from '../contracts/scenario-lab.ts';

export {
  REPLAY_MUTATIONS,
  type Advance,
  type CheckReport,
  type Delivery,
  type LabState,
  type PendingCallback,
  type RecurringSchedule,
  type ReplayMutation,
} from '../contracts/scenario-lab.ts';

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
    const err = LabErrorSchema.safeParse(json);
    throw new Error(err.success ? err.data['error-message'] : `The sandbox answered ${res.status}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new Error('The sandbox answered in an unexpected shape.');
  return parsed.data;
}

const enc = encodeURIComponent;

export const labState = () => call('/sandbox/scenarios', LabStateSchema);

export const chooseScenarios = (login: string, choice: ScenarioChoice) =>
  call(`/sandbox/scenarios/merchants/${enc(login)}`, ChooseAnswerSchema, {
    method: 'PUT',
    body: { choice },
  });

export const advanceClock = (login: string, ms: number) =>
  call(`/sandbox/clock/${enc(login)}/advance`, AdvanceSchema, { method: 'POST', body: { ms } });

export const clockState = (login: string) => call(`/sandbox/clock/${enc(login)}`, ClockStateSchema);

export const listDeliveries = (login: string | undefined, orderId?: string) =>
  call(
    `/sandbox/relay/deliveries?limit=50${login ? `&login=${enc(login)}` : ''}${orderId ? `&orderid=${enc(orderId)}` : ''}`,
    DeliveriesAnswerSchema,
  ).then((r) => r.deliveries);

export const replayDelivery = (id: number, mutation: ReplayMutation) =>
  call(`/sandbox/relay/deliveries/${id}/replay`, ReplayAnswerSchema, {
    method: 'POST',
    body: { mutation },
  }).then((r) => r.delivery);

export const checkHandler = (body: { url: string; login?: string; stateUrl?: string }) =>
  call('/sandbox/relay/handler-check', CheckReportSchema, { method: 'POST', body });
