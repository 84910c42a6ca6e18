/**
 * The scenario lab as data: the faults a real gateway produces, one declarative entry each. The
 * sandbox acts on them (sandbox/scenarios/), the console lists them (src/features/scenarios/) and
 * docs/scenarios.md is checked against them (test/sandbox/scenarios/docs.test.ts). Imported by
 * path, not from the catalog's index: only lazy pages and the Node side read it.
 */
import { z } from 'zod/mini';
import './zod-english.ts';

/** Where in an exchange a scenario acts. */
export type ScenarioStage = 'answer' | 'outcome' | 'three-d-secure' | 'callback' | 'after-final';

/** A sentence of the API description (or the gateway notes beside it) that a correct merchant follows. */
export interface ScenarioRule {
  source: 'api-description.md' | 'gateway-notes.md';
  section: string;
  /** Quoted verbatim from the source. */
  quote: string;
}

export interface ScenarioSpec {
  name: string;
  title: string;
  stage: ScenarioStage;
  /** What the sandbox does, as the real gateway does on a bad day. */
  gateway: string;
  /** What a correct merchant integration does about it. */
  merchant: string;
  rule: ScenarioRule;
  /** The delay the scenario uses when the choice names none (`delay-ms`). */
  defaultDelayMs?: number;
  /** The longest `delay-ms` it takes (default {@link MAX_DELAY_MS}: ten minutes). */
  maxDelayMs?: number;
}

/** The longest `delay-ms` of a scenario that names no maximum of its own. */
export const MAX_DELAY_MS = 600_000;

const ASYNC_RULE: ScenarioRule = {
  source: 'api-description.md',
  section: 'What the service does, General behaviour 1',
  quote:
    'Most operations are asynchronous: the immediate reply acknowledges the request (schema name AsyncResponse); the final outcome is fetched with the status operation or delivered to `server_callback_url`.',
};
const STATUS_BY_CLIENT_ID: ScenarioRule = {
  source: 'api-description.md',
  section: 'Resources and their fields',
  quote:
    'Status may be queried by either; `orderid` is preferred, `client_orderid` is used when `orderid` is unavailable.',
};
const FINAL_STATUSES: ScenarioRule = {
  source: 'gateway-notes.md',
  section: 'Responses',
  quote:
    'Transaction statuses: final `approved`, `declined`, `error`, `filtered`; non-final `processing`, `unknown`, `chain_declined`.',
};
const RETRIES: ScenarioRule = {
  source: 'gateway-notes.md',
  section: 'Callbacks',
  quote: 'The merchant must answer 200, else the gateway retries (30 times over 14 days).',
};
const CONFIRM_WITH_STATUS: ScenarioRule = {
  source: 'gateway-notes.md',
  section: 'Callbacks',
  quote: 'Callbacks and redirects can be lost or forged: merchants confirm with the status operation.',
};

