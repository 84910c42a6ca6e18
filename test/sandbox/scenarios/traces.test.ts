import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_NAMES } from '../../../src/catalog/scenarios.ts';
import { BASE_PATH, formBody, HOST, saleParams, startSandbox, type Sandbox } from '../support.ts';
import { startMerchantHandler, type MerchantHandler } from '../merchant-handler.ts';

/**
 * Every scenario of the catalog must do something a merchant can see: one fixed exchange (a sale
 * with both callback fields, its final status, eight days of the test clock, a 3-D Secure method
 * upload) is run under each scenario and compared with the same exchange under none. A scenario
 * whose behaviour is missing or does nothing leaves the same trace as none, and fails here.
 */
interface Trace {
  answer: string;
  held: number[];
  statusWhenDue: string;
  statusLater: string;
  callbacks: string[];
  deliveries: string[];
  methodUpload: string;
}

describe('every scenario leaves a trace', () => {
  let sb: Sandbox;
  let handler: MerchantHandler;
  let port = 0;
  const held: number[] = [];

  beforeAll(async () => {
    sb = await startSandbox({
      finalizeDelayMs: 1000,
      callbackRetry: { schedule: 'fast', attempts: 5, baseDelayMs: 1000 },
      // The held answers are recorded, not waited for.
      scenarioSleep: (ms) => {
        held.push(ms);
        return Promise.resolve();
      },
    });
    handler = await startMerchantHandler(sb.merchants.acme.controlKey);
    await sb.app.listen({ port: 0, host: '127.0.0.1' });
    port = (sb.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sb.app.close();
    await handler.close();
  });

  /** A signed call over a real socket (a reset connection is an answer too): its status and body. */
  function overHttp(opPath: string, params: Record<string, string>, scenario: string | undefined) {
    const endpoint = sb.merchants.acme.endpointIds[0]!;
    const control = sb.acme.controlFor(opPath, params, endpoint, sb.merchants.acme);
    return new Promise<{ answer: string; body: Record<string, string> }>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${BASE_PATH}/api/${opPath}/${endpoint}`,
          headers: {
            host: HOST,
            accept: 'application/vnd.pay+json',
            'content-type': 'application/x-www-form-urlencoded',
            ...(scenario ? { 'x-sandbox-scenario': scenario } : {}),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () =>
            resolve({
              answer: `answered ${res.statusCode}`,
              body: JSON.parse(text) as Record<string, string>,
            }),
          );
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ answer: e.code ?? e.message, body: {} }));
      req.end(formBody({ ...params, control }));
    });
  }

  const advance = (ms: number) =>
    sb.app.inject({
      method: 'POST',
      url: '/sandbox/clock/acme/advance',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ ms }),
    });

  async function trace(scenario: string | undefined): Promise<Trace> {
    held.length = 0;
    const cb = `${handler.base}/cb`;
    const params = saleParams({ server_callback_url: cb, notify_url: cb });
    const co = params.client_orderid!;
    const sale = await overHttp('v2/sale', params, scenario);
    const status = async () => {
      const r = await sb.acme.call('v2/status', { login: 'acme', client_orderid: co });
      return `${String(r.body.status)} ${String(r.body['transaction-type'])}`;
    };
    await advance(1000);
    const statusWhenDue = await status();
    await advance(8 * 86_400_000);
    const statusLater = await status();
    const found = await sb.acme.call('v2/status', { login: 'acme', client_orderid: co });
    const id = String(found.body['paynet-order-id']);
    const callbacks = handler.hits
      .filter((h) => h.query.get('orderid') === id)
      .map((h) => `${h.query.get('type')} ${h.query.get('status')} control ${h.controlOk ? 'ok' : 'bad'}`);
    const relay = await sb.app.inject({
      url: `/sandbox/relay/deliveries?orderid=${id}`,
      headers: { host: HOST },
    });
    const deliveries = (JSON.parse(relay.body) as { deliveries: Array<{ kind: string }> }).deliveries
      .map((d) => d.kind)
      .reverse();
    // The 3-D Secure method step: a card that asks for it, the method result uploaded under the scenario.
    const tds = await sb.acme.call(
      'v2/sale',
      saleParams({
        cvv2: '321',
        redirect_url: 'http://127.0.0.1:9/r',
        browserUserAgent: 'UA',
        browserLanguage: 'en',
      }),
    );
    const upload = await overHttp(
      '3ds/v1/upload-method-url-result',
      {
        login: 'acme',
        'client-order-id': String(tds.body['merchant-order-id']),
        orderid: String(tds.body['paynet-order-id']),
        threeDSCompInd: 'Y',
      },
      scenario,
    );
    const methodUpload = `${upload.answer} ${upload.body['threeds-comp-ind'] ?? '-'}`;
    return {
      answer: sale.answer,
      held: [...held],
      statusWhenDue,
      statusLater,
      callbacks,
      deliveries,
      methodUpload,
    };
  }

  let none: Trace;
  it('the exchange under no scenario is the same every time (so a difference is the scenario’s)', async () => {
    none = await trace(undefined);
    expect(await trace(undefined)).toEqual(none);
    expect(none.answer).toBe('answered 200');
    expect(none.callbacks.length).toBeGreaterThan(0);
  });

  it.each(SCENARIO_NAMES)('%s leaves a trace a merchant can see', async (name) => {
    expect(none).toBeDefined();
    expect(await trace(name)).not.toEqual(none);
  });
});
