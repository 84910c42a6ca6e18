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
    const relay = page.getByRole('table', { name: 'Relay deliveries' });
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
});
