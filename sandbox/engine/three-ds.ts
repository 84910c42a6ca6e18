import { refuse, type ApiReply } from '../replies.ts';
import { THREE_DS_DECLINE } from '../outcomes.ts';
import type { OrderRow } from '../store.ts';
import type { EngineContext, OperationCall } from './context.ts';
import { ack, APPROVE, mainRequest, ownOrder, schedule } from './orders.ts';
import { param } from './params.ts';

/** The 3-D Secure Method window (api-description.md, Limits): after it `threeDSCompInd` is recorded as N. */
export const METHOD_WINDOW_MS = 10_000;

/**
 * 3-D Secure stages of an API order: 3DS 2 `method` → `challenge` → `cres`, 3DS 1.0.2 `acs` → `pares`,
 * then `done`. Hosted-form orders run their 3-D Secure on the sandbox's pages (hosted-pages.ts).
 */
function threeDsOrder(x: EngineContext, c: OperationCall): OrderRow {
  const order = ownOrder(x, c);
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

export function uploadMethodResult(x: EngineContext, c: OperationCall): ApiReply {
  const order = threeDsOrder(x, c);
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
  const given = param(c, 'threeDSCompInd') ?? 'U';
  const transId = param(c, 'threeDSServerTransID');
  if (transId !== undefined && transId !== order.tds_trans_id) {
    refuse(
      `threeDSServerTransID ${transId} is not the 3-D Secure transaction of order ${order.id} (${order.tds_trans_id}).`,
      'THREE_DS_ORDER',
    );
  }
  const waited = c.now - (order.tds_started_at ?? c.now);
  const late = waited > METHOD_WINDOW_MS;
  const recorded = given === 'U' ? 'U' : late ? 'N' : given;
  x.store.orders.update(order.id, { tds_stage: 'challenge', tds_comp_ind: recorded });
  const main = mainRequest(x, order);
  const body = { ...ack(order, main.serial), 'threeds-comp-ind': recorded };
  // The answer stays the gateway's; why N was recorded travels beside it, in a header.
  return recorded === given
    ? { code: 200, body }
    : { code: 200, body, headers: { [SANDBOX_NOTE_HEADER]: lateMethodNote(given, waited) } };
}

/** The header in which the sandbox explains an answer the gateway gives without a reason. */
export const SANDBOX_NOTE_HEADER = 'x-sandbox-note';

/** Why `threeDSCompInd` was recorded as N although the upload said otherwise (ASCII: a header value). */
export function lateMethodNote(given: string, waitedMs: number): string {
  return (
    `threeDSCompInd recorded as N, not ${given}: the Method result came ${(waitedMs / 1000).toFixed(3)} s ` +
    `after the 3-D Secure Method started, past its 10-second window (api-description.md, Limits).`
  );
}

/** The same note when the scenario three-ds-method-timeout records N. */
export function methodTimeoutNote(given: string): string {
  return (
    `threeDSCompInd recorded as N, not ${given}: scenario three-ds-method-timeout, the Method never ` +
    `completes within its 10-second window (api-description.md, Limits).`
  );
}

export function uploadChallengeResult(x: EngineContext, c: OperationCall, which: 'cres' | 'pares'): ApiReply {
  const order = threeDsOrder(x, c);
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
  const message = decodeThreeDsMessage(param(c, field) ?? '');
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
  const main = mainRequest(x, order);
  schedule(
    x,
    main,
    trans === 'Y' ? APPROVE : { kind: 'final', status: 'declined', ...THREE_DS_DECLINE },
    c.now,
  );
  x.store.orders.update(order.id, { tds_stage: 'done' });
  return { code: 200, body: ack(order, main.serial) };
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
