import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

const poller = (page: Page) => page.getByRole('region', { name: 'Status polling' });

/** Sends a sale with the CVV's outcome and polls it; returns its client_orderid. */
async function sale(page: Page, cvv: string, until: 'method' | 'final'): Promise<string> {
  await openOperation(page, 'v2/sale');
  await fillTestData(page, cvv);
  const clientOrderId = await field(page, 'client_orderid').inputValue();
  await send(page);
  await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
  await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
  if (until === 'final') {
    await expect(poller(page).getByText(/^Final status after/)).toBeVisible();
  } else {
    await expect(poller(page).getByRole('button', { name: 'Next: Upload 3DS Method result' })).toBeVisible();
    await poller(page).getByRole('button', { name: 'Stop polling' }).click();
    await expect(poller(page).getByText('Polling stopped.')).toBeVisible();
  }
  return clientOrderId;
}

for (const theme of ['light', 'dark'] as const)
  test(`the 3DS upload's ids picker lists only the orders waiting for it, newest first (${theme})`, async ({
    page,
  }) => {
    await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    const older = await sale(page, '321', 'method');
    const final = await sale(page, '123', 'final');
    const newer = await sale(page, '321', 'method');

    await openOperation(page, '3ds/v1/upload-method-url-result');
    const picker = page.getByLabel('Ids from this session’s answers');
    await expect(picker.locator('option').first()).toHaveText('Pick an earlier order (2)…');
    const orders = picker.locator('option:not([value=""])');
    await expect(orders).toHaveCount(2);
    await expect(orders.nth(0)).toContainText(newer);
    await expect(orders.nth(1)).toContainText(older);
    await expect(picker.locator('option').filter({ hasText: final })).toHaveCount(0);
    await expectAccessible(page, `the 3DS upload's ids picker (${theme})`);
  });
