/**
 * A capsule replayed and handed on by link (issue 31 §2): a HAR incident with the gateway's
 * recorded answers (signed here with node:crypto) → timeline → Replay into a fresh sandbox merchant
 * (no key of the incident's merchant typed) → the per-step table says where the sandbox answered
 * differently → Make a link → the link opened in a fresh browser, read-only, chain intact.
 */
import { createHash } from 'node:crypto';
import { expectAccessible } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const KEY = 'REPLAY-E2E-ONLY-3D4E5F6A-7B8C';
const LOGIN = 'replay-shop';
const CID = 'inv-9301';
const BASE = 'https://gate.pay-gateway.test/paynet/api';
const sha1 = (s: string) => createHash('sha1').update(s, 'utf8').digest('hex');
const form = (pairs: Array<[string, string]>) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

const sale = form([
  ['client_orderid', CID],
  ['order_desc', 'Replay order'],
  ['first_name', 'John'],
  ['last_name', 'Smith'],
  ['address1', '100 Main Street'],
  ['city', 'Seattle'],
  ['zip_code', '98102'],
  ['country', 'US'],
  ['phone', '12063582043'],
  ['email', 'john.smith@example.com'],
  ['ipaddress', '203.0.113.7'],
  ['amount', '10.00'],
  ['currency', 'USD'],
  ['card_printed_name', 'JOHN SMITH'],
  ['credit_card_number', '4444444444444448'],
  ['expire_month', '12'],
  ['expire_year', '2035'],
  ['cvv2', '123'],
  ['control', sha1(`7701${CID}1000john.smith@example.com${KEY}`)],
]);
const status = form([
  ['login', LOGIN],
  ['client_orderid', CID],
  ['orderid', '66001'],
  ['control', sha1(`${LOGIN}${CID}66001${KEY}`)],
]);
const entry = (time: string, path: string, text: string, answer: string) => ({
  startedDateTime: time,
  request: {
    method: 'POST',
    url: `${BASE}/${path}`,
    headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
    postData: { mimeType: 'application/x-www-form-urlencoded', text },
  },
  response: { status: 200, content: { text: answer } },
});
// The merchant's log says the order was declined; the sandbox approves CVV 123, so the replay
// differs at `status` whenever the status is read (processing or approved, never declined).
const har = JSON.stringify({
  log: {
    version: '1.2',
    entries: [
      entry('2026-12-06T01:00:00.000Z', 'v2/sale/7701', sale, 'type=async-response&paynet-order-id=66001'),
      entry(
        '2026-12-06T01:00:01.000Z',
        'v2/status/7701',
        status,
        'type=status-response&status=declined&paynet-order-id=66001',
      ),
    ],
  },
});

test('replay a capsule into a fresh sandbox merchant, then open it by link in a fresh browser', async ({
  page,
  browser,
}) => {
  await test.step('paste the incident, without any key, and build the timeline', async () => {
    await page.goto('/capsule');
    const incident = page.getByRole('form', { name: 'Incident' });
    await incident.getByLabel('Incident (logs, HAR, curl, access log)').fill(har);
    await incident.getByRole('button', { name: 'Build the timeline' }).click();
    await expect(page.getByRole('status', { name: 'Capsule status' })).toHaveText(
      '2 steps in 1 order(s), 0 state rule(s) broken',
    );
  });

  await test.step('Replay: progress to the end, the table says where the sandbox differs', async () => {
    await page.getByRole('button', { name: 'Replay in a fresh sandbox merchant' }).click();
    const replay = page.getByRole('region', { name: 'Replay' });
    await expect(replay.getByRole('status', { name: 'Replay status' })).toHaveText(
      /^Replayed into sandbox merchant replay-\d+: the sandbox answered differently$/,
    );
    await expect(replay.getByRole('progressbar', { name: 'Replay progress' })).toHaveAttribute('value', '2');
    const table = replay.getByRole('table', { name: 'Replay, step by step' });
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText('v2/sale');
    await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText('same');
    await expect(rows.nth(2)).toContainText('v2/status');
    await expect(rows.nth(2).getByRole('cell').nth(2)).toHaveText('differs');
    await expect(rows.nth(2)).toContainText('status: logs “declined”, sandbox');
    await expect(rows.nth(1)).toContainText('cvv2 is never in a capsule: 123 (approved) was sent.');
    await expectAccessible(page, 'a capsule replayed');
  });

  const link = await test.step('Make a link: the capsule rides in the fragment', async () => {
    await page.getByRole('button', { name: 'Make a link' }).click();
    const href = await page.getByLabel(/^Capsule link/).inputValue();
    expect(href).toMatch(/\/capsule#capsule=[A-Za-z0-9_-]+$/);
    expect(href).not.toContain(KEY);
    return href;
  });

  await test.step('the link opens read-only in a fresh browser, chain intact', async () => {
    const fresh = await browser.newContext();
    try {
      const other = await fresh.newPage();
      const requests: string[] = [];
      other.on('request', (r) => requests.push(r.url()));
      await other.goto(link);
      await expect(other.getByRole('status', { name: 'Capsule status' })).toHaveText(
        'Opened read-only · chain intact · 2 steps',
      );
      await expect(other.getByRole('form', { name: 'Incident' })).toHaveCount(0);
      await expect(other.getByRole('table', { name: `Order ${CID} · orderid 66001` })).toBeVisible();
      // The fragment never travels: no request carries the capsule.
      expect(requests.some((u) => u.includes('capsule='))).toBe(false);

      await other.goto(`${new URL(link).origin}/capsule#capsule=not*base64`);
      await expect(other.getByRole('alert')).toHaveText(
        'The capsule in this link is damaged: copy the whole link again, or ask for the capsule file.',
      );
    } finally {
      await fresh.close();
    }
  });
});
