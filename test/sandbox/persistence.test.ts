import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../sandbox/app.ts';
import { sandboxOptionsFromEnv } from '../../sandbox/options.ts';
import {
  Client,
  fakeClock,
  HOST,
  payoutParams,
  rsaPair,
  saleParams,
  startSandbox,
  testMerchants,
  type TestMerchant,
} from './support.ts';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'sandbox-persist-'));

describe('sandbox persistence', () => {
  it('keeps transactions across a restart and finalizes what was due meanwhile', async () => {
    const dir = tmp();
    const dbPath = path.join(dir, 'sandbox.sqlite');
    const clock = fakeClock();
    const merchants = testMerchants();
    const opts = {
      dataDir: dir,
      dbPath,
      finalizeDelayMs: 1000,
      clock: () => clock.now,
      merchants: [merchants.acme],
    };

    const first = await createSandboxApp(opts);
    const a = new Client(first, merchants.acme, clock);
    const approved = await a.call('v2/sale', saleParams());
    clock.advance(1000);
    expect(
      (await a.status(String(approved.body['paynet-order-id']), String(approved.body['merchant-order-id'])))
        .status,
    ).toBe('approved');
    const pending = await a.call('v2/preauth', saleParams({ amount: '40.00' }));
    await first.close();

    clock.advance(5000);
    const second = await createSandboxApp(opts);
    const b = new Client(second, merchants.acme, clock);
    const s1 = await b.status(
      String(approved.body['paynet-order-id']),
      String(approved.body['merchant-order-id']),
    );
    expect(s1).toMatchObject({ status: 'approved', amount: '10.42' });
    const pid = String(pending.body['paynet-order-id']);
    const pco = String(pending.body['merchant-order-id']);
    expect(await b.status(pid, pco)).toMatchObject({ status: 'approved', amount: '40.00' });
    // Its state rules still hold, and ids keep counting.
    expect(
      (
        await b.call('v2/capture', {
          login: 'acme',
          client_orderid: pco,
          orderid: pid,
          amount: '15.00',
          currency: 'USD',
        })
      ).status,
    ).toBe(200);
    const next = await b.call('v2/sale', saleParams());
    expect(Number(next.body['paynet-order-id'])).toBeGreaterThan(Number(pid));
    // The identical retry after the restart still gets the original answer.
    await second.close();
    const third = await createSandboxApp(opts);
    clock.advance(1000);
    const c = new Client(third, merchants.acme, clock);
    expect(await c.status(pid, pco)).toMatchObject({
      status: 'approved',
      amount: '15.00',
      'transaction-type': 'capture',
    });
    await third.close();
  });

  it('remembers OAuth nonces across a restart', async () => {
    const dir = tmp();
    const clock = fakeClock();
    const merchants = testMerchants();
    const opts = {
      dataDir: dir,
      dbPath: path.join(dir, 'db.sqlite'),
      clock: () => clock.now,
      merchants: [merchants.acme],
    };
    const first = await createSandboxApp(opts);
    expect(
      (
        await new Client(first, merchants.acme, clock).call('v2/payout', payoutParams(), {
          nonce: 'persisted',
        })
      ).status,
    ).toBe(200);
    await first.close();
    const second = await createSandboxApp(opts);
    const again = await new Client(second, merchants.acme, clock).call('v2/payout', payoutParams(), {
      nonce: 'persisted',
    });
    expect(again.body['error-reason']).toBe('OAUTH_NONCE_REUSED');
    await second.close();
  });
});

