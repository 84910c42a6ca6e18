import { randomUUID } from 'node:crypto';
import { secureNonceSource } from '../../src/core/index.ts';
import { outcomeForCvv, THREE_DS_DECLINE } from '../outcomes.ts';
import type { ApiReply } from '../replies.ts';
import type { OrderKind, OrderRow } from '../store.ts';
import type { CardData, EngineContext, OperationCall } from './context.ts';
import { finalizeNow } from './finalize.ts';
import { APPROVE, cardFields, createOrder, mainRequest } from './orders.ts';
import { callbackUrl, param, positiveAmount, redirectUrl } from './params.ts';

export const newPageToken = secureNonceSource(undefined, 32);

/** The hosted-form operations: the order waits for the customer on the sandbox's page. */
export function hostedForm(
  x: EngineContext,
  c: OperationCall,
  kind: Extract<OrderKind, 'sale' | 'preauth' | 'account-verification' | 'payout'>,
): ApiReply {
  const noAmount = kind === 'account-verification';
  const amount = noAmount ? 0 : positiveAmount(c);
  const currency = noAmount ? null : (param(c, 'currency') ?? null);
  const callback = callbackUrl(x, c);
  const token = newPageToken();
  return createOrder(x, c, {
    kind,
    fields: {
      redirect_url: redirectUrl(c),
      callback_url: callback,
      form_state: 'awaiting-card',
      page_token: token,
    },
    first: { amount, currency },
    extraAck: () => ({ 'redirect-url': `${c.pageBase}/form/${token}` }),
    ackType: 'async-form-response',
  });
}

/** The customer submitted a hosted form: record the card and decide. */
export function submitHostedCard(
  x: EngineContext,
  token: string,
  card: CardData | undefined,
  now: number,
): { order: OrderRow; next: 'acs' | 'return' } | undefined {
  return x.store.tx(() => {
    const order = x.store.orders.byToken(token);
    if (!order || order.form_state !== 'awaiting-card') return undefined;
    const main = mainRequest(x, order);
    if (!card) {
      x.store.orders.update(order.id, { form_state: 'done' });
      finalizeNow(x, main, APPROVE, now);
      return { order: x.store.orders.get(order.id)!, next: 'return' as const };
    }
    const outcome = outcomeForCvv(card.cvv, order.kind === 'sale' || order.kind === 'preauth');
    x.store.orders.update(order.id, cardFields(x, card));
    if (outcome.kind === 'three-d-secure') {
      x.store.orders.update(order.id, {
        form_state: 'awaiting-3ds',
        tds_version: '1.0.2',
        tds_stage: 'acs',
        tds_trans_id: randomUUID(),
        tds_started_at: now,
      });
      return { order: x.store.orders.get(order.id)!, next: 'acs' as const };
    }
    x.store.orders.update(order.id, { form_state: 'done' });
    finalizeNow(x, main, outcome, now);
    return { order: x.store.orders.get(order.id)!, next: 'return' as const };
  });
}

export function issuerPageOpen(order: OrderRow): boolean {
  return order.tds_stage === 'acs' || (order.tds_version === '2' && order.tds_stage === 'challenge');
}

/** The customer answered the issuer page; `authenticated` when the password was right. */
export function completeIssuerPage(
  x: EngineContext,
  token: string,
  authenticated: boolean,
  now: number,
): { order: OrderRow; mode: 'form' | 'pares' | 'cres'; message?: string } | undefined {
  return x.store.tx(() => {
    const order = x.store.orders.byToken(token);
    if (!order || !issuerPageOpen(order)) return undefined;
    const trans = authenticated ? 'Y' : 'N';
    if (order.form_state !== null) {
      x.store.orders.update(order.id, { tds_stage: 'done', form_state: 'done' });
      finalizeNow(
        x,
        mainRequest(x, order),
        authenticated ? APPROVE : { kind: 'final', status: 'declined', ...THREE_DS_DECLINE },
        now,
      );
      return { order: x.store.orders.get(order.id)!, mode: 'form' as const };
    }
    if (order.tds_version === '2') {
      x.store.orders.update(order.id, { tds_stage: 'cres' });
      const cres = {
        messageType: 'CRes',
        messageVersion: '2.2.0',
        threeDSServerTransID: order.tds_trans_id,
        acsTransID: randomUUID(),
        transStatus: trans,
      };
      return { order, mode: 'cres' as const, message: Buffer.from(JSON.stringify(cres)).toString('base64') };
    }
    x.store.orders.update(order.id, { tds_stage: 'pares' });
    const pares = { messageType: 'PaRes', xid: order.tds_trans_id, transStatus: trans };
    return { order, mode: 'pares' as const, message: Buffer.from(JSON.stringify(pares)).toString('base64') };
  });
}

/** The 3DS Method page was loaded (3DS 2): recorded once. */
export function recordMethodPage(x: EngineContext, token: string, now: number): OrderRow | undefined {
  return x.store.tx(() => {
    const order = x.store.orders.byToken(token);
    if (!order || order.tds_version !== '2' || order.form_state !== null) return undefined;
    if (order.tds_method_loaded_at === null) x.store.orders.update(order.id, { tds_method_loaded_at: now });
    return order;
  });
}
