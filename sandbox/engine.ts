import { createHash, createHmac, randomInt, randomUUID } from 'node:crypto';
import { secureNonceSource, toMinorUnits, type EndpointRef } from '../src/core/index.ts';
import { expiryInPast, type Operation } from '../src/catalog/index.ts';
import { isLoopbackHostname } from './http-input.ts';
import type { Merchant } from './merchants.ts';
import type { ResolvedSandboxOptions } from './options.ts';
import {
  cardBrand,
  fromMinorUnits,
  maskCardNumber,
  outcomeForCvv,
  panDigits,
  THREE_DS_DECLINE,
  type CvvOutcome,
} from './outcomes.ts';
import { refuse, RuleError, validationError, type ApiReply } from './replies.ts';
import {
  FINAL,
  type OrderKind,
  type OrderRow,
  type RequestKind,
  type RequestRow,
  type SandboxStore,
  type TransactionStatus,
} from './store.ts';

/** The 3-D Secure Method window (api-description.md, Limits): after it `threeDSCompInd` is recorded as N. */
export const METHOD_WINDOW_MS = 10_000;

export interface OperationCall {
  op: Operation;
  merchant: Merchant;
  endpoint: EndpointRef;
  /** The endpoint id the order is booked on (`end-point-id`). */
  endPointId: string;
  params: ReadonlyMap<string, string>;
  now: number;
  /** `http://<host><prefix>/paynet`: where the sandbox's own pages are, as the client reached it. */
  pageBase: string;
}

export interface CardData {
  pan: string;
  name: string;
  expMonth: string;
  expYear: string;
  cvv: string | undefined;
}

const newToken = secureNonceSource(undefined, 32);

/** The business side of the sandbox: every operation's state rules, over the store. */
export class Engine {
  readonly store: SandboxStore;
  readonly options: ResolvedSandboxOptions;
  private readonly cardSecret: string;

  constructor(store: SandboxStore, options: ResolvedSandboxOptions) {
    this.store = store;
    this.options = options;
    this.cardSecret = store.getMeta('card_hash_secret') ?? '';
  }

  /** Runs one operation inside a database transaction. */
  run(call: OperationCall): ApiReply {
    try {
      return this.store.tx(() => this.dispatch(call));
    } catch (e) {
      if (e instanceof RuleError) return e.reply;
      throw e;
    }
  }

  private dispatch(c: OperationCall): ApiReply {
    switch (c.op.id) {
      case 'SALE':
        return this.cardPayment(c, 'sale');
      case 'PREAUTH':
        return this.cardPayment(c, 'preauth');
      case 'ACCOUNT_VERIFICATION':
        return this.cardPayment(c, 'account-verification');
      case 'SALEFORM':
      case 'PAYMENTFORM':
        return this.hostedForm(c, 'sale');
      case 'PREAUTHFORM':
        return this.hostedForm(c, 'preauth');
      case 'ACCOUNT_VERIFICATION_FORM':
        return this.hostedForm(c, 'account-verification');
      case 'PAYOUTFORM':
        return this.hostedForm(c, 'payout');
      case 'CAPTURE':
        return this.capture(c);
      case 'VOID':
        return this.void(c);
      case 'RETURN':
        return this.return(c);
      case 'CARDREF':
      case 'CARDREF_V4':
        return this.createCardRef(c);
      case 'CARDINFO':
        return this.cardInfo(c);
      case 'REBILL':
        return this.rebill(c);
      case 'STATUS':
        return this.status(c);
      case 'PAYOUT':
        return this.payout(c, 'payout', true);
      case 'PAYOUT_V4_CHECK':
        return this.payout(c, 'payout-check', true);
      case 'PAYOUT_V4':
        return this.payout(c, 'payout', false);
      case 'PAYOUT_V4_PAY':
        return this.payoutPay(c);
      case 'PAN_ELIGIBILITY_SEND':
        return this.panEligibility(c);
      case 'TRANSFER_V4':
      case 'TRANSFER_BY_REF_V4':
        return this.transfer(c);
      case 'CREATE_RP_V4':
        return this.recurring(c);
      case 'TDS_UPLOAD_METHOD_URL_RESULT':
        return this.uploadMethodResult(c);
      case 'TDS_UPLOAD_CRES_RESULT':
        return this.uploadChallengeResult(c, 'cres');
      case 'TDS_UPLOAD_PARES_RESULT':
        return this.uploadChallengeResult(c, 'pares');
      default:
        return validationError(`The sandbox does not emulate ${c.op.path}.`, 'UNKNOWN_OPERATION');
    }
  }

  // ---------------------------------------------------------------- helpers

  private p(c: OperationCall, name: string): string | undefined {
    const v = c.params.get(name);
    return v === undefined || v === '' ? undefined : v;
  }

  /** The merchant order id, whichever spelling the operation uses. */
  private clientOrderId(c: OperationCall): { name: string; value: string } {
    for (const name of ['client_orderid', 'client-order-id', 'client-orderid']) {
      if (c.op.fields.some((f) => f.name === name)) {
        const value = this.p(c, name);
        if (value === undefined) refuse(`${name} is required.`, 'VALIDATION');
        return { name, value };
      }
    }
    refuse('This operation has no merchant order id field.', 'VALIDATION');
  }

