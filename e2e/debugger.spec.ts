/**
 * The signature debugger through its page: every case of the corpus (test/corpus/cases, written by
 * test/corpus/make-corpus.mjs with its own signer) is pasted with its secrets, and the page must
 * name the sidecar's cause first, with its confidence, or say OK for the correct captures. One test
 * (and one page) per case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { demoMerchant, expect, test } from './support/fixtures.ts';

const CORPUS = resolve(import.meta.dirname, '../test/corpus');

interface Sidecar {
  id: string;
  title: string;
  capture: string;
  format: keyof typeof FORMAT_LABEL;
  operation: string;
  secrets: {
    login?: string;
    controlKey?: string;
    publicKeyFile?: string;
    privateKeyFile?: string;
    keyConsumer?: 'pkcs8' | 'pkcs1';
    alternativeKeys?: Array<{ label: string; controlKey?: string }>;
    knownIds?: { endpointId?: string; endpointGroupId?: string; clientOrderIds?: string[] };
  };
  now?: number;
  expected: {
    verdict: 'ok' | 'mismatch' | 'cannot-check';
    cause?: string;
    confidence?: 'confirmed' | 'possible';
  };
}

const CASES: Sidecar[] = readdirSync(join(CORPUS, 'cases'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(CORPUS, 'cases', f), 'utf8')) as Sidecar);
const read = (f: string) => readFileSync(join(CORPUS, f), 'utf8');

const FORMAT_LABEL = {
  'raw-http': 'raw HTTP request',
  curl: 'curl command',
  har: 'HAR entry',
  'log-line': 'log line of key=value pairs',
  'app-log': 'application log line (Monolog, Laravel, Symfony, logback)',
  'json-log': 'JSON log line (pino, bunyan, Monolog JSON)',
  'python-debug': 'Python requests/http.client debug output',
  'access-log': 'web server access-log line (nginx, Apache)',
} as const;
const VERDICT_LABEL = { ok: 'OK', mismatch: 'MISMATCH', 'cannot-check': 'Cannot check without the secret' };

/** The corpus was captured at 2026-01-01T00:00:00Z: the page's clock is set just after it, so "now" (the current time by default) is then. */
const CAPTURED_AT = new Date('2026-01-01T00:00:30Z');

const formOf = (page: Page) => page.getByRole('form', { name: 'Captured request and secrets' });
const resultsOf = (page: Page) => page.getByRole('region', { name: 'Diagnosis' });

async function fillCase(form: Locator, c: Sidecar, withSecrets = true): Promise<void> {
  await form.getByRole('button', { name: 'Clear' }).click();
  await form.getByLabel('Captured request').fill(read(join('cases', c.capture)));
  await expect(form.getByRole('status', { name: 'Detected format' })).toHaveText(
    `Detected: ${FORMAT_LABEL[c.format]}`,
  );
  const s = c.secrets;
  if (s.login) await form.getByLabel('Merchant login').fill(s.login);
  if (c.now !== undefined) await form.getByLabel('Now (for the timestamp check)').fill(String(c.now));
  if (!withSecrets) return;
  if (s.controlKey) await form.getByLabel('Merchant control key').fill(s.controlKey);
  if (s.publicKeyFile) await form.getByLabel('Public key (PEM)').fill(read(s.publicKeyFile));
  if (s.privateKeyFile) await form.getByLabel('Private key (PEM)').fill(read(s.privateKeyFile));
  if (s.keyConsumer) await form.getByLabel('The private key is meant for').selectOption(s.keyConsumer);
  if (s.knownIds?.endpointId)
    await form.getByLabel('Endpoint id', { exact: true }).fill(s.knownIds.endpointId);
  if (s.knownIds?.endpointGroupId)
    await form.getByLabel('Endpoint group id', { exact: true }).fill(s.knownIds.endpointGroupId);
  if (s.knownIds?.clientOrderIds)
    await form.getByLabel('Other orders’ client_orderid').fill(s.knownIds.clientOrderIds.join(', '));
  for (const [i, k] of (s.alternativeKeys ?? []).entries()) {
    await form.getByRole('button', { name: 'Add another key to try' }).click();
    await form.getByLabel(`Other key ${i + 1}: label`).fill(k.label);
    if (k.controlKey) await form.getByLabel(`Other key ${i + 1}: control key`).fill(k.controlKey);
  }
}

async function diagnose(page: Page): Promise<Locator> {
  await formOf(page).getByRole('button', { name: 'Diagnose' }).click();
  const results = resultsOf(page);
  await expect(results.getByRole('status', { name: /^Verdict: / })).toBeVisible();
  return results;
}

test('the corpus has enough cases, most of them mismatches', () => {
  expect(CASES.length).toBeGreaterThanOrEqual(24);
  expect(CASES.filter((c) => c.expected.verdict === 'mismatch').length).toBeGreaterThanOrEqual(12);
});

