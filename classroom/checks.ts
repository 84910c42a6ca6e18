import type { Scheme } from '../src/core/index.ts';
import type { MistakeId } from '../src/diagnose/index.ts';
import type { OrderRow, RequestRow } from '../sandbox/store.ts';
import type { Check, CheckStep } from './exercise-schema.ts';

/**
 * One request a trainee's merchant sent to the sandbox, as the classroom keeps it: never the body,
 * the card data or the signature, only what the checks and the trainer page need.
 */
export interface AttemptRecord {
  id: number;
  at: number;
  opPath: string | null;
  scheme: Scheme | null;
  /** The signature was checked and good. */
  authenticated: boolean;
  /** Authenticated and answered without an error (an acknowledgement or a status). */
  accepted: boolean;
  /** The sandbox order the request created or named. */
  orderId: number | null;
  httpStatus: number;
  errorCode: string | null;
  errorMessage: string | null;
  /** The diagnosis engine's mistake id for a refused signature, once diagnosed. */
  mistakeId: MistakeId | null;
  /** The 3-D Secure version the request asked for (threeds_version, or 3DS 2 browser fields). */
  tds?: '2' | '1.0.2' | null;
  /** Set when a refusal is not the trainee's mistake (no mistake is charged then). */
  cause?: AttemptCause | null;
}

/** `trainer-restore`: signed with the key the trainer's "Restore the key" replaced. */
export type AttemptCause = 'trainer-restore';

/** What a check reads: the trainee's attempts (oldest first) and the sandbox's records of their merchant. */
export interface CheckData {
  attempts: readonly AttemptRecord[];
  /** Only the trainee's own merchant's orders are returned (undefined for another's). */
  order(id: number): OrderRow | undefined;
  requestsOf(orderId: number): RequestRow[];
  /** The trainee's multiple-choice answer, and their last attempt's id when they gave it. */
  answer?: Answer | undefined;
  /** The confirmed cause of a diagnose-then-fix exercise's capture (computed when the exercises load). */
  confirmedCause?: MistakeId | undefined;
  /**
   * Attempts already known not to pass this check for good (their transaction is final and not
   * what the check wants): skipped, and added to by the check. Keeps a long session cheap.
   */
  settledMisses?: Set<number> | undefined;
  /** The trainee's variant (classroom/variants.ts): the amount (minor units) and currency asked for. */
  variantAmount?: { minor: number; currency: string | undefined } | undefined;
}

export interface Answer {
  choice: string;
  afterAttempt: number;
}

export type CheckResult =
  | { state: 'done'; detail: string }
  | { state: 'pending'; detail: string }
  | { state: 'open'; detail: string };

function matches(a: AttemptRecord, step: CheckStep): boolean {
  return a.opPath === step.operation && (step.scheme === undefined || a.scheme === step.scheme);
}

const done = (detail: string): CheckResult => ({ state: 'done', detail });
const pending = (detail: string): CheckResult => ({ state: 'pending', detail });
const open = (detail: string): CheckResult => ({ state: 'open', detail });

function approved(check: Extract<Check, { kind: 'approved' }>, data: CheckData): CheckResult {
  let waiting = false;
  let sawOne = false;
  const misses = data.settledMisses;
  for (const a of data.attempts) {
    if (!a.accepted || !matches(a, check) || a.orderId === null || misses?.has(a.id)) continue;
    const order = data.order(a.orderId);
    if (!order || order.op_path !== check.operation) {
      misses?.add(a.id);
      continue;
    }
    if (check.threeDs !== undefined && order.tds_version !== check.threeDs) {
      misses?.add(a.id);
      continue;
    }
    const want = data.variantAmount;
    if (
      want &&
      (order.amount_minor !== want.minor || (want.currency !== undefined && order.currency !== want.currency))
    ) {
      misses?.add(a.id);
      continue;
    }
    sawOne = true;
    const first = data.requestsOf(order.id)[0];
    if (!first) continue;
    if (first.status === 'approved' && (check.threeDs === undefined || order.tds_stage === 'done'))
      return done(`order ${order.id} approved`);
    if (first.status === 'processing' || first.status === 'unknown') waiting = true;
    // Final and not approved: this transaction never passes.
    else if (first.status !== 'approved') misses?.add(a.id);
  }
  if (waiting) return pending('accepted; waiting for the final status');
  return open(
    sawOne
      ? 'no transaction of this kind ended approved yet'
      : `no accepted ${check.operation}${check.threeDs ? ` with 3-D Secure ${check.threeDs}` : ''} yet`,
  );
}

