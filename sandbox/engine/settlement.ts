import type { OperationId } from '../../src/catalog/index.ts';
import { fromMinorUnits } from '../outcomes.ts';
import { refuse, type ApiReply } from '../replies.ts';
import type { OrderKind, OrderRow, RequestKind, RequestRow, SandboxStore } from '../store.ts';
import type { EngineContext, Handler, OperationCall } from './context.ts';
import { childRequest, ownOrder } from './orders.ts';
import { param, positiveAmount } from './params.ts';

/** The order's money columns (minor units); the remaining amount is computed from them. */
export type MoneyColumn =
  'amount_minor' | 'captured_minor' | 'cancelled_minor' | 'refunded_minor' | 'paid_minor';

/** What a settlement moves when it becomes approved. */
export type Ledger =
  { column: Exclude<MoneyColumn, 'amount_minor'>; effect: 'add' } | { column: 'voided'; effect: 'set' };

/** `from − minus…`, as data so that the code and the docs read the same formula. */
export interface RemainingFormula {
  from: MoneyColumn;
  minus: readonly MoneyColumn[];
}

export interface SettlementVariant {
  /** How the docs name this case. */
  name: string;
  /** When the case applies, as code and as words (the first matching variant wins). */
  when: (o: OrderRow) => boolean;
  whenText: string;
  /** The request's `refund_mode` (returns only). */
  mode: 'cancel' | 'refund' | null;
  /** A refusal specific to this case, checked before the remaining amount. */
  guard?: (o: OrderRow) => string | undefined;
  remaining: RemainingFormula;
  /** The verb of the error messages: "left to capture", "left to release"… */
  verb: string;
  nothingLeft: (o: OrderRow) => string;
  ledger: Ledger;
}

export interface SettlementRule {
  operation: OperationId;
  requestKind: RequestKind;
  orderKinds: readonly OrderKind[];
  wrongKind: (o: OrderRow) => string;
  /** `partial`: `amount` + `currency` up to what remains, or neither for all of it; `none`: no amount; `whole`: the order's. */
  amount: 'partial' | 'none' | 'whole';
  /** The state the order must be in, in words (the guard below is the code). */
  stateText: string;
  /** Refusals on the order's state, in the order they are checked. */
  guard: (o: OrderRow, requests: readonly RequestRow[]) => string | undefined;
  variants: readonly SettlementVariant[];
}

function busy(o: OrderRow, requests: readonly RequestRow[]): string | undefined {
  const r = requests.find((q) => q.status === 'processing');
  return r
    ? `Order ${o.id} has a ${r.kind} request (serial ${r.serial}) still processing: wait for its final status (poll status) and try again.`
    : undefined;
}

/** A return that refunds what was paid (`from`: what the order settled), minus what was refunded. */
function refundOf(from: MoneyColumn, when: (o: OrderRow) => boolean, whenText: string): SettlementVariant {
  return {
    name: 'refund',
    when,
    whenText,
    mode: 'refund',
    remaining: { from, minus: ['refunded_minor'] },
    verb: 'refund',
    nothingLeft: (o) => `Order ${o.id} has nothing left to return (refunded in full).`,
    ledger: { column: 'refunded_minor', effect: 'add' },
  };
}

/**
 * The settlement rules, one row per operation (api-description.md, state rules). The engine's
 * settle handler, the finalisation's ledger update and sandbox/README.md all read this table.
 */