/** Every scenario, in the order the console and the docs list them. */
export const SCENARIOS = [
  {
    name: 'latency',
    title: 'Added latency',
    stage: 'answer',
    gateway: 'Answers every operation after an added delay (default 50 ms); nothing else changes.',
    merchant:
      'Keeps a client timeout well above the gateway’s latency, and never resends a slow request with a new `client_orderid`.',
    rule: ASYNC_RULE,
    defaultDelayMs: 50,
  },
  {
    name: 'processed-timeout',
    title: 'Processed but timed out',
    stage: 'answer',
    gateway:
      'Commits the order, then holds the answer past the client’s timeout (default 30 s) and resets the connection: the client never learns the `orderid`.',
    merchant:
      'Treats a timeout as “unknown”, not “failed”: queries status by `client_orderid`, or resends the identical request (same `client_orderid` and parameters), which returns the original acknowledgement.',
    rule: STATUS_BY_CLIENT_ID,
    defaultDelayMs: 30_000,
  },
  {
    name: 'server-error-after-commit',
    title: '5xx after commit',
    stage: 'answer',
    gateway: 'Commits the order, then answers 500 (ServerErrorResponse) instead of the acknowledgement.',
    merchant:
      'Does not take a 500 as a refusal: queries status by `client_orderid` before charging again, and never charges twice for one order.',
    rule: STATUS_BY_CLIENT_ID,
  },
  {
    name: 'final-error',
    title: 'Final status error',
    stage: 'outcome',
    gateway: 'Acknowledges as usual; the transaction then ends in `error` (a processing failure).',
    merchant:
      'Reads `error` as final and unpaid, shows the failure, and starts a new order (a new `client_orderid`) for any retry.',
    rule: FINAL_STATUSES,
  },
  {
    name: 'final-filtered',
    title: 'Final status filtered',
    stage: 'outcome',
    gateway: 'Acknowledges as usual; the transaction then ends in `filtered` (stopped by a fraud filter).',
    merchant: 'Reads `filtered` as final and unpaid, and does not retry the same card automatically.',
    rule: FINAL_STATUSES,
  },
  {
    name: 'stuck-processing',
    title: 'Stuck in processing',
    stage: 'outcome',
    gateway: 'The transaction stays `processing`: no final status, no callback.',
    merchant:
      'Polls with the gateway’s advice (every 3-5 s for 5 minutes, then rarely), keeps the order pending meanwhile and never marks it paid.',
    rule: {
      source: 'gateway-notes.md',
      section: 'Responses',
      quote: 'Polling advice: every 3-5 s for 5 minutes, then rarely.',
    },
  },
  {
    name: 'three-ds-method-timeout',
    title: '3-D Secure method timeout',
    stage: 'three-d-secure',
    gateway:
      'The 3DS Method never completes within its window: the method-url result is recorded as `threeDSCompInd=N` whatever was sent.',
    merchant:
      'Waits 10 seconds at the most for the method step, then uploads `threeDSCompInd=N` and continues with the challenge.',
    rule: {
      source: 'api-description.md',
      section: 'Limits',
      quote:
        '| 3DS Method completion window | 10 seconds; after it `threeDSCompInd` is `N` | method-url result upload |',
    },
  },
  {
    name: 'callback-duplicate',
    title: 'Duplicated callback',
    stage: 'callback',
    gateway: 'Delivers every callback twice, the second right after the first.',
    merchant: 'Is idempotent: answers 200 to the duplicate too, and changes nothing the second time.',
    rule: RETRIES,
  },
  {
    name: 'callback-reorder',
    title: 'Reordered callbacks',
    stage: 'callback',
    gateway:
      'Holds the callback of an order’s first transaction (default 10 s), so the callbacks of later ones (capture, return) arrive before it.',
    merchant:
      'Never moves an order back to an earlier state on a late callback: it confirms with status and keeps the latest.',
    rule: {
      source: 'api-description.md',
      section: 'Events 1',
      quote:
        'The service delivers the final outcome of an asynchronous transaction to the merchant address given in `server_callback_url`; the merchant can then fetch the outcome with the status operation.',
    },
    defaultDelayMs: 10_000,
  },
  {
    name: 'callback-delay',
    title: 'Delayed callback',
    stage: 'callback',
    gateway: 'Delivers each callback late (default 60 s after the final status).',
    merchant: 'Does not wait on the callback: polls status, and accepts the late callback without harm.',
    rule: {
      source: 'api-description.md',
      section: 'Endpoints, per-operation behaviour',
      quote: 'status: used both for polling and for fetching the final outcome after a callback.',
    },
    defaultDelayMs: 60_000,
  },
  {
    name: 'callback-drop-retry',
    title: 'Dropped, then retried',
    stage: 'callback',
    gateway:
      'Drops the first two deliveries of each callback (nothing reaches the merchant), then delivers on the retry schedule.',
    merchant: 'Polls status meanwhile, and treats the late callback idempotently when it finally arrives.',
    rule: RETRIES,
  },
  {
    name: 'callback-bad-control',
    title: 'Callback with a wrong control',
    stage: 'callback',
    gateway: 'Sends one forged callback (a wrong `control`, status `approved`) before the genuine one.',
    merchant:
      'Recomputes `control = sha1(status + orderid + merchant_order + key)`, refuses a mismatch with a 4xx and changes nothing; confirms with status.',
    rule: CONFIRM_WITH_STATUS,
  },
  {
    name: 'chargeback',
    title: 'Chargeback',
    stage: 'after-final',
    gateway:
      'Charges the order back days after its money moved (default 7 days, in the merchant’s time): a `chargeback` transaction, approved, for what is left of the order, and a callback with `type=chargeback` to `notify_url`; `status` then answers `transaction-type=chargeback`, and a return finds nothing left.',
    merchant:
      'Gives a `notify_url` so that it hears later transactions; on `type=chargeback` it checks `control`, confirms with status, marks the order charged back (not refunded, not failed), stops delivering or revokes what was sold, and answers 200; it does not return the order again.',
    rule: {
      source: 'gateway-notes.md',
      section: "What the vendor's live clients also rely on",
      quote: '`notify_url` also covers later transaction types on the same order (reversal, chargeback).',
    },
    defaultDelayMs: 7 * 86_400_000,
    maxDelayMs: 366 * 86_400_000,
  },
] as const satisfies readonly ScenarioSpec[];

