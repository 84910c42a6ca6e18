/**
 * The incident capsule's journey (issue 31 §2): a mixed incident pasted (Monolog, logback, an nginx
 * access log of callbacks; signed here with node:crypto) → the timeline with its state rules →
 * export → the file opened read-only in a fresh browser context, its chain checked.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expectAccessible } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const KEY = 'CAPSULE-E2E-ONLY-7A8B9C0D-1E2F';
const LOGIN = 'capsule-shop';
const CID = 'inv-8001';
const BASE = 'https://sandbox.pay-gateway.test/paynet/api';
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');

const incident = [
  `[2026-12-06 01:00:00] payment.INFO: POST ${BASE}/v2/sale/4411 ${JSON.stringify({
    client_orderid: CID,
    amount: '10.00',
    currency: 'USD',
    email: 'jane@example.com',
    credit_card_number: '4444444444444448',
    cvv2: '123',
    control: sha1(`4411${CID}1000jane@example.com${KEY}`),
  })} []`,
  ...[0, 100, 200].map(
    (ms) =>
      `2026-12-06 01:00:01.${String(ms).padStart(3, '0')} INFO [pool-1] c.m.Gateway - Request: POST ${BASE}/v2/status/4411 body: login=${LOGIN}&client_orderid=${CID}&orderid=92001&control=${sha1(`${LOGIN}${CID}92001${KEY}`)}`,
  ),
  ...[500, 200].map(
    (code, i) =>
      `198.51.100.23 - - [06/Dec/2026:01:00:0${5 + i} +0000] "GET /payment/callback?status=approved&orderid=92001&client_orderid=${CID}&control=${sha1(`approved92001${CID}${KEY}`)} HTTP/1.1" ${code} 2 "-" "Paynet"`,
  ),
].join('\n');

test('paste a mixed incident → timeline → export → open read-only in a fresh browser', async ({
  page,
  browser,
}) => {
  await page.goto('/capsule');
  await expect(page.getByRole('heading', { name: 'Incident capsule', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Incident' });
  await form.getByLabel('Incident (logs, HAR, curl, access log)').fill(incident);
  await form.getByLabel('Merchant control key').fill(KEY);
  await form.getByRole('button', { name: 'Build the timeline' }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('status', { name: 'Capsule status' })).toHaveText(
    '6 steps in 1 order(s), 2 state rule(s) broken',
  );
  const table = timeline.getByRole('table', { name: `Order ${CID} · orderid 92001` });
  await expect(table.getByRole('row')).toHaveCount(7);
  await expect(table.getByRole('cell', { name: 'ok', exact: true })).toHaveCount(6);
  const rules = timeline.getByRole('list', { name: 'State rules' });
  await expect(rules).toContainText('status polled every 100 ms');
  await expect(rules).toContainText('callback answered 500, not 200, so the gateway retried');
  await expectAccessible(page, 'the incident capsule timeline');

  const download = page.waitForEvent('download');
  await timeline.getByRole('button', { name: 'Export the capsule' }).click();
  const file = await (await download).path();
  const text = readFileSync(file, 'utf8');
  expect(text).not.toContain(KEY);
  expect(text).not.toContain('4444444444444448');

  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.addInitScript(() => localStorage.setItem('pay-console.theme', 'dark'));
    await other.goto(new URL('/capsule', page.url()).href);
    await other.getByLabel('Open a capsule (read-only)').setInputFiles({
      name: 'incident.capsule.json',
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
    const opened = other.getByRole('region', { name: 'Timeline' });
    await expect(opened.getByRole('status', { name: 'Capsule status' })).toHaveText(
      'Opened read-only · chain intact · 6 steps',
    );
    await expect(other.getByRole('form', { name: 'Incident' })).toHaveCount(0);
    await expect(opened.getByRole('list', { name: 'State rules' })).toContainText(
      'status polled every 100 ms',
    );
    await expectAccessible(other, 'a capsule opened read-only (dark)');

    // A changed step is caught.
    const doc = JSON.parse(text) as { steps: Array<{ operation: string }> };
    doc.steps[0]!.operation = 'v2/void';
    await other.getByLabel('Open a capsule (read-only)').setInputFiles({
      name: 'tampered.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(doc)),
    });
    await expect(opened.getByRole('status', { name: 'Capsule status' })).toContainText(
      'chain BROKEN: step 1',
    );
  } finally {
    await fresh.close();
  }
});
