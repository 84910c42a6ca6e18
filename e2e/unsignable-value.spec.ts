import { expectAccessible } from './support/axe.ts';
import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

for (const theme of ['light', 'dark'] as const)
  test(`an amount that cannot be signed is not offered "Send anyway"; its refusal goes once fixed (${theme})`, async ({
    page,
  }) => {
    await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    await openOperation(page, 'v2/sale');
    await fillTestData(page);
    const summary = page.locator('.wb-invalid[role="alert"]');
    await test.step('amount "10,5": named, and no Send anyway', async () => {
      await field(page, 'amount').fill('10,5');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(summary).toContainText('1 parameter needs attention: amount.');
      await expect(summary).toContainText('amount cannot be signed as it stands: fix it to send.');
      await expect(page.getByRole('button', { name: 'Send anyway' })).toHaveCount(0);
      await expectAccessible(page, `an unsignable amount (${theme})`);
    });
    await test.step('fixed, it is sent: nothing of the refusal stays', async () => {
      await field(page, 'amount').fill('10.50');
      await expect(summary).toHaveCount(0);
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toHaveCount(0);
    });
  });

test('a refusal of a request that was not sent goes once the field is fixed', async ({ page }) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  const refusal = page.getByRole('alert').filter({ hasText: /^Not sent: / });
  await test.step('an unresolved variable: the request is refused before it leaves', async () => {
    await field(page, 'amount').fill('{{no_such_amount}}');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(refusal).toBeVisible();
  });
  await test.step('the field is fixed: the refusal of the request as it was goes', async () => {
    await field(page, 'amount').fill('10.50');
    await expect(refusal).toHaveCount(0);
  });
});
