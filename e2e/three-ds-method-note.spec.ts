import { expectAccessible } from './support/axe.ts';
import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

test.describe('a 3DS Method result recorded as N', () => {
  test.afterEach(async ({ page }) => {
    // The sandbox is shared by the specs: leave the demo merchant on the happy path.
    await page.request.put('/sandbox/scenarios/merchants/demo-merchant', { data: { choice: [] } });
  });

  for (const theme of ['light', 'dark'] as const)
    test(`the answer says the sandbox recorded N, and why (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
      // The Method "never completes within its window": the scenario stands for a late upload
      // (the 10-s window itself is covered on an injected clock in test/sandbox/flows.test.ts).
      const chosen = await page.request.put('/sandbox/scenarios/merchants/demo-merchant', {
        data: { choice: [{ name: 'three-ds-method-timeout' }] },
      });
      expect(chosen.ok()).toBe(true);
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '321');
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
      await page
        .getByRole('region', { name: 'Status polling' })
        .getByRole('button', { name: 'Next: Upload 3DS Method result' })
        .click();
      await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-method-url-result$/);
      await field(page, 'threeDSCompInd').selectOption('Y');
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      // The API's own answer is the gateway's acknowledgement; the why is the sandbox's, beside it.
      await expect(answer(page).getByRole('note', { name: 'Sandbox note' })).toHaveText(
        'Sandbox: threeDSCompInd recorded as N, not Y: scenario three-ds-method-timeout, the Method never completes within its 10-second window (api-description.md, Limits).',
      );
      await expectAccessible(page, `the Method answer with the sandbox's note (${theme})`);
    });
});
