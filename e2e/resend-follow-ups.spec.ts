import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { answer, answerFact, expect, field, fillTestData, openOperation, test } from './support/fixtures.ts';

/** Chooses the demo merchant's scenarios (the sandbox is shared: each test leaves it on the happy path). */
async function choose(page: Page, choice: Array<{ name: string; delayMs?: number }>): Promise<void> {
  const res = await page.request.put('/sandbox/scenarios/merchants/demo-merchant', { data: { choice } });
  expect(res.ok()).toBe(true);
}

const unknown = (page: Page) => page.getByRole('region', { name: 'Outcome unknown' });

test.describe('follow-ups after an identical resend', () => {
  test.afterEach(async ({ page }) => choose(page, []));

  for (const theme of ['light', 'dark'] as const)
    test(`go by the status the console had just read (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
      await choose(page, [{ name: 'processed-timeout', delayMs: 50 }]);
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      const clientOrderId = await field(page, 'client_orderid').inputValue();
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(unknown(page).getByText(/^The status check failed: /)).toBeVisible();

      await choose(page, []);
      await expect(async () => {
        await unknown(page).getByRole('button', { name: 'Check with status' }).click();
        await expect(unknown(page).getByText(/^The gateway says: approved/)).toBeVisible({ timeout: 2_000 });
      }).toPass();

      await unknown(page).getByRole('button', { name: 'Resend the identical request' }).click();
      await expect(answerFact(page, 'merchant-order-id')).toHaveText(clientOrderId);
      // The acknowledgement says "processing", but the console read "approved" just before.
      await expect(answer(page).getByRole('button', { name: 'Next: Return' })).toBeVisible();
      await expect(answer(page).getByText(/offered once the status is approved/)).toHaveCount(0);
      await expect(answer(page).getByRole('button', { name: 'Poll status until final' })).toHaveCount(0);
      await expectAccessible(page, `the answer of an identical resend (${theme})`);
    });
});
