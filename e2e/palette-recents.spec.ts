import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const recents = (page: Page) =>
  palette(page)
    .getByRole('option')
    .filter({ hasText: /^\s*Recent/ });

for (const theme of ['light', 'dark'] as const)
  test(`the palette's recents are what the user sent, never a poll's own checks (${theme})`, async ({
    page,
  }) => {
    await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    await openOperation(page, 'v2/sale');
    await fillTestData(page);
    const clientOrderId = await field(page, 'client_orderid').inputValue();
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
    await expect(
      page.getByRole('region', { name: 'Status polling' }).getByText(/^Final status after/),
    ).toBeVisible();

    // History keeps every check the poll sent (it is the record of what went out)…
    await page.goto('/history');
    const rows = page.getByRole('table', { name: 'Requests sent, newest first' }).getByRole('row');
    await expect(
      rows.filter({ hasText: 'v2/status' }).filter({ hasText: clientOrderId }).first(),
    ).toBeVisible();

    // …but the recents are the user's own: the sale, not the status checks the console sent.
    await page.keyboard.press('Control+k');
    await expect(recents(page).first()).toContainText(`v2/sale ${clientOrderId}`);
    await expect(recents(page).filter({ hasText: 'v2/status' })).toHaveCount(0);
    await expectAccessible(page, `the palette's recents (${theme})`);
  });
