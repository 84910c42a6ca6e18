/**
 * Issue 33: variables in the workbench. The active profile is the environment: its variables are
 * resolved before signing (the signing pane says from where, and names one without a value, which
 * Send refuses), and an answer's paynet-order-id is saved as {{orderid}} in one click and used by
 * the next request. The signature is checked with node:crypto over the resolved values.
 */
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import {
  answer,
  answerFact,
  demoMerchant,
  expect,
  field,
  fillTestData,
  openOperation,
  signature,
  test,
} from './support/fixtures.ts';

const variables = (page: Page) => page.locator('details.wb-vars');
const uses = (page: Page) => page.getByRole('list', { name: 'Variables resolved' });

async function setVariable(page: Page, name: string, value: string) {
  const panel = variables(page);
  if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await panel.locator('summary').click();
  const add = panel.getByRole('group', { name: 'Add a variable' });
  await add.getByLabel('Name').fill(name);
  await add.getByLabel('Value').fill(value);
  await add.getByRole('button', { name: 'Set variable' }).click();
  await expect(panel.getByRole('cell', { name: `{{${name}}}`, exact: true })).toBeVisible();
}

test('a sale with {{amount}}: unresolved blocks Send, resolved signs; its orderid saved for status', async ({
  page,
}) => {
  const demo = await demoMerchant(page);
  let orderId = '';
  await test.step('a variable without a value is named, and Send refuses it', async () => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    await field(page, 'amount').fill('{{amount}}');
    await expect(page.getByRole('alert').filter({ hasText: 'Not resolved: {{amount}}' })).toBeVisible();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByText(/\{\{amount\}\} has no value/).first()).toBeVisible();
    await expect(answerFact(page, 'paynet-order-id')).toHaveCount(0);
  });
  await test.step('set in the profile’s variables: the pane says where it came from; the signature is over 10.42', async () => {
    await setVariable(page, 'amount', '10.42');
    await expect(uses(page)).toContainText('amount ← {{amount}} = 10.42 (profile');
    const client = await field(page, 'client_orderid').inputValue();
    const email = await field(page, 'email').inputValue();
    const expected = createHash('sha1')
      .update(`${demo.endpointIds[0]}${client}1042${email}${demo.controlKey}`)
      .digest('hex');
    await expect(signature(page)).toHaveText(expected);
    await expectAccessible(page, 'the sale with the variables panel open');
    // The theme as its toggle sets it (src/app/theme.ts), without leaving the page.
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await expectAccessible(page, 'the sale with the variables panel open, dark');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  });
  await test.step('sent; “Save paynet-order-id as {{orderid}}” in one click', async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(answerFact(page, 'paynet-order-id')).toHaveText(/^\d+$/);
    orderId = (await answerFact(page, 'paynet-order-id').textContent()) ?? '';
    await page.getByRole('button', { name: 'Save paynet-order-id as {{orderid}}' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Saved {{orderid}} = ${orderId}` }),
    ).toBeVisible();
  });
  await test.step('status with {{orderid}}: resolved from the saved value, answered for that order', async () => {
    await openOperation(page, 'v2/status');
    await fillTestData(page);
    await field(page, 'orderid').fill('{{orderid}}');
    await expect(uses(page)).toContainText(`orderid ← {{orderid}} = ${orderId}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(answerFact(page, 'paynet-order-id')).toHaveText(orderId);
    await expect(answer(page)).toBeVisible();
  });
  await test.step('a secret is not a variable', async () => {
    const panel = variables(page);
    if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open)))
      await panel.locator('summary').click();
    const add = panel.getByRole('group', { name: 'Add a variable' });
    await add.getByLabel('Name').fill('control_key');
    await add.getByLabel('Value').fill('x');
    await add.getByRole('button', { name: 'Set variable' }).click();
    await expect(panel.getByRole('alert')).toHaveText(/Secrets are not variables/);
  });
});