  private minor(c: OperationCall, name = 'amount'): number | undefined {
    const v = this.p(c, name);
    if (v === undefined) return undefined;
    const n = Number(toMinorUnits(v, name));
    if (!Number.isSafeInteger(n)) refuse(`${name} "${v}" is too large.`, 'VALIDATION');
    return n;
  }

  private positiveAmount(c: OperationCall): number {
    const n = this.minor(c);
    if (n === undefined) refuse('amount is required.', 'VALIDATION');
    if (n <= 0) refuse(`amount must be greater than 0 (got ${this.p(c, 'amount')}).`, 'VALIDATION');
    return n;
  }

  /** `server_callback_url` must point at this machine unless any host is allowed. */
  private callbackUrl(c: OperationCall): string | null {
    const v = this.p(c, 'server_callback_url');
    if (v === undefined) return null;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      refuse(`server_callback_url "${v}" is not an absolute URL.`, 'VALIDATION');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      refuse('server_callback_url must be an http or https URL.', 'VALIDATION');
    if (!this.options.callbackAllowAnyHost && !isLoopbackHostname(u.hostname)) {
      refuse(
        `server_callback_url host "${u.hostname}" is refused: the local sandbox sends callbacks only to this machine (127.0.0.1, localhost, [::1]). Use a loopback URL, or start the sandbox with SANDBOX_CALLBACKS_ANY_HOST=1.`,
        'CALLBACK_URL_REFUSED',
      );
    }
    return v;
  }

  private redirectUrl(c: OperationCall): string | null {
    const v = this.p(c, 'redirect_url');
    if (v === undefined) return null;
    let u: URL | undefined;
    try {
      u = new URL(v);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
      refuse(
        `redirect_url "${v.slice(0, 100)}" is not an absolute http(s) URL: the customer is sent back there.`,
        'VALIDATION',
      );
    }
    return v;
  }

  private cardFields(card: CardData): Partial<OrderRow> {
    const pan = panDigits(card.pan);
    return {
      card_bin: pan.slice(0, 6),
      card_last4: pan.slice(-4),
      card_exp_month: card.expMonth.padStart(2, '0'),
      card_exp_year: card.expYear,
      card_name: card.name,
      card_brand: cardBrand(pan),
      card_hash: createHmac('sha256', this.cardSecret).update(pan).digest('hex'),
      extra_json: JSON.stringify({ panLength: pan.length }),
    };
  }

  private paramsHash(c: OperationCall): string {
    const pairs = [...c.params.entries()]
      .filter(([n]) => n !== 'control')
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return createHash('sha256')
      .update(JSON.stringify([c.op.path, pairs]))
      .digest('hex');
  }

  private ownOrder(c: OperationCall, clientOrderId: { name: string; value: string }): OrderRow {
    const raw = this.p(c, 'orderid');
    if (raw === undefined) refuse('orderid is required.', 'VALIDATION');
    if (!/^\d{1,15}$/.test(raw))
      refuse(`orderid "${raw}" is not an order id of this sandbox.`, 'ORDER_NOT_FOUND');
    const order = this.store.getOrder(Number(raw));
    if (!order || order.merchant !== c.merchant.login) {
      refuse(
        `orderid ${raw} is not an order of merchant ${c.merchant.login}: use the paynet-order-id of one of your transactions.`,
        'ORDER_NOT_FOUND',
      );
    }
    if (order.client_orderid !== clientOrderId.value) {
      refuse(
        `${clientOrderId.name} "${clientOrderId.value}" does not match order ${order.id}, whose client_orderid is "${order.client_orderid}": send the order's own client_orderid.`,
        'ORDER_MISMATCH',
      );
    }
    return order;
  }

  private mainRequest(order: OrderRow): RequestRow {
    return this.store.requestsOf(order.id)[0]!;
  }

  private refuseWhileProcessing(order: OrderRow): void {
    const busy = this.store.requestsOf(order.id).find((r) => r.status === 'processing');
    if (busy) {
      refuse(
        `Order ${order.id} has a ${busy.kind} request (serial ${busy.serial}) still processing: wait for its final status (poll status) and try again.`,
      );
    }
  }

  private ack(
    order: OrderRow | { id: number; client_orderid: string; end_point_id: string },
    serial: string,
    type = 'async-response',
  ): Record<string, unknown> {
    return {
      type,
      'serial-number': serial,
      'merchant-order-id': order.client_orderid,
      'paynet-order-id': String(order.id),
      'end-point-id': order.end_point_id,
    };
  }

