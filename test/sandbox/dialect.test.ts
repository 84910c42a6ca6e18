/**
 * The gateway's default dialect (gateway-notes.md, "The gateway's default dialect"): a request
 * without `Accept: application/vnd.pay+json` is answered `text/html;charset=utf-8`, form-encoded
 * pairs each value followed by a line feed, joined by `&`; a refusal is a 200 with a numeric
 * `error-code` (the symbolic one beside it as `error-reason`), a refused OAuth signature a 403.
 * The answers are read here with Node's `querystring.parse` and a trim, as the field's clients do.
 */
import { parse } from 'node:querystring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, errorCodeEntry } from '../../src/catalog/error-codes.ts';
import { sandboxOptionsFromEnv } from '../../sandbox/options.ts';
import { encodeGatewayForm, GATEWAY_FORM_TYPE } from '../../sandbox/replies.ts';
import type { OperationAnswer, SandboxHandle } from '../../sandbox/hooks.ts';
import { payoutParams, saleParams, startSandbox, type Answer, type Sandbox } from './support.ts';

/** What the field's clients do: `parse_str` / `querystring.parse`, then trim each value. */
function readGatewayForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parse(text))) out[k] = String(v).trim();
  return out;
}

/** The exact shape: `k=v\n` pairs joined by `&`, nothing else. */
const SHAPE = /^[a-z-]+=[^&\n]*\n(?:&[a-z-]+=[^&\n]*\n)*$/;

function expectGateway(r: Answer, status = 200): Record<string, string> {
  expect(r.status, r.raw).toBe(status);
  expect(r.headers['content-type']).toBe(GATEWAY_FORM_TYPE);
  expect(r.raw).toMatch(SHAPE);
  return readGatewayForm(r.raw);
}

describe('the encoder', () => {
  it('writes the published example byte for byte', () => {
    expect(
      encodeGatewayForm({
        type: 'async-response',
        'serial-number': '00000000-0000-0000-0000-000002d9b22a',
        'merchant-order-id': 'inv4097763',
        'paynet-order-id': '6768788',
        'end-point-id': '22903',
      }),
    ).toBe(
      'type=async-response\n&serial-number=00000000-0000-0000-0000-000002d9b22a\n&merchant-order-id=inv4097763\n&paynet-order-id=6768788\n&end-point-id=22903\n',
    );
    expect(
      encodeGatewayForm({
        type: 'validation-error',
        'serial-number': 'x',
        'merchant-order-id': '2121',
        'error-message': 'Parameter credit_card_number is required',
        'error-code': '1',
      }),
    ).toBe(
      'type=validation-error\n&serial-number=x\n&merchant-order-id=2121\n&error-message=Parameter+credit_card_number+is+required\n&error-code=1\n',
    );
  });

  it('turns a symbolic error-code into its number with the name beside it, and keeps odd values readable', () => {
    const text = encodeGatewayForm({
      type: 'error',
      'error-message': 'a&b=c\nd é +',
      'error-code': 'INSUFFICIENT_FUNDS',
      debug: { formula: ['login'], n: 1 },
    });
    expect(text).toContain('&error-code=402\n&error-reason=INSUFFICIENT_FUNDS\n');
    const read = readGatewayForm(text);
    expect(read['error-message']).toBe('a&b=c\nd é +');
    expect(JSON.parse(read.debug!)).toEqual({ formula: ['login'], n: 1 });
  });

  it("has one number per reason, the gateway's known numbers where they are known", () => {
    const codes = ERROR_CODES.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(ERROR_CODES.map((e) => e.reason)).size).toBe(ERROR_CODES.length);
    expect(errorCodeEntry('VALIDATION')).toMatchObject({ code: 1, source: 'gateway' });
    expect(errorCodeEntry('DECLINED')).toMatchObject({ code: 5, source: 'gateway' });
    for (const e of ERROR_CODES) if (e.source === 'sandbox') expect(e.code).toBeGreaterThanOrEqual(100);
  });
});

describe('SANDBOX_ACCEPT', () => {
  it('is gateway by default, strict on request, and refuses anything else by name', () => {
    expect(sandboxOptionsFromEnv({}).accept).toBe('gateway');
    expect(sandboxOptionsFromEnv({ SANDBOX_ACCEPT: 'strict' }).accept).toBe('strict');
    expect(sandboxOptionsFromEnv({ SANDBOX_ACCEPT: ' Gateway ' }).accept).toBe('gateway');
    expect(() => sandboxOptionsFromEnv({ SANDBOX_ACCEPT: 'json' })).toThrow(/SANDBOX_ACCEPT/);
  });
});

