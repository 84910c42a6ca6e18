/**
 * Checks a merchant's callback handler against the faults a real gateway produces: it answers 2xx
 * in time, is idempotent on a duplicate, refuses a bad `control`, and does not move an order's
 * state back on a stale callback. Pure: the transport, the clock, the ids and the crypto are
 * passed in (`paysign handler-check`, the sandbox's `/relay/handler-check` and the fast spec use
 * it). Each check quotes the rule of the description it follows (src/catalog/scenarios.ts).
 */
import { callbackControl, type CryptoPort } from '../core/index.ts';
import { scenarioSpec, type ScenarioRule } from '../catalog/scenarios.ts';
import { errorText } from '../core/errors.ts';

export type CheckId =
  'answers-in-time' | 'idempotent-duplicate' | 'refuses-bad-control' | 'no-state-rollback';

export interface CheckDefinition {
  id: CheckId;
  title: string;
  rule: ScenarioRule;
}

export const HANDLER_CHECKS: readonly CheckDefinition[] = [
  {
    id: 'answers-in-time',
    title: 'Answers a genuine callback with 2xx within the timeout',
    rule: scenarioSpec('callback-drop-retry').rule,
  },
  {
    id: 'idempotent-duplicate',
    title: 'Answers a duplicate callback with 2xx and the same state',
    rule: scenarioSpec('callback-duplicate').rule,
  },
  {
    id: 'refuses-bad-control',
    title: 'Refuses a callback with a wrong control (non-2xx, state unchanged)',
    rule: scenarioSpec('callback-bad-control').rule,
  },
  {
    id: 'no-state-rollback',
    title: 'Keeps the latest state when a stale callback arrives',
    rule: scenarioSpec('callback-reorder').rule,
  },
];

/** One GET to the handler; `status` null when nothing came back (timeout, refused connection). */
export interface CheckTransport {
  get(url: string, timeoutMs: number): Promise<{ status: number | null; error?: string }>;
}

export interface HandlerCheckPorts {
  transport: CheckTransport;
  crypto: CryptoPort;
  /** Milliseconds, monotonic: how long an answer took. */
  now(): number;
  /** A fresh order id (digits) per check, so checks do not see each other's orders. */
  newOrderId(): string;
  /**
   * The merchant's own view of an order's status (`--state-url`), when the handler offers one;
   * without it the state rollback check is skipped.
   */
  readState?: (orderid: string, merchantOrder: string) => Promise<string | undefined>;
}

export interface HandlerCheckInput {
  /** The handler's address (its own query kept; the callback's fields are appended). */
  url: string;
  controlKey: string;
  /** The gateway's patience with one callback (default 5000 ms, the sandbox's). */
  timeoutMs?: number;
}

export type CheckOutcome = 'passed' | 'failed' | 'skipped';

export interface CheckResult extends CheckDefinition {
  outcome: CheckOutcome;
  /** What was sent and what came back, or why it was skipped. */
  detail: string;
  durationMs: number;
}

export interface HandlerCheckReport {
  url: string;
  results: CheckResult[];
  passed: boolean;
}

const is2xx = (s: number | null) => s !== null && s >= 200 && s < 300;
const said = (a: { status: number | null; error?: string }) =>
  a.status === null ? `no answer (${a.error ?? 'timeout'})` : `HTTP ${a.status}`;

interface Callback {
  orderid: string;
  merchantOrder: string;
  status: string;
}

async function callbackUrl(
  base: string,
  cb: Callback,
  key: string,
  crypto: CryptoPort,
  wrongControl = false,
): Promise<string> {
  const url = new URL(base);
  const control = await callbackControl(
    { status: cb.status, orderid: cb.orderid, merchantOrder: cb.merchantOrder },
    wrongControl ? `${key}-not` : key,
    crypto,
  );
  const q = url.searchParams;
  q.append('status', cb.status);
  q.append('orderid', cb.orderid);
  q.append('merchant_order', cb.merchantOrder);
  q.append('client_orderid', cb.merchantOrder);
  q.append('amount', '10.42');
  q.append('currency', 'USD');
  q.append('type', 'sale');
  q.append('control', control);
  return url.href;
}