export type ScenarioName = (typeof SCENARIOS)[number]['name'];

export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name) as [ScenarioName, ...ScenarioName[]];

/** The header that chooses a scenario for one request (and the order it creates). */
export const SCENARIO_HEADER = 'x-sandbox-scenario';

export function scenarioSpec(name: ScenarioName): ScenarioSpec {
  return SCENARIOS.find((s) => s.name === name)!;
}

/** One chosen scenario, with its delay when it takes one. */
export const ScenarioPickSchema = z
  .strictObject({
    name: z.enum(SCENARIO_NAMES),
    delayMs: z.optional(z.number().check(z.int(), z.gte(0), z.lte(366 * 86_400_000))),
  })
  .check(
    z.refine(
      (p) => p.delayMs === undefined || p.delayMs <= maxDelayOf(p.name),
      'delay-ms is longer than that scenario takes',
    ),
  );

/** The longest `delay-ms` a scenario takes. */
export function maxDelayOf(name: ScenarioName): number {
  const spec: ScenarioSpec = scenarioSpec(name);
  return spec.maxDelayMs ?? MAX_DELAY_MS;
}
export type ScenarioPick = z.infer<typeof ScenarioPickSchema>;

/** A choice: up to four scenarios at once (latency and a duplicated callback, say). */
export const ScenarioChoiceSchema = z.array(ScenarioPickSchema).check(
  z.maxLength(4),
  z.refine((l) => new Set(l.map((p) => p.name)).size === l.length, 'each scenario once'),
);
export type ScenarioChoice = z.infer<typeof ScenarioChoiceSchema>;

/** The delay a pick uses: its own, else its scenario's default, else 0. */
export function delayOf(pick: ScenarioPick): number {
  const spec: ScenarioSpec = scenarioSpec(pick.name);
  return pick.delayMs ?? spec.defaultDelayMs ?? 0;
}

export type HeaderParse = { ok: true; choice: ScenarioChoice } | { ok: false; message: string };

/**
 * Reads `X-Sandbox-Scenario`: names separated by commas, each with an optional `;delay-ms=N`
 * (`latency;delay-ms=250, callback-duplicate`). An empty value chooses none.
 */
export function parseScenarioHeader(value: string): HeaderParse {
  const picks: unknown[] = [];
  for (const part of value.split(',')) {
    const [rawName = '', ...params] = part.split(';').map((s) => s.trim());
    if (rawName === '' && params.length === 0) continue;
    const pick: Record<string, unknown> = { name: rawName.toLowerCase() };
    for (const p of params) {
      const m = /^delay-ms=(\d{1,11})$/i.exec(p);
      if (!m)
        return {
          ok: false,
          message: `"${p.slice(0, 40)}" is not a scenario parameter: use delay-ms=<milliseconds>.`,
        };
      pick.delayMs = Number(m[1]);
    }
    picks.push(pick);
  }
  const parsed = ScenarioChoiceSchema.safeParse(picks);
  if (parsed.success) return { ok: true, choice: parsed.data };
  const issue = parsed.error.issues[0]!;
  return {
    ok: false,
    message: issue.path.includes('name')
      ? `Unknown scenario in ${SCENARIO_HEADER}: use one of ${SCENARIO_NAMES.join(', ')}.`
      : `${SCENARIO_HEADER}: ${issue.message}.`,
  };
}

/** The header's text for a choice (what the console shows a `curl` user). */
export function formatScenarioHeader(choice: ScenarioChoice): string {
  return choice.map((p) => (p.delayMs === undefined ? p.name : `${p.name};delay-ms=${p.delayMs}`)).join(', ');
}
