import {
  answer,
  demoMerchant,
  expect,
  field,
  fillTestData,
  pollUntilFinal,
  send,
  test,
} from './support/fixtures.ts';

test('3-D Secure 2 with a typed (not remembered) profile: the issuer result reaches the tab that holds the secrets', async ({
  page,
  context,
}) => {
  // Eight requests across two tabs: on a loaded machine the whole exceeds the default 60 s budget.
  test.slow();
  const demo = await demoMerchant(page);

  await test.step('type a profile of ones own: nothing is remembered on this device', async () => {
    await page.goto('/ops/v2/sale');
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue(demo.login);
    await page.getByRole('button', { name: 'New profile' }).click();
    await expect(page.getByLabel('Profile', { exact: true })).toHaveValue(/.+/);
    await page.getByLabel('Endpoint id', { exact: true }).fill(demo.endpointIds[0]!);
    await page.getByLabel('Login', { exact: true }).fill(demo.login);
    await page.getByLabel('Control key', { exact: true }).fill(demo.controlKey);
    await expect(page.getByText('Secrets stay in memory for this session only.')).toBeVisible();
  });

  await test.step('sale with the 3-D Secure CVV, then the Method step', async () => {
    await fillTestData(page, '321');
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
    const poller = page.getByRole('region', { name: 'Status polling' });
    await poller.getByRole('button', { name: 'Next: Upload 3DS Method result' }).click();
    await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-method-url-result$/);
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
  });

  const issuer = await test.step('the customer opens the issuer page in a new tab', async () => {
    const link = page
      .getByRole('region', { name: 'Status polling' })
      .getByRole('link', { name: /3-D Secure page/ });
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    return tab;
  });

  await test.step('authenticates; the customer tab says it can be closed', async () => {
    await issuer.getByLabel('Password').fill('hint');
    await issuer.getByRole('button', { name: 'Confirm' }).click();
    // The issuer page POSTs the customer back (as the gateway does): the address has no query.
    await expect(issuer).toHaveURL(/\/return$/);
    await expect(
      issuer.getByRole('heading', { level: 1, name: 'Authentication done, you can close this tab' }),
    ).toBeVisible();
    // The customer's tab holds none of the typed secrets: it could not have signed the upload.
    await expect(issuer.getByLabel('Control key', { exact: true })).toHaveValue('');
    await issuer.close();
  });

  await test.step('the original tab has the upload form filled, signs it and the sale is approved', async () => {
    await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-cres-result$/);
    await expect(field(page, 'cRes')).not.toHaveValue('');
    await expect(field(page, 'orderid')).toHaveValue(/^\d+$/);
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue(demo.controlKey);
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await pollUntilFinal(page, 'approved');
  });
});

test('after a reload of the sending tab, the customer’s return still reaches it; the return tab, holding no key, offers no upload', async ({
  page,
  context,
}) => {
  test.slow();
  const demo = await demoMerchant(page);
  await page.goto('/ops/v2/sale');
  await expect(page.getByLabel('Login', { exact: true })).toHaveValue(demo.login);
  await page.getByRole('button', { name: 'New profile' }).click();
  await page.getByLabel('Endpoint id', { exact: true }).fill(demo.endpointIds[0]!);
  await page.getByLabel('Login', { exact: true }).fill(demo.login);
  await page.getByLabel('Control key', { exact: true }).fill(demo.controlKey);

  const issuerUrl = await test.step('a 3-D Secure sale: the issuer page’s address', async () => {
    await fillTestData(page, '321');
    await send(page);
    await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
    const poller = page.getByRole('region', { name: 'Status polling' });
    await poller.getByRole('button', { name: 'Next: Upload 3DS Method result' }).click();
    await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-method-url-result$/);
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
    const link = page
      .getByRole('region', { name: 'Status polling' })
      .getByRole('link', { name: /3-D Secure page/ });
    return (await link.getAttribute('href'))!;
  });

  await test.step('the sending tab is reloaded (its typed key is gone with it)', async () => {
    await page.reload();
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
  });

  const issuer = await context.newPage();
  await test.step('the customer authenticates in a tab of their own', async () => {
    await issuer.goto(new URL(issuerUrl, page.url()).toString());
    await issuer.getByLabel('Password').fill('hint');
    await issuer.getByRole('button', { name: 'Confirm' }).click();
    // The gateway POSTs the customer back (gateway notes): /return, its fields in the form body.
    await expect(issuer).toHaveURL(/\/return(\?|$)/);
    await expect(
      issuer.getByRole('heading', { level: 1, name: 'Authentication done, you can close this tab' }),
    ).toBeVisible();
    await expect(issuer.getByRole('button', { name: /^Upload the CRes/ })).toHaveCount(0);
  });

  await test.step('the reloaded tab took it: its upload form is filled', async () => {
    await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-cres-result$/);
    await expect(field(page, 'cRes')).not.toHaveValue('');
    await expect(field(page, 'orderid')).toHaveValue(/^\d+$/);
  });

  await test.step('a return nobody takes, in a tab without a key: no upload offered, and why', async () => {
    await issuer.goto('/return?cres=eyJ0cmFuc1N0YXR1cyI6IlkifQ&orderid=999999&client_orderid=not-ours');
    await expect(issuer.getByRole('heading', { level: 1, name: 'The customer is back' })).toBeVisible();
    await expect(issuer.getByRole('note')).toContainText(
      'This tab holds no control key, so it cannot sign the upload.',
    );
    await expect(issuer.getByRole('button', { name: /^Upload the CRes/ })).toHaveCount(0);
  });
});

test('ids of earlier answers reach a tab opened later', async ({ page, context }) => {
  await page.goto('/ops/v2/sale');
  await fillTestData(page);
  const orderId = await field(page, 'client_orderid').inputValue();
  await send(page);
  await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
  const other = await context.newPage();
  await other.goto('/ops/v2/status');
  const picker = other.getByLabel('Ids from this session’s answers');
  await expect(picker).toBeVisible();
  await expect(picker.locator('option').filter({ hasText: orderId })).toHaveCount(1);
  await other.getByRole('button', { name: 'Fill with test data' }).click();
  await expect(field(other, 'client_orderid')).toHaveValue(orderId);
});