  /**
   * Creates an order (the operations that start one), handling a repeated merchant order id:
   * the identical request again gets the original acknowledgement; a different one is refused.
   */
  private createOrder(
    c: OperationCall,
    kind: OrderKind,
    fields: Partial<OrderRow>,
    first: { amount: number; currency: string | null; status?: TransactionStatus; outcome?: CvvOutcome },
    extraAck: (orderId: number) => Record<string, unknown> = () => ({}),
    ackType = 'async-response',
    onCreated?: (order: OrderRow, request: RequestRow) => void,
  ): ApiReply {
    const client = this.clientOrderId(c);
    const hash = this.paramsHash(c);
    const existing = this.store.findOrderByKey(
      c.merchant.login,
      c.endpoint.kind,
      c.endpoint.id,
      c.op.path,
      client.value,
    );
    if (existing) {
      if (existing.params_hash === hash)
        return { code: 200, body: JSON.parse(existing.ack_json) as Record<string, unknown> };
      refuse(
        `${client.name} "${client.value}" already used: order ${existing.id} was created by a ${c.op.path} request with this ${client.name} on this endpoint and different parameters. Use a new ${client.name}, or resend the identical request to get the original answer.`,
        'CLIENT_ORDERID_USED',
      );
    }
    const id = this.store.insertOrder({
      merchant: c.merchant.login,
      endpoint_kind: c.endpoint.kind,
      endpoint_ref: c.endpoint.id,
      end_point_id: c.endPointId,
      op_path: c.op.path,
      kind,
      client_orderid: client.value,
      params_hash: hash,
      ack_json: '{}',
      amount_minor: first.amount,
      currency: first.currency,
      created_at: c.now,
      ...fields,
    });
    const request = this.store.insertRequest(
      this.newRequest(id, kind, first.amount, first.currency, c.now, first.status ?? 'processing'),
    );
    if (first.outcome) this.schedule(request, first.outcome, c.now);
    const order = this.store.getOrder(id)!;
    onCreated?.(order, request);
    const body = { ...this.ack(order, request.serial, ackType), ...extraAck(id) };
    this.store.updateOrder(id, { ack_json: JSON.stringify(body) });
    return { code: 200, body };
  }

  private newRequest(
    orderId: number,
    kind: RequestKind,
    amount: number,
    currency: string | null,
    now: number,
    status: TransactionStatus = 'processing',
  ): Omit<RequestRow, 'id'> {
    return {
      serial: randomUUID(),
      order_id: orderId,
      kind,
      amount_minor: amount,
      currency,
      status,
      pending_status: null,
      pending_error_message: null,
      pending_error_code: null,
      finalize_at: null,
      error_message: null,
      error_code: null,
      approval_code: null,
      rrn: null,
      refund_mode: null,
      created_at: now,
    };
  }

  /** Sets the status a request reaches after the configured delay. */
  private schedule(request: RequestRow, outcome: CvvOutcome, now: number): void {
    if (outcome.kind === 'three-d-secure') return;
    const status: TransactionStatus = outcome.kind === 'unknown' ? 'unknown' : outcome.status;
    this.store.updateRequest(request.id, {
      pending_status: status,
      pending_error_message: outcome.kind === 'final' ? (outcome.errorMessage ?? null) : null,
      pending_error_code: outcome.kind === 'final' ? (outcome.errorCode ?? null) : null,
      finalize_at: now + this.options.finalizeDelayMs,
    });
  }

  private static readonly approve: CvvOutcome = { kind: 'final', status: 'approved' };

  /** 3-D Secure 2 when the sale says so (`threeds_version`) or carries 3DS 2 browser fields; else 1.0.2. */
  private threeDsVersion(c: OperationCall): '2' | '1.0.2' {
    const v = this.p(c, 'threeds_version');
    if (v !== undefined) {
      if (/^2(\.\d+){0,2}$/.test(v)) return '2';
      if (/^1(\.0(\.2)?)?$/.test(v)) return '1.0.2';
      refuse(`threeds_version "${v}" is not 1.0.2 or 2.`, 'VALIDATION');
    }
    const browser = [...c.params.keys()].some(
      (k) => /^browser[A-Z]/.test(k) || k.startsWith('customer_browser_'),
    );
    return browser ? '2' : '1.0.2';
  }

  private card(
    c: OperationCall,
    names = {
      pan: 'credit_card_number',
      name: 'card_printed_name',
      month: 'expire_month',
      year: 'expire_year',
    },
  ): CardData {
    return {
      pan: this.p(c, names.pan) ?? '',
      name: this.p(c, names.name) ?? '',
      expMonth: this.p(c, names.month) ?? '',
      expYear: this.p(c, names.year) ?? '',
      cvv: this.p(c, 'cvv2'),
    };
  }

  // ---------------------------------------------------------------- operations

  private cardPayment(c: OperationCall, kind: 'sale' | 'preauth' | 'account-verification'): ApiReply {
    const verification = kind === 'account-verification';
    const amount = verification ? 0 : this.positiveAmount(c);
    const currency = verification ? null : (this.p(c, 'currency') ?? null);
    const callback = this.callbackUrl(c);
    const card = this.card(c);
    const outcome = outcomeForCvv(card.cvv, !verification);
    const fields: Partial<OrderRow> = {
      ...this.cardFields(card),
      redirect_url: this.redirectUrl(c),
      callback_url: callback,
    };
    if (outcome.kind === 'three-d-secure') {
      Object.assign(fields, {
        tds_version: this.threeDsVersion(c),
        tds_trans_id: randomUUID(),
        tds_started_at: c.now,
        page_token: newToken(),
      });
      fields.tds_stage = fields.tds_version === '2' ? 'method' : 'acs';
    }
    return this.createOrder(c, kind, fields, { amount, currency, outcome });
  }

