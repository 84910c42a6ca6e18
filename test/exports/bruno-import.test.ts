/**
 * Issue 33: a Bruno collection, as a folder of `.bru` files or as Bruno's JSON export, is read like
 * a Postman or Insomnia file: each request identified into a draft, `{{variables}}` kept as
 * variables, post-response `vars` become the variables a step sets from the answer, requests of
 * other APIs skipped with why, and secrets (`vars:secret`, secret environment variables, OAuth 1.0
 * secrets and keys) never read. The fixtures are shaped as Bruno writes them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  importBruFiles,
  importForeignCollection,
} from '../../src/exports/foreign-collections/import-foreign-collection.ts';
import { answerFieldOf } from '../../src/exports/foreign-collections/bruno-collection.ts';
import { readRunCollection } from '../../src/exports/run-collection-file.ts';
import { PLACE } from '../model/signing-env.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');

function folder(dir: string): Array<{ name: string; text: string }> {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  // As the browser gives a chosen folder: paths relative to the folder's parent.
  return walk(join(FIXTURES, dir)).map((f) => ({
    name: relative(FIXTURES, f),
    text: readFileSync(f, 'utf8'),
  }));
}

describe('a Bruno folder of .bru files', () => {
  const files = folder('bruno-shop');
  const c = importBruFiles(files, { place: PLACE });

  it('identifies the requests folder by folder in seq order; the other API skipped with why', () => {
    expect(c.format).toBe('bruno');
    expect(c.name).toBe('Shop checkout (Bruno)');
    expect(c.requests.map((r) => [r.name, r.draft.operation])).toEqual([
      ['Sale', 'v2/sale'],
      ['Status', 'v2/status'],
      ['Status v4 (RSA-SHA256)', 'v4/status'],
    ]);
    expect(c.skipped).toEqual([
      {
        name: 'Weather for the shop page',
        reason: 'GET https://api.weather.invalid/v1/forecast?city=Riga is not an operation of this API',
      },
    ]);
  });

  it('values keep their {{variables}}; disabled pairs and control are dropped', () => {
    const sale = c.requests[0]!.draft;
    expect(sale.values).toMatchObject({
      client_orderid: 'shop-{{run_id}}',
      amount: '{{amount}}',
      currency: '{{currency}}',
      email: 'john.smith@gmail.com',
    });
    expect(JSON.stringify(sale)).not.toContain('old value');
    expect(JSON.stringify(sale)).not.toContain('control');
    expect(c.requests[0]!.notes.join(' ')).toContain('{{amount}}');
    expect(c.requests[1]!.draft.values).toMatchObject({ orderid: '{{orderid}}' });
  });

  it('the environment (the first by name) and collection.bru give the defaults; vars:secret never', () => {
    expect(c.variables).toEqual({
      currency: 'USD',
      base_url: 'http://127.0.0.1:8787',
      endpoint_id: '1111',
      login: 'shop-48213',
      amount: '10.42',
    });
    expect(JSON.stringify(c)).not.toMatch(/control_key|api_token|9999/);
  });

  it('post-response vars that read the answer become the step’s variables; other expressions do not', () => {
    expect(c.requests[0]!.set).toEqual({ orderid: 'paynet-order-id', serial: 'serial-number' });
    expect(c.requests[1]!.set).toBeUndefined();
  });

  it('OAuth 1.0 with RSA: the scheme, nonce and timestamp pinned; the consumer secret and key never read', () => {
    const v4 = c.requests[2]!.draft;
    expect(v4.pinned).toEqual({ nonce: 'kllo9940pd9333jh', timestamp: '1767225600' });
    expect(JSON.stringify(c)).not.toMatch(/DO-NOT-KEEP|PRIVATE KEY/);
    // The operation's own scheme (RSA-SHA256): no note that the file's differs.
    expect(c.requests[2]!.notes.join(' ')).not.toMatch(/is not one/);
  });

  it('one .bru file alone is read; no .bru file is refused with what to choose', () => {
    const sale = files.find((f) => f.name.endsWith('Sale.bru'))!;
    const one = importBruFiles([sale]);
    expect(one.requests.map((r) => r.draft.operation)).toEqual(['v2/sale']);
    expect(() => importBruFiles([{ name: 'bruno.json', text: '{"name":"x"}' }])).toThrow(/No \.bru file/);
  });
});

describe('a Bruno collection exported as JSON', () => {
  const c = importForeignCollection(readFileSync(join(FIXTURES, 'bruno-shop-export.json'), 'utf8'), {
    place: PLACE,
  });

  it('is recognised and read in seq order, folders in the names, the other API skipped', () => {
    expect(c.format).toBe('bruno');
    expect(c.name).toBe('Shop checkout (Bruno export)');
    expect(c.requests.map((r) => [r.name, r.draft.operation])).toEqual([
      ['Payments / Sale', 'v2/sale'],
      ['Payments / Status', 'v2/status'],
    ]);
    expect(c.skipped.map((s) => s.name)).toEqual(['Weather for the shop page']);
  });

  it('keeps variables, reads vars.res as set-from-answer, never a secret environment variable', () => {
    const sale = c.requests[0]!;
    expect(sale.draft.values).toMatchObject({ amount: '{{amount}}', client_orderid: 'shop-{{run_id}}' });
    expect(JSON.stringify(sale.draft)).not.toContain('old value');
    expect(sale.set).toEqual({ orderid: 'paynet-order-id' });
    expect(c.variables).toEqual({
      base_url: 'http://127.0.0.1:8787',
      endpoint_id: '1111',
      login: 'shop-48213',
      amount: '10.42',
    });
    expect(JSON.stringify(c)).not.toContain('DO-NOT-KEEP');
  });

  it('a damaged export names where', () => {
    expect(() =>
      importForeignCollection(JSON.stringify({ name: 'x', items: [{ type: 'http-request', name: 5 }] })),
    ).toThrow(/Bruno collection is damaged at items\.0\.name/);
  });
});

describe('paysign run reads a Bruno export', () => {
  it('as a collection to run: its steps in order, the saved variable, the defaults', () => {
    const run = readRunCollection(readFileSync(join(FIXTURES, 'bruno-shop-export.json'), 'utf8'));
    expect(run.steps.map((s) => [s.name, s.checks?.set])).toEqual([
      ['Payments / Sale', { orderid: 'paynet-order-id' }],
      ['Payments / Status', undefined],
    ]);
    expect(run.variables.amount).toBe('10.42');
  });
});

describe('answerFieldOf', () => {
  it('reads res.body["f"], res.body.f and res("f"); nothing else', () => {
    expect(answerFieldOf('res.body["paynet-order-id"]')).toBe('paynet-order-id');
    expect(answerFieldOf("res.body['status']")).toBe('status');
    expect(answerFieldOf('res.body.orderid')).toBe('orderid');
    expect(answerFieldOf('res("paynet-order-id")')).toBe('paynet-order-id');
    expect(answerFieldOf('res.status')).toBeUndefined();
    expect(answerFieldOf('res.body.a.b')).toBeUndefined();
  });
});