describe('the demo merchant', () => {
  it('is created on first start, kept with mode 0600, served on loopback only, and usable', async () => {
    const dir = tmp();
    const clock = fakeClock();
    const opts = { dataDir: dir, dbPath: ':memory:', clock: () => clock.now };
    const app = await createSandboxApp(opts);
    const res = await app.inject({ url: '/sandbox/demo-merchant', headers: { host: HOST } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const demo = JSON.parse(res.body) as Record<string, unknown>;
    expect(demo).toMatchObject({
      login: 'demo-merchant',
      endpointIds: ['1111'],
      endpointGroupIds: ['2222'],
      keyBits: 2048,
      demo: true,
    });
    expect(String(demo.controlKey)).toMatch(/^[0-9A-F-]{36}$/);
    expect(String(demo.privateKeyPkcs8Pem)).toContain('BEGIN PRIVATE KEY');
    const file = path.join(dir, 'sandbox-demo-merchant.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).controlKey).toBe(demo.controlKey);

    const merchant: TestMerchant = {
      login: 'demo-merchant',
      controlKey: String(demo.controlKey),
      endpointIds: ['1111'],
      endpointGroupIds: ['2222'],
      publicKeyPem: String(demo.publicKeyPem),
      privateKeyPem: String(demo.privateKeyPkcs8Pem),
    };
    const client = new Client(app, merchant, clock);
    expect((await client.call('v2/sale', saleParams())).status).toBe(200);
    expect((await client.call('v4/payout-check', payoutParams())).status).toBe(200);

    for (const headers of [
      { host: 'evil.example:4174' },
      { host: HOST, origin: 'http://evil.example' },
      { host: HOST, origin: 'null' },
    ]) {
      const refused = await app.inject({ url: '/sandbox/demo-merchant', headers });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).not.toContain(String(demo.controlKey));
    }
    const remote = await app.inject({
      url: '/sandbox/demo-merchant',
      headers: { host: HOST },
      remoteAddress: '10.0.0.7',
    });
    expect(remote.statusCode).toBe(403);
    await app.close();

    const again = await createSandboxApp(opts);
    const res2 = await again.inject({
      url: '/sandbox/demo-merchant',
      headers: { host: 'localhost:4174', origin: 'http://localhost:4173' },
    });
    expect(JSON.parse(res2.body).controlKey).toBe(demo.controlKey);
    await again.close();
  });

  it('takes a public key registered with PUT (loopback only), keeps it, and refuses weak keys', async () => {
    const dir = tmp();
    const clock = fakeClock();
    const opts = { dataDir: dir, dbPath: path.join(dir, 'db.sqlite'), clock: () => clock.now };
    const app = await createSandboxApp(opts);
    const demo = JSON.parse(
      (await app.inject({ url: '/sandbox/demo-merchant', headers: { host: HOST } })).body,
    ) as Record<string, string>;
    const mine = rsaPair(3072);
    const put = (body: unknown, extra: { headers?: Record<string, string>; remoteAddress?: string } = {}) =>
      app.inject({
        method: 'PUT',
        url: '/sandbox/merchants/demo-merchant/public-key',
        headers: { host: HOST, 'content-type': 'application/json', ...extra.headers },
        payload: JSON.stringify(body),
        ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
      });

    const weak = await put({ publicKeyPem: rsaPair(1024).publicKeyPem });
    expect(weak.statusCode).toBe(400);
    expect(JSON.parse(weak.body)['error-message']).toMatch(/publicKeyPem: .*1024 bits.*at least 2048/);
    expect((await put({ publicKeyPem: 'garbage' })).statusCode).toBe(400);
    expect((await put({ nothing: true })).statusCode).toBe(400);
    expect(
      (await put({ publicKeyPem: mine.publicKeyPem }, { headers: { origin: 'http://evil.example' } }))
        .statusCode,
    ).toBe(403);
    expect((await put({ publicKeyPem: mine.publicKeyPem }, { remoteAddress: '192.0.2.1' })).statusCode).toBe(
      403,
    );
    const unknown = await app.inject({
      method: 'PUT',
      url: '/sandbox/merchants/nobody/public-key',
      headers: { host: HOST },
      payload: '{}',
    });
    expect(unknown.statusCode).toBe(404);

    const ok = await put({ publicKeyPem: mine.publicKeyPem });
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ login: 'demo-merchant', keyBits: 3072 });
    const base = {
      login: 'demo-merchant',
      controlKey: demo.controlKey!,
      endpointIds: ['1111'],
      endpointGroupIds: ['2222'],
    };
    const withNew = new Client(app, { ...base, ...mine }, clock);
    const withOld = new Client(
      app,
      { ...base, publicKeyPem: demo.publicKeyPem!, privateKeyPem: demo.privateKeyPkcs8Pem! },
      clock,
    );
    expect((await withNew.call('v4/payout-check', payoutParams())).status).toBe(200);
    expect((await withOld.call('v4/payout-check', payoutParams())).status).toBe(403);
    // The demo private key no longer matches: the console is not handed a stale pair.
    expect(
      JSON.parse((await app.inject({ url: '/sandbox/demo-merchant', headers: { host: HOST } })).body)
        .privateKeyPkcs8Pem,
    ).toBeNull();
    await app.close();

    const restarted = await createSandboxApp(opts);
    expect(
      (await new Client(restarted, { ...base, ...mine }, clock).call('v4/payout-check', payoutParams()))
        .status,
    ).toBe(200);
    await restarted.close();
  });
});