  private hostedForm(
    c: OperationCall,
    kind: 'sale' | 'preauth' | 'account-verification' | 'payout',
  ): ApiReply {
    const noAmount = kind === 'account-verification';
    const amount = noAmount ? 0 : this.positiveAmount(c);
    const currency = noAmount ? null : (this.p(c, 'currency') ?? null);
    const callback = this.callbackUrl(c);
    const token = newToken();
    return this.createOrder(
      c,
      kind,
      {
        redirect_url: this.redirectUrl(c),
        callback_url: callback,
        form_state: 'awaiting-card',
        page_token: token,
      },
      { amount, currency },
      () => ({ 'redirect-url': `${c.pageBase}/form/${token}` }),
      'async-form-response',
    );
  }

  private settleAmount(c: OperationCall, order: OrderRow, remaining: number, what: string): number {
    const amountText = this.p(c, 'amount');
    const currency = this.p(c, 'currency');
    if ((amountText === undefined) !== (currency === undefined)) {
      refuse(
        `Send both amount and currency for a partial ${what}, or neither for a full one (${amountText === undefined ? 'currency' : 'amount'} was sent alone).`,
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
    const amount = this.positiveAmount(c);
    if (amount > remaining) {
      refuse(
        `amount ${fromMinorUnits(amount)} is more than what is left to ${what} on order ${order.id} (${fromMinorUnits(remaining)} ${order.currency}).`,
      );
    }
    return amount;
  }

  private childRequest(
    c: OperationCall,
    order: OrderRow,
    kind: RequestKind,
    amount: number,
    extra: Partial<RequestRow> = {},
  ): ApiReply {
    const request = this.store.insertRequest({
      ...this.newRequest(order.id, kind, amount, order.currency, c.now),
      ...extra,
    });
    this.schedule(request, Engine.approve, c.now);
    return { code: 200, body: this.ack(order, request.serial) };
  }

  private capture(c: OperationCall): ApiReply {
    const order = this.ownOrder(c, this.clientOrderId(c));
    if (order.kind !== 'preauth')
      refuse(`capture applies only to an approved preauth; order ${order.id} is a ${order.kind}.`);
    this.refuseWhileProcessing(order);
    const main = this.mainRequest(order);
    if (main.status !== 'approved')
      refuse(`The preauth of order ${order.id} is ${main.status}: only an approved preauth can be captured.`);
    if (order.voided) refuse(`The preauth of order ${order.id} was voided: there is nothing to capture.`);
    const remaining = order.amount_minor - order.captured_minor - order.cancelled_minor;
    if (remaining <= 0)
      refuse(`Order ${order.id} has nothing left to capture (captured or released in full).`);
    return this.childRequest(c, order, 'capture', this.settleAmount(c, order, remaining, 'capture'));
  }

  private void(c: OperationCall): ApiReply {
    const order = this.ownOrder(c, this.clientOrderId(c));
    if (c.params.has('amount') || c.params.has('currency')) {
      refuse(
        'void has no amount: partial voids are not supported. Omit amount and currency (use return for a partial release).',
        'VALIDATION',
      );
    }
    if (order.kind !== 'preauth') {
      refuse(
        `void applies only to an authorization not yet settled (an approved preauth); order ${order.id} is a ${order.kind}${
          order.kind === 'sale' || order.kind === 'rebill' ? ', settled at once: use return to refund it' : ''
        }.`,
      );
    }
    this.refuseWhileProcessing(order);
    const main = this.mainRequest(order);
    if (main.status !== 'approved')
      refuse(`The preauth of order ${order.id} is ${main.status}: only an approved preauth can be voided.`);
    if (order.voided) refuse(`Order ${order.id} is already voided.`);
    if (order.captured_minor > 0)
      refuse(`Order ${order.id} has been captured (settled): use return to refund it.`);
    if (order.cancelled_minor >= order.amount_minor)
      refuse(`The hold of order ${order.id} was already released in full.`);
    return this.childRequest(c, order, 'void', 0);
  }

  private return(c: OperationCall): ApiReply {
    const order = this.ownOrder(c, this.clientOrderId(c));
    if (order.kind !== 'sale' && order.kind !== 'preauth' && order.kind !== 'rebill') {
      refuse(
        `return applies to a sale, a rebill, a preauth or its capture; order ${order.id} is a ${order.kind}${
          order.kind === 'account-verification' ? ' and moved no money' : ''
        }.`,
      );
    }
    this.refuseWhileProcessing(order);
    const main = this.mainRequest(order);
    if (main.status !== 'approved') {
      refuse(
        `return is allowed only on a transaction in a final successful status; order ${order.id} is ${main.status}.`,
      );
    }
    let mode: 'cancel' | 'refund';
    let left: number;
    if (order.kind === 'preauth' && order.captured_minor === 0) {
      if (order.voided) refuse(`The preauth of order ${order.id} was voided: there is nothing to return.`);
      mode = 'cancel';
      left = order.amount_minor - order.cancelled_minor;
    } else {
      mode = 'refund';
      left = (order.kind === 'preauth' ? order.captured_minor : order.amount_minor) - order.refunded_minor;
    }
    if (left <= 0)
      refuse(
        `Order ${order.id} has nothing left to return (${mode === 'cancel' ? 'hold released' : 'refunded'} in full).`,
      );
    const amount = this.settleAmount(c, order, left, mode === 'cancel' ? 'release' : 'refund');
    return this.childRequest(c, order, 'return', amount, { refund_mode: mode });
  }

  private createCardRef(c: OperationCall): ApiReply {
    const order = this.ownOrder(c, this.clientOrderId(c));
    if (order.kind !== 'sale' && order.kind !== 'preauth' && order.kind !== 'account-verification') {
      refuse(`create-card-ref needs a completed sale or preauth; order ${order.id} is a ${order.kind}.`);
    }
    const main = this.mainRequest(order);
    if (main.status !== 'approved' || !order.card_bin) {
      refuse(
        `create-card-ref needs a completed (approved) sale or preauth; order ${order.id} is ${main.status}.`,
      );
    }
    const existing = this.store.cardRefOfOrder(order.id);
    const ref =
      existing ??
      this.store.insertCardRef({
        merchant: c.merchant.login,
        order_id: order.id,
        bin: order.card_bin,
        last4: order.card_last4 ?? '',
        exp_month: order.card_exp_month ?? '',
        exp_year: order.card_exp_year ?? '',
        name: order.card_name ?? '',
        brand: order.card_brand ?? 'Unknown',
        card_hash: order.card_hash ?? '',
        pan_length: (JSON.parse(order.extra_json ?? '{}') as { panLength?: number }).panLength ?? 16,
        created_at: c.now,
      });
    if (!existing) this.store.updateOrder(order.id, { card_ref_id: ref.id });
    return {
      code: 200,
      body: { ...this.ack(order, main.serial, 'create-card-ref-response'), 'card-ref-id': String(ref.id) },
    };
  }

  private cardRefParam(c: OperationCall, name: string) {
    const raw = this.p(c, name);
    if (raw === undefined) refuse(`${name} is required.`, 'VALIDATION');
    const ref = /^\d{1,15}$/.test(raw) ? this.store.cardRef(c.merchant.login, Number(raw)) : undefined;
    if (!ref)
      refuse(
        `${name} ${raw} is not a card reference of merchant ${c.merchant.login}: create one with create-card-ref.`,
        'CARD_REF_NOT_FOUND',
      );
    return ref;
  }

  private cardInfo(c: OperationCall): ApiReply {
    const ref = this.cardRefParam(c, 'cardrefid');
    const masked = maskCardNumber(ref.bin, ref.last4, ref.pan_length);
    return {
      code: 200,
      body: {
        type: 'get-card-info-response',
        'card-ref-id': String(ref.id),
        'card-printed-name': ref.name,
        'expire-month': ref.exp_month,
        'expire-year': ref.exp_year,
        bin: ref.bin,
        'last-four-digits': ref.last4,
        'card-brand': ref.brand,
        'masked-card-number': masked,
        'serial-number': randomUUID(),
      },
    };
  }

  private rebill(c: OperationCall): ApiReply {
    const ref = this.cardRefParam(c, 'cardrefid');
    const amount = this.positiveAmount(c);
    const currency = this.p(c, 'currency') ?? null;
    const callback = this.callbackUrl(c);
    const expired = expiryInPast(ref.exp_month, ref.exp_year, new Date(c.now));
    const outcome: CvvOutcome = expired
      ? {
          kind: 'final',
          status: 'declined',
          errorMessage: 'Declined: the stored card has expired',
          errorCode: 'EXPIRED_CARD',
        }
      : outcomeForCvv(this.p(c, 'cvv2'), false);
    return this.createOrder(
      c,
      'rebill',
      {
        card_bin: ref.bin,
        card_last4: ref.last4,
        card_exp_month: ref.exp_month,
        card_exp_year: ref.exp_year,
        card_name: ref.name,
        card_brand: ref.brand,
        card_hash: ref.card_hash,
        card_ref_id: ref.id,
        callback_url: callback,
        extra_json: JSON.stringify({ panLength: ref.pan_length }),
      },
      { amount, currency, outcome },
    );
  }

  private status(c: OperationCall): ApiReply {
    const client = this.clientOrderId(c);
    let order: OrderRow | undefined;
    if (this.p(c, 'orderid') !== undefined) order = this.ownOrder(c, client);
    else {
      order = this.store.latestOrderByClientId(c.merchant.login, client.value);
      if (!order)
        refuse(
          `No order of merchant ${c.merchant.login} has client_orderid "${client.value}".`,
          'ORDER_NOT_FOUND',
        );
    }
    const sn = this.p(c, 'by-request-sn');
    const requests = this.store.requestsOf(order.id);
    const request =
      sn === undefined ? requests[requests.length - 1]! : this.store.requestBySerial(order.id, sn);
    if (!request) refuse(`by-request-sn ${sn} is not a request of order ${order.id}.`, 'ORDER_NOT_FOUND');
    return { code: 200, body: this.statusBody(order, request, c.pageBase) };
  }

  statusBody(order: OrderRow, request: RequestRow, pageBase: string): Record<string, unknown> {
    const body: Record<string, unknown> = {
      type: 'status-response',
      status: request.status,
      amount: fromMinorUnits(request.amount_minor),
      ...(request.currency ? { currency: request.currency } : {}),
      'paynet-order-id': String(order.id),
      'merchant-order-id': order.client_orderid,
      'serial-number': request.serial,
      'end-point-id': order.end_point_id,
      'transaction-type': request.kind,
    };
    if (order.card_bin) {
      body.bin = order.card_bin;
      body['last-four-digits'] = order.card_last4;
      body['card-brand'] = order.card_brand;
    }
    if (order.card_ref_id !== null) body['card-ref-id'] = String(order.card_ref_id);
    if (request.approval_code) body['approval-code'] = request.approval_code;
    if (request.rrn) body['processor-rrn'] = request.rrn;
    if (request.error_message) body['error-message'] = request.error_message;
    if (request.error_code) body['error-code'] = request.error_code;
    if (order.tds_version) {
      body['threeds-version'] = order.tds_version;
      if (order.tds_comp_ind) body['threeds-comp-ind'] = order.tds_comp_ind;
      if (request.status === 'processing' && order.form_state === null && order.page_token) {
        body['threeds-stage'] = order.tds_stage;
        if (order.tds_stage === 'method') {
          body['threeds-method-url'] = `${pageBase}/3ds/method/${order.page_token}`;
          body['threeds-server-trans-id'] = order.tds_trans_id;
        }
        if (order.tds_stage === 'acs' || order.tds_stage === 'challenge')
          body['redirect-to'] = `${pageBase}/3ds/acs/${order.page_token}`;
      }
    }
    return body;
  }

  private destinationRequired(c: OperationCall): void {
    const bank = this.p(c, 'account_number') !== undefined && this.p(c, 'bank_name') !== undefined;
    const card = this.p(c, 'destination-card-no') !== undefined;
    const phone = this.p(c, 'receiver_phone') !== undefined;
    if (!bank && !card && !phone) {
      refuse(
        'A payout needs a destination: account_number with bank_name, destination-card-no, or receiver_phone.',
        'VALIDATION',
      );
    }
  }

  private payout(c: OperationCall, kind: 'payout' | 'payout-check', checkDestination: boolean): ApiReply {
    if (checkDestination) this.destinationRequired(c);
    const amount = this.positiveAmount(c);
    const callback = this.callbackUrl(c);
    const isV4Payout = c.op.id === 'PAYOUT_V4';
    return this.createOrder(
      c,
      kind,
      { callback_url: callback },
      { amount, currency: this.p(c, 'currency') ?? null, outcome: Engine.approve },
      (id) => (isV4Payout ? { 'payout-id': String(id) } : {}),
    );
  }

  private payoutPay(c: OperationCall): ApiReply {
    const order = this.ownOrder(c, this.clientOrderId(c));
    if (order.kind !== 'payout-check') {
      refuse(
        `payout-pay executes a payout registered by payout-check; order ${order.id} is a ${order.kind}.`,
      );
    }
    const requests = this.store.requestsOf(order.id);
    const paid = requests.find((r) => r.kind === 'payout-pay');
    if (paid)
      refuse(
        `The payout of order ${order.id} was already executed (serial ${paid.serial}): payout-pay runs once per payout-check.`,
      );
    const check = requests[0]!;
    if (check.status === 'processing')
      refuse(
        `The payout check of order ${order.id} is still processing: wait until status answers approved.`,
      );
    if (check.status !== 'approved')
      refuse(`The payout check of order ${order.id} is ${check.status}: only an approved check can be paid.`);
    return this.childRequest(c, order, 'payout-pay', order.amount_minor);
  }

  private panEligibility(c: OperationCall): ApiReply {
    const ref = this.cardRefParam(c, 'sending-card-ref-id');
    return this.createOrder(
      c,
      'pan-eligibility',
      { card_bin: ref.bin, card_last4: ref.last4, card_brand: ref.brand, card_ref_id: ref.id },
      { amount: 0, currency: null, outcome: Engine.approve },
    );
  }

  private transfer(c: OperationCall): ApiReply {
    const amount = this.positiveAmount(c);
    const byRef = c.op.id === 'TRANSFER_BY_REF_V4';
    const card = byRef ? undefined : this.card(c);
    const outcome = card ? outcomeForCvv(card.cvv, false) : Engine.approve;
    return this.createOrder(
      c,
      'transfer',
      card ? this.cardFields(card) : {},
      { amount, currency: this.p(c, 'currency') ?? null, outcome },
      (id) => ({ 'transaction-id': String(id) }),
    );
  }

  private recurring(c: OperationCall): ApiReply {
    const amount = this.positiveAmount(c);
    const currency = this.p(c, 'currency') ?? '';
    const interval = Number(this.p(c, 'interval') ?? '0');
    if (!(interval >= 1)) refuse('interval must be a whole number of periods, at least 1.', 'VALIDATION');
    const card = this.card(c, {
      pan: 'credit-card-number',
      name: 'card-printed-name',
      month: 'expire-month',
      year: 'expire-year',
    });
    let rpId = 0;
    return this.createOrder(
      c,
      'recurring',
      this.cardFields(card),
      { amount, currency, status: 'approved' },
      () => ({ 'recurring-payment-id': String(rpId) }),
      'async-response',
      (order) => {
        rpId = this.store.insertRecurring({
          merchant: c.merchant.login,
          order_id: order.id,
          card_type: this.p(c, 'rp_card_type') ?? 'SRC',
          amount_minor: amount,
          currency,
          period: this.p(c, 'period') ?? '',
          interval,
          created_at: c.now,
        });
      },
    );
  }

  // ---------------------------------------------------------------- 3-D Secure uploads

  private threeDsOrder(c: OperationCall): OrderRow {
    const order = this.ownOrder(c, this.clientOrderId(c));
    if (!order.tds_version) {
      refuse(
        `Order ${order.id} is not a 3-D Secure transaction: no 3-D Secure upload is expected for it.`,
        'THREE_DS_ORDER',
      );
    }
    if (order.form_state !== null) {
      refuse(
        `Order ${order.id} is a hosted-form payment: its 3-D Secure step completes on the sandbox's page, nothing is uploaded.`,
        'THREE_DS_ORDER',
      );
    }
    if (order.tds_stage === 'done')
      refuse(
        `3-D Secure of order ${order.id} is already complete: read the outcome with status.`,
        'THREE_DS_ORDER',
      );
    return order;
  }

  private uploadMethodResult(c: OperationCall): ApiReply {
    const order = this.threeDsOrder(c);
    if (order.tds_version !== '2') {
      refuse(
        `Order ${order.id} is a 3-D Secure 1.0.2 transaction: it has no Method step; upload the PaRes with upload-pares-result.`,
        'THREE_DS_ORDER',
      );
    }
    if (order.tds_stage !== 'method') {
      refuse(
        `The 3DS Method result of order ${order.id} was already uploaded: continue with the challenge, then upload-cres-result.`,
        'THREE_DS_ORDER',
      );
    }
    const given = this.p(c, 'threeDSCompInd') ?? 'U';
    const transId = this.p(c, 'threeDSServerTransID');
    if (transId !== undefined && transId !== order.tds_trans_id) {
      refuse(
        `threeDSServerTransID ${transId} is not the 3-D Secure transaction of order ${order.id} (${order.tds_trans_id}).`,
        'THREE_DS_ORDER',
      );
    }
    const late = c.now - (order.tds_started_at ?? c.now) > METHOD_WINDOW_MS;
    const recorded = given === 'U' ? 'U' : late ? 'N' : given;
    this.store.updateOrder(order.id, { tds_stage: 'challenge', tds_comp_ind: recorded });
    const main = this.mainRequest(order);
    return { code: 200, body: { ...this.ack(order, main.serial), 'threeds-comp-ind': recorded } };
  }

  private uploadChallengeResult(c: OperationCall, which: 'cres' | 'pares'): ApiReply {
    const order = this.threeDsOrder(c);
    if (which === 'cres') {
      if (order.tds_version !== '2') {
        refuse(
          `Order ${order.id} is a 3-D Secure 1.0.2 transaction: upload the PaRes with upload-pares-result, not a CRes.`,
          'THREE_DS_ORDER',
        );
      }
      if (order.tds_stage === 'method') {
        refuse(
          `Upload the 3DS Method result of order ${order.id} (upload-method-url-result) before the challenge result.`,
          'THREE_DS_ORDER',
        );
      }
    } else if (order.tds_version !== '1.0.2') {
      refuse(
        `Order ${order.id} is a 3-D Secure 2 transaction: upload upload-method-url-result, then upload-cres-result; PaRes belongs to 3-D Secure 1.0.2.`,
        'THREE_DS_ORDER',
      );
    }
    const field = which === 'cres' ? 'cRes' : 'paRes';
    const messageType = which === 'cres' ? 'CRes' : 'PaRes';
    const idName = which === 'cres' ? 'threeDSServerTransID' : 'xid';
    const message = decodeThreeDsMessage(this.p(c, field) ?? '');
    if (!message)
      refuse(
        `${field} is not Base64 of a JSON object: send the value the issuer page returned, unchanged.`,
        'VALIDATION',
      );
    if (message.messageType !== messageType)
      refuse(
        `${field} has messageType "${String(message.messageType)}"; expected "${messageType}".`,
        'VALIDATION',
      );
    if (message[idName] !== order.tds_trans_id) {
      refuse(
        `${field} belongs to another 3-D Secure transaction (${idName} ${String(message[idName])}), not order ${order.id}.`,
        'THREE_DS_ORDER',
      );
    }
    const trans = message.transStatus;
    if (trans !== 'Y' && trans !== 'N')
      refuse(`${field} transStatus must be Y (authenticated) or N (not authenticated).`, 'VALIDATION');
    const main = this.mainRequest(order);
    this.schedule(
      main,
      trans === 'Y' ? Engine.approve : { kind: 'final', status: 'declined', ...THREE_DS_DECLINE },
      c.now,
    );
    this.store.updateOrder(order.id, { tds_stage: 'done' });
    return { code: 200, body: this.ack(order, main.serial) };
  }

  // ---------------------------------------------------------------- hosted pages

  /** The customer submitted a hosted form: record the card and decide. */
  submitHostedCard(
    token: string,
    card: CardData | undefined,
    now: number,
  ): { order: OrderRow; next: 'acs' | 'return' } | undefined {
    return this.store.tx(() => {
      const order = this.store.orderByToken(token);
      if (!order || order.form_state !== 'awaiting-card') return undefined;
      const main = this.mainRequest(order);
      if (!card) {
        this.store.updateOrder(order.id, { form_state: 'done' });
        this.finalize(main, { kind: 'final', status: 'approved' }, now);
        return { order: this.store.getOrder(order.id)!, next: 'return' as const };
      }
      const outcome = outcomeForCvv(card.cvv, order.kind === 'sale' || order.kind === 'preauth');
      this.store.updateOrder(order.id, this.cardFields(card));
      if (outcome.kind === 'three-d-secure') {
        this.store.updateOrder(order.id, {
          form_state: 'awaiting-3ds',
          tds_version: '1.0.2',
          tds_stage: 'acs',
          tds_trans_id: randomUUID(),
          tds_started_at: now,
        });
        return { order: this.store.getOrder(order.id)!, next: 'acs' as const };
      }
      this.store.updateOrder(order.id, { form_state: 'done' });
      this.finalize(main, outcome, now);
      return { order: this.store.getOrder(order.id)!, next: 'return' as const };
    });
  }

  /** The customer answered the issuer page; `authenticated` when the password was right. */
  completeIssuerPage(
    token: string,
    authenticated: boolean,
    now: number,
  ): { order: OrderRow; mode: 'form' | 'pares' | 'cres'; message?: string } | undefined {
    return this.store.tx(() => {
      const order = this.store.orderByToken(token);
      if (!order || !this.issuerPageOpen(order)) return undefined;
      const trans = authenticated ? 'Y' : 'N';
      if (order.form_state !== null) {
        this.store.updateOrder(order.id, { tds_stage: 'done', form_state: 'done' });
        this.finalize(
          this.mainRequest(order),
          authenticated ? Engine.approve : { kind: 'final', status: 'declined', ...THREE_DS_DECLINE },
          now,
        );
        return { order: this.store.getOrder(order.id)!, mode: 'form' as const };
      }
      if (order.tds_version === '2') {
        this.store.updateOrder(order.id, { tds_stage: 'cres' });
        const cres = {
          messageType: 'CRes',
          messageVersion: '2.2.0',
          threeDSServerTransID: order.tds_trans_id,
          acsTransID: randomUUID(),
          transStatus: trans,
        };
        return {
          order,
          mode: 'cres' as const,
          message: Buffer.from(JSON.stringify(cres)).toString('base64'),
        };
      }
      this.store.updateOrder(order.id, { tds_stage: 'pares' });
      const pares = { messageType: 'PaRes', xid: order.tds_trans_id, transStatus: trans };
      return {
        order,
        mode: 'pares' as const,
        message: Buffer.from(JSON.stringify(pares)).toString('base64'),
      };
    });
  }

  issuerPageOpen(order: OrderRow): boolean {
    return order.tds_stage === 'acs' || (order.tds_version === '2' && order.tds_stage === 'challenge');
  }

  recordMethodPage(token: string, now: number): OrderRow | undefined {
    return this.store.tx(() => {
      const order = this.store.orderByToken(token);
      if (!order || order.tds_version !== '2' || order.form_state !== null) return undefined;
      if (order.tds_method_loaded_at === null)
        this.store.updateOrder(order.id, { tds_method_loaded_at: now });
      return order;
    });
  }

  // ---------------------------------------------------------------- finalization

  /** Makes a request final now (hosted pages decide while the customer waits). */
  private finalize(request: RequestRow, outcome: CvvOutcome, now: number): void {
    this.schedule(request, outcome, now);
    this.store.updateRequest(request.id, { finalize_at: now });
    this.applyFinal(this.store.getRequest(request.id)!, now);
  }

  /** Applies every request whose delay has passed; returns how many. */
  finalizeDue(now: number): number {
    if (this.store.isClosed) return 0;
    let n = 0;
    for (;;) {
      const due = this.store.dueRequests(now);
      if (due.length === 0) return n;
      for (const r of due) {
        this.store.tx(() => {
          const fresh = this.store.getRequest(r.id);
          if (fresh && fresh.finalize_at !== null && fresh.finalize_at <= now) this.applyFinal(fresh, now);
        });
        n++;
      }
    }
  }

  private applyFinal(r: RequestRow, now: number): void {
    const status = r.pending_status ?? 'approved';
    const approved = status === 'approved';
    this.store.updateRequest(r.id, {
      status,
      pending_status: null,
      finalize_at: null,
      error_message: r.pending_error_message,
      error_code: r.pending_error_code,
      pending_error_message: null,
      pending_error_code: null,
      approval_code: approved ? String(randomInt(0, 1_000_000)).padStart(6, '0') : null,
      rrn: approved
        ? String(randomInt(100_000, 1_000_000)) + String(randomInt(0, 1_000_000)).padStart(6, '0')
        : null,
    });
    const order = this.store.getOrder(r.order_id)!;
    if (approved) {
      if (r.kind === 'capture')
        this.store.updateOrder(order.id, { captured_minor: order.captured_minor + r.amount_minor });
      if (r.kind === 'void') this.store.updateOrder(order.id, { voided: 1 });
      if (r.kind === 'return') {
        if (r.refund_mode === 'cancel')
          this.store.updateOrder(order.id, { cancelled_minor: order.cancelled_minor + r.amount_minor });
        else this.store.updateOrder(order.id, { refunded_minor: order.refunded_minor + r.amount_minor });
      }
    }
    if ((FINAL as readonly string[]).includes(status) && order.callback_url)
      this.store.insertCallback(r.id, order.callback_url, now);
  }
}

/** Decodes a Base64 (standard or URL-safe) JSON object; undefined for anything else. */
export function decodeThreeDsMessage(text: string): Record<string, unknown> | undefined {
  const clean = text.replace(/\s+/g, '');
  if (clean === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(clean)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(clean, 'base64').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