export const SETTLEMENT_RULES: readonly SettlementRule[] = [
  {
    operation: 'CAPTURE',
    requestKind: 'capture',
    orderKinds: ['preauth'],
    wrongKind: (o) => `capture applies only to an approved preauth; order ${o.id} is a ${o.kind}.`,
    amount: 'partial',
    stateText: 'preauth approved, not voided; no request on the order processing',
    guard: (o, requests) =>
      busy(o, requests) ??
      (requests[0]!.status !== 'approved'
        ? `The preauth of order ${o.id} is ${requests[0]!.status}: only an approved preauth can be captured.`
        : o.voided
          ? `The preauth of order ${o.id} was voided: there is nothing to capture.`
          : undefined),
    variants: [
      {
        name: 'capture',
        when: () => true,
        whenText: 'always',
        mode: null,
        remaining: { from: 'amount_minor', minus: ['captured_minor', 'cancelled_minor'] },
        verb: 'capture',
        nothingLeft: (o) => `Order ${o.id} has nothing left to capture (captured or released in full).`,
        ledger: { column: 'captured_minor', effect: 'add' },
      },
    ],
  },
  {
    operation: 'VOID',
    requestKind: 'void',
    orderKinds: ['preauth'],
    wrongKind: (o) =>
      `void applies only to an authorization not yet settled (an approved preauth); order ${o.id} is a ${o.kind}${
        o.kind === 'sale' || o.kind === 'rebill' || o.kind === 'recurring-charge'
          ? ', settled at once: use return to refund it'
          : ''
      }.`,
    amount: 'none',
    stateText: 'preauth approved, not voided, not captured; no request on the order processing',
    guard: (o, requests) =>
      busy(o, requests) ??
      (requests[0]!.status !== 'approved'
        ? `The preauth of order ${o.id} is ${requests[0]!.status}: only an approved preauth can be voided.`
        : o.voided
          ? `Order ${o.id} is already voided.`
          : o.captured_minor > 0
            ? `Order ${o.id} has been captured (settled): use return to refund it.`
            : undefined),
    variants: [
      {
        name: 'void',
        when: () => true,
        whenText: 'always',
        mode: null,
        remaining: { from: 'amount_minor', minus: ['cancelled_minor'] },
        verb: 'void',
        nothingLeft: (o) => `The hold of order ${o.id} was already released in full.`,
        ledger: { column: 'voided', effect: 'set' },
      },
    ],
  },
  {
    operation: 'RETURN',
    requestKind: 'return',
    orderKinds: ['sale', 'preauth', 'rebill', 'recurring-charge'],
    wrongKind: (o) =>
      `return applies to a sale, a rebill, a recurring charge, a preauth or its capture; order ${o.id} is a ${o.kind}${
        o.kind === 'account-verification' ? ' and moved no money' : ''
      }.`,
    amount: 'partial',
    stateText: 'first request final and approved; no request on the order processing',
    guard: (o, requests) =>
      busy(o, requests) ??
      (requests[0]!.status !== 'approved'
        ? `return is allowed only on a transaction in a final successful status; order ${o.id} is ${requests[0]!.status}.`
        : undefined),
    variants: [
      {
        name: 'cancel (releases the hold)',
        when: (o) => o.kind === 'preauth' && o.captured_minor === 0,
        whenText: 'a preauth not captured, not voided',
        mode: 'cancel',
        guard: (o) =>
          o.voided ? `The preauth of order ${o.id} was voided: there is nothing to return.` : undefined,
        remaining: { from: 'amount_minor', minus: ['cancelled_minor'] },
        verb: 'release',
        nothingLeft: (o) => `Order ${o.id} has nothing left to return (hold released in full).`,
        ledger: { column: 'cancelled_minor', effect: 'add' },
      },
      refundOf('captured_minor', (o) => o.kind === 'preauth', 'a captured preauth'),
      refundOf('amount_minor', () => true, 'a sale, a rebill or a recurring charge'),
    ],
  },
  {
    operation: 'PAYOUT_V4_PAY',
    requestKind: 'payout-pay',
    orderKinds: ['payout-check'],
    wrongKind: (o) =>
      `payout-pay executes a payout registered by payout-check; order ${o.id} is a ${o.kind}.`,
    amount: 'whole',
    stateText: 'payout check approved; not paid before (once per check)',
    guard: (o, requests) => {
      const paid = requests.find((r) => r.kind === 'payout-pay');
      if (paid)
        return `The payout of order ${o.id} was already executed (serial ${paid.serial}): payout-pay runs once per payout-check.`;
      const check = requests[0]!;
      if (check.status === 'processing')
        return `The payout check of order ${o.id} is still processing: wait until status answers approved.`;
      if (check.status !== 'approved')
        return `The payout check of order ${o.id} is ${check.status}: only an approved check can be paid.`;
      return undefined;
    },
    variants: [
      {
        name: 'payout-pay',
        when: () => true,
        whenText: 'always',
        mode: null,
        remaining: { from: 'amount_minor', minus: ['paid_minor'] },
        verb: 'pay',
        nothingLeft: (o) => `The payout of order ${o.id} was already executed.`,
        ledger: { column: 'paid_minor', effect: 'add' },
      },
    ],
  },
];

export function remainingOf(o: OrderRow, f: RemainingFormula): number {
  return f.minus.reduce((left, column) => left - o[column], o[f.from]);
}

