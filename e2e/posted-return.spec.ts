import { createHash } from 'node:crypto';
// The plain test: this spec serves a page at another origin on purpose (the shop's own fixture
// would count it as a foreign request), and checks page errors itself.
import { expect, test } from '@playwright/test';
import { demoMerchant } from './support/fixtures.ts';

const SHOP = 'http://shop.example.test';

test('the console’s return page shows a return POSTed from another site, and checks its control', async ({
  page,
  baseURL,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const demo = await demoMerchant(page);
  const fields = {
    status: 'approved',
    orderid: '4242',
    merchant_order: 'inv-posted-1',
    client_orderid: 'inv-posted-1',
    control: createHash('sha1').update(`approved4242inv-posted-1${demo.controlKey}`).digest('hex'),
  };

  await test.step('the console knows the demo profile', async () => {
    await page.goto('/ops/v2/sale');
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue(demo.login);
  });

  await test.step('a page on another site posts the customer back, as the gateway does', async () => {
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`)
      .join('');
    await page.route(`${SHOP}/pay`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Shop</title><form method="post" action="${baseURL}/return">${inputs}<button>Back to the shop</button></form>`,
      }),
    );
    await page.goto(`${SHOP}/pay`);
    await page.getByRole('button', { name: 'Back to the shop' }).click();
  });

  await test.step('the return page reads the posted fields and verifies control', async () => {
    await expect(page).toHaveURL(`${baseURL}/return`);
    await expect(page.getByRole('heading', { level: 1, name: 'The customer is back' })).toBeVisible();
    await expect(page.getByText('by a POSTed form (as here)')).toBeVisible();
    const table = page.getByRole('table', { name: 'Fields the customer came back with' });
    await expect(table.getByRole('row', { name: /merchant_order inv-posted-1/ })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'control matches' })).toHaveText(
      /^✓ control matches/,
    );
  });
  expect(errors).toEqual([]);
});