describe('a request without the JSON Accept', () => {
  let sb: Sandbox;
  let handle: SandboxHandle | undefined;
  beforeAll(async () => {
    sb = await startSandbox({ onReady: (h) => (handle = h) });
  });
  afterAll(async () => {
    await sb.app.close();
  });

  for (const accept of [undefined, '*/*', 'application/json', 'text/html']) {
    it(`(Accept: ${accept ?? 'none'}) gets the gateway's default answer`, async () => {
      const params = saleParams();
      const r = await sb.acme.call('v2/sale', params, { headers: { accept } });
      const read = expectGateway(r);
      expect(Object.keys(read)).toEqual([
        'type',
        'serial-number',
        'merchant-order-id',
        'paynet-order-id',
        'end-point-id',
      ]);
      expect(read).toMatchObject({
        type: 'async-response',
        'merchant-order-id': params.client_orderid,
        'end-point-id': '1111',
      });
      expect(read['paynet-order-id']).toMatch(/^\d+$/);
    });
  }

  it('gets a validation error as a 200 with error-code 1', async () => {
    const { credit_card_number: _dropped, ...rest } = saleParams();
    const r = await sb.acme.call('v2/sale', rest, { headers: { accept: undefined } });
    const read = expectGateway(r);
    expect(read).toMatchObject({ type: 'validation-error', 'error-code': '1', 'error-reason': 'VALIDATION' });
    expect(read['error-message']).toContain('credit_card_number');
    expect(r.raw).toContain('&error-code=1\n&error-reason=VALIDATION\n');
  });

  it('gets a wrong control as a 200 validation-error naming INVALID_CONTROL_CODE', async () => {
    const r = await sb.acme.call('v2/sale', saleParams(), {
      control: '0'.repeat(40),
      headers: { accept: undefined },
    });
    const read = expectGateway(r);
    expect(read.type).toBe('validation-error');
    expect(read['error-message']).toContain('INVALID_CONTROL_CODE');
    expect(read['error-code']).toBe(String(errorCodeEntry('INVALID_CONTROL_CODE')!.code));
    expect(read['error-reason']).toBe('INVALID_CONTROL_CODE');
  });

  it('keeps 403 for a refused OAuth signature, in the same format', async () => {
    const r = await sb.acme.call('v2/payout', payoutParams(), {
      oauthSignature: 'AAAA',
      headers: { accept: undefined },
    });
    const read = expectGateway(r, 403);
    expect(read).toMatchObject({ type: 'error', 'error-reason': 'INVALID_SIGNATURE' });
    expect(read['error-code']).toMatch(/^\d+$/);
  });

  it('reads a declined status with its numeric code', async () => {
    const ack = await sb.acme.call('v2/sale', saleParams({ cvv2: '116' }));
    sb.clock.advance(1000);
    const r = await sb.acme.call(
      'v2/status',
      {
        login: 'acme',
        client_orderid: String(ack.body['merchant-order-id']),
        orderid: String(ack.body['paynet-order-id']),
      },
      { headers: { accept: '*/*' } },
    );
    const read = expectGateway(r);
    expect(read).toMatchObject({
      type: 'status-response',
      status: 'declined',
      'error-code': '402',
      'error-reason': 'INSUFFICIENT_FUNDS',
    });
  });

  it('answers JSON with the same numeric error-code and the name beside it, keeping its 400', async () => {
    const bad = await sb.acme.call('v2/sale', saleParams(), { control: '0'.repeat(40) });
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('application/vnd.pay+json');
    expect(bad.body['error-code']).toBe(201);
    expect(bad.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    expect(bad.raw).toContain('"error-code":201,"error-reason":"INVALID_CONTROL_CODE"');
    expect(typeof bad.body.debug).toBe('object');
  });

  it("is answered the same by the handle the console's proxy uses", async () => {
    const call = (accept: string | undefined): Promise<OperationAnswer> =>
      handle!.answer({
        method: 'POST',
        path: '/sandbox/paynet/api/v2/sale/1111',
        headers: {
          ...(accept ? { accept } : {}),
          'content-type': 'application/x-www-form-urlencoded',
          host: '127.0.0.1:4174',
        },
        body: Buffer.from('client_orderid=x&amount=1.00'),
      });
    const plain = await call(undefined);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe(GATEWAY_FORM_TYPE);
    expect(readGatewayForm(plain.body.toString())).toMatchObject({
      type: 'validation-error',
      'error-code': '1',
    });
    const json = await call('application/vnd.pay+json');
    expect(json.status).toBe(400);
    expect(JSON.parse(json.body.toString())).toMatchObject({ 'error-code': 1, 'error-reason': 'VALIDATION' });
  });
});
