import { expectAccessible } from './support/axe.ts';
import { answer, expect, fillTestData, openOperation, test } from './support/fixtures.ts';

test('Stop polling while an order waits for the 3DS Method keeps its stage and follow-ups', async ({
  page,
}) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page, '321');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
  const poller = page.getByRole('region', { name: 'Status polling' });
  await expect(poller.getByRole('button', { name: 'Next: Upload 3DS Method result' })).toBeVisible();
  await poller.getByRole('button', { name: 'Stop polling' }).click();
  await expect(poller.getByText('Polling stopped.')).toBeVisible();
  await expect(poller.getByText(/3-D Secure: the Method step is pending/)).toBeVisible();
  await expect(poller.getByRole('button', { name: 'Next: Upload 3DS Method result' })).toBeVisible();
  await expectAccessible(page, 'a stopped poll that keeps the 3-D Secure stage');
  await poller.getByRole('button', { name: 'Close' }).click();
  await expect(poller).toHaveCount(0);
});
