/**
 * `paysign verify` on the console's own HAR export (card number masked by its exporter): the
 * report says the signature cannot be checked over masked data, names the field and what to do,
 * and never blames the key (issue 10, wrong verdict 1). Signed here with Node's crypto.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { exchangesToHar } from '../../src/exports/index.ts';
import { paysign } from './run-cli.ts';

const KEY = 'CLI-MASKED-ONLY-3B8E-41C7';
const LOGIN = 'masked-shop';
const URL_ = 'https://gw.example/paynet/api/v2/payout/55';
const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const OAUTH: Array<readonly [string, string]> = [
  ['oauth_consumer_key', LOGIN],
  ['oauth_nonce', 'n0nce'],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', '1767225600'],
  ['oauth_version', '1.0'],
];
const BODY: Array<readonly [string, string]> = [
  ['client_orderid', 'inv-7'],
  ['amount', '7.25'],
  ['currency', 'EUR'],
  ['credit_card_number', '4444444444444448'],
  ['order_desc', 'Two words'],
];

function har(): string {
  const pairs = [...BODY, ...OAUTH].map(([k, v]) => `${enc(k)}=${enc(v)}`).sort();
  const signature = createHmac('sha1', `${KEY}&`)
    .update(`POST&${enc(URL_)}&${enc(pairs.join('&'))}`)
    .digest('base64');
  const header = `OAuth ${[...OAUTH, ['oauth_signature', signature] as const].map(([k, v]) => `${k}="${enc(v)}"`).join(', ')}`;
  return JSON.stringify(
    exchangesToHar([
      {
        operationPath: 'v2/payout',
        profileName: 'Demo',
        targetName: 'gateway',
        sentAt: '2026-01-01T00:00:00.000Z',
        request: {
          method: 'POST',
          url: URL_,
          headers: [
            { name: 'Accept', value: 'application/vnd.pay+json' },
            { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
            { name: 'Authorization', value: header },
          ],
          body: BODY.map(([name, value]) => ({ name, value })),
        },
        response: { status: 200, elapsedMs: 5, headers: {}, body: '{}' },
      },
    ]),
  );
}

describe('paysign verify on a masked HAR export', () => {
  it('NOT CHECKED: the masked field, the advice, no "wrong key"; exit 2 with one line saying what to do', async () => {
    const text = har();
    expect(text).toContain('444444******4448');
    const r = await paysign(['verify', '--control-key', KEY, '--now', '1767225630'], { input: text });
    expect(r.code).toBe(2);
    expect(r.stdout.split('\n')[0]).toBe('signature NOT CHECKED');
    expect(r.stdout).not.toContain('[confirmed]');
    expect(r.stdout).toContain('it cannot be replayed as is');
    expect(r.stdout).toContain('credit_card_number is masked');
    expect(r.stdout).not.toMatch(/wrong key/i);
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).toMatch(
      /^paysign: The signature cannot be checked over masked data \(credit_card_number\): the key is not to blame\./,
    );
  });
});
