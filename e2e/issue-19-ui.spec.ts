/**
 * Issue 19 §2, what users still hit: what the refusal says when the key cannot sign, the failed
 * Send's summary after a fix, the unknown-operation page's tools, focus after the save dialog,
 * history details under a search.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import {
  answer,
  demoMerchant,
  expect,
  field,
  fillTestData,
  openOperation,
  send,
  test,
} from './support/fixtures.ts';

const bar = (page: Page) => page.getByRole('region', { name: 'Merchant credentials' });
const problems = (page: Page) => page.getByRole('list', { name: 'Problems' });
const sendButton = (page: Page) => page.getByRole('button', { name: 'Send', exact: true });

test('a public key loaded: the panes and the Send refusal say it cannot sign, not "paste or load"', async ({
  page,
}) => {
  const demo = await demoMerchant(page);
  await openOperation(page, 'v4/payout-check');
  await fillTestData(page);
  await bar(page).getByLabel('Private key', { exact: true }).fill(demo.publicKeyPem);
  await expect(problems(page)).toContainText(
    "The loaded key is a public key: it verifies, it cannot sign. Load the merchant's private key",
  );
  await expect(problems(page)).not.toContainText('paste or load');
  await sendButton(page).click();
  const refusal = page.getByRole('main').getByRole('alert');
  await expect(refusal).toContainText(
    'Not sent: The loaded key is a public key: it verifies, it cannot sign.',
  );
  await expect(refusal).not.toContainText('paste or load');
});

test('the vault locked: the panes and the Send refusal say to unlock it, not "enter it"', async ({
  page,
}) => {
  test.slow();
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  await page.getByRole('button', { name: 'Remember on this device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remember the secrets on this device' });
  await dialog.getByLabel('Passphrase', { exact: true }).fill('correct horse battery staple 19');
  await dialog.getByLabel('Repeat the passphrase').fill('correct horse battery staple 19');
  await dialog.getByRole('button', { name: 'Encrypt and remember' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
  await expect(problems(page)).toContainText('The vault is locked: unlock it');
  await expect(problems(page)).not.toContainText('No merchant control key');
  await sendButton(page).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    'Not sent: The vault is locked: unlock it',
  );
});

test('the failed Send’s summary follows the fixes and goes when nothing is left', async ({ page }) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  await field(page, 'amount').fill('ten');
  await field(page, 'email').fill('not an e-mail');
  await sendButton(page).click();
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('2 parameters need attention: email, amount');
  await field(page, 'amount').fill('10.42');
  await expect(alert).toContainText('1 parameter needs attention: email.');
  await field(page, 'email').fill('john.smith@example.com');
  await expect(page.getByText(/needs? attention/)).toHaveCount(0);
});

test('an unknown operation offers no export, share, import or teaching', async ({ page }) => {
  await page.goto('/ops/v9/no-such-thing');
  await expect(page.getByRole('heading', { name: 'Unknown operation', level: 1 })).toBeVisible();
  for (const name of ['Export code', 'Share link', 'Import', 'Teach this', 'Save request'])
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Request tools' })).toHaveCount(0);
});

test('focus returns to the invoker when the save dialog closes, and to "Save as…" after a save', async ({
  page,
}) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  const saveRequest = page.getByRole('button', { name: 'Save request', exact: true });
  await saveRequest.click();
  const dialog = page.getByRole('dialog', { name: 'Save request' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(saveRequest).toBeFocused();

  await saveRequest.click();
  await expect(dialog.getByLabel('Request name')).toBeFocused();
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save as…' })).toBeFocused();
});

test('history: details of an entry the search hides are hidden; the stored answer is keyboard-reachable', async ({
  page,
}) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  const orderId = await field(page, 'client_orderid').inputValue();
  await send(page);
  await expect(answer(page)).toContainText('HTTP 200');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'History' }).click();
  const row = page
    .getByRole('table', { name: 'Requests sent, newest first' })
    .getByRole('row')
    .filter({ hasText: orderId });
  await row.getByRole('button', { name: 'Details' }).click();
  const answerPre = page.getByLabel('Stored answer');
  await expect(answerPre).toBeVisible();
  await expect(answerPre).toHaveAttribute('tabindex', '0');
  await answerPre.focus();
  await expect(answerPre).toBeFocused();
  await expectAccessible(page, 'history with details open');

  await page.getByLabel('Search history').fill('no-such-order-xyz');
  await expect(answerPre).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Close details' })).toHaveCount(0);
  await page.getByLabel('Search history').fill('');
  await expect(answerPre).toBeVisible();
});

test('Saved requests import a Postman collection: each request identified, other APIs listed and skipped', async ({
  page,
}) => {
  const file = readFileSync(
    join(import.meta.dirname, '../test/exports/fixtures/postman-merchant-ticket.postman_collection.json'),
  );
  await page.goto('/saved');
  await expect(page.getByRole('heading', { name: 'Saved requests', level: 1 })).toBeVisible();
  await page.getByLabel('Collections file to import').setInputFiles({
    name: 'ticket-48213.postman_collection.json',
    mimeType: 'application/json',
    buffer: file,
  });
  await expect(
    page.getByRole('status').filter({
      hasText:
        'Imported 3 requests of the Postman collection “Shop checkout (ticket 48213)” from ticket-48213.postman_collection.json into a new collection; skipped 1, each listed below with why.',
    }),
  ).toBeVisible();
  await expect(page.getByRole('list', { name: 'Skipped requests' })).toContainText(
    'Weather for the shop page: GET https://api.weather.example/v1/forecast?city=Riga is not an operation of this API',
  );
  const imported = page.getByRole('region', { name: 'Shop checkout (ticket 48213)', exact: true });
  for (const name of ['Payments / Sale 902B4FF5', 'Payments / Payout (HMAC-SHA1)', 'Status'])
    await expect(imported.getByRole('button', { name: `Open ${name}` })).toBeVisible();
  await expectAccessible(page, 'saved requests after an import');

  await imported.getByRole('button', { name: 'Open Payments / Payout (HMAC-SHA1)' }).click();
  await expect(page.getByLabel('client_orderid', { exact: true })).toHaveValue('p-77');
  await expect(page.getByRole('textbox', { name: 'oauth_nonce', exact: true })).toHaveValue(
    'kllo9940pd9333jh',
  );
  await expect(page.getByRole('textbox', { name: 'oauth_timestamp', exact: true })).toHaveValue('1767225600');
});
