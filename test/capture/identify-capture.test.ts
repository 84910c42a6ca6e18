/**
 * The one identification of a captured request (src/catalog/identify-capture.ts), which import,
 * the debugger and the sandbox all ask: requests signed by the real build, for every operation and
 * every scheme it allows, sent to an endpoint and to a group, come back as what they were.
 */
import { describe, expect, it } from 'vitest';
import { identifyCapture, isCaptureUnknown, type CaptureParts } from '../../src/capture/identify-capture.ts';
import { findOperation, OPERATIONS } from '../../src/catalog/index.ts';
import { decodeFormBody, type BuiltRequest, type EndpointRef } from '../../src/core/index.ts';
import { draftFromCapture } from '../../src/model/import-draft.ts';
import { buildDraft, draftFromValues, exampleDraft, schemesOf } from '../../src/model/index.ts';
import { identifyOperation } from '../../src/diagnose/steps/identify-operation.ts';
import { PLACE, signingEnv } from '../model/signing-env.ts';

function partsOf(built: BuiltRequest): CaptureParts {
  return {
    url: built.url,
    authorization: built.headers.find((h) => h.name === 'Authorization')?.value,
    body: decodeFormBody(built.bodyText),
  };
}

function identified(parts: CaptureParts) {
  const id = identifyCapture(parts);
  if (isCaptureUnknown(id)) throw new Error(`not identified: ${JSON.stringify(id)}`);
  return id;
}

const ENDPOINTS: EndpointRef[] = [
  { kind: 'endpoint', id: '1111' },
  { kind: 'group', id: '2222' },
];

describe('identifyCapture: every operation × scheme × endpoint or group, as the build signs it', () => {
  for (const op of OPERATIONS)
    for (const scheme of schemesOf(op))
      it(`${op.path} signed with ${scheme}`, async () => {
        for (const endpoint of ENDPOINTS) {
          const draft = draftFromValues(op, { ...formOf(op), scheme, endpoint });
          const built = await buildDraft(draft, signingEnv());
          const id = identified(partsOf(built));
          expect(id.operation.path).toBe(op.path);
          expect(id.endpoint).toEqual(endpoint);
          expect(id.scheme).toBe(scheme);
          expect(id.consumerKey).toBe(scheme === 'control' ? undefined : PLACE.login);
          expect(id.baseUrl).toBe('https://sandbox.example.com/paynet');
          // Import and the debugger's step read the same answer.
          const imported = draftFromCapture({
            method: 'POST',
            url: built.url,
            headers: Object.fromEntries(built.headers.map((h) => [h.name.toLowerCase(), h.value])),
            body: built.bodyText,
          }).draft;
          expect(imported.scheme ?? op.scheme).toBe(scheme);
          expect(imported.endpoint).toEqual(endpoint);
          const step = identifyOperation({
            capture: {
              method: 'POST',
              url: built.url,
              headers: Object.fromEntries(built.headers.map((h) => [h.name.toLowerCase(), h.value])),
              body: built.bodyText,
            },
            crypto: signingEnv().runtime.crypto,
          });
          expect([step.operation.path, step.scheme, step.endpoint]).toEqual([op.path, scheme, endpoint]);
        }
      });
});

function formOf(op: (typeof OPERATIONS)[number]) {
  const example = exampleDraft(op);
  return {
    values: Object.fromEntries(
      Object.entries(example.values).map(([k, v]) => [k, typeof v === 'string' ? v : '']),
    ),
  };
}

describe('identifyCapture: the scheme, where the capture and its operation disagree', () => {
  const payoutForm = findOperation('v2/payout-form')!;
  const url = 'https://gate.example.com/paynet/api/v2/payout-form/group/77';

  it('reads the OAuth parameters from the body when there is no header (the debugger used to say HMAC here)', () => {
    const parts: CaptureParts = {
      url,
      body: [
        { name: 'client_orderid', value: 'x' },
        { name: 'oauth_signature_method', value: 'RSA-SHA256' },
        { name: 'oauth_consumer_key', value: 'shop' },
      ],
    };
    const id = identified(parts);
    expect(id.scheme).toBe('oauth-rsa-sha256');
    expect(id.consumerKey).toBe('shop');
    expect(id.endpoint).toEqual({ kind: 'group', id: '77' });
    const step = identifyOperation({
      capture: {
        method: 'POST',
        url,
        headers: {},
        body: 'client_orderid=x&oauth_signature_method=RSA-SHA256&oauth_consumer_key=shop',
      },
      crypto: signingEnv().runtime.crypto,
    });
    expect(step.scheme).toBe('oauth-rsa-sha256');
    expect(step.login).toBe('shop');
  });

  it('takes control from a body that carries it, and the operation’s own scheme otherwise', () => {
    expect(identified({ url, body: [{ name: 'control', value: 'ab' }] }).scheme).toBe('control');
    expect(identified({ url, body: [] }).scheme).toBe(payoutForm.scheme);
    // v2/sale allows control only: a stray OAuth header does not change it.
    const sale = identified({
      url: 'https://gate.example.com/paynet/api/v2/sale/1',
      authorization: 'OAuth oauth_signature_method="HMAC-SHA1"',
      body: [],
    });
    expect(sale.scheme).toBe('control');
    expect(sale.otherMethod).toBe('HMAC-SHA1');
    expect(sale.consumerKey).toBeUndefined();
  });

  it('a method the operation is not signed with is named, and its own scheme kept', () => {
    const id = identified({ url, authorization: 'OAuth oauth_signature_method="PLAINTEXT"', body: [] });
    expect(id.scheme).toBe(payoutForm.scheme);
    expect(id.otherMethod).toBe('PLAINTEXT');
  });

  it('a damaged header still says which method was meant, and why it was not read', () => {
    const id = identified({
      url,
      authorization: 'OAuth oauth_signature_method="RSA-SHA256", oauth_nonce',
      body: [{ name: 'control', value: 'ab' }],
    });
    expect(id.scheme).toBe('oauth-rsa-sha256');
    expect(id.authorizationProblem).toMatch(/Cannot read the Authorization header/);
  });

  it('the operation and endpoint given (the sandbox knows them from its route) are not read from the URL', () => {
    const id = identifyCapture(
      {
        url: 'not a url',
        authorization: 'OAuth oauth_signature_method="HMAC-SHA1", oauth_consumer_key="m"',
        body: [],
      },
      { operation: payoutForm, endpoint: { kind: 'endpoint', id: '5' } },
    );
    expect(id).toMatchObject({ scheme: 'oauth-hmac-sha1', consumerKey: 'm', endpoint: { id: '5' } });
    expect(id).not.toHaveProperty('baseUrl');
  });

  it('says why a capture is no request of the catalog', () => {
    expect(identifyCapture({ url: '/api/v2/sale/1', body: [] })).toEqual({ problem: 'url' });
    expect(identifyCapture({ url: 'https://h/api/v9/nothing/1', body: [] })).toEqual({
      problem: 'operation',
      pathname: '/api/v9/nothing/1',
    });
  });
});