describe('restoring the demo key', () => {
  it('DELETE puts the shipped key back, live and across restarts, from this machine only', async () => {
    const dir = tmp();
    const clock = fakeClock();
    const opts = { dataDir: dir, dbPath: path.join(dir, 'db.sqlite'), clock: () => clock.now };
    const app = await createSandboxApp(opts);
    const demoOf = async (a: typeof app) =>
      JSON.parse((await a.inject({ url: '/sandbox/demo-merchant', headers: { host: HOST } })).body) as Record<
        string,
        string | null
      >;
    const demo = await demoOf(app);
    const base = {
      login: 'demo-merchant',
      controlKey: demo.controlKey!,
      endpointIds: ['1111'],
      endpointGroupIds: ['2222'],
    };
    const shipped = { ...base, publicKeyPem: demo.publicKeyPem!, privateKeyPem: demo.privateKeyPkcs8Pem! };
    const mine = rsaPair(2048);
    const put = await app.inject({
      method: 'PUT',
      url: '/sandbox/merchants/demo-merchant/public-key',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ publicKeyPem: mine.publicKeyPem }),
    });
    expect(put.statusCode).toBe(200);
    expect((await new Client(app, shipped, clock).call('v4/payout-check', payoutParams())).status).toBe(403);
    expect((await demoOf(app)).privateKeyPkcs8Pem).toBeNull();

    const del = (extra: { headers?: Record<string, string>; remoteAddress?: string; login?: string } = {}) =>
      app.inject({
        method: 'DELETE',
        url: `/sandbox/merchants/${extra.login ?? 'demo-merchant'}/public-key`,
        headers: { host: HOST, ...extra.headers },
        ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
      });
    expect((await del({ headers: { origin: 'http://evil.example' } })).statusCode).toBe(403);
    expect((await del({ remoteAddress: '192.0.2.1' })).statusCode).toBe(403);
    expect((await del({ login: 'nobody' })).statusCode).toBe(404);
    // Refused attempts changed nothing.
    expect((await new Client(app, shipped, clock).call('v4/payout-check', payoutParams())).status).toBe(403);

    const ok = await del();
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({
      login: 'demo-merchant',
      keyBits: 2048,
      keyFingerprint: demo.keyFingerprint,
      restored: true,
      privateKeyKnown: true,
    });
    expect((await new Client(app, shipped, clock).call('v4/payout-check', payoutParams())).status).toBe(200);
    expect(
      (await new Client(app, { ...base, ...mine }, clock).call('v4/payout-check', payoutParams())).status,
    ).toBe(403);
    expect((await demoOf(app)).privateKeyPkcs8Pem).toBe(demo.privateKeyPkcs8Pem);
    expect(JSON.parse((await del()).body)).toMatchObject({ restored: false });
    await app.close();

    const restarted = await createSandboxApp(opts);
    expect((await new Client(restarted, shipped, clock).call('v4/payout-check', payoutParams())).status).toBe(
      200,
    );
    await restarted.close();
  });

  it('npm run sandbox -- --restore-demo-key forgets the registered key in the database', async () => {
    const dir = tmp();
    const clock = fakeClock();
    const opts = { dataDir: dir, dbPath: path.join(dir, 'db.sqlite'), clock: () => clock.now };
    const app = await createSandboxApp(opts);
    const demo = JSON.parse(
      (await app.inject({ url: '/sandbox/demo-merchant', headers: { host: HOST } })).body,
    ) as Record<string, string>;
    const put = await app.inject({
      method: 'PUT',
      url: '/sandbox/merchants/demo-merchant/public-key',
      headers: { host: HOST, 'content-type': 'application/json' },
      payload: JSON.stringify({ publicKeyPem: rsaPair(2048).publicKeyPem }),
    });
    expect(put.statusCode).toBe(200);
    await app.close();

    const env = {
      ...process.env,
      DATA_DIR: dir,
      SANDBOX_DB: opts.dbPath,
      PORT: '5123',
      SANDBOX_PORT: '5124',
    };
    const run = () =>
      execFileSync(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--restore-demo-key'], {
        env,
        encoding: 'utf8',
      });
    const out = run();
    expect(out).toContain(`Restored: merchant demo-merchant is verified with its configured key again`);
    expect(out).toContain(String(demo.keyFingerprint));
    // The live way names this machine's ports (PORT, SANDBOX_PORT), not a fixed one.
    expect(out).toContain(
      'curl -X DELETE http://127.0.0.1:<port>/sandbox/merchants/demo-merchant/public-key',
    );
    expect(out).toContain("(npm start: 5123) or the sandbox's (npm run sandbox: 5124)");
    expect(run()).toContain('Nothing to restore');

    const restarted = await createSandboxApp(opts);
    const shipped = {
      login: 'demo-merchant',
      controlKey: demo.controlKey!,
      endpointIds: ['1111'],
      endpointGroupIds: ['2222'],
      publicKeyPem: demo.publicKeyPem!,
      privateKeyPem: demo.privateKeyPkcs8Pem!,
    };
    expect((await new Client(restarted, shipped, clock).call('v4/payout-check', payoutParams())).status).toBe(
      200,
    );
    await restarted.close();
    expect(() =>
      execFileSync(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--restore-demo-key'], {
        env: { ...env, SANDBOX_DB: ':memory:' },
        stdio: 'pipe',
      }),
    ).toThrow(/nothing is kept between starts/);
  });
});

