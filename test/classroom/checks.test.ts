import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha1Hex, signControl } from '../proxy/signers.ts';
import { browse } from '../sandbox/support.ts';
import { cardParams, orderId, payoutParams, startRoom, Trainee, type Answer, type Room } from './support.ts';

/*
 * Every exercise of the starter set, graded by the server from the trainee's real traffic: each
 * passes on a correct solution and stays open on each of its listed mistakes.
 */

let room: Room;
beforeAll(async () => {
  room = await startRoom();
});
afterAll(async () => {
  await room?.close();
});

async function trainee(name: string): Promise<Trainee> {
  return new Trainee(room, name).join();
}

/** Lets the settle delay pass and asks for the status (the status call is traffic too). */
async function settle(t: Trainee, ack: Answer): Promise<Record<string, unknown>> {
  room.clock.advance(1500);
  const st = await t.status(ack.body);
  expect(st.status, JSON.stringify(st.body)).toBe(200);
  return st.body;
}

function mistakes(): Record<string, number> {
  return Object.fromEntries(room.app.classroom.trainerSnapshot().mistakes.map((m) => [m.mistakeId, m.count]));
}

describe('sale-control: an approved v2/sale with a correct control', () => {
  it('passes once the sale is approved', async () => {
    const t = await trainee('sale-ok');
    const ack = await t.control('v2/sale', cardParams());
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    expect(await t.state('sale-control')).toBe('pending');
    expect(await settle(t, ack)).toMatchObject({ status: 'approved' });
    expect(await t.state('sale-control')).toBe('done');
  });

  it('stays open on a control with the amount in major units, and names that mistake', async () => {
    const t = await trainee('sale-major');
    const params = cardParams();
    const get = (n: string) => params.find(([k]) => k === n)![1];
    const wrong = sha1Hex(`${t.endpointId}${get('client_orderid')}10.42${get('email')}${t.controlKey}`);
    const signed = signControl('v2/sale', params, t);
    signed.body = signed.body.replace(/control=[0-9a-f]{40}/, `control=${wrong}`);
    const r = await t.sendSigned(signed);
    expect(r.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    expect(await t.state('sale-control')).toBe('open');
    expect(mistakes()['amount-major-units']).toBeGreaterThanOrEqual(1);
  });

  it('stays open on a declined card and on a wrong control key', async () => {
    const t = await trainee('sale-declined');
    const ack = await t.control('v2/sale', cardParams({ cvv2: '101' }));
    expect(ack.status).toBe(200);
    expect(await settle(t, ack)).toMatchObject({ status: 'declined' });
    const bad = await t.control('v2/sale', cardParams(), { controlKey: 'NOT-MY-KEY-0000' });
    expect(bad.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    expect(await t.state('sale-control')).toBe('open');
  });
});

describe('payout-hmac: a v2/payout signed with HMAC-SHA1', () => {
  it('passes when the sandbox accepts it', async () => {
    const t = await trainee('hmac-ok');
    const r = await t.oauth('v2/payout', payoutParams(), 'HMAC-SHA1');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await t.state('payout-hmac')).toBe('done');
  });

  it('stays open on a key without "&" and on a stale timestamp, each named', async () => {
    const t = await trainee('hmac-bad');
    // HMAC keyed with the control key alone: what signOAuth does with key + "&" minus the "&".
    const { createHmac } = await import('node:crypto');
    const { oauthBaseString, rfc3986, newNonce, formBody } = await import('../proxy/signers.ts');
    const params = payoutParams();
    const path = `api/v2/payout/${t.endpointId}`;
    const oauth: Array<[string, string]> = [
      ['oauth_consumer_key', t.login],
      ['oauth_nonce', newNonce()],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', String(Math.floor(room.clock.now / 1000))],
      ['oauth_version', '1.0'],
    ];
    const base = oauthBaseString(`${t.base}/${path}`, params, oauth);
    const sig = createHmac('sha1', t.controlKey).update(base).digest('base64');
    const header = `OAuth ${[...oauth, ['oauth_signature', sig]].map(([k, v]) => `${k}="${rfc3986(v!)}"`).join(', ')}`;
    const r = await t.sendSigned({
      path,
      headers: {
        accept: 'application/vnd.pay+json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: header,
      },
      body: formBody(params),
    });
    expect(r.body['error-reason']).toBe('INVALID_SIGNATURE');
    const stale = await t.oauth('v2/payout', payoutParams(), 'HMAC-SHA1', {
      nowSec: Math.floor(room.clock.now / 1000) - 3600,
    });
    expect(stale.body['error-reason']).toBe('OAUTH_TIMESTAMP');
    expect(await t.state('payout-hmac')).toBe('open');
    const m = mistakes();
    expect(m['hmac-key-without-ampersand']).toBeGreaterThanOrEqual(1);
    expect(m['stale-timestamp']).toBeGreaterThanOrEqual(1);
  });
});

describe('payout-rsa: payout-check then payout-pay with RSA-SHA256', () => {
  const pay = (t: Trainee, ack: Answer) =>
    t.oauth(
      'v4/payout-pay',
      [
        ['login', t.login],
        ['client_orderid', String(ack.body['merchant-order-id'])],
        ['orderid', String(ack.body['paynet-order-id'])],
      ],
      'RSA-SHA256',
    );

  it('passes on a check and a pay of the same order', async () => {
    const t = await trainee('rsa-ok');
    const check = await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256');
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(await settle(t, check)).toMatchObject({ status: 'approved' });
    expect(await t.state('payout-rsa')).toBe('open');
    const paid = await pay(t, check);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await t.state('payout-rsa')).toBe('done');
  });

  it('stays open when signed with another key, and with a check alone', async () => {
    const t = await trainee('rsa-bad');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const wrong = await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256', { privateKey: other });
    expect(wrong.body['error-reason']).toBe('INVALID_SIGNATURE');
    const check = await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256');
    expect(check.status).toBe(200);
    expect(await t.state('payout-rsa')).toBe('open');
    // A pay of another check's order does not complete this one's sequence either way: it completes its own.
    const second = await t.oauth('v4/payout-check', payoutParams(), 'RSA-SHA256');
    await settle(t, second);
    const paid = await pay(t, second);
    expect(paid.status).toBe(200);
    expect(await t.state('payout-rsa')).toBe('done');
  });
});

