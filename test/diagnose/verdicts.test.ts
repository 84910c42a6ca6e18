/**
 * Issue 10, dead ends and wrong verdicts 1 and 4: masked values in the console's own HAR export
 * are never blamed on the key; a raw HTTP capture without a scheme is searched for mistakes under
 * http and https; a malformed signature outranks "wrong key"; "parameters not sorted" only when
 * sorting reproduces the signature; only the capture's own scheme's rules are quoted. Signatures
 * come from Node's crypto (independent of the signer under test).
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webCryptoPort, type CapturedRequest } from '../../src/core/index.ts';
import { captureNotes, diagnose } from '../../src/diagnose/index.ts';
import { parseCapture } from '../../src/capture/index.ts';
import { exchangesToHar } from '../../src/exports/index.ts';
import type { Exchange } from '../../src/model/exchange.ts';

const crypto = webCryptoPort();
const KEY = 'VERDICT-TEST-ONLY-2C7E-4B19-9D0A';
const LOGIN = 'verdict-shop';
const HOST = 'gw.example';
const PAN = '4444444444444448';

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (text: string) => createHmac('sha1', `${KEY}&`).update(text).digest('base64');
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

const OAUTH: Array<readonly [string, string]> = [
  ['oauth_consumer_key', LOGIN],
  ['oauth_nonce', 'n0nce'],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', '1767225600'],
  ['oauth_version', '1.0'],
];

/** An HMAC-SHA1 signature over `url`, spaces written as `%20` (correct) or `+` (the mistake). */
function signO1(url: string, body: ReadonlyArray<readonly [string, string]>, plus = false): string {
  const value = (v: string) => (plus ? enc(v).replace(/%20/g, '+') : enc(v));
  const pairs = [...body, ...OAUTH].map(([k, v]) => `${enc(k)}=${value(v)}`).sort();
  return hmac(`POST&${enc(url)}&${enc(pairs.join('&'))}`);
}

function authorization(signature: string): string {
  return `OAuth ${[...OAUTH, ['oauth_signature', signature] as const].map(([k, v]) => `${k}="${enc(v)}"`).join(', ')}`;
}

const form = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');

const PAYOUT: Array<readonly [string, string]> = [
  ['client_orderid', 'inv-7'],
  ['amount', '7.25'],
  ['currency', 'EUR'],
  ['credit_card_number', PAN],
  ['cvv2', '123'],
  ['order_desc', 'Two words'],
];

