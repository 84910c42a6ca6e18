import { answerFact, expect, fillTestData, openOperation, send, test } from './support/fixtures.ts';

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
    // The relay table lists the merchant's deliveries, other specs' too: rows of this order only.
    let orderId = '';
    const ofOrder = (rest: string) => relay.getByRole('row', { name: new RegExp(`${orderId}.*${rest}`) });
    await test.step('a sale is called back twice; the relay shows both deliveries and the answers', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      await send(page);
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(/^\d+$/);
      orderId = (await answerFact(page, 'paynet-order-id').textContent()) ?? '';
      await expect(received.locator('tbody tr')).toHaveCount(2);
      await expect(received.locator('tbody tr').first()).toContainText('✓ control valid');
      await expect(ofOrder('duplicate.*approved.*HTTP 200')).toHaveCount(1);
      await expect(ofOrder('delivered.*approved.*HTTP 200')).toHaveCount(1);
    });

    await test.step('replay one with a wrong control: the panel flags it', async () => {
      await page.getByLabel('Replay as').selectOption('bad-control');
      await relay
        .getByRole('button', { name: /^Replay \d+$/ })
        .first()
        .click();
      await expect(page.getByRole('status').filter({ hasText: 'Replayed delivery' })).toContainText(
        '(bad-control): HTTP',
      );
      await expect(received.locator('tbody tr')).toHaveCount(3);
      await expect(received.getByText('✗ control does not match')).toHaveCount(1);
      await expect(ofOrder('replay \\(bad-control\\)')).toHaveCount(1);
    });
  });
});
