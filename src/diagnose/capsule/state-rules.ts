import { toMinorUnits } from '../../core/amount.ts';

/** A step as the state rules read it. */
export interface RuleStep {
  index: number;
  time: number | null;
  kind: 'request' | 'callback' | 'return';
  operation: string;
  clientOrderId: string;
  orderId: string;
  url: string;
  params: ReadonlyArray<{ name: string; value: string }>;
  answerStatus: number | null;
  answer: string | null;
}

export interface StateFinding {
  rule:
    | 'capture-while-processing'
    | 'return-over-remaining'
    | 'client-orderid-reused'
    | 'status-polled-fast'
    | 'callback-retried';
  step: number;
  clientOrderId: string;
  message: string;
}

const FINAL = new Set(['approved', 'declined', 'error', 'filtered']);

function param(s: RuleStep, name: string): string | undefined {
  const p = s.params.find((x) => x.name === name)?.value;
  if (p !== undefined) return p;
  try {
    return new URL(s.url).searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

function minor(amount: string | undefined): number | undefined {
  if (amount === undefined) return undefined;
  try {
    return Number(toMinorUnits(amount));
  } catch {
    return undefined;
  }
}

/** The status a step shows of its order: a callback's or return's, or the answer of a status call. */
function statusShown(s: RuleStep): string | undefined {
  if (s.kind !== 'request') return param(s, 'status')?.toLowerCase();
  if (!s.answer) return undefined;
  return /(?:^|[&\s{,"])status"?\s*[=:]\s*"?([a-z_]+)/i.exec(s.answer)?.[1]?.toLowerCase();
}

/**
 * The order-state rules a timeline is checked against (gateway-notes.md: final statuses, polling
 * every 3-5 s, callbacks retried until answered 200), each finding at the step that breaks it.
 */
export function checkStateRules(steps: readonly RuleStep[]): StateFinding[] {
  const out: StateFinding[] = [];
  const byOrder = new Map<string, RuleStep[]>();
  for (const s of steps) {
    const key = s.clientOrderId || `#${s.orderId}`;
    byOrder.set(key, [...(byOrder.get(key) ?? []), s]);
  }
  for (const [, list] of byOrder) {
    const id = list[0]!.clientOrderId;
    // 1. A capture (or return) before the order was final.
    for (const s of list) {
      if (!/\/(capture|return)$/.test(s.operation)) continue;
      const before = list
        .filter((x) => x.index < s.index)
        .map(statusShown)
        .filter((x): x is string => !!x);
      const last = before[before.length - 1];
      if (last !== undefined && !FINAL.has(last))
        out.push({
          rule: 'capture-while-processing',
          step: s.index,
          clientOrderId: id,
          message: `${s.operation.split('/').pop()} sent while the order was still ${last}: wait for a final status (approved) before settling.`,
        });
    }
    // 2. Returns adding up to more than what was charged.
    const charged = list.find((s) => /\/(sale|preauth)$/.test(s.operation));
    const total = minor(charged ? param(charged, 'amount') : undefined);
    let returned = 0;
    for (const s of list) {
      if (!/\/return$/.test(s.operation) || total === undefined) continue;
      const amount = minor(param(s, 'amount'));
      if (amount === undefined) continue;
      if (returned + amount > total)
        out.push({
          rule: 'return-over-remaining',
          step: s.index,
          clientOrderId: id,
          message: `return larger than what is left: ${amount / 100} asked, ${(total - returned) / 100} left of ${total / 100}.`,
        });
      returned += amount;
    }
    // 3. One client_orderid, two orders.
    const orderIds = [...new Set(list.map((s) => s.orderId).filter((x) => x !== ''))];
    const initial = list.filter((s) => /\/(sale|preauth)$/.test(s.operation));
    if (id !== '' && (orderIds.length > 1 || initial.length > 1))
      out.push({
        rule: 'client-orderid-reused',
        step: (orderIds.length > 1 ? list.find((s) => s.orderId === orderIds[1]) : initial[1])!.index,
        clientOrderId: id,
        message: `client_orderid ${id} reused for another order (${orderIds.length > 1 ? `orderids ${orderIds.join(', ')}` : `${initial.length} payments started`}): give each order its own.`,
      });
    // 4. Status polled faster than every 3-5 s.
    const polls = list.filter((s) => /\/status$/.test(s.operation) && s.time !== null);
    for (let i = 2; i < polls.length; i++) {
      const gap = Math.max(polls[i]!.time! - polls[i - 1]!.time!, polls[i - 1]!.time! - polls[i - 2]!.time!);
      if (gap < 1000) {
        out.push({
          rule: 'status-polled-fast',
          step: polls[i]!.index,
          clientOrderId: id,
          message: `status polled every ${gap} ms: poll every 3-5 s for 5 minutes, then rarely (and rely on the callback).`,
        });
        break;
      }
    }
    // 5. A callback answered non-200 and sent again.
    const callbacks = list.filter((s) => s.kind === 'callback');
    for (let i = 1; i < callbacks.length; i++) {
      const earlier = callbacks
        .slice(0, i)
        .find((c) => param(c, 'status') === param(callbacks[i]!, 'status'));
      if (earlier && earlier.answerStatus !== null && earlier.answerStatus !== 200)
        out.push({
          rule: 'callback-retried',
          step: callbacks[i]!.index,
          clientOrderId: id,
          message: `callback answered ${earlier.answerStatus}, not 200, so the gateway retried: answer 200 once the callback is stored.`,
        });
    }
  }
  return out.sort((a, b) => a.step - b.step);
}