describe('masked values (the console’s own HAR export)', () => {
  const url = `https://${HOST}/paynet/api/v2/payout/55`;
  const signature = signO1(url, PAYOUT);
  const exchange: Exchange = {
    operationPath: 'v2/payout',
    profileName: 'Demo',
    targetName: 'gateway',
    sentAt: '2026-11-22T10:00:00.000Z',
    request: {
      method: 'POST',
      url,
      headers: [
        { name: 'Accept', value: 'application/vnd.pay+json' },
        { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
        { name: 'Authorization', value: authorization(signature) },
      ],
      body: PAYOUT.map(([name, value]) => ({ name, value })),
    },
    response: { status: 200, elapsedMs: 5, headers: {}, body: '{}' },
  };

  it('the original request checks out with the same key (the key is right)', async () => {
    const d = await diagnose({
      capture: {
        method: 'POST',
        url,
        headers: {
          host: HOST,
          accept: 'application/vnd.pay+json',
          'content-type': 'application/x-www-form-urlencoded',
          authorization: authorization(signature),
        },
        body: form(PAYOUT),
      },
      controlKey: KEY,
      crypto,
    });
    expect(d.verdict).toBe('ok');
  });

  it('the exported HAR: cannot be checked, which fields are masked and removed, never "wrong key"', async () => {
    const har = JSON.stringify(exchangesToHar([exchange]));
    expect(har).toContain('444444******4448');
    const parsed = parseCapture(har);
    expect(parsed.maskedExport).toBe(true);
    const d = await diagnose({
      capture: parsed.request,
      controlKey: KEY,
      maskedExport: true,
      crypto,
    });
    expect(d.verdict).toBe('cannot-check');
    expect(d.likelyCauses.map((c) => c.mistakeId)).not.toContain('wrong-key');
    // Masking breaks no rule: it is no cause (no rule quoted), it is said to be masked.
    expect(d.likelyCauses).toEqual([]);
    expect(d.masked).toEqual({ fields: ['credit_card_number'], signed: true });
    const f = d.structuralFindings.find((x) => x.id === 'masked-values');
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f).not.toHaveProperty('mistakeId');
    expect(f?.message).toContain('credit_card_number is masked');
    expect(f?.message).toContain('Masked: it cannot be replayed as is');
    // v2/payout names no CVV field: the export's own marker says what else it dropped.
    expect(f?.message).toContain('drops CVVs and secrets');
    expect(d.notes.join(' ')).toMatch(/cannot be checked.*Do not change the key/);
    expect(d.firstDifferenceNote).toMatch(/masked or removed values \(credit_card_number\)/);
  });

  it('a masked card number in a curl capture (no export marker) is recognised as well', async () => {
    const masked = PAYOUT.map(([k, v]) => [k, k === 'credit_card_number' ? '444444******4448' : v] as const);
    const d = await diagnose({
      capture: {
        method: 'POST',
        url,
        headers: { host: HOST, authorization: authorization(signature) },
        body: form(masked),
      },
      controlKey: KEY,
      crypto,
    });
    expect(d.verdict).toBe('cannot-check');
    expect(d.likelyCauses).toEqual([]);
  });

  it('a masked card number the signature was made over: OK, and still masked (cannot be replayed as is)', async () => {
    const masked = PAYOUT.map(([k, v]) => [k, k === 'credit_card_number' ? '444444******4448' : v] as const);
    const d = await diagnose({
      capture: {
        method: 'POST',
        url,
        headers: {
          host: HOST,
          accept: 'application/vnd.pay+json',
          'content-type': 'application/x-www-form-urlencoded',
          authorization: authorization(signO1(url, masked)),
        },
        body: form(masked),
      },
      controlKey: KEY,
      crypto,
    });
    expect(d.signatureMatches).toBe(true);
    expect(d.verdict).toBe('ok');
    expect(d.likelyCauses).toEqual([]);
    expect(d.masked).toEqual({ fields: ['credit_card_number'], signed: true });
    expect(d.structuralFindings.find((f) => f.id === 'masked-values')?.message).toMatch(
      /cannot be replayed as is/,
    );
  });

  it('a control operation whose formula does not sign the card number is checked as usual', async () => {
    const body: Array<readonly [string, string]> = [
      ['client_orderid', 'inv-8'],
      ['amount', '10.42'],
      ['email', 'a@b.c'],
      ['credit_card_number', '444444******4448'],
    ];
    const control = sha1(`55inv-81042a@b.c${KEY}`);
    const d = await diagnose({
      capture: {
        method: 'POST',
        url: `https://${HOST}/paynet/api/v2/sale/55`,
        headers: {
          host: HOST,
          accept: 'application/vnd.pay+json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form([...body, ['control', control]]),
      },
      controlKey: KEY,
      crypto,
    });
    expect(d.signatureMatches).toBe(true);
    expect(d.verdict).toBe('ok');
    expect(d.likelyCauses).toEqual([]);
    // Not signed, so checked as usual; but the capture is masked all the same.
    expect(d.masked).toEqual({ fields: ['credit_card_number'], signed: false });
    expect(d.structuralFindings.find((f) => f.id === 'masked-values')?.message).toMatch(
      /not signed, so the signature is checked as usual\)\. Masked: it cannot be replayed as is/,
    );
  });
});

