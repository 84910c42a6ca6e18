import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

function rows(page: Page) {
  return page.getByRole('table', { name: 'Requests sent, newest first' }).getByRole('row');
}

async function sendHostedSale(page: Page, amount: string): Promise<string> {
  await openOperation(page, 'v2/sale-form');
  await fillTestData(page);
  await field(page, 'amount').fill(amount);
  const orderId = await field(page, 'client_orderid').inputValue();
  await send(page);
  await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
  return orderId;
}

test('history: re-send an entry, copy it as curl, export it as HAR, compare two entries', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const first = await test.step('send two hosted-form sales with different amounts', async () => {
    const a = await sendHostedSale(page, '10.42');
    await sendHostedSale(page, '12.00');
    return a;
  });

  await test.step('compare the two side by side: the amount and order id differ', async () => {
    await page.goto('/history');
    await expect(rows(page)).toHaveCount(3);
    const boxes = page.getByRole('checkbox', { name: /^Compare v2\/sale-form sent / });
    await expect(boxes).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'Compare selected' })).toBeDisabled();
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole('button', { name: 'Compare selected' }).click();
    const cmp = page.getByRole('article', { name: 'Comparison' });
    await expect(cmp.getByRole('status')).toContainText(/fields differ/);
    await expect(cmp.getByRole('row', { name: /^body amount/ })).toContainText('12.00');
    await expect(cmp.getByRole('row', { name: /^body amount/ })).toContainText('10.42');
    await expect(cmp.getByRole('row', { name: /^body client_orderid/ })).toContainText(first);
    await expect(cmp.getByRole('row', { name: /^body currency/ })).toHaveCount(0);
    await cmp.getByLabel('Only differences').uncheck();
    await expect(cmp.getByRole('row', { name: /^body currency/ })).toBeVisible();
    await cmp.getByRole('button', { name: 'Close comparison' }).click();
  });

  const row = rows(page).filter({ hasText: first });
  await test.step('copy the older entry as curl', async () => {
    await row.getByRole('button', { name: 'Details' }).click();
    const details = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { level: 2, name: /v2\/sale-form/ }) });
    await details.getByRole('button', { name: 'Copy as curl' }).click();
    await expect(details.getByRole('button', { name: 'Copied as curl' })).toBeVisible();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toMatch(
      /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/sandbox\/paynet\/api\/v2\/sale-form\/\d+'/,
    );
    expect(curl).toContain(`client_orderid=${first}`);
    expect(curl).toMatch(/control=[0-9a-f]{40}/);
  });

  await test.step('export that one entry as HAR', async () => {
    const [d] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export as HAR' }).click(),
    ]);
    expect(d.suggestedFilename()).toMatch(/^pay-console-v2-sale-form-.*\.har$/);
    const har = JSON.parse(await readFile(await d.path(), 'utf8')) as {
      log: {
        entries: Array<{
          request: { url: string; postData: { text: string } };
          response: { status: number };
        }>;
      };
    };
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]!.request.postData.text).toContain(`client_orderid=${first}`);
    expect(har.log.entries[0]!.response.status).toBe(200);
  });

  await test.step('re-send it in one click: the workbench opens with its values and sends', async () => {
    await row.getByRole('button', { name: 'Re-send' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/sale-form$/);
    await expect(field(page, 'client_orderid')).toHaveValue(first);
    await expect(field(page, 'amount')).toHaveValue('10.42');
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await page.goto('/history');
    await expect(rows(page)).toHaveCount(4);
  });
});

test('history: re-sending a payout asks for its masked destination card instead of sending without it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const PAN = '4444444444444448';
  await test.step('send a v2/payout with test data (an optional destination card among them)', async () => {
    await openOperation(page, 'v2/payout');
    await fillTestData(page);
    await expect(field(page, 'destination-card-no')).toHaveValue(PAN);
    await send(page);
  });

  await test.step('Re-send: the form opens, says what to fill in, and sends nothing', async () => {
    await page.goto('/history');
    await expect(rows(page)).toHaveCount(2);
    await rows(page).nth(1).getByRole('button', { name: 'Re-send' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/payout$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Not sent: fill in' })).toContainText(
      'destination-card-no',
    );
    await expect(field(page, 'destination-card-no')).toHaveValue('');
    await expect(answer(page)).toHaveCount(0);
    await page.goto('/history');
    await expect(rows(page)).toHaveCount(2);
  });

  await test.step('Copy as curl: the stored request, or one signed again with a fresh nonce', async () => {
    await rows(page).nth(1).getByRole('button', { name: 'Details' }).click();
    const details = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { level: 2, name: /v2\/payout/ }) });
    await details.getByRole('button', { name: 'Copy as curl' }).click();
    await expect(details.getByRole('button', { name: 'Copied as curl' })).toBeVisible();
    const stored = await page.evaluate(() => navigator.clipboard.readText());
    await details.getByRole('button', { name: 'Copy re-signed curl' }).click();
    await expect(details.getByRole('button', { name: 'Copied re-signed curl' })).toBeVisible();
    await expect(details.getByRole('status').filter({ hasText: 'Fresh nonce' })).toContainText(
      'destination-card-no',
    );
    const again = await page.evaluate(() => navigator.clipboard.readText());
    const nonce = (curl: string) => /oauth_nonce="([^"]+)"/.exec(curl)?.[1];
    expect(nonce(stored)).toBeTruthy();
    expect(nonce(again)).toBeTruthy();
    expect(nonce(again)).not.toBe(nonce(stored));
    expect(again).toContain('destination-card-no=FILL-IN-destination-card-no');
    expect(again).not.toContain(PAN);
    expect(stored).not.toContain(PAN);
  });

  await test.step('filled in, the re-send goes out with it', async () => {
    await page.goBack();
    await field(page, 'destination-card-no').fill(PAN);
    await send(page);
    await page.goto('/history');
    await expect(rows(page)).toHaveCount(3);
  });
});
