/** Share links (values only, in the URL fragment) and capture import (curl, raw HTTP) into a form preset. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  buildRequest,
  renderCurl,
  renderRawHttp,
  secureNonceSource,
  webCryptoPort,
  type EndpointRef,
  type InputParam,
} from '../../src/core/index.ts';
import { findOperation } from '../../src/catalog/index.ts';
import {
  decodeShareLink,
  encodeShareLink,
  importCapture,
  isExportError,
  prepareSharePreset,
} from '../../src/exports/index.ts';
import type { FormPreset } from '../../src/shared/contracts/contracts.ts';

const preset: FormPreset = {
  operationPath: 'v2/sale',
  values: {
    client_orderid: 'inv-1',
    amount: '10.42',
    email: 'john.smith@example.com',
    order_desc: 'Café #1 — «quoted» & more',
    credit_card_number: '4444444444444448',
    cvv2: '123',
    control: 'c6bdd88a78834ef4b863b088827a459f039e8257',
  },
  extras: [
    { name: 'note', value: 'card 4111-1111-1111-1111' },
    { name: 'merchant_control_key', value: 'B17F59B4' },
    { name: 'custom', value: 'kept' },
  ],
  endpoint: { kind: 'group', id: '2222' },
};

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isExportError(e) ? e.code : `not an ExportError: ${String(e)}`;
  }
  return undefined;
}

describe('share links', () => {
  test('round trip keeps values and endpoint; the fragment never holds a card number, CVV, key or signature', () => {
    const link = encodeShareLink(preset);
    expect(link).toMatch(/^#share=[A-Za-z0-9_-]+$/);
    const decodedText = Buffer.from(link.slice('#share='.length), 'base64url').toString('utf8');
    expect(JSON.parse(decodedText)).toMatchObject({ v: 1, o: 'v2/sale' });
    for (const secret of ['4444444444444448', '4111-1111-1111-1111', '"cvv2"', 'B17F59B4', 'c6bdd88a'])
      expect(decodedText).not.toContain(secret);
    const back = decodeShareLink(`https://console.example/op/v2/sale${link}`);
    expect(back).toEqual({
      operationPath: 'v2/sale',
      values: {
        client_orderid: 'inv-1',
        amount: '10.42',
        email: 'john.smith@example.com',
        order_desc: 'Café #1 — «quoted» & more',
      },
      extras: [{ name: 'custom', value: 'kept' }],
      endpoint: { kind: 'group', id: '2222' },
    });
    expect(decodeShareLink(link)).toEqual(back);
    expect(decodeShareLink(`#tab=raw&${link.slice(1)}`)).toEqual(back);
    expect(decodeShareLink(link.slice(7))).toEqual(back);
    expect(
      prepareSharePreset(preset)
        .dropped.map((d) => `${d.name}:${d.reason}`)
        .sort(),
    ).toEqual(
      [
        'control:signature',
        'credit_card_number:card-number',
        'cvv2:cvv',
        'merchant_control_key:secret',
        'note:card-number',
      ].sort(),
    );
  });

  test('any text values survive the round trip (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), fc.string({ unit: 'grapheme', maxLength: 40 })),
        (values) => {
          const clean = prepareSharePreset({ operationPath: 'v2/status', values }).preset;
          expect(decodeShareLink(encodeShareLink({ operationPath: 'v2/status', values }))).toEqual(clean);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('a damaged, foreign or newer link is refused with a clear error', () => {
    const link = encodeShareLink(preset);
    expect(codeOf(() => decodeShareLink(link.slice(0, -5)))).toBe('SHARE_LINK_DAMAGED');
    expect(codeOf(() => decodeShareLink('#share=!!!'))).toBe('SHARE_LINK_DAMAGED');
    expect(codeOf(() => decodeShareLink('#share='))).toBe('SHARE_LINK_DAMAGED');
    expect(codeOf(() => decodeShareLink('#other=abc'))).toBe('SHARE_LINK_DAMAGED');
    const b64 = (o: unknown) =>
      '#share=' + btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(codeOf(() => decodeShareLink(b64({ v: 2, o: 'v2/sale', p: [] })))).toBe('SHARE_LINK_VERSION');
    expect(codeOf(() => decodeShareLink(b64({ v: 1, o: 'v9/nothing', p: [] })))).toBe('SHARE_LINK_OPERATION');
    expect(codeOf(() => decodeShareLink(b64({ v: 1, o: 'v2/sale', p: [['a', 1]] })))).toBe(
      'SHARE_LINK_DAMAGED',
    );
    try {
      decodeShareLink(link.slice(0, -5));
    } catch (e) {
      expect((e as Error).message).toMatch(/damaged .*ask for the link again/);
    }
    // A hand-made link that carries a CVV or a card number still does not put them into the form.
    expect(
      decodeShareLink(
        b64({
          v: 1,
          o: 'v2/sale',
          p: [
            ['cvv2', '123'],
            ['credit_card_number', '4444444444444448'],
            ['amount', '1.00'],
          ],
        }),
      ).values,
    ).toEqual({ amount: '1.00' });
  });
});

async function built(
  opPath: string,
  params: Array<[string, string]>,
  endpoint: EndpointRef = { kind: 'endpoint', id: '1111' },
) {
  const op = findOperation(opPath)!;
  return buildRequest({
    operation: op,
    baseUrl: 'https://sandbox.example.com/paynet',
    endpoint,
    params: params.map(([name, value]): InputParam => ({ name, value, source: 'form' })),
    credentials: { login: 'demo-merchant', controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20' },
    crypto: webCryptoPort(),
    clock: () => 1_700_000_000_000,
    nonce: secureNonceSource(),
  });
}

describe('capture import', () => {
  test('a curl command opens the matching form with every value, control left out', async () => {
    const req = await built('v2/sale', [
      ['client_orderid', 'inv-7'],
      ['amount', '10.42'],
      ['email', 'john.smith@example.com'],
      ['order_desc', "Café #1 !'()* a+b"],
      ['custom_field', 'x'],
    ]);
    const imported = importCapture(renderCurl(req));
    expect(imported).toMatchObject({
      operationPath: 'v2/sale',
      values: {
        client_orderid: 'inv-7',
        amount: '10.42',
        email: 'john.smith@example.com',
        order_desc: "Café #1 !'()* a+b",
      },
      extras: [{ name: 'custom_field', value: 'x' }],
      endpoint: { kind: 'endpoint', id: '1111' },
      format: 'curl',
      baseUrl: 'https://sandbox.example.com/paynet',
      dropped: ['control'],
    });
    expect(imported.values).not.toHaveProperty('control');
  });

  test('raw HTTP to an endpoint group, OAuth header and oauth_* body parameters ignored', async () => {
    const req = await built(
      'v2/payout',
      [
        ['client_orderid', 'po-1'],
        ['amount', '50.00'],
        ['currency', 'USD'],
      ],
      { kind: 'group', id: '2222' },
    );
    const raw = renderRawHttp(req).replace(/\r\n\r\n(.*)$/s, '\r\n\r\n$1&oauth_nonce=zzz');
    const imported = importCapture(raw);
    expect(imported).toMatchObject({
      operationPath: 'v2/payout',
      values: { client_orderid: 'po-1', amount: '50.00', currency: 'USD' },
      endpoint: { kind: 'group', id: '2222' },
      format: 'raw-http',
      dropped: ['oauth_nonce'],
    });
    expect(imported.extras).toBeUndefined();
  });

  test('a request to no operation, or no request at all, is refused with a message', () => {
    expect(
      codeOf(() => importCapture("curl -X POST 'https://x.example/paynet/api/v2/nothing/1111' -d 'a=b'")),
    ).toBe('IMPORT_OPERATION');
    expect(codeOf(() => importCapture('hello world'))).toBe('IMPORT_UNREADABLE');
    expect(codeOf(() => importCapture(''))).toBe('IMPORT_UNREADABLE');
    try {
      importCapture("curl -X POST 'https://x.example/paynet/api/v2/nothing/1111' -d 'a=b'");
    } catch (e) {
      expect((e as Error).message).toMatch(
        /not an operation of the catalog: expected …\/api\/<operation>\/<endpointId>/,
      );
    }
  });
});