describe('a raw HTTP capture without a scheme: mistakes searched under http and https', () => {
  const body: Array<readonly [string, string]> = [
    ['client_orderid', 'inv-9'],
    ['amount', '7.25'],
    ['currency', 'EUR'],
    ['order_desc', 'Two words'],
  ];
  const raw = (signature: string) =>
    [
      'POST /paynet/api/v2/payout/55 HTTP/1.1',
      `Host: ${HOST}`,
      'Accept: application/vnd.pay+json',
      'Content-Type: application/x-www-form-urlencoded',
      `Authorization: ${authorization(signature)}`,
      '',
      form(body),
    ].join('\r\n');

  it('+ for a space signed over http:// is confirmed, with its first difference', async () => {
    const parsed = parseCapture(raw(signO1(`http://${HOST}/paynet/api/v2/payout/55`, body, true)));
    expect(parsed.schemeKnown).toBe(false);
    const d = await diagnose({
      capture: parsed.request,
      controlKey: KEY,
      urlSchemeKnown: parsed.schemeKnown,
      crypto,
    });
    expect(d.verdict).toBe('mismatch');
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'plus-for-space', confidence: 'confirmed' });
    expect(d.firstDifference?.description).toMatch(/order_desc=Two%20words expected, order_desc=Two\+words/);
    expect(d.notes.join(' ')).toContain(`signed as http://${HOST}/paynet/api/v2/payout/55`);
    expect(d.likelyCauses.map((c) => c.mistakeId)).not.toContain('wrong-key');
    // One banner that does not contradict itself: no "https:// is assumed" beside "… signed as http://".
    expect(parsed.notes.join(' ')).toMatch(/https:\/\/ is assumed/);
    const banner = captureNotes(parsed, d);
    expect(banner.join(' ')).not.toMatch(/is assumed/);
    expect(banner[0]).toBe(
      `The request line has no scheme: the mistake reproduces the signature when the URL is signed as http://${HOST}/paynet/api/v2/payout/55.`,
    );
  });

  it('a signature that matches over https:// keeps the parse’s "https:// is assumed"', async () => {
    const parsed = parseCapture(raw(signO1(`https://${HOST}/paynet/api/v2/payout/55`, body)));
    const d = await diagnose({ capture: parsed.request, controlKey: KEY, urlSchemeKnown: false, crypto });
    expect(d.verdict).toBe('ok');
    expect(captureNotes(parsed, d).join(' ')).toMatch(/https:\/\/ is assumed/);
  });

  it('the same mistake over https:// is confirmed too', async () => {
    const parsed = parseCapture(raw(signO1(`https://${HOST}/paynet/api/v2/payout/55`, body, true)));
    const d = await diagnose({ capture: parsed.request, controlKey: KEY, urlSchemeKnown: false, crypto });
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'plus-for-space', confidence: 'confirmed' });
  });

  it('quotes only the rules of the capture’s own scheme', async () => {
    const parsed = parseCapture(raw(signO1(`http://${HOST}/paynet/api/v2/payout/55`, body, true)));
    const d = await diagnose({ capture: parsed.request, controlKey: KEY, urlSchemeKnown: false, crypto });
    for (const c of d.likelyCauses)
      for (const r of c.rules) expect(r.schemes, `${c.mistakeId}: ${r.id}`).toContain('oauth-hmac-sha1');
    expect(d.likelyCauses[0]!.rules.map((r) => r.id)).not.toContain('o2-space-never-plus');
  });
});

describe('ranking', () => {
  it('control=abc: a malformed signature, confirmed, and the key is not blamed', async () => {
    const d = await diagnose({
      capture: {
        method: 'POST',
        url: `https://${HOST}/paynet/api/v2/sale/55`,
        headers: {
          host: HOST,
          accept: 'application/vnd.pay+json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form([
          ['client_orderid', 'inv-1'],
          ['amount', '10.42'],
          ['email', 'a@b.c'],
          ['control', 'abc'],
        ]),
      },
      controlKey: KEY,
      crypto,
    });
    expect(d.verdict).toBe('mismatch');
    expect(d.likelyCauses[0]).toMatchObject({ mistakeId: 'malformed-signature', confidence: 'confirmed' });
    expect(d.likelyCauses.map((c) => c.mistakeId)).not.toContain('wrong-key');
  });

  it('an unsorted body signed with another key: "wrong key", not "parameters not sorted"', async () => {
    const body: Array<readonly [string, string]> = [
      ['order_desc', 'x'],
      ['amount', '7.25'],
      ['client_orderid', 'inv-2'],
      ['currency', 'EUR'],
    ];
    const url = `https://${HOST}/paynet/api/v2/payout/55`;
    const pairs = [...body, ...OAUTH].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort();
    const other = createHmac('sha1', 'ANOTHER-KEY&')
      .update(`POST&${enc(url)}&${enc(pairs.join('&'))}`)
      .digest('base64');
    const captured: CapturedRequest = {
      method: 'POST',
      url,
      headers: {
        host: HOST,
        accept: 'application/vnd.pay+json',
        'content-type': 'application/x-www-form-urlencoded',
        authorization: authorization(other),
      },
      body: form(body),
    };
    const d = await diagnose({ capture: captured, controlKey: KEY, crypto });
    const ids = d.likelyCauses.map((c) => c.mistakeId);
    expect(ids).toContain('wrong-key');
    expect(ids).not.toContain('unsorted-parameters');
  });
});