function sequence(steps: readonly CheckStep[], data: CheckData): CheckResult {
  // Every step after the first names the order the first created.
  const firsts = data.attempts.filter((a) => a.accepted && matches(a, steps[0]!) && a.orderId !== null);
  const byOrder = new Map<number, AttemptRecord[]>();
  for (const a of data.attempts)
    if (a.accepted && a.orderId !== null) byOrder.set(a.orderId, [...(byOrder.get(a.orderId) ?? []), a]);
  let best = 0;
  for (const first of firsts) {
    let id = first.id;
    let reached = 1;
    const same = byOrder.get(first.orderId!) ?? [];
    for (const step of steps.slice(1)) {
      const next = same.find((a) => matches(a, step) && a.id > id);
      if (!next) break;
      id = next.id;
      reached += 1;
    }
    if (reached === steps.length)
      return done(`order ${first.orderId}: ${steps.map((s) => s.operation).join(' → ')}`);
    best = Math.max(best, reached);
  }
  return open(
    best === 0
      ? `no accepted ${steps[0]!.operation}${steps[0]!.scheme ? ` (${steps[0]!.scheme})` : ''} yet`
      : `${steps[best]!.operation} on the same order is missing`,
  );
}

function diagnoseThenFix(check: Extract<Check, { kind: 'diagnose-then-fix' }>, data: CheckData): CheckResult {
  if (!data.answer) return open('name the mistake first');
  if (data.confirmedCause === undefined || data.answer.choice !== data.confirmedCause)
    return open('that is not the mistake this capture shows');
  const after = data.answer.afterAttempt;
  const fixed = data.attempts.some((a) => a.accepted && matches(a, check.then) && a.id > after);
  return fixed
    ? done(`named ${data.confirmedCause} and sent a correct ${check.then.operation}`)
    : open(`mistake named; now send a correct ${check.then.operation}`);
}

/** Minor units of a two-decimal amount text (the schema guarantees the form). */
function minor(amount: string): number {
  const [whole, frac] = amount.split('.');
  return Number(whole) * 100 + Number(frac);
}

function remaining(check: Extract<Check, { kind: 'remaining' }>, data: CheckData): CheckResult {
  const target = minor(check.amount);
  const seen = new Set<number>();
  let waiting = false;
  for (const a of data.attempts) {
    if (!a.accepted || a.orderId === null || seen.has(a.orderId)) continue;
    if (a.opPath !== 'v2/capture' && a.opPath !== 'v2/return') continue;
    seen.add(a.orderId);
    const order = data.order(a.orderId);
    if (!order || order.kind !== 'preauth' || order.currency !== check.currency) continue;
    const requests = data.requestsOf(order.id);
    const captures = requests.filter((r) => r.kind === 'capture' && r.status === 'approved');
    const returns = requests.filter((r) => r.kind === 'return' && r.status === 'approved');
    if (requests.some((r) => r.status === 'processing')) waiting = true;
    const captured = captures.reduce((s, r) => s + r.amount_minor, 0);
    const returned = returns.reduce((s, r) => s + r.amount_minor, 0);
    const partial = captured > 0 && captured < order.amount_minor;
    if (partial && returned > 0 && captured - returned === target)
      return done(`order ${order.id}: captured ${captured / 100}, returned ${returned / 100}`);
  }
  if (waiting) return pending('waiting for a final status');
  return open(
    `no preauth leaves exactly ${check.amount} ${check.currency} after a partial capture and a return`,
  );
}

/** Evaluates a check from the trainee's real traffic and the sandbox's records, never the browser's word. */
export function evaluateCheck(check: Check, data: CheckData): CheckResult {
  switch (check.kind) {
    case 'accepted':
      return data.attempts.some((a) => a.accepted && matches(a, check))
        ? done(`${check.operation} accepted`)
        : open(`no accepted ${check.operation}${check.scheme ? ` (${check.scheme})` : ''} yet`);
    case 'approved':
      return approved(check, data);
    case 'sequence':
      return sequence(check.steps, data);
    case 'diagnose-then-fix':
      return diagnoseThenFix(check, data);
    case 'remaining':
      return remaining(check, data);
  }
}
