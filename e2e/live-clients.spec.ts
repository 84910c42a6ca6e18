import { expectAccessible } from './support/axe.ts';
import { answerFact, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

// Issue 28: the operations the vendor's own clients call get a form from the catalog, named by
// their source; the relay and the Scenarios page say where each callback went and when the next
// attempt falls.
test.describe('what the vendor’s live clients rely on', () => {
  test('bank-wire-transfer: a form from the catalog, marked by its source, sent to the sandbox', async ({
    page,
  }) => {
    await openOperation(page, 'v2/bank-wire-transfer');
    await expect(page.getByText("From the vendor's own client code")).toBeVisible();
    await fillTestData(page);
    await expect(field(page, 'recipient-bank-bic')).toHaveValue('NWBKGB2L');
    await send(page);
    await expect(answerFact(page, 'type')).toHaveText('async-response');
    await expectAccessible(page, 'a vendor-client operation’s form and answer');
  });

  test('a sale with notify_url: the relay says which URL heard it and why', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    const inbox = await field(page, 'server_callback_url').inputValue();
    await page.getByText(/^Optional parameters \(\d+\)$/).click();
    await field(page, 'notify_url').fill(inbox);
    await send(page);
    const orderId = (await answerFact(page, 'paynet-order-id').innerText()).trim();
    await page.goto('/scenarios');
    const relay = page.getByRole('table', { name: 'Relay deliveries' });
    const ours = relay.getByRole('row').filter({ hasText: orderId });
    await expect(ours.filter({ hasText: /server_callback_url.*initial transaction \(sale\)/ })).toHaveCount(
      1,
    );
    await expect(page.getByRole('heading', { name: 'Callbacks waiting' })).toBeVisible();
    await expectAccessible(page, 'the Scenarios page with a routed delivery');
  });
});
