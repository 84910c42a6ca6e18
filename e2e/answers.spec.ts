import type { Page } from '@playwright/test';
import {
  answer,
  answerFact,
  expect,
  field,
  fillTestData,
  openOperation,
  pollUntilFinal,
  send,
  test,
} from './support/fixtures.ts';

const poller = (page: Page) => page.getByRole('region', { name: 'Status polling' });
const statusFact = (page: Page, key: string) =>
  poller(page)
    .getByRole('group', { name: 'Last status answer' })
    .getByRole('group', { name: `last status: ${key}`, exact: true })
    .getByRole('definition');

test.describe('the whole answer', () => {
  test('status "Fill with test data" takes the ids of this session’s sale, and the sandbox approves', async ({
    page,
  }) => {
    let clientId = '';
    let orderId = '';
    await test.step('an approved sale', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      clientId = await field(page, 'client_orderid').inputValue();
      await send(page);
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(/^\d+$/);
      orderId = (await answerFact(page, 'paynet-order-id').textContent()) ?? '';
      await pollUntilFinal(page, 'approved');
    });
    await test.step('status: the sale’s ids are in the form, and in the picker', async () => {
      await openOperation(page, 'v2/status');
      await fillTestData(page);
      await expect(field(page, 'client_orderid')).toHaveValue(clientId);
      await expect(field(page, 'orderid')).toHaveValue(orderId);
      const picker = page.getByLabel('Ids from this session’s answers');
      await expect(picker.getByRole('option', { name: new RegExp(`order ${orderId}`) })).toHaveText(
        new RegExp(`^Sale · order ${orderId} · ${clientId} · \\d+\\.\\d{2} [A-Z]{3} · approved · `),
      );
      await send(page);
      await expect(answer(page).getByRole('status', { name: 'Status: approved' })).toBeVisible();
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(orderId);
    });
    await test.step('a final status offers no polling', async () => {
      await expect(answer(page).getByRole('button', { name: 'Poll status until final' })).toHaveCount(0);
    });
    await test.step('the picker fills the ids by keyboard', async () => {
      await field(page, 'orderid').fill('');
      await page.getByLabel('Ids from this session’s answers').focus();
      await page.keyboard.press('ArrowDown');
      await expect(field(page, 'orderid')).toHaveValue(orderId);
    });
  });

  test('a declined sale shows its decline in the poll panel and offers no return', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '116');
    await send(page);
    await pollUntilFinal(page, 'declined');
    await expect(statusFact(page, 'status')).toHaveText('declined');
    await expect(statusFact(page, 'error-message')).toHaveText(/insufficient funds/i);
    await expect(statusFact(page, 'error-code')).toHaveText(/.+/);
    const followUps = answer(page).getByRole('group', { name: 'Follow-ups' });
    await expect(followUps.getByRole('button', { name: 'Next: Status' })).toBeVisible();
    await expect(followUps.getByRole('button', { name: /^Next: Return/ })).toHaveCount(0);
    await expect(followUps.getByRole('button', { name: 'Poll status until final' })).toHaveCount(0);
    await expect(followUps).toContainText('No Return, Create card reference: the order was declined.');
  });

  test('an approved preauth offers capture (not before), and the poll panel shows the whole status', async ({
    page,
  }) => {
    await openOperation(page, 'v2/preauth');
    await fillTestData(page, '123');
    await send(page);
    const followUps = answer(page).getByRole('group', { name: 'Follow-ups' });
    await expect(followUps.getByRole('button', { name: 'Next: Capture' })).toHaveCount(0);
    await expect(followUps).toContainText('offered once the status is approved');
    await pollUntilFinal(page, 'approved');
    await expect(followUps.getByRole('button', { name: 'Next: Capture' })).toBeVisible();
    await expect(followUps.getByRole('button', { name: 'Next: Void' })).toBeVisible();
    await expect(statusFact(page, 'transaction-type')).toHaveText(/preauth/);
    await expect(statusFact(page, 'approval-code')).toHaveText(/.+/);
    await expect(statusFact(page, 'processor-rrn')).toHaveText(/.+/);
  });

  test('editing a field marks the answer as belonging to the previous request', async ({ page }) => {
    await openOperation(page, 'v2/status');
    await field(page, 'client_orderid').fill('inv-no-such-order');
    await send(page);
    const note = answer(page).getByRole('note').filter({ hasText: 'belongs to the previous request' });
    await expect(note).toHaveCount(0);
    await field(page, 'client_orderid').fill('inv-another-order');
    await expect(note).toBeVisible();
    await field(page, 'client_orderid').fill('inv-no-such-order');
    await expect(note).toHaveCount(0);
  });
});
