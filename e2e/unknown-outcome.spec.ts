import { expectAccessible } from './support/axe.ts';
import { answer, answerFact, expect, field, fillTestData, openOperation, test } from './support/fixtures.ts';
import type { Page } from '@playwright/test';

/** Chooses the demo merchant's scenarios (the sandbox is shared: each test leaves it on the happy path). */
async function choose(page: Page, choice: Array<{ name: string; delayMs?: number }>): Promise<void> {
  const res = await page.request.put('/sandbox/scenarios/merchants/demo-merchant', { data: { choice } });
  expect(res.ok()).toBe(true);
}

const unknown = (page: Page) => page.getByRole('region', { name: 'Outcome unknown' });
const historyRow = (page: Page, clientOrderId: string) =>
  page
    .getByRole('table', { name: 'Requests sent, newest first' })
    .getByRole('row')
    .filter({ hasText: 'v2/sale' })
    .filter({ hasText: clientOrderId });

test.describe('an unknown outcome is never "not sent"', () => {
  test.afterEach(async ({ page }) => choose(page, []));

  test('processed-timeout: outcome unknown, checked by client_orderid, resolved in history, identical resend', async ({
    page,
  }) => {
    await choose(page, [{ name: 'processed-timeout', delayMs: 50 }]);
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    const clientOrderId = await field(page, 'client_orderid').inputValue();
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    await test.step('the answer area says the outcome is unknown and what a merchant does', async () => {
      await expect(unknown(page)).toBeVisible();
      await expect(unknown(page)).toContainText('The connection closed after the request was sent');
      await expect(unknown(page)).toContainText('What a correct merchant does');
      await expect(unknown(page)).toContainText(
        'Status may be queried by either; orderid is preferred, client_orderid is used when orderid is unavailable.',
      );
      await expect(unknown(page).getByRole('button', { name: 'Check with status' })).toBeVisible();
      await expect(unknown(page).getByRole('button', { name: 'Resend the identical request' })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
    });

    await test.step('the console checked status once by itself (the scenario resets that one too)', async () => {
      await expect(unknown(page).getByText(/^The status check failed: /)).toBeVisible();
      await expectAccessible(page, 'the workbench with an unknown outcome');
    });

    const history = await page.context().newPage();
    await test.step('History lists the sale as "outcome unknown", not "not sent"', async () => {
      await history.goto('/history');
      await expect(historyRow(history, clientOrderId)).toContainText('outcome unknown');
      await expect(historyRow(history, clientOrderId)).not.toContainText('not sent');
    });

    let orderId = '';
    await test.step('the bad day passes: Check with status finds the order by client_orderid', async () => {
      await choose(page, []);
      await expect(async () => {
        await unknown(page).getByRole('button', { name: 'Check with status' }).click();
        await expect(
          unknown(page).getByText(/^The gateway says: approved \(status by client_orderid /),
        ).toBeVisible({
          timeout: 2_000,
        });
      }).toPass();
      orderId = (
        await unknown(page)
          .getByRole('group', { name: 'paynet-order-id', exact: true })
          .getByRole('definition')
          .innerText()
      ).trim();
      expect(orderId).toMatch(/^\d+$/);
    });

    await test.step('History now shows what the gateway says', async () => {
      await history.reload();
      await expect(historyRow(history, clientOrderId).first()).toContainText('approved');
      await expect(historyRow(history, clientOrderId).first()).toContainText('after an unknown outcome');
      await expectAccessible(history, 'history with a resolved unknown outcome');
      await history.close();
    });

    await test.step('Resend the identical request: the original acknowledgement, same order', async () => {
      await unknown(page).getByRole('button', { name: 'Resend the identical request' }).click();
      await expect(answer(page)).toBeVisible();
      await expect(unknown(page)).toHaveCount(0);
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(orderId);
      await expect(answerFact(page, 'merchant-order-id')).toHaveText(clientOrderId);
    });
  });

  test('server-error-after-commit: the 500 is shown with the unknown outcome and its status check', async ({
    page,
  }) => {
    await page.addInitScript(() => localStorage.setItem('pay-console.theme', 'dark'));
    await choose(page, [{ name: 'server-error-after-commit' }]);
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(answer(page)).toContainText('HTTP 500');
    await expect(unknown(page)).toContainText('The gateway answered HTTP 500');
    await expect(unknown(page).getByText(/^The status check answered HTTP 500/)).toBeVisible();
    await choose(page, []);
    await expect(async () => {
      await unknown(page).getByRole('button', { name: 'Check with status' }).click();
      await expect(unknown(page).getByText(/^The gateway says: approved/)).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await expectAccessible(page, 'an unknown outcome after a 500, dark theme');
  });
});
