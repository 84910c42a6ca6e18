import { answer, expect, fillTestData, openOperation, send, test } from './support/fixtures.ts';
import { OPERATIONS } from '../src/catalog/index.ts';
import { oauthBaseString } from './support/oracle.ts';

test('a production target asks for confirmation before an operation that moves money', async ({ page }) => {
  await test.step('the server lists a production target (mocked in the page, nothing leaves it)', async () => {
    await page.route('**/proxy/targets', async (route) => {
      const res = await route.fetch();
      const targets = (await res.json()) as unknown[];
      await route.fulfill({
        response: res,
        json: [
          ...targets,
          { name: 'prod', baseUrl: 'https://gate.example.invalid/paynet', kind: 'production' },
        ],
      });
    });
    let sentToProd = false;
    await page.route('**/proxy/prod/**', (route) => {
      sentToProd = true;
      return route.abort();
    });
    await openOperation(page, 'v2/sale');
    await page.getByLabel('Target', { exact: true }).selectOption('prod');
    await fillTestData(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send to production?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('moves real money');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(answer(page)).toHaveCount(0);
    expect(sentToProd).toBe(false);
  });
  await test.step('an operation that moves no money is not asked about', async () => {
    await openOperation(page, 'v2/status');
    await page.getByLabel('Target', { exact: true }).selectOption('prod');
    await fillTestData(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Send to production?' })).toBeHidden();
  });
});

test('a wrong control key on an HMAC-SHA1 payout: identical base strings, so the key differs', async ({
  page,
}) => {
  await openOperation(page, 'v2/payout');
  await page.getByLabel('Control key', { exact: true }).fill('WRONG-KEY-0000');
  await fillTestData(page);
  await send(page);
  await expect(answer(page).getByRole('status', { name: 'Status: forbidden' })).toBeVisible();
  const refused = answer(page).getByRole('region', { name: 'Signature refused' });
  await expect(
    refused.getByText(/The base strings are identical: the difference is the signing key/),
  ).toBeVisible();
  await test.step('the sandbox built the base string the test builds from the request as sent', async () => {
    const raw = (await answer(page).getByLabel('Request as sent').textContent()) ?? '';
    const [head = '', body = ''] = raw.split(/\r?\n\r?\n/);
    const lines = head.split(/\r?\n/);
    const path = lines[0]!.split(' ')[1]!;
    const host = lines.find((l) => l.startsWith('Host: '))!.slice(6);
    const auth = lines.find((l) => l.startsWith('Authorization: '))!;
    const oauth = Object.fromEntries(
      [...auth.matchAll(/(\w+)="([^"]*)"/g)]
        .filter((m) => m[1] !== 'oauth_signature')
        .map((m) => [m[1]!, decodeURIComponent(m[2]!)]),
    );
    const params = body
      .split('&')
      .map((kv) => kv.split('=').map((x) => decodeURIComponent(x)) as [string, string]);
    await expect(refused.getByLabel('Sandbox base string')).toHaveText(
      oauthBaseString(`http://${host}${path}`, params, oauth),
    );
  });
});

test('every operation opens at its own address, and the search filters the list', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Operations' });
  await expect(nav.getByRole('link')).toHaveCount(OPERATIONS.length);
  await nav.getByRole('searchbox', { name: 'Search operations' }).fill('cres');
  await expect(nav.getByRole('link')).toHaveCount(1);
  await nav.getByRole('link', { name: /Upload 3DS 2 challenge result/ }).click();
  await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-cres-result$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Upload 3DS 2 challenge result (CRes)' }),
  ).toBeVisible();
  await page.goto('/ops/v2/payout-form');
  await expect(page.getByText('scheme unsure', { exact: true })).toBeVisible();
  await page.getByLabel('Signature scheme').selectOption('control');
  await expect(page.getByRole('group', { name: /Control formula/ })).toBeVisible();
  await page.goBack();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Upload 3DS 2 challenge result (CRes)' }),
  ).toBeVisible();
});
