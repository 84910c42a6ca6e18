import type { Page } from '@playwright/test';
import { expect, fillTestData, openOperation, test } from './support/fixtures.ts';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const combo = (page: Page) =>
  palette(page).getByRole('combobox', { name: 'Go to a page, an operation or a request' });

test('command palette: Ctrl+K jumps to operations, pages and saved requests by keyboard; ? lists the shortcuts', async ({
  page,
}) => {
  await openOperation(page, 'v2/sale');

  await test.step('Ctrl+K opens a combobox that owns a listbox; typing filters fuzzily', async () => {
    await page.keyboard.press('Control+k');
    await expect(palette(page)).toBeVisible();
    await expect(combo(page)).toBeFocused();
    await expect(combo(page)).toHaveAttribute('aria-expanded', 'true');
    const listId = await combo(page).getAttribute('aria-controls');
    const list = palette(page).getByRole('listbox', { name: 'Results' });
    await expect(list).toHaveAttribute('id', listId!);
    await combo(page).fill('payout chk');
    const first = list.getByRole('option').first();
    await expect(first).toContainText('v4/payout-check');
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(combo(page)).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  });

  await test.step('arrows move the active option, Enter goes there', async () => {
    await combo(page).fill('sale');
    const options = palette(page).getByRole('option');
    await expect(options.nth(1)).toBeVisible();
    await combo(page).press('ArrowDown');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(combo(page)).toHaveAttribute(
      'aria-activedescendant',
      (await options.nth(1).getAttribute('id'))!,
    );
    await combo(page).press('ArrowUp');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
    await combo(page).fill('histry');
    await expect(options.first()).toContainText('History');
    await combo(page).press('Enter');
    await expect(palette(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/history$/);
    await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
    // Focus lands on the new page's heading, not on <body>.
    await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeFocused();
  });

  await test.step('closing without moving gives focus back to what opened the palette', async () => {
    const button = page.getByRole('button', { name: /^Commands/ });
    await button.click();
    await expect(combo(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(palette(page)).toHaveCount(0);
    await expect(button).toBeFocused();
  });

  await test.step('Meta+K works too, and Escape closes without moving', async () => {
    await page.keyboard.press('Meta+k');
    await expect(combo(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(palette(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/history$/);
  });

  await test.step('a saved request is found by its name and opens in the workbench', async () => {
    await openOperation(page, 'v2/sale-form');
    await fillTestData(page);
    await page.getByRole('button', { name: 'Save request' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save request' });
    await dialog.getByLabel('Request name').fill('Projector demo');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.goto('/keys');
    await page.getByRole('button', { name: 'Commands' }).click();
    await combo(page).fill('projector demo');
    const option = palette(page).getByRole('option').first();
    await expect(option).toContainText('Saved');
    await expect(option).toContainText('Projector demo');
    await combo(page).press('Enter');
    await expect(page).toHaveURL(/\/ops\/v2\/sale-form$/);
    await expect(page.getByLabel('client_orderid', { exact: true })).toHaveValue(/^inv-/);
  });

  await test.step('? opens the list of shortcuts (not while typing in a field)', async () => {
    await page.getByLabel('client_orderid', { exact: true }).press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(shortcuts.getByRole('row', { name: /Ctrl\+K/ })).toContainText('command palette');
    await expect(shortcuts.getByRole('row', { name: /Ctrl\+Enter/ })).toContainText('Send');
    await page.keyboard.press('Escape');
    await expect(shortcuts).toHaveCount(0);
  });
});

test('command palette: recent and saved requests first on an empty query; Send, Copy curl, Poll status and Toggle theme do what they say', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  const orderId = await page.getByLabel('client_orderid', { exact: true }).inputValue();
  const run = async (name: string) => {
    await page.keyboard.press('Control+k');
    await combo(page).fill(name);
    await expect(palette(page).getByRole('option').first()).toContainText(name);
    await combo(page).press('Enter');
    await expect(palette(page)).toHaveCount(0);
  };

  await test.step('Send sends the form (its checks apply)', async () => {
    await run('Send');
    await expect(page.getByRole('region', { name: 'Answer' }).getByText(/^HTTP 200\b/)).toBeVisible();
  });

  await test.step('on an empty query the recent request comes first, actions before pages', async () => {
    await page.keyboard.press('Control+k');
    const options = palette(page).getByRole('option');
    await expect(options.first()).toContainText('Recent');
    await expect(options.first()).toContainText(`v2/sale ${orderId}`);
    const kinds = (await options.allInnerTexts()).map((t) => t.trim().split(/\s/)[0]);
    expect(kinds.indexOf('Action')).toBeGreaterThan(kinds.lastIndexOf('Recent'));
    expect(kinds.indexOf('Page')).toBeGreaterThan(kinds.lastIndexOf('Action'));
    await page.keyboard.press('Escape');
  });

  await test.step('Copy curl puts the curl command on the clipboard', async () => {
    await run('Copy curl');
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toMatch(/^curl .*\/api\/v2\/sale\//s);
  });

  await test.step('Poll status polls the order just answered', async () => {
    await run('Poll status');
    await expect(page.getByRole('region', { name: 'Status polling' })).toBeVisible();
  });

  await test.step('Toggle theme switches the theme, and the picker follows', async () => {
    const before = await page.evaluate(() =>
      matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
    );
    const after = before === 'dark' ? 'light' : 'dark';
    await run('Toggle theme');
    await expect(page.locator('html')).toHaveAttribute('data-theme', after);
    await expect(page.getByLabel('Theme')).toHaveValue(after);
  });

  await test.step('no Send or Copy curl where the page has no request', async () => {
    await page.goto('/history');
    // The page's heading shows once the shell has mounted, and with it the Ctrl+K listener:
    // a key pressed while the scripts still load reaches no one, on a busy machine most of all.
    await expect(page.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();
    await page.keyboard.press('Control+k');
    await combo(page).fill('Copy curl');
    await expect(
      palette(page)
        .getByRole('option')
        .filter({ hasText: /^\s*Action\s*Copy curl/ }),
    ).toHaveCount(0);
    await page.keyboard.press('Escape');
  });
});
