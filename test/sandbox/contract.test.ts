/**
 * Contract, one row per catalog operation: every answer the sandbox gives, refusals included,
 * parses with the catalog's response schema for that operation and status (the console parses
 * answers with the same schemas), and a refused signature carries a `debug` part that parses with
 * the catalog's one debug schema and counts as a signature refusal by the catalog's one rule.
 * The success answers of every operation are checked the same way in operations.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues, OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import { parseResponse } from '../../src/catalog/responses.ts';
import { isSignatureRefusal, readSandboxDebug } from '../../src/catalog/sandbox-debug.ts';
import { errorCodeEntry } from '../../src/catalog/error-codes.ts';
import { BASE_PATH, HOST, orderId, startSandbox, type Answer, type Sandbox } from './support.ts';

function expectContract(op: Operation, r: Answer, what: string): void {
  const { schema, result } = parseResponse(op.response, r.status, r.body);
  expect(result.success, `${op.path} ${what}: ${r.status} ${r.raw} is not a ${schema}`).toBe(true);
  expect(r.status, `${op.path} ${what}: no 5xx`).toBeLessThan(500);
  if (r.status >= 400) {
    expect(r.body.type).toBe(r.status === 400 ? 'validation-error' : 'error');
    // The gateway's number, the name beside it, both from the catalog's one table.
    const entry = errorCodeEntry(String(r.body['error-reason']));
    expect(entry, `${op.path} ${what}: error-reason ${String(r.body['error-reason'])}`).toBeDefined();
    expect(r.body['error-code']).toBe(entry!.code);
  }
}

describe('every answer parses with the catalog schema of its operation', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    // Strict: a request without the JSON Accept is refused as the description has it (the
    // gateway's default dialect has its own tests, dialect.test.ts).
    sb = await startSandbox({ accept: 'strict' });
  });
  afterAll(async () => {
    await sb.app.close();
  });

  it.each(OPERATIONS.map((op) => [op.path, op] as const))('%s', async (_path, op) => {
    const { acme } = sb;
    const oauth = op.scheme !== 'control';
    const values: Record<string, string> = { ...exampleValues(op) };
    for (const f of op.fields) {
      if (f.name === 'login') values.login = acme.merchant.login;
      if (/^client[-_]order-?id$/.test(f.name)) values[f.name] = orderId('ct');
      // Return URLs belong to the place a request is made from; the catalog gives no example.
      if (f.place === 'return-url') values[f.name] = 'http://127.0.0.1/return';
    }
    delete values.server_callback_url;

    // A correctly signed request with the example values: an answer of either kind.
    const signed = await acme.call(op.path, values);
    expectContract(op, signed, 'signed example');

    // An order that does not exist.
    if (op.fields.some((f) => f.name === 'orderid')) {
      const missing = await acme.call(op.path, { ...values, orderid: '999999999' });
      expectContract(op, missing, 'unknown order');
      expect(missing.status).toBe(400);
    }

    // Nothing but the signature: validation errors name the missing fields, except where the
    // catalog says the operation is sent with no body (the vendor's ticket call, issue 28).
    const empty = await acme.call(op.path, {});
    expectContract(op, empty, 'empty body');
    if (op.emptyBody) expect(empty.status).toBe(200);
    else expect(empty.status).toBeGreaterThanOrEqual(400);

    // A wrong signature: 400 INVALID_CONTROL_CODE or 403 INVALID_SIGNATURE, with the debug part.
    const bad = await acme.call(
      op.path,
      values,
      oauth ? { oauthSignature: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' } : { control: '0'.repeat(40) },
    );
    expectContract(op, bad, 'bad signature');
    // (Validation comes first: an example that fails it, a placeholder CRes, is refused as such.)
    if (signed.body['error-reason'] === 'VALIDATION') expect(bad.body['error-reason']).toBe('VALIDATION');
    else {
      expect(bad.status).toBe(oauth ? 403 : 400);
      expect(bad.body['error-reason']).toBe(oauth ? 'INVALID_SIGNATURE' : 'INVALID_CONTROL_CODE');
      expect(isSignatureRefusal(bad.status, bad.body)).toBe(true);
      expect(readSandboxDebug(bad.body)?.kind).toBe(oauth ? 'oauth' : 'control');
    }

    // Unsigned: refused, and not mistaken for something else.
    const unsigned = await acme.call(op.path, values, { unsigned: true });
    expectContract(op, unsigned, 'unsigned');
    expect(unsigned.status).toBe(oauth ? 403 : 400);

    // A reused nonce is refused with 403 but is not a signature refusal.
    if (oauth) {
      const nonce = `contract-${orderId('n')}`;
      await acme.call(op.path, { ...values, ...clientIdOf(op) }, { nonce });
      const replay = await acme.call(op.path, { ...values, ...clientIdOf(op) }, { nonce });
      expectContract(op, replay, 'reused nonce');
      expect(replay.body['error-reason']).toBe('OAUTH_NONCE_REUSED');
      expect(isSignatureRefusal(replay.status, replay.body)).toBe(false);
    }

    // Outside the contract: no Accept, wrong method.
    const noAccept = await acme.call(op.path, values, { headers: { accept: 'application/json' } });
    expectContract(op, noAccept, 'no Accept');
    expect(noAccept.body['error-reason']).toBe('ACCEPT_REQUIRED');
    const get = await sb.app.inject({
      method: 'GET',
      url: `${BASE_PATH}/api/${op.path}/1111`,
      headers: { host: HOST, accept: 'application/vnd.pay+json' },
    });
    const getAnswer: Answer = {
      status: get.statusCode,
      body: JSON.parse(get.body) as Record<string, unknown>,
      headers: get.headers,
      raw: get.body,
    };
    expectContract(op, getAnswer, 'GET');
    expect(get.statusCode).toBe(405);
  });
});

function clientIdOf(op: Operation): Record<string, string> {
  const f = op.fields.find((x) => /^client[-_]order-?id$/.test(x.name));
  return f ? { [f.name]: orderId('nn') } : {};
}
