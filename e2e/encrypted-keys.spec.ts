import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { answer, demoMerchant, expect, fillTestData, openOperation, send, test } from './support/fixtures.ts';

const PASS = 'projector passphrase';

function openssl(args: string[]): void {
  const r = spawnSync('openssl', args);
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr.toString()}`);
}

/** The demo merchant's key, encrypted by openssl both ways (PKCS#8 PBES2 and traditional PKCS#1). */
function encryptedCopies(pkcs8Pem: string): { pkcs8: string; pkcs1: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pay-e2e-enc-'));
  try {
    writeFileSync(join(dir, 'plain.pem'), pkcs8Pem);
    openssl([
      'pkcs8',
      '-topk8',
      '-v2',
      'aes-256-cbc',
      '-in',
      join(dir, 'plain.pem'),
      '-out',
      join(dir, 'p8.pem'),
      '-passout',
      `pass:${PASS}`,
    ]);
    openssl([
      'rsa',
      '-in',
      join(dir, 'plain.pem'),
      '-traditional',
      '-aes256',
      '-out',
      join(dir, 'p1.pem'),
      '-passout',
      `pass:${PASS}`,
    ]);
    return {
      pkcs8: readFileSync(join(dir, 'p8.pem'), 'utf8'),
      pkcs1: readFileSync(join(dir, 'p1.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const bar = (page: Page) => page.getByRole('region', { name: 'Merchant credentials' });
const keyStatus = (page: Page) =>
  bar(page)
    .getByRole('status')
    .filter({ hasText: /private key|public key|PEM/ });

test('an encrypted private key is decrypted in the browser with its passphrase and signs what the sandbox accepts', async ({
  page,
}) => {
  const demo = await demoMerchant(page);
  const keys = encryptedCopies(demo.privateKeyPkcs8Pem);
  await openOperation(page, 'v4/payout-check');
  const fingerprint = (await keyStatus(page).innerText()).match(/fingerprint ([0-9a-f]+)/)![1]!;

  for (const [name, pem] of Object.entries(keys)) {
    await test.step(`${name}: pasted, it is named as encrypted and a passphrase is asked`, async () => {
      await bar(page).getByLabel('Private key', { exact: true }).fill(pem);
      await expect(keyStatus(page)).toContainText('encrypted private key');
      await expect(keyStatus(page)).toContainText('Decrypt it first');
      await expect(bar(page).getByLabel('Key passphrase')).toBeVisible();
    });
    await test.step(`${name}: a wrong passphrase says so and changes nothing`, async () => {
      await bar(page).getByLabel('Key passphrase').fill('not it');
      await bar(page).getByRole('button', { name: 'Decrypt key' }).click();
      await expect(bar(page).getByRole('alert')).toContainText('Wrong passphrase');
      await expect(bar(page).getByLabel('Private key', { exact: true })).toHaveValue(pem);
    });
    await test.step(`${name}: the right passphrase gives the demo key back, unencrypted PKCS#8`, async () => {
      await bar(page).getByLabel('Key passphrase').fill(PASS);
      await bar(page).getByRole('button', { name: 'Decrypt key' }).click();
      await expect(keyStatus(page)).toContainText(
        `PKCS#8 private key, 2048 bits, fingerprint ${fingerprint}`,
      );
      await expect(bar(page).getByLabel('Private key', { exact: true })).toHaveValue(
        /^-----BEGIN PRIVATE KEY-----/,
      );
      await expect(bar(page).getByLabel('Key passphrase')).toHaveCount(0);
    });
  }

  await test.step('the decrypted key signs a v4 request the sandbox accepts', async () => {
    await fillTestData(page);
    await send(page);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await expect(answer(page)).not.toContainText(/signature.*(mismatch|invalid)/i);
  });

  await test.step('a public key can verify, not sign', async () => {
    await bar(page).getByLabel('Private key', { exact: true }).fill(demo.publicKeyPem);
    await expect(keyStatus(page)).toContainText('can verify, not sign');
  });
});