/** The amount of a partial settlement, or everything that remains when neither amount nor currency is sent. */
function settleAmount(c: OperationCall, order: OrderRow, remaining: number, verb: string): number {
  const amountText = param(c, 'amount');
  const currency = param(c, 'currency');
  if ((amountText === undefined) !== (currency === undefined)) {
    refuse(
      `Send both amount and currency for a partial ${verb}, or neither for a full one (${amountText === undefined ? 'currency' : 'amount'} was sent alone).`,
      'VALIDATION',
    );
  }
  if (amountText === undefined) return remaining;
  if (currency !== order.currency) {
    refuse(
      `currency ${currency} does not match order ${order.id}, which is in ${order.currency}.`,
      'VALIDATION',
    );
  }
  const amount = positiveAmount(c);
  if (amount > remaining) {
    refuse(
      `amount ${fromMinorUnits(amount)} is more than what is left to ${verb} on order ${order.id} (${fromMinorUnits(remaining)} ${order.currency}).`,
    );
  }
  return amount;
}

/** Applies one settlement rule to a request on an existing order. */
function settle(rule: SettlementRule, x: EngineContext, c: OperationCall): ApiReply {
  const order = ownOrder(x, c);
  if (rule.amount === 'none' && (c.params.has('amount') || c.params.has('currency'))) {
    refuse(
      `${c.op.path.split('/').pop()} has no amount: partial voids are not supported. Omit amount and currency (use return for a partial release).`,
      'VALIDATION',
    );
  }
  if (!rule.orderKinds.includes(order.kind)) refuse(rule.wrongKind(order));
  const refusal = rule.guard(order, x.store.requests.of(order.id));
  if (refusal) refuse(refusal);
  const variant = rule.variants.find((v) => v.when(order))!;
  const specific = variant.guard?.(order);
  if (specific) refuse(specific);
  const remaining = remainingOf(order, variant.remaining);
  if (remaining <= 0) refuse(variant.nothingLeft(order));
  const amount =
    rule.amount === 'partial'
      ? settleAmount(c, order, remaining, variant.verb)
      : rule.amount === 'whole'
        ? remaining
        : 0;
  return childRequest(
    x,
    c,
    order,
    rule.requestKind,
    amount,
    variant.mode ? { refund_mode: variant.mode } : {},
  );
}

/** The handler of a settlement operation, from its row of the table. */
export function settlementHandler(operation: OperationId): Handler {
  const rule = SETTLEMENT_RULES.find((r) => r.operation === operation);
  if (!rule) throw new Error(`no settlement rule for ${operation}`);
  return (x, c) => settle(rule, x, c);
}

/** Whether an approved request of this kind moves a ledger column (capture, void, return, payout-pay). */
export function movesLedger(kind: RequestRow['kind']): boolean {
  return SETTLEMENT_RULES.some((r) => r.requestKind === kind);
}

/** Moves the ledger column of an approved settlement request (finalisation). */
export function applyLedger(store: SandboxStore, order: OrderRow, request: RequestRow): void {
  const rule = SETTLEMENT_RULES.find((r) => r.requestKind === request.kind);
  if (!rule) return;
  const variant = rule.variants.find((v) => v.mode === (request.refund_mode ?? null)) ?? rule.variants[0]!;
  const { column, effect } = variant.ledger;
  if (effect === 'set') store.orders.update(order.id, { [column]: 1 });
  else store.orders.update(order.id, { [column]: order[column] + request.amount_minor });
}

const COLUMN_WORD: Record<MoneyColumn, string> = {
  amount_minor: 'amount',
  captured_minor: 'captured',
  cancelled_minor: 'released',
  refunded_minor: 'refunded',
  paid_minor: 'paid',
};

const AMOUNT_WORD: Record<SettlementRule['amount'], string> = {
  partial: '`amount` + `currency` up to what remains, or neither for all of it',
  none: 'none (refused if sent)',
  whole: 'the checked amount',
};

/** The settlement table as sandbox/README.md prints it (a test keeps the README in sync). */
export function renderSettlementTable(pathOf: (id: OperationId) => string): string {
  const head = ['Operation', 'Order kinds', 'Allowed when', 'Case', 'Remaining', 'Amount', 'Moves'];
  const rows: string[][] = [];
  for (const rule of SETTLEMENT_RULES) {
    for (const v of rule.variants) {
      const ledger =
        v.ledger.effect === 'set' ? `\`${v.ledger.column}\` = 1` : `\`${v.ledger.column}\` += amount`;
      rows.push([
        `\`${pathOf(rule.operation)}\``,
        rule.orderKinds.join(', '),
        rule.stateText,
        v.whenText === 'always' ? v.name : `${v.name}: ${v.whenText}`,
        [COLUMN_WORD[v.remaining.from], ...v.remaining.minus.map((m) => COLUMN_WORD[m])].join(' − '),
        AMOUNT_WORD[rule.amount],
        ledger,
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}