describe('sandbox configuration', () => {
  it('reads merchants from SANDBOX_MERCHANTS and the other variables', async () => {
    const dir = tmp();
    const m = rsaPair();
    const file = path.join(dir, 'merchants.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          login: 'file-shop',
          controlKey: 'FILE-SHOP-KEY-123',
          endpointIds: [7001, '7002'],
          publicKeyPem: m.publicKeyPem,
        },
      ]),
    );
    const options = sandboxOptionsFromEnv({
      DATA_DIR: dir,
      SANDBOX_MERCHANTS: file,
      SANDBOX_DB: ':memory:',
      SANDBOX_FINALIZE_DELAY_MS: '0',
      SANDBOX_DEBUG: '0',
      SANDBOX_CALLBACKS_ANY_HOST: 'true',
    });
    expect(options).toMatchObject({
      dataDir: dir,
      merchantsFile: file,
      dbPath: ':memory:',
      finalizeDelayMs: 0,
      debug: false,
      callbackAllowAnyHost: true,
      timestampWindowSec: 600,
    });
    expect(sandboxOptionsFromEnv({})).toMatchObject({
      dataDir: '.data',
      dbPath: path.join('.data', 'sandbox.sqlite'),
      finalizeDelayMs: 2000,
      debug: true,
      callbackAllowAnyHost: false,
      // Nothing chosen: resolveSandboxOptions gives the gateway schedule (relay/retry-schedule.ts).
      callbackRetry: {},
    });
    expect(() => sandboxOptionsFromEnv({ SANDBOX_FINALIZE_DELAY_MS: 'soon' })).toThrow(
      /SANDBOX_FINALIZE_DELAY_MS/,
    );
    expect(() => sandboxOptionsFromEnv({ SANDBOX_DEBUG: 'maybe' })).toThrow(/SANDBOX_DEBUG/);

    const clock = fakeClock();
    const app = await createSandboxApp({ ...options, clock: () => clock.now });
    const client = new Client(
      app,
      {
        login: 'file-shop',
        controlKey: 'FILE-SHOP-KEY-123',
        endpointIds: ['7002'],
        endpointGroupIds: [],
        ...m,
      },
      clock,
    );
    const sale = await client.call('v2/sale', saleParams());
    expect(sale.status, sale.raw).toBe(200);
    expect(
      (await client.status(String(sale.body['paynet-order-id']), String(sale.body['merchant-order-id'])))
        .status,
    ).toBe('approved');
    const demo = JSON.parse(
      (await app.inject({ url: '/sandbox/demo-merchant', headers: { host: HOST } })).body,
    );
    expect(demo).toMatchObject({ login: 'file-shop', privateKeyPkcs8Pem: null, demo: false });
    await app.close();
  });

  it('refuses a broken merchants file with a message that names the problem', async () => {
    const dir = tmp();
    const file = path.join(dir, 'm.json');
    writeFileSync(file, '[{"login": "x"');
    await expect(createSandboxApp({ dataDir: dir, dbPath: ':memory:', merchantsFile: file })).rejects.toThrow(
      /not valid JSON/,
    );
    writeFileSync(
      file,
      JSON.stringify([{ login: 'x', controlKey: 'short', endpointIds: [], publicKeyPem: 'x' }]),
    );
    await expect(createSandboxApp({ dataDir: dir, dbPath: ':memory:', merchantsFile: file })).rejects.toThrow(
      /controlKey|endpointIds/,
    );
    writeFileSync(
      file,
      JSON.stringify([
        {
          login: 'x',
          controlKey: 'long-enough-key',
          endpointIds: ['1'],
          publicKeyPem: rsaPair(1024).publicKeyPem,
        },
      ]),
    );
    await expect(createSandboxApp({ dataDir: dir, dbPath: ':memory:', merchantsFile: file })).rejects.toThrow(
      /Merchant "x": .*at least 2048/,
    );
    await expect(
      createSandboxApp({ dataDir: dir, dbPath: ':memory:', merchantsFile: path.join(dir, 'missing.json') }),
    ).rejects.toThrow(/cannot be read/);
  });

  it('works with the default options of startSandbox too (smoke)', async () => {
    const sb = await startSandbox();
    expect((await sb.acme.call('v2/sale', saleParams())).status).toBe(200);
    await sb.app.close();
  });
});
