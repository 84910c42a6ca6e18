import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

test.describe('the workbench form at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('a field focused with Tab is never hidden behind the sticky Send bar', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    const form = page.getByRole('form', { name: 'Sale parameters' });
    await field(page, 'client_orderid').focus();
    let checked = 0;
    for (let i = 0; i < 60; i++) {
      const where = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const bar = document.querySelector('.wb-send-bar');
        if (!el || !bar || !el.closest('form') || bar.contains(el)) return null;
        const r = el.getBoundingClientRect();
        const b = bar.getBoundingClientRect();
        return { name: el.id, bottom: r.bottom, top: r.top, barTop: b.top };
      });
      if (where) {
        checked++;
        expect(where.top, `${where.name} is below the top of the window`).toBeGreaterThanOrEqual(0);
        expect(where.bottom, `${where.name} is above the Send bar`).toBeLessThanOrEqual(where.barTop);
      }
      await page.keyboard.press('Tab');
      if (!(await form.evaluate((f) => f.contains(document.activeElement)))) break;
    }
    expect(checked, 'fields visited').toBeGreaterThan(10);
  });

  test('a failed Send raises one summary alert, marks the failing inputs, and an answer is announced', async ({
    page,
  }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page);
    await field(page, 'amount').fill('ten');
    await field(page, 'email').fill('not an e-mail');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // Monaco keeps two empty live regions of its own outside the page's main landmark.
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toHaveCount(1);
    await expect(alert).toContainText('2 parameters need attention: email, amount');
    await expect(field(page, 'amount')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'email')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'client_orderid')).not.toHaveAttribute('aria-invalid', 'true');
    // The first failing field has the focus, in view and clear of the Send bar.
    await expect(field(page, 'email')).toBeFocused();
    const [box, bar] = await Promise.all([
      field(page, 'email').boundingBox(),
      page.locator('.wb-send-bar').boundingBox(),
    ]);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(bar!.y);

    await field(page, 'amount').fill('10.42');
    await field(page, 'email').fill('john.smith@example.com');
    await expect(field(page, 'amount')).not.toHaveAttribute('aria-invalid', 'true');
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    const live = page.locator('[aria-live="polite"]').filter({ hasText: /^Answer: HTTP 200/ });
    await expect(live).toHaveCount(1);
  });
});
