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
