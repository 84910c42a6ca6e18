/** Capture import (curl, raw HTTP) into a draft of the request model. Share links: test/model. */
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
import { importCapture, isExportError } from '../../src/exports/index.ts';
import { isDraftError } from '../../src/model/index.ts';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isExportError(e) || isDraftError(e) ? e.code : `not an ExportError or DraftError: ${String(e)}`;
  }
  return undefined;
}

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
      draft: {
        operation: 'v2/sale',
        values: {
          client_orderid: 'inv-7',
          amount: '10.42',
          email: 'john.smith@example.com',
          order_desc: "Café #1 !'()* a+b",
        },
        extras: [{ name: 'custom_field', value: 'x' }],
        endpoint: { kind: 'endpoint', id: '1111' },
      },
      format: 'curl',
      baseUrl: 'https://sandbox.example.com/paynet',
      dropped: ['control'],
    });
    expect(imported.draft.values).not.toHaveProperty('control');
    expect(imported.draft.pinned).toBeUndefined();
  });

  test('raw HTTP to an endpoint group: the OAuth header’s nonce and timestamp are pinned, oauth_* body parameters dropped', async () => {
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
    const signing = req.signing.scheme === 'control' ? undefined : req.signing;
    expect(imported).toMatchObject({
      draft: {
        operation: 'v2/payout',
        values: { client_orderid: 'po-1', amount: '50.00', currency: 'USD' },
        endpoint: { kind: 'group', id: '2222' },
        pinned: { nonce: signing?.nonce, timestamp: '1700000000' },
      },
      format: 'raw-http',
      dropped: ['oauth_nonce'],
    });
    expect(imported.draft.extras).toEqual([]);
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
