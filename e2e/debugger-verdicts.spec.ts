/**
 * Issue 10, wrong verdicts 1 and 4, through the debugger page: the console's own HAR export (card
 * number masked by its exporter) is never blamed on the key; a raw HTTP capture without a scheme,
 * signed with `+` for a space over http://, is confirmed; after Diagnose the verdict has the focus.
 * Signatures are made here with Node's crypto, independent of the console's signer.
 */
import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';
import { exchangesToHar } from '../src/exports/index.ts';
import { expect, test } from './support/fixtures.ts';

const KEY = 'E2E-VERDICT-ONLY-5A1C-4D2E';
const LOGIN = 'verdict-shop';
const HOST = 'gw.example';
const PATH = '/paynet/api/v2/payout/55';

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const OAUTH: Array<readonly [string, string]> = [
  ['oauth_consumer_key', LOGIN],
  ['oauth_nonce', 'n0nce'],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', '1767225600'],
  ['oauth_version', '1.0'],
];
function signO1(url: string, body: ReadonlyArray<readonly [string, string]>, plus = false): string {
  const value = (v: string) => (plus ? enc(v).replace(/%20/g, '+') : enc(v));
  const pairs = [...body, ...OAUTH].map(([k, v]) => `${enc(k)}=${value(v)}`).sort();
  return createHmac('sha1', `${KEY}&`)
    .update(`POST&${enc(url)}&${enc(pairs.join('&'))}`)
    .digest('base64');
}
const authorization = (signature: string) =>
  `OAuth ${[...OAUTH, ['oauth_signature', signature] as const].map(([k, v]) => `${k}="${enc(v)}"`).join(', ')}`;
const form = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');

const CAPTURED_AT = new Date('2026-01-01T00:00:30Z');
const formOf = (page: Page) => page.getByRole('form', { name: 'Captured request and secrets' });
const resultsOf = (page: Page) => page.getByRole('region', { name: 'Diagnosis' });

async function paste(page: Page, capture: string): Promise<void> {
  const f = formOf(page);
  await f.getByRole('button', { name: 'Clear' }).click();
  await f.getByLabel('Captured request').fill(capture);
  await f.getByLabel('Merchant login').fill(LOGIN);
  await f.getByLabel('Merchant control key').fill(KEY);
  await f.getByRole('button', { name: 'Diagnose' }).click();
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.clock.setFixedTime(CAPTURED_AT);
  await page.goto('/debugger');
  await expect(page.getByRole('heading', { name: 'Signature debugger', level: 1 })).toBeVisible();
});

test('the console’s own HAR export with a masked card number: cannot check, never "wrong key"', async ({
  page,
}) => {
  const body: Array<readonly [string, string]> = [
    ['client_orderid', 'inv-7'],
    ['amount', '7.25'],
    ['currency', 'EUR'],
    ['credit_card_number', '4444444444444448'],
    ['order_desc', 'Two words'],
  ];
  const url = `https://${HOST}${PATH}`;
  const har = JSON.stringify(
    exchangesToHar([
      {
        operationPath: 'v2/payout',
        profileName: 'Demo',
        targetName: 'gateway',
        sentAt: '2026-01-01T00:00:00.000Z',
        request: {
          method: 'POST',
          url,
          headers: [
            { name: 'Accept', value: 'application/vnd.pay+json' },
            { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
            { name: 'Authorization', value: authorization(signO1(url, body)) },
          ],
          body: body.map(([name, value]) => ({ name, value })),
        },
        response: { status: 200, elapsedMs: 5, headers: {}, body: '{}' },
      },
    ]),
  );
  expect(har).toContain('444444******4448');
  await paste(page, har);
  const results = resultsOf(page);
  const verdict = results.getByRole('status', { name: 'Verdict: Cannot check: masked values' });
  await expect(verdict).toBeVisible();
  await expect(verdict).toBeFocused();
  await expect(results).toContainText('cannot be checked over masked data (credit_card_number)');
  // Masking breaks no rule: not a cause (no rule quoted), a finding that says it cannot be replayed.
  await expect(results.getByRole('list', { name: 'Likely causes' })).toHaveCount(0);
  await expect(results).not.toContainText('Wrong key');
  await expect(results.getByRole('list', { name: 'Structural findings' })).toContainText(
    'Masked: it cannot be replayed as is',
  );
  await expect(results).not.toContainText(KEY);
});

test('raw HTTP without a scheme, + for a space signed over http://: confirmed; the verdict is focused and in view', async ({
  page,
}) => {
  const body: Array<readonly [string, string]> = [
    ['client_orderid', 'inv-9'],
    ['amount', '7.25'],
    ['currency', 'EUR'],
    ['order_desc', 'Two words'],
  ];
  const raw = [
    `POST ${PATH} HTTP/1.1`,
    `Host: ${HOST}`,
    'Accept: application/vnd.pay+json',
    'Content-Type: application/x-www-form-urlencoded',
    `Authorization: ${authorization(signO1(`http://${HOST}${PATH}`, body, true))}`,
    '',
    form(body),
  ].join('\r\n');
  await paste(page, raw);
  const results = resultsOf(page);
  const verdict = results.getByRole('status', { name: 'Verdict: MISMATCH' });
  await expect(verdict).toBeFocused();
  await expect(verdict).toBeInViewport();
  const first = results.getByRole('list', { name: 'Likely causes' }).getByRole('listitem').first();
  // The title's backticked `+` is shown as code (issue 30 §3), not with literal backticks.
  await expect(first.getByRole('heading', { level: 3 })).toContainText('+ for a space');
  await expect(first.getByRole('heading', { level: 3 }).locator('code').first()).toHaveText('+');
  await expect(first.getByRole('heading', { level: 3 })).toContainText('confirmed');
  await expect(results).toContainText('order_desc=Two%20words expected, order_desc=Two+words signed');
  await expect(results.getByRole('list', { name: 'Likely causes' })).not.toContainText('Wrong key');
  // The banner says once which scheme the verdict is about; no "https:// is assumed" beside it.
  const notes = results.getByRole('list', { name: 'Notes' });
  await expect(notes).toContainText(
    `The request line has no scheme: the mistake reproduces the signature when the URL is signed as http://${HOST}${PATH}.`,
  );
  await expect(notes).not.toContainText('is assumed');
});

test('a masked card number the signature checks out over: OK, and said to be masked', async ({ page }) => {
  const body: Array<readonly [string, string]> = [
    ['client_orderid', 'inv-8'],
    ['amount', '7.25'],
    ['currency', 'EUR'],
    ['credit_card_number', '444444******4448'],
  ];
  const url = `https://${HOST}${PATH}`;
  const curl = `curl -X POST '${url}' -H 'Accept: application/vnd.pay+json' -H 'Content-Type: application/x-www-form-urlencoded' -H '${`Authorization: ${authorization(signO1(url, body))}`}' --data-raw '${form(body)}'`;
  await paste(page, curl);
  const results = resultsOf(page);
  await expect(results.getByRole('status', { name: 'Verdict: OK' })).toBeVisible();
  await expect(results).toContainText(
    'The capture is masked (credit_card_number): it cannot be replayed as is',
  );
  await expect(results).not.toContainText('nothing else is wrong');
  await expect(results.getByRole('list', { name: 'Likely causes' })).toHaveCount(0);
});
