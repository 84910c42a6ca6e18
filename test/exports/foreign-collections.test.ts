/**
 * Issue 19 §2: a merchant's ticket often carries a Postman v2.1 collection or an Insomnia export.
 * Each request is identified by the model's capture reader into a draft (operation, endpoint,
 * scheme, values, pinned OAuth nonce and timestamp); requests of other APIs are listed and skipped;
 * the tools' secrets are never read. Fixtures are shaped as the tools write them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importForeignCollection } from '../../src/exports/foreign-collections/import-foreign-collection.ts';
import { buildPostmanCollection } from '../../src/exports/index.ts';
import { buildDraft, missingValues } from '../../src/model/index.ts';
import { maskDraft } from '../../src/model/mask-draft.ts';
import { PLACE, signingEnv } from '../model/signing-env.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

describe('a Postman v2.1 collection', () => {
  const text = fixture('postman-merchant-ticket.postman_collection.json');
  const c = importForeignCollection(text, { place: PLACE });

  it('identifies the requests of this API, in order, folders in their names', () => {
    expect(c.format).toBe('postman');
    expect(c.name).toBe('Shop checkout (ticket 48213)');
    expect(c.requests.map((r) => [r.name, r.draft.operation])).toEqual([
      ['Payments / Sale 902B4FF5', 'v2/sale'],
      ['Payments / Payout (HMAC-SHA1)', 'v2/payout'],
      ['Status', 'v2/status'],
    ]);
  });

  it('lists the request of another API as skipped, saying why', () => {
    expect(c.skipped).toEqual([
      {
        name: 'Weather for the shop page',
        reason: 'GET https://api.weather.example/v1/forecast?city=Riga is not an operation of this API',
      },
    ]);
  });

  it('keeps the values (variables resolved), the extras, the endpoint; drops control and disabled pairs', () => {
    const sale = c.requests[0]!.draft;
    expect(sale.endpoint).toEqual({ kind: 'endpoint', id: '1111' });
    expect(sale.values).toMatchObject({
      client_orderid: '902B4FF5',
      amount: '10.42',
      currency: 'USD',
      email: 'john.smith@gmail.com',
      credit_card_number: '4444444444444448',
    });
    expect(sale.extras).toEqual([{ name: 'merchant_note', value: 'ticket 48213' }]);
    expect(JSON.stringify(sale)).not.toContain('control');
    expect(JSON.stringify(sale)).not.toContain('old value');
    // Saved, the card number and CVV are withheld: the send asks for them (maskDraft on save).
    expect(missingValues(maskDraft(sale)).map((m) => m.name)).toEqual(['credit_card_number', 'cvv2']);
  });

  it('OAuth 1.0 settings: the signature method as the scheme, nonce and timestamp pinned, never the secret', async () => {
    const payout = c.requests[1]!.draft;
    expect(payout.pinned).toEqual({ nonce: 'kllo9940pd9333jh', timestamp: '1767225600' });
    expect(JSON.stringify(c)).not.toContain('DO-NOT-KEEP-THIS-SECRET');
    const built = await buildDraft(payout, signingEnv());
    expect(built.headers.find((h) => h.name === 'Authorization')?.value).toContain(
      'oauth_nonce="kllo9940pd9333jh"',
    );
  });

  it('an endpoint group id left as a variable: the profile’s endpoint is used, and said so', () => {
    const status = c.requests[2]!;
    expect(status.draft.endpoint).toBeUndefined();
    expect(status.notes.join(' ')).toMatch(/endpoint id is a variable/);
  });

  it('issue 33: a variable in a value stays a variable; the collection’s variables come along', () => {
    const status = c.requests[2]!;
    // Before issue 33 the import resolved it to "shop-48213" and the variable was lost.
    expect(status.draft.values.login).toBe('{{login}}');
    expect(status.notes.join(' ')).toMatch(/Variables kept.*\{\{login\}\}/);
    expect(c.variables).toEqual({
      base_url: 'https://sandbox.gateway.example/paynet',
      endpoint_id: '1111',
      login: 'shop-48213',
    });
    // Saved (masked), the variable is still there, and no value is withheld because of it.
    expect(maskDraft(status.draft).values.login).toBe('{{login}}');
  });

  it('a secret variable of the file is never read', () => {
    const json = JSON.parse(text) as { variable: Array<Record<string, string>> };
    json.variable.push(
      { key: 'control_key', value: 'DO-NOT-KEEP-CK', type: 'string' },
      { key: 'api_token', value: 'DO-NOT-KEEP-TOKEN', type: 'secret' },
    );
    const read = importForeignCollection(JSON.stringify(json), { place: PLACE });
    expect(Object.keys(read.variables)).toEqual(['base_url', 'endpoint_id', 'login']);
    expect(JSON.stringify(read)).not.toMatch(/DO-NOT-KEEP/);
  });

  it('the console’s own Postman export is read back, every operation', () => {
    const own = JSON.stringify(buildPostmanCollection({ endpointId: '1111', login: 'demo-merchant' }));
    const back = importForeignCollection(own);
    expect(back.skipped).toEqual([]);
    expect(back.requests.length).toBeGreaterThan(20);
  });
});

describe('an Insomnia v4 export', () => {
  const c = importForeignCollection(fixture('insomnia-merchant-ticket.json'), { place: PLACE });

  it('identifies the requests (base environment resolved), skips the other API', () => {
    expect(c.format).toBe('insomnia');
    expect(c.name).toBe('Merchant 48213');
    expect(c.requests.map((r) => [r.name, r.draft.operation])).toEqual([
      ['Payouts / Payout check', 'v4/payout-check'],
      ['Capture', 'v2/capture'],
    ]);
    expect(c.skipped.map((s) => s.name)).toEqual(['Notify the team']);
  });

  it('keeps the RSA-SHA256 scheme with its pinned nonce and timestamp, never the private key', () => {
    const check = c.requests[0]!.draft;
    expect(check.endpoint).toEqual({ kind: 'endpoint', id: '1111' });
    expect(check.pinned).toEqual({ nonce: 'n-4f1c9a', timestamp: '1767225700' });
    expect(check.values).toMatchObject({ client_orderid: 'pc-5', amount: '5.00', currency: 'USD' });
    expect(JSON.stringify(c)).not.toContain('PRIVATE KEY');
    expect(JSON.stringify(check)).not.toContain('skip me');
  });

  it('variables are kept as written (defined or not), and noted; the base environment comes along', () => {
    const capture = c.requests[1]!;
    expect(capture.draft.values.orderid).toBe('{{ orderid }}');
    // Before issue 33 the base environment's login was put in and the variable lost.
    expect(capture.draft.values.login).toBe('{{ _.login }}');
    expect(capture.notes.join(' ')).toMatch(/Variables kept.*\{\{login\}\}, \{\{orderid\}\}/);
    expect(c.variables).toMatchObject({ login: 'shop-48213', endpoint_id: '1111' });
  });
});

describe('files that cannot be imported, nothing of them', () => {
  it.each([
    ['not JSON', '{', /not JSON/],
    [
      'another JSON',
      '{"format":"x"}',
      /neither a Postman collection \(v2\.1\), an Insomnia export nor a Bruno collection/,
    ],
    [
      'only other APIs',
      JSON.stringify({
        info: { name: 'W', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
        item: [{ name: 'Weather', request: { method: 'GET', url: 'https://api.weather.example/v1' } }],
      }),
      /No request of this Postman collection is an operation of this API \(1 skipped, e\.g\. "Weather": GET https:\/\/api\.weather\.example\/v1 is not an operation of this API\): nothing was imported/,
    ],
    // Issue 30: another version is not "damaged": the user is told how to export the one read.
    [
      'a Postman v2.0 collection',
      JSON.stringify({
        info: { name: 'Old', schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
        item: [{ name: 'Sale', request: { method: 'POST', url: 'https://x.example/paynet/api/v2/sale/1' } }],
      }),
      /^This Postman collection is v2\.0\.0, a version this console does not read: in Postman, export it as Collection v2\.1 and import that file\.$/,
    ],
    [
      'an Insomnia export of format 5 (JSON)',
      JSON.stringify({ _type: 'export', __export_format: 5, resources: [] }),
      /^This Insomnia export is format 5, a version this console does not read: in Insomnia, export it as "Insomnia v4 \(JSON\)" and import that file\.$/,
    ],
    [
      'an Insomnia 5 export (YAML)',
      'type: collection.insomnia.rest/5.0\nname: Shop\nmeta:\n  id: wrk_1\ncollection: []\n',
      /^This Insomnia export is format 5, a version this console does not read: in Insomnia, export it as "Insomnia v4 \(JSON\)" and import that file\.$/,
    ],
  ])('%s', (_what, text, message) => {
    expect(() => importForeignCollection(text)).toThrow(message);
  });

  it('folders nested 1,000 deep: a clear message with the depth limit, not a stack overflow', () => {
    const nest = (depth: number) => {
      let item: unknown = {
        name: 'Sale',
        request: { method: 'POST', url: 'https://gate.example/paynet/api/v2/sale/1' },
      };
      for (let i = 0; i < depth; i++) item = { name: `f${i}`, item: [item] };
      return JSON.stringify({
        info: {
          name: 'Deep',
          schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
        },
        item: [item],
      });
    };
    expect(() => importForeignCollection(nest(1_000))).toThrow(
      /nests folders more than 100 deep, more than this import reads/,
    );
    // 99 folders under the collection: still read.
    expect(importForeignCollection(nest(99)).requests).toHaveLength(1);
  });
});

describe('a request without a URL (issue 30)', () => {
  it('is skipped for having no URL, not listed as another API', () => {
    const c = importForeignCollection(
      JSON.stringify({
        info: {
          name: 'Mixed',
          schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
        },
        item: [
          { name: 'Draft', request: { method: 'POST', url: '' } },
          {
            name: 'Status',
            request: {
              method: 'POST',
              url: 'https://sandbox.example/paynet/api/v2/status/1111',
              body: { mode: 'urlencoded', urlencoded: [{ key: 'login', value: 'm' }] },
            },
          },
        ],
      }),
    );
    expect(c.requests.map((r) => r.name)).toEqual(['Status']);
    expect(c.skipped).toEqual([
      { name: 'Draft', reason: 'it has no URL (give it one in the tool and export again)' },
    ]);
  });
});
