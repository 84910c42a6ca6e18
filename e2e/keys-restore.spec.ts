import { createHash, createPublicKey } from 'node:crypto';
import type { Page } from '@playwright/test';
import { answer, demoMerchant, expect, signature, test } from './support/fixtures.ts';

function spkiFingerprint(pem: string): string {
  return createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** Opens v4/payout-check inside the app (no reload: the session's secrets stay) and sends test data. */
async function sendPayoutCheck(page: Page, expected: 200 | 403): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Workbench' }).click();
  await page
    .getByRole('navigation', { name: 'Operations' })
    .getByRole('link', { name: /v4\/payout-check/ })
    .click();
  await expect(page).toHaveURL(/\/ops\/v4\/payout-check$/);
  await expect(signature(page)).toHaveText(/^[A-Za-z0-9+/]+=*$/);
  await page.getByRole('button', { name: 'Fill with test data' }).click();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(answer(page).getByText(new RegExp(`^HTTP ${expected}\\b`))).toBeVisible();
}

test('a registered key whose private half was lost is not a dead end: the demo key is restored', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const demo = await demoMerchant(page);
  try {
    await page.goto('/keys');
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue(demo.login);

    await test.step('generate a pair and register it without saving the private key', async () => {
      await page.getByRole('radio', { name: '2048 bits' }).check();
      await page.getByRole('button', { name: 'Generate key pair' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: /Generated a 2048-bit key pair in \d+ ms/ }),
      ).toBeVisible({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Register with the local sandbox' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save the private key before registering' });
      await expect(dialog).toContainText('a reload loses it');
      await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await dialog.getByRole('button', { name: 'Register without saving' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText('Registered: the sandbox answered HTTP 200')).toBeVisible();
      await page.getByRole('button', { name: 'Use this key in the active profile' }).click();
      await expect(page.getByText(/The active profile now signs with this key/)).toBeVisible();
    });

    await test.step('the generated key signs while the page holds it', async () => {
      await sendPayoutCheck(page, 200);
    });

    await test.step('after a reload the private key is gone and the demo key is refused', async () => {
      await page.reload();
      await expect(page.getByText(/press "Restore the demo key" on the Keys page/)).toBeVisible();
      await expect(page.getByLabel('Private key', { exact: true })).toHaveValue('');
      await page.getByLabel('Private key', { exact: true }).fill(demo.privateKeyPkcs8Pem);
      await expect(
        page.getByRole('status').filter({ hasText: `fingerprint ${spkiFingerprint(demo.publicKeyPem)}` }),
      ).toBeVisible();
      await sendPayoutCheck(page, 403);
    });

    await test.step('Keys → Restore the demo key', async () => {
      await page.getByLabel('Private key', { exact: true }).fill('');
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Keys' }).click();
      await page.getByRole('button', { name: 'Restore the demo key' }).click();
      const done = page.getByRole('status').filter({ hasText: /^Restored: the sandbox verifies/ });
      await expect(done).toContainText(spkiFingerprint(demo.publicKeyPem));
      await expect(done).toContainText('The active profile signs with it.');
    });

    await test.step('the demo key is accepted again, and still after a reload', async () => {
      await sendPayoutCheck(page, 200);
      await page.reload();
      await sendPayoutCheck(page, 200);
    });
  } finally {
    // Leaves the shared sandbox with its demo key whatever happened above.
    expect((await request.delete(`/sandbox/merchants/${demo.login}/public-key`)).status()).toBe(200);
  }
});
