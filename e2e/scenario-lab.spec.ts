import { expectAccessible } from './support/axe.ts';
import { expect, fillTestData, openOperation, send, test } from './support/fixtures.ts';

test.describe('the scenario lab', () => {
  test.afterEach(async ({ page }) => {
    // The sandbox is shared by the specs: leave the demo merchant on the happy path.
    await page.request.put('/sandbox/scenarios/merchants/demo-merchant', { data: { choice: [] } });
  });

  test('choose a duplicated callback, watch it in the callbacks panel, replay it with a bad control', async ({
    page,
  }) => {
    await test.step('choose the scenario in the console', async () => {
      await page.goto('/scenarios');
      await expect(page.getByRole('heading', { name: 'Scenario lab' })).toBeVisible();
      await page.getByRole('checkbox', { name: /Duplicated callback/ }).check();
      await page.getByRole('button', { name: 'Apply scenarios' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Chosen for' })).toHaveText(
        'Chosen for demo-merchant: callback-duplicate.',
      );
    });

    const received = page.getByRole('table', { name: 'Callbacks received' });
    // The panel lists the deliveries of the order just sent, wherever they went.
    const relay = page.getByRole('table', { name: /^Deliveries of order \d+$/ });
    // The relay lists every delivery of the demo merchant (the sandbox is shared by the specs):
    // this test looks only at its own sale's, by its orderid.
    let orderId = '';
    const ours = () => relay.getByRole('row').filter({ hasText: orderId });
    await test.step('a sale is called back twice; the relay shows both deliveries and the answers', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      await send(page);
      await expect(received.locator('tbody tr')).toHaveCount(2);
      await expect(received.locator('tbody tr').first()).toContainText('✓ control valid');
      orderId = (await received.locator('tbody tr').first().locator('td').nth(2).innerText()).trim();
      expect(orderId).toMatch(/^\d+$/);
      await expect(ours().filter({ hasText: /duplicate.*approved.*HTTP 200/ })).toHaveCount(1);
      await expect(ours().filter({ hasText: /delivered.*approved.*HTTP 200/ })).toHaveCount(1);
    });

    await test.step('replay one with a wrong control: the panel flags it', async () => {
      await page.getByLabel('Replay as').selectOption('bad-control');
      await ours()
        .getByRole('button', { name: /^Replay \d+$/ })
        .first()
        .click();
      await expect(page.getByRole('status').filter({ hasText: 'Replayed delivery' })).toContainText(
        '(bad-control): HTTP',
      );
      await expect(received.locator('tbody tr')).toHaveCount(3);
      await expect(received.getByText('✗ control does not match')).toHaveCount(1);
      await expect(ours().filter({ hasText: /replay \(bad-control\)/ })).toHaveCount(1);
    });
  });

  for (const theme of ['light', 'dark'] as const)
    test(`a scenario that takes a delay gets a delay-ms field (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
      await page.goto('/scenarios');
      const item = page.locator('.sc-item').filter({ hasText: 'Added latency' });
      const delay = item.getByRole('textbox', { name: 'delay-ms for latency' });
      await test.step('a scenario without a delay has no field', async () => {
        await expect(
          page.locator('.sc-item').filter({ hasText: 'Duplicated callback' }).getByRole('textbox'),
        ).toHaveCount(0);
      });
      await test.step('a value that is not a number of milliseconds is named, and not applied', async () => {
        await item.getByRole('checkbox').check();
        await delay.fill('2,5');
        await expect(item).toContainText('delay-ms is a whole number of milliseconds.');
        await expect(page.getByRole('button', { name: 'Apply scenarios' })).toBeDisabled();
        await expectAccessible(page, `a wrong delay-ms (${theme})`);
      });
      await test.step('250 ms is applied, as the header would choose it', async () => {
        await delay.fill('250');
        await page.getByRole('button', { name: 'Apply scenarios' }).click();
        await expect(page.getByRole('status').filter({ hasText: 'Chosen for' })).toHaveText(
          'Chosen for demo-merchant: latency;delay-ms=250.',
        );
        const state = (await (await page.request.get('/sandbox/scenarios')).json()) as {
          merchants: Array<{ login: string; choice: Array<{ name: string; delayMs?: number }> }>;
        };
        expect(state.merchants.find((m) => m.login === 'demo-merchant')?.choice).toEqual([
          { name: 'latency', delayMs: 250 },
        ]);
      });
      await test.step('the page shows the chosen delay when opened again', async () => {
        await page.reload();
        await expect(delay).toHaveValue('250');
        await expectAccessible(page, `the scenario lab with a delay (${theme})`);
      });
    });

  for (const theme of ['light', 'dark'] as const)
    test(`scenario descriptions show names as code, not backticks (${theme})`, async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
      await page.goto('/scenarios');
      const item = page.locator('.sc-item').filter({ hasText: 'Processed but timed out' });
      await item.getByText('What it does, what a correct merchant does').click();
      const details = item.locator('details');
      await expect(details.locator('code', { hasText: 'client_orderid' }).first()).toBeVisible();
      await expect(details).not.toContainText('`');
      await expectAccessible(page, `scenario descriptions (${theme})`);
    });

  test('a recurring payment is charged on its schedule when the test clock moves a month', async ({
    page,
  }) => {
    const schedules = page.getByRole('table', { name: 'Recurring schedules' });
    let id = '';
    const ours = () =>
      schedules.getByRole('row').filter({ has: page.getByRole('cell', { name: id, exact: true }) });
    await test.step('create a monthly subscription with the guided flow', async () => {
      await page.goto('/flows');
      await page
        .getByRole('main')
        .getByRole('link', { name: 'Create recurring payment', exact: true })
        .click();
      await page.getByRole('button', { name: 'Run all' }).click();
      await expect(page.getByRole('status', { name: 'Flow progress' })).toHaveText(
        'Flow complete: all 2 steps succeeded.',
        { timeout: 45_000 },
      );
    });
    await test.step('the lab lists it: next charge in a month, none made yet', async () => {
      await page.goto('/scenarios');
      // The newest schedule first (the flows spec may have made others for the shared merchant).
      const first = schedules.locator('tbody tr').first();
      await expect(first).toBeVisible();
      id = (await first.locator('td').first().innerText()).trim();
      expect(id).toMatch(/^\d+$/);
      await expect(ours()).toContainText('9.99 USD');
      await expect(ours()).toContainText('1 month');
      await expect(ours().locator('td').nth(4)).toHaveText('0');
    });
    await test.step('advance 31 days: one charge made, approved', async () => {
      await page.getByRole('button', { name: 'Advance +31 days' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Advanced +31 days' })).toBeVisible({
        timeout: 30_000,
      });
      // The total ahead reads in days, not "8035200 s".
      await expect(page.getByRole('status').filter({ hasText: 'Advanced +31 days' })).toHaveText(
        /^Advanced \+31 days: \d+ step\(s\); \d+ days?( \d+ h)? ahead in all\.$/,
      );
      // The relay's record names where each delivery went.
      await expect(
        page.getByRole('table', { name: 'Relay deliveries' }).getByRole('columnheader', { name: 'Sent to' }),
      ).toBeVisible();
      await expect(ours().locator('td').nth(4)).toHaveText('1');
      await expect(ours().locator('td').nth(5)).toContainText('approved');
      await expectAccessible(page, 'the scenario lab with a recurring schedule');
    });
  });
});