describe('sale-3ds2: a finished 3-D Secure 2 sale', () => {
  async function threeDs(t: Trainee, password: string): Promise<Record<string, unknown>> {
    const ack = await t.control(
      'v2/sale',
      cardParams({ cvv2: '321', threeds_version: '2', redirect_url: 'http://127.0.0.1:9/return' }),
    );
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const tds = (extra: Array<[string, string]>): Array<[string, string]> => [
      ['login', t.login],
      ['client-order-id', String(ack.body['merchant-order-id'])],
      ['orderid', String(ack.body['paynet-order-id'])],
      ...extra,
    ];
    const first = await t.status(ack.body);
    expect(first.body['threeds-method-url'], JSON.stringify(first.body)).toBeDefined();
    expect((await browse(room.app, String(first.body['threeds-method-url']))).status).toBe(200);
    room.clock.advance(1000);
    const method = await t.control('3ds/v1/upload-method-url-result', tds([['threeDSCompInd', 'Y']]));
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    const st = await t.status(ack.body);
    expect(st.body['threeds-stage'], JSON.stringify(st.body)).toBe('challenge');
    const challenge = await browse(room.app, String(st.body['redirect-to']), { password });
    const cres = challenge.posted!.fields.get('cres')!;
    const up = await t.control('3ds/v1/upload-cres-result', tds([['cRes', cres]]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    return settle(t, ack);
  }

  it('passes when the challenge is completed and the sale approved', async () => {
    const t = await trainee('tds-ok');
    expect(await threeDs(t, 'hint')).toMatchObject({ status: 'approved', 'threeds-version': '2' });
    expect(await t.state('sale-3ds2')).toBe('done');
  });

  it('stays open on a sale without 3-D Secure and on a failed challenge', async () => {
    const t = await trainee('tds-bad');
    const plain = await t.control('v2/sale', cardParams());
    expect(await settle(t, plain)).toMatchObject({ status: 'approved' });
    expect(await threeDs(t, 'wrong')).toMatchObject({ status: 'declined' });
    expect(await t.state('sale-3ds2')).toBe('open');
    expect(await t.state('sale-control')).toBe('done');
  });
});

describe('broken-capture: name the mistake, then send a correct capture', () => {
  async function preauth(t: Trainee): Promise<Answer> {
    const ack = await t.control('v2/preauth', cardParams({ amount: '10.00' }));
    expect(await settle(t, ack)).toMatchObject({ status: 'approved' });
    return ack;
  }
  const capture = (t: Trainee, ack: Answer) =>
    t.control('v2/capture', [
      ['login', t.login],
      ['client_orderid', String(ack.body['merchant-order-id'])],
      ['orderid', String(ack.body['paynet-order-id'])],
    ]);
  const answer = (t: Trainee, choice: string) =>
    room.app.inject({
      method: 'POST',
      url: '/classroom/answer',
      headers: {
        host: `127.0.0.1:${room.port}`,
        origin: room.origin,
        cookie: t.cookie,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ exerciseId: 'broken-capture', choice }),
    });

  it('passes on the diagnosis engine’s confirmed cause and a correct capture after it', async () => {
    const t = await trainee('cap-ok');
    const ack = await preauth(t);
    expect((await answer(t, 'amount-major-units')).statusCode).toBe(200);
    expect(await t.state('broken-capture')).toBe('open');
    expect((await capture(t, ack)).status).toBe(200);
    expect(await t.state('broken-capture')).toBe('done');
  });

  it('stays open on a wrong answer, and on a capture sent before the answer', async () => {
    const t = await trainee('cap-bad');
    const ack = await preauth(t);
    expect((await capture(t, ack)).status).toBe(200);
    expect((await answer(t, 'uppercase-hex')).statusCode).toBe(200);
    expect(await t.state('broken-capture')).toBe('open');
    expect((await answer(t, 'amount-major-units')).statusCode).toBe(200);
    // Named now, but the only capture came before: it must be sent again, correctly.
    expect(await t.state('broken-capture')).toBe('open');
    expect((await answer(t, 'not-a-choice')).statusCode).toBe(400);
  });
});

describe('partial-settlement: preauth → partial capture → return leaving exactly the trainee’s amount', () => {
  async function run(
    t: Trainee,
    preauthAmount: string,
    captureAmount: string | null,
    returnAmount: string | null,
  ) {
    const ack = await t.control(
      'v2/preauth',
      cardParams({ amount: preauthAmount, client_orderid: orderId('pa') }),
    );
    expect(await settle(t, ack)).toMatchObject({ status: 'approved' });
    const order: Array<[string, string]> = [
      ['login', t.login],
      ['client_orderid', String(ack.body['merchant-order-id'])],
      ['orderid', String(ack.body['paynet-order-id'])],
    ];
    const amount = (a: string | null): Array<[string, string]> =>
      a === null
        ? []
        : [
            ['amount', a],
            ['currency', 'USD'],
          ];
    const cap = await t.control('v2/capture', [...order, ...amount(captureAmount)]);
    expect(cap.status, JSON.stringify(cap.body)).toBe(200);
    expect(await settle(t, cap)).toMatchObject({ status: 'approved' });
    if (returnAmount !== undefined && returnAmount !== null) {
      const ret = await t.control('v2/return', [...order, ...amount(returnAmount)]);
      expect(ret.status, JSON.stringify(ret.body)).toBe(200);
      await settle(t, ret);
    }
  }

  // The remainder is each trainee's own (a variant drawn between 2.00 and 9.00).
  const mine = (t: Trainee) => {
    const ex = room.app.classroom.exercises.find((e) => e.id === 'partial-settlement')!;
    return Number(room.app.classroom.variantOf(t.id, ex)!.amount);
  };
  const text = (n: number) => n.toFixed(2);

  it('passes on a 20.00 preauth, the remainder + 2.00 captured, 2.00 returned', async () => {
    const t = await trainee('settle-ok');
    await run(t, '20.00', text(mine(t) + 2), '2.00');
    expect(await t.state('partial-settlement')).toBe('done');
  });

  it('stays open on a full capture, on no return, on the wrong remainder, and on a neighbour’s', async () => {
    const t = await trainee('settle-bad');
    const other = await trainee('settle-neighbour');
    const amount = mine(t);
    await run(t, '20.00', null, '6.00');
    await run(t, '20.00', text(amount), null);
    await run(t, '20.00', text(amount + 3), '2.00');
    if (mine(other) !== amount) await run(t, '20.00', text(mine(other) + 2), '2.00');
    expect(await t.state('partial-settlement')).toBe('open');
    expect((await t.view()).exercises.find((e) => e.id === 'partial-settlement')!.detail).toContain(
      `exactly ${text(amount)} USD`,
    );
  });
});
