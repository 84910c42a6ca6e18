import type { Page } from '@playwright/test';
import { answer, expect, test } from './support/fixtures.ts';
import { dumpStorage } from './support/storage.ts';

const PAN = '4444444444444448';
const MASKED_PAN = '444444******4448';
/** Another Luhn-valid card number, sent in a field the catalog does not know. */
const OTHER_PAN = '5555555555554444';

/** A CVV value stored next to its name, in any of the shapes a record could hold it. */
const CVV_WITH_VALUE = /cvv2?["'\s:=,]*(?:value["'\s:=,]*)?\d{3,4}(?!\d)/i;

function historyRow(page: Page, filter: { hasText: string }) {
  return page.getByRole('table', { name: 'Requests sent, newest first' }).getByRole('row').filter(filter);
}

async function waitForDemoProfile(page: Page) {
  await expect(page.getByLabel('Profile', { exact: true })).toHaveValue(/.+/);
  await expect(page.getByLabel('Login', { exact: true })).toHaveValue('demo-merchant');
  await expect(
    page.getByRole('status').filter({ hasText: /private key, 2048 bits, fingerprint/ }),
  ).toBeVisible();
}

async function sendApprovedSale(page: Page, extra?: { name: string; value: string }): Promise<string> {
  await page.goto('/ops/v2/sale');
  await waitForDemoProfile(page);
  await page.getByRole('button', { name: 'Fill with test data' }).click();
  if (extra) {
    await page.getByRole('button', { name: 'Add parameter' }).click();
    await page.getByLabel('Extra parameter 1 name').fill(extra.name);
    await page.getByLabel('Extra parameter 1 value').fill(extra.value);
  }
  await expect(page.getByLabel('credit_card_number', { exact: true })).toHaveValue(PAN);
  await expect(page.getByLabel('cvv2', { exact: true })).toHaveValue('123');
  const orderId = await page.getByLabel('client_orderid', { exact: true }).inputValue();
  expect(orderId).not.toBe('');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(answer(page)).toContainText('HTTP 200');
  return orderId;
}

test('history keeps a sent sale across reloads, reopens it without card data and stores no PAN or CVV', async ({
  page,
}) => {
  const orderId =
    await test.step('send an approved sale with the test card, and a card number in a free-text extra parameter', () =>
      sendApprovedSale(page, { name: 'merchant_note', value: `refund to ${OTHER_PAN}` }));

  await test.step('the history lists it with operation, client_orderid, status and target', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'History' }).click();
    await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
    const row = historyRow(page, { hasText: orderId });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('v2/sale');
    await expect(row).toContainText('async-response');
    await expect(row).toContainText('local');
  });

  await test.step('it survives a reload', async () => {
    await page.reload();
    await expect(historyRow(page, { hasText: orderId })).toHaveCount(1);
  });

  await test.step('the details show the card number masked and no CVV', async () => {
    const row = historyRow(page, { hasText: orderId });
    await row.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('article').filter({ hasText: 'v2/sale' });
    await expect(details.getByRole('table', { name: 'Body parameters as stored' })).toContainText(MASKED_PAN);
    await expect(details).not.toContainText(PAN);
    await expect(details.getByRole('table', { name: 'Body parameters as stored' })).not.toContainText('cvv2');
    await expect(details.getByRole('table', { name: 'Body parameters as stored' })).toContainText(
      'refund to 555555******4444',
    );
    await expect(details).toContainText(
      'Masked or dropped before storage: credit_card_number, cvv2, merchant_note',
    );
  });

  await test.step('search filters by client_orderid and by operation', async () => {
    const search = page.getByLabel('Search history');
    await search.fill(orderId);
    await expect(historyRow(page, { hasText: orderId })).toHaveCount(1);
    await search.fill('v4/payout-pay');
    await expect(historyRow(page, { hasText: orderId })).toHaveCount(0);
    await search.fill('');
  });

  await test.step('storage holds the masked card but never the full number or a CVV', async () => {
    const { text, stores } = await dumpStorage(page);
    expect(stores).toContain('pay-console-history/exchanges');
    expect(text).toContain(MASKED_PAN);
    expect(text).toContain(orderId);
    expect(text).not.toContain(PAN);
    expect(text).not.toContain(OTHER_PAN);
    expect(text).not.toMatch(CVV_WITH_VALUE);
    expect(text).not.toContain('cvv2=123');
  });

  await test.step('reopen puts the values back into the form with the card fields empty', async () => {
    await historyRow(page, { hasText: orderId }).getByRole('button', { name: 'Reopen' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/sale$/);
    await expect(page.getByLabel('client_orderid', { exact: true })).toHaveValue(orderId);
    await expect(page.getByLabel('amount', { exact: true })).not.toHaveValue('');
    await expect(page.getByLabel('credit_card_number', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('cvv2', { exact: true })).toHaveValue('');
    // The free-text extra that held a card number was sent: it comes back by name, empty, to fill in.
    await expect(page.getByLabel('Extra parameter 1 name')).toHaveValue('merchant_note');
    await expect(page.getByLabel('Extra parameter 1 value')).toHaveValue('');
    await expect(page.getByLabel('Extra parameter 2 name')).toHaveCount(0);
  });
});

test('history entries can be deleted one by one and cleared after confirmation', async ({ page }) => {
  const first = await test.step('send two sales', () => sendApprovedSale(page));
  const second = await sendApprovedSale(page);

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'History' }).click();
  await expect(historyRow(page, { hasText: first })).toHaveCount(1);
  await expect(historyRow(page, { hasText: second })).toHaveCount(1);

  await test.step('delete one', async () => {
    await historyRow(page, { hasText: first }).getByRole('button', { name: 'Delete' }).click();
    await expect(historyRow(page, { hasText: first })).toHaveCount(0);
    await expect(historyRow(page, { hasText: second })).toHaveCount(1);
  });

  await test.step('clear all asks first; cancelling keeps everything', async () => {
    await page.getByRole('button', { name: 'Clear all history' }).click();
    await page
      .getByRole('group', { name: 'Confirm clearing the history' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    await expect(historyRow(page, { hasText: second })).toHaveCount(1);
    await page.getByRole('button', { name: 'Clear all history' }).click();
    await page.getByRole('button', { name: 'Yes, clear all' }).click();
    await expect(page.getByText('Nothing sent yet.')).toBeVisible();
  });

  await test.step('cleared for good after a reload', async () => {
    await page.reload();
    await expect(page.getByText('Nothing sent yet.')).toBeVisible();
    const { text } = await dumpStorage(page);
    expect(text).not.toContain(second);
  });
});
