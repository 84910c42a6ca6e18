import { expectAccessible } from './support/axe.ts';
import { expect, openOperation, test } from './support/fixtures.ts';

test.use({ viewport: { width: 1024, height: 768 } });

for (const theme of ['light', 'dark'] as const) {
  test(`at 1024×768 (${theme}) the signing pane stays beside the form and the profile bar is one line`, async ({
    page,
  }) => {
    await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    await openOperation(page, 'v2/sale');
    const form = page.getByRole('form', { name: 'Sale parameters' });
    const pane = page.getByRole('region', { name: /^Signing input/ });
    const f = (await form.boundingBox())!;
    const p = (await pane.boundingBox())!;
    expect(p.x, 'the signing pane is right of the form').toBeGreaterThanOrEqual(f.x + f.width - 1);
    expect(p.y, 'and starts beside it, not under it').toBeLessThan(f.y + 200);
    expect(p.x + p.width, 'inside the window').toBeLessThanOrEqual(1024);
    expect(f.width, 'the form keeps a usable width').toBeGreaterThanOrEqual(300);

    const bar = page.getByRole('region', { name: 'Merchant credentials' });
    const b = (await bar.boundingBox())!;
    expect(b.height, 'the profile bar is one line').toBeLessThanOrEqual(48);
    await expect(bar).toContainText('demo-merchant');
    const top = (await page.getByRole('banner').boundingBox())!;
    expect(top.height, 'the top bar is one line').toBeLessThanOrEqual(48);

    await bar.getByRole('button', { name: 'Show credentials' }).click();
    await expect(bar.getByLabel('Login', { exact: true })).toBeVisible();
    await bar.getByRole('button', { name: 'Hide credentials' }).click();
    await expect(bar.getByLabel('Login', { exact: true })).toBeHidden();

    await expectAccessible(page, `the workbench at 1024×768 (${theme})`);
  });
}