// One test per case: each has its own time budget, so a busy machine slows the suite, never fails it.
for (const c of CASES) {
  test(`the debugger names the right cause first: ${c.id} (${c.expected.verdict}${c.expected.cause ? `, ${c.expected.cause} (${c.expected.confidence})` : ''})`, async ({
    page,
  }) => {
    await page.clock.setFixedTime(CAPTURED_AT);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (
        r.method() !== 'GET' ||
        /\/(proxy|sandbox|callbacks)\/(?!targets$|demo-merchant$)/.test(new URL(r.url()).pathname)
      )
        sent.push(`${r.method()} ${r.url()}`);
    });
    await page.goto('/debugger');
    await expect(page.getByRole('heading', { name: 'Signature debugger', level: 1 })).toBeVisible();
    await fillCase(formOf(page), c);
    const results = await diagnose(page);
    await expect(
      results.getByRole('status', { name: `Verdict: ${VERDICT_LABEL[c.expected.verdict]}` }),
    ).toBeVisible();
    await expect(results.getByLabel('Read as')).toHaveText(FORMAT_LABEL[c.format]);
    await expect(
      results.getByText(
        c.operation === 'callback' ? 'callback or customer return' : `operation ${c.operation} ·`,
        { exact: false },
      ),
    ).toBeVisible();
    const causes = results.getByRole('list', { name: 'Likely causes' });
    if (c.expected.verdict === 'ok') {
      await expect(causes).toHaveCount(0);
    } else {
      const first = causes.getByRole('listitem').first();
      await expect(first.getByRole('heading', { level: 3 })).toContainText(c.expected.cause!);
      await expect(first.getByRole('heading', { level: 3 })).toContainText(c.expected.confidence!);
      await expect(first.getByText('The rule it breaks:')).toBeVisible();
      await expect(first.getByText(/What to do:/)).toBeVisible();
      if (c.secrets.controlKey) await expect(results).not.toContainText(c.secrets.controlKey);
    }
    expect(sent, 'the debugger runs in the browser: nothing is sent').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const)
  test(`a Monolog line that starts with [ is read as a log, not a HAR; what else it reads as is one click away (${theme})`, async ({
    page,
  }) => {
    await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    await page.clock.setFixedTime(CAPTURED_AT);
    await page.goto('/debugger');
    const form = formOf(page);
    const key = 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B';
    await form
      .getByLabel('Captured request')
      .fill(
        `[2026-12-06 01:02:03] payment.INFO: POST https://sandbox.pay-gateway.test/paynet/api/v2/status/4411 login=corpus-shop client_orderid=inv-1 orderid=91 control=${'0'.repeat(40)} [] []`,
      );
    await expect(form.getByRole('status', { name: 'Detected format' })).toHaveText(
      `Detected: ${FORMAT_LABEL['app-log']}`,
    );
    await form.getByLabel('Merchant control key').fill(key);
    const results = await diagnose(page);
    await expect(results.getByLabel('Read as')).toHaveText(FORMAT_LABEL['app-log']);
    await expect(results).not.toContainText('whole HAR file');
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectAccessible(page, `a diagnosis that names other formats (${theme})`);
    await results
      .getByRole('group', { name: 'Also reads as' })
      .getByRole('button', { name: FORMAT_LABEL['log-line'] })
      .click();
    await expect(resultsOf(page).getByLabel('Read as')).toHaveText(FORMAT_LABEL['log-line']);
    await expect(form.getByLabel('Read as', { exact: true })).toHaveValue('log-line');
  });

