import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { answer, expect, fillTestData, openOperation, send, test } from './support/fixtures.ts';

/** Issue 30 §3: at a phone's width, wide tables scroll inside their own box, never the page. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
  }));
  expect(widths.scroll, `${what}: the page is wider than the window`).toBeLessThanOrEqual(widths.inner);
}

for (const theme of ['light', 'dark'] as const) {
  test(`History, Saved and Scenarios fit 390 px wide (${theme} theme)`, async ({ page }) => {
    test.slow();
    await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    await test.step('send a sale (History, a relay delivery) and save it (Saved)', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '116');
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      await page.getByRole('button', { name: 'Save request' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save request' });
      await dialog.getByLabel('Request name').fill('A sale with a long name to fill the row');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog).toBeHidden();
    });
    await page.setViewportSize({ width: 390, height: 844 });

    await test.step('History', async () => {
      await page.goto('/history');
      await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
      await expect(page.getByRole('checkbox', { name: /^Compare / }).first()).toBeAttached();
      await expectNoSidewaysScroll(page, 'History');
      await expectAccessible(page, `history at 390 px (${theme})`);
    });

    await test.step('Saved', async () => {
      await page.goto('/saved');
      await expect(page.getByRole('button', { name: /^Open A sale with a long name/ })).toBeAttached();
      await expectNoSidewaysScroll(page, 'Saved');
      await expectAccessible(page, `saved requests at 390 px (${theme})`);
    });

    await test.step('Scenarios, with a relay delivery and a handler check report', async () => {
      await page.goto('/scenarios');
      await expect(page.getByRole('heading', { level: 1, name: 'Scenario lab' })).toBeVisible();
      await expect(page.getByRole('checkbox', { name: /Duplicated callback/ })).toBeAttached();
      await expect(
        page
          .getByRole('table', { name: 'Relay deliveries' })
          .getByRole('row', { name: /declined/ })
          .first(),
      ).toBeAttached();
      await page.getByLabel('Handler URL').fill(`${new URL(page.url()).origin}/proxy/no-such-handler`);
      await page.getByRole('button', { name: 'Run the checks' }).click();
      await expect(page.getByRole('table', { name: 'Handler checks' })).toBeAttached();
      await expectNoSidewaysScroll(page, 'Scenarios');
      await expectAccessible(page, `the scenario lab at 390 px (${theme})`);
    });
  });
}