/** Runs every check in turn against the handler; a check's failure never stops the next one. */
export async function runHandlerChecks(
  input: HandlerCheckInput,
  ports: HandlerCheckPorts,
): Promise<HandlerCheckReport> {
  const timeoutMs = input.timeoutMs ?? 5000;
  try {
    new URL(input.url);
  } catch {
    throw new Error(
      `"${input.url.slice(0, 120)}" is not an absolute URL: give the handler's address, e.g. http://127.0.0.1:8080/callback.`,
    );
  }
  const fresh = (): Callback => {
    const orderid = ports.newOrderId();
    return { orderid, merchantOrder: `hc-${orderid}`, status: 'approved' };
  };
  const send = async (cb: Callback, wrong = false) => {
    const started = ports.now();
    const answer = await ports.transport.get(
      await callbackUrl(input.url, cb, input.controlKey, ports.crypto, wrong),
      timeoutMs,
    );
    return { ...answer, took: ports.now() - started };
  };
  const state = (cb: Callback) => ports.readState?.(cb.orderid, cb.merchantOrder);
  const results: CheckResult[] = [];
  const run = async (id: CheckId, body: () => Promise<{ outcome: CheckOutcome; detail: string }>) => {
    const def = HANDLER_CHECKS.find((c) => c.id === id)!;
    const started = ports.now();
    let r: { outcome: CheckOutcome; detail: string };
    try {
      r = await body();
    } catch (e) {
      r = { outcome: 'failed', detail: `The check could not run: ${errorText(e)}` };
    }
    results.push({ ...def, ...r, durationMs: ports.now() - started });
  };

  /** Set when the genuine callback got no answer at all: the checks that read an answer cannot pass. */
  let unanswered: string | undefined;
  const noHandler = () =>
    `The handler did not answer the genuine callback (${unanswered}): nothing can be checked until it answers. Start it, or check the address.`;

  await run('answers-in-time', async () => {
    const a = await send(fresh());
    if (a.status === null) unanswered = said(a);
    if (!is2xx(a.status))
      return {
        outcome: 'failed',
        detail: `A genuine approved callback got ${said(a)}: the gateway retries until it gets 200.`,
      };
    if (a.took > timeoutMs)
      return {
        outcome: 'failed',
        detail: `The answer took ${Math.round(a.took)} ms, more than the ${timeoutMs} ms the gateway waits.`,
      };
    return { outcome: 'passed', detail: `${said(a)} in ${Math.round(a.took)} ms.` };
  });

  await run('idempotent-duplicate', async () => {
    if (unanswered) return { outcome: 'failed', detail: noHandler() };
    const cb = fresh();
    const first = await send(cb);
    const second = await send(cb);
    if (!is2xx(first.status)) return { outcome: 'failed', detail: `The first callback got ${said(first)}.` };
    if (!is2xx(second.status))
      return {
        outcome: 'failed',
        detail: `The duplicate got ${said(second)} after the first got ${said(first)}: a handler that refuses a callback it already processed makes the gateway retry it for 14 days.`,
      };
    const s = await state(cb);
    if (s !== undefined && s !== 'approved')
      return { outcome: 'failed', detail: `After the duplicate the handler reports "${s}", not "approved".` };
    return { outcome: 'passed', detail: `Both answered ${said(second)}.` };
  });

  await run('refuses-bad-control', async () => {
    // Silence is no refusal: with no handler answering, a forged callback also gets nothing back.
    if (unanswered) return { outcome: 'failed', detail: noHandler() };
    const cb = fresh();
    const a = await send(cb, true);
    if (is2xx(a.status))
      return {
        outcome: 'failed',
        detail: `A callback signed with a wrong control got ${said(a)}: recompute sha1(status + orderid + merchant_order + key) and refuse a mismatch with a 4xx.`,
      };
    const s = await state(cb);
    if (s === 'approved')
      return { outcome: 'failed', detail: 'The forged callback was refused but the order reads "approved".' };
    return { outcome: 'passed', detail: `Refused with ${said(a)}.` };
  });

  await run('no-state-rollback', async () => {
    if (!ports.readState)
      return {
        outcome: 'skipped',
        detail:
          "Needs the handler's view of an order: give --state-url http://…/orders/{orderid} (answering its status).",
      };
    if (unanswered) return { outcome: 'failed', detail: noHandler() };
    const cb = fresh();
    const latest = await send(cb);
    if (!is2xx(latest.status))
      return { outcome: 'failed', detail: `The approved callback got ${said(latest)}.` };
    const stale = await send({ ...cb, status: 'processing' });
    const s = await state(cb);
    if (s !== 'approved')
      return {
        outcome: 'failed',
        detail: `After a stale "processing" callback (answered ${said(stale)}) the handler reports "${s ?? 'nothing'}": it moved the order back from "approved".`,
      };
    return {
      outcome: 'passed',
      detail: `The stale callback got ${said(stale)}; the order stays "approved".`,
    };
  });

  return { url: input.url, results, passed: results.every((r) => r.outcome !== 'failed') };
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** The report as JUnit XML (one test case per check, its rule quoted), for CI. */
export function junitXml(report: HandlerCheckReport): string {
  const count = (o: CheckOutcome) => report.results.filter((r) => r.outcome === o).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = report.results.reduce((n, r) => n + r.durationMs, 0);
  const cases = report.results.map((r) => {
    const rule = `Rule (${r.rule.source}, ${r.rule.section}): ${r.rule.quote}`;
    const inner =
      r.outcome === 'failed'
        ? `\n      <failure message="${xml(r.detail)}" type="${r.id}">${xml(`${r.detail}\n${rule}`)}</failure>`
        : r.outcome === 'skipped'
          ? `\n      <skipped message="${xml(r.detail)}"/>`
          : '';
    return `    <testcase classname="handler-check" name="${xml(`${r.id}: ${r.title}`)}" time="${seconds(r.durationMs)}">${inner}
      <system-out>${xml(rule)}</system-out>
    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="paysign handler-check" tests="${report.results.length}" failures="${count('failed')}" skipped="${count('skipped')}" time="${seconds(total)}">
  <testsuite name="${xml(`handler-check ${report.url}`)}" tests="${report.results.length}" failures="${count('failed')}" errors="0" skipped="${count('skipped')}" time="${seconds(total)}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