test('without the secret the structural checks still run; the first difference and the pasted base string are highlighted', async ({
  page,
}) => {
  await page.clock.setFixedTime(CAPTURED_AT);
  await page.goto('/debugger');
  const form = formOf(page);
  const byId = (id: string) => CASES.find((c) => c.id === id)!;

  await test.step('no secret: cannot check, the findings are listed', async () => {
    await fillCase(form, byId('plus-for-space'), false);
    const results = await diagnose(page);
    await expect(
      results.getByRole('status', { name: 'Verdict: Cannot check without the secret' }),
    ).toBeVisible();
    await expect(
      results.getByRole('list', { name: 'Structural findings' }).getByRole('listitem').first(),
    ).toBeVisible();
    await expect(results.getByRole('list', { name: 'Likely causes' })).toContainText('plus-for-space');
  });

  await test.step('control: the differing term is pointed at, term by term', async () => {
    await fillCase(form, byId('amount-major-units'));
    const results = await diagnose(page);
    const terms = results.getByRole('table', { name: 'Term by term' });
    const bad = terms
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'amount', exact: true }) });
    await expect(bad).toHaveAttribute('aria-invalid', 'true');
    await expect(
      results.getByRole('group', { name: 'Signing input difference' }).locator('ins, del').first(),
    ).toBeVisible();
  });

  await test.step('OAuth: pair by pair and within the base string', async () => {
    await fillCase(form, byId('unsorted-parameters'));
    const results = await diagnose(page);
    await expect(
      results.getByRole('table', { name: 'Pair by pair' }).locator('[aria-invalid="true"]').first(),
    ).toBeVisible();
    await expect(results.getByRole('group', { name: 'Signing input difference' })).toBeVisible();
  });

  await test.step('a pasted expected base string is diffed against ours', async () => {
    await fillCase(form, byId('ok-hmac-payout'));
    let results = await diagnose(page);
    const ours = (await results.getByRole('group', { name: 'Our base string' }).textContent()) ?? '';
    expect(ours).toMatch(/^POST&https%3A%2F%2F/);
    const theirs = ours.replace('%3D25.00', '%3D2500');
    expect(theirs).not.toBe(ours);
    await form.getByLabel('The gateway’s expected base string').fill(theirs);
    results = await diagnose(page);
    const diff = results.getByRole('group', { name: 'Expected base string difference' });
    await expect(diff.locator('del')).toHaveText(['.']);
    await form.getByLabel('The gateway’s expected base string').fill(ours);
    results = await diagnose(page);
    await expect(results.getByText('Identical: the gateway signed the same text')).toBeVisible();
  });

  await test.step('an unreadable capture says what to paste', async () => {
    await form.getByRole('button', { name: 'Clear' }).click();
    await form.getByLabel('Captured request').fill('hello world');
    await form.getByRole('button', { name: 'Diagnose' }).click();
    await expect(resultsOf(page).getByRole('alert')).toContainText('paste one of these');
  });
});

test('the active profile’s keys, and "Open in the workbench" with the capture’s values', async ({ page }) => {
  const demo = await demoMerchant(page);
  await page.goto('/debugger');
  const form = formOf(page);
  await test.step('"now" defaults to the current time: a capture from 2026-01-01 is stale today', async () => {
    const c = CASES.find((x) => x.id === 'ok-hmac-payout')!;
    await fillCase(form, c);
    const results = await diagnose(page);
    await expect(results.getByRole('status', { name: 'Verdict: MISMATCH' })).toBeVisible();
    await expect(
      results.getByRole('list', { name: 'Likely causes' }).getByRole('listitem').first(),
    ).toContainText('stale-timestamp');
  });
  await test.step('the profile’s login and control key fill the boxes, masked', async () => {
    await expect(form.getByRole('button', { name: 'Use the active profile’s keys' })).toBeEnabled();
    await form.getByRole('button', { name: 'Use the active profile’s keys' }).click();
    await expect(form.getByLabel('Merchant login')).toHaveValue(demo.login);
    await expect(form.getByLabel('Merchant control key')).toHaveValue(demo.controlKey);
    await expect(form.getByLabel('Merchant control key')).toHaveAttribute('type', 'password');
    await expect(form.getByLabel('Endpoint id', { exact: true })).toHaveValue(demo.endpointIds[0]!);
  });
  await test.step('the capture opens in its operation’s form', async () => {
    const c = CASES.find((x) => x.id === 'ok-control-sale')!;
    await fillCase(form, c);
    await diagnose(page);
    await resultsOf(page).getByRole('button', { name: 'Open in the workbench' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/sale$/);
    await expect(page.getByLabel('client_orderid', { exact: true })).toHaveValue('inv-2026-0001');
    await expect(page.getByLabel('amount', { exact: true })).toHaveValue('10.42');
  });

  await test.step('an RSA-SHA256 request the workbench signed checks out with the profile’s own private key', async () => {
    await page.goto('/ops/v4/payout-check');
    await expect(page.getByLabel('Signature', { exact: true })).toHaveText(/^[A-Za-z0-9+/]+=*$/);
    await page.getByRole('button', { name: 'Fill with test data' }).click();
    const curl = page.getByRole('group', { name: 'curl command' });
    await expect(curl).toContainText('client_orderid=');
    const text = (await curl.textContent()) ?? '';
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Debugger' }).click();
    await form.getByLabel('Captured request').fill(text);
    await form.getByRole('button', { name: 'Use the active profile’s keys' }).click();
    await expect(form.getByRole('note')).toContainText('The active profile’s private key is used');
    const results = await diagnose(page);
    await expect(results.getByRole('status', { name: 'Verdict: OK' })).toBeVisible();
    await form.getByRole('button', { name: 'Stop using the profile’s private key' }).click();
    await diagnose(page);
    await expect(
      results.getByRole('status', { name: 'Verdict: Cannot check without the secret' }),
    ).toBeVisible();
  });
});
