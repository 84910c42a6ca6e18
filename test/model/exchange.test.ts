/** The model's exchange: prepare → send through an injected transport → read → one record. */
import { describe, expect, it } from 'vitest';
import type { BuiltRequest } from '../../src/core/index.ts';
import { DRAFT_VERSION, type RequestDraft } from '../../src/model/index.ts';
import { ExchangeRefused, prepareExchange, type Transport } from '../../src/model/exchange.ts';
import { signingEnv } from './signing-env.ts';

const PARTY = { profileName: 'demo', targetName: 'local' };

function capture(status = 200, body = '{"type":"async-response","paynet-order-id":"77"}') {
  const wire: BuiltRequest[] = [];
  const transport: Transport = (req) => {
    wire.push(req);
    return Promise.resolve({ status, headers: { 'content-type': 'application/json' }, body, elapsedMs: 12 });
  };
  return { wire, transport };
}

const sale: RequestDraft = {
  v: DRAFT_VERSION,
  operation: 'v2/sale',
  values: { login: { place: 'login' }, client_orderid: 'inv-1', amount: '10.00', currency: 'EUR' },
  extras: [],
};

describe('prepareExchange', () => {
  it('sends the built request byte for byte, reads the answer and records it with its draft', async () => {
    const env = signingEnv(1_700_000_000_000);
    const prepared = await prepareExchange(sale, env);
    const { wire, transport } = capture();
    const outcome = await prepared.send(transport);
    expect(wire).toEqual([prepared.built]);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.sentAt).toBe('2023-11-14T22:13:20.000Z');
    expect(outcome.answer.badge.kind).toBe('processing');
    const record = prepared.record(PARTY, outcome);
    expect(record.draft).toBe(sale);
    expect(record.request.body).toEqual(prepared.built.body.map((p) => ({ name: p.name, value: p.value })));
    expect(record.response).toMatchObject({ status: 200, elapsedMs: 12 });
    expect(record).not.toHaveProperty('error');
  });

  it('stores pinned OAuth values once, in the draft', async () => {
    const pinned: RequestDraft = {
      v: DRAFT_VERSION,
      operation: 'v2/payout',
      values: { client_orderid: 'po-1', amount: '10.00', currency: 'EUR' },
      extras: [],
      pinned: { nonce: 'fixed-nonce', timestamp: '1700000000' },
    };
    const prepared = await prepareExchange(pinned, signingEnv());
    const record = prepared.record(PARTY, await prepared.send(capture().transport));
    expect(record.draft.pinned).toEqual({ nonce: 'fixed-nonce', timestamp: '1700000000' });
    expect(record.request).not.toHaveProperty('pinned');
    expect(JSON.stringify(record.request.headers)).toContain('fixed-nonce');
  });

  it('turns a failed transport into an outcome and a record with the error', async () => {
    const prepared = await prepareExchange(sale, signingEnv());
    const outcome = await prepared.send(() => Promise.reject(new Error('proxy down')));
    expect(outcome.ok).toBe(false);
    const record = prepared.record(PARTY, outcome);
    expect(record.error).toBe('proxy down');
    expect(record).not.toHaveProperty('response');
  });

  it('refuses, naming them, a draft that lacks values it was kept without; nothing goes out', async () => {
    const masked: RequestDraft = {
      ...sale,
      operation: 'v4/payout-check',
      values: { client_orderid: 'po-1', 'destination-card-no': { withheld: 'card-number' } },
    };
    const error = await prepareExchange(masked, signingEnv()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExchangeRefused);
    expect((error as ExchangeRefused).code).toBe('SEND_MISSING_VALUES');
    expect((error as ExchangeRefused).missing).toEqual([
      { name: 'destination-card-no', reason: 'card-number' },
    ]);
    expect((error as Error).message).toContain('destination-card-no');
  });

  it('refuses an unsigned request (no control key) with the build’s reason', async () => {
    const env = signingEnv();
    const noKey = { ...env, credentials: { ...env.credentials, controlKey: '' } };
    await expect(prepareExchange(sale, noKey)).rejects.toMatchObject({ code: 'SEND_UNSIGNED' });
  });
});
