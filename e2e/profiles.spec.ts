import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';
import { dumpStorage } from './support/storage.ts';

interface VaultRecord {
  version: number;
  kdf: { name: string; hash: string; iterations: number; salt: string };
  cipher: { name: string; iv: string };
  ciphertext: string;
}

async function readVaultRecord(page: Page): Promise<VaultRecord | undefined> {
  return page.evaluate(
    () =>
      new Promise<VaultRecord | undefined>((resolve, reject) => {
        const r = indexedDB.open('pay-console-secrets');
        r.onerror = () => reject(r.error);
        r.onsuccess = () => {
          const db = r.result;
          if (!db.objectStoreNames.contains('vault')) {
            db.close();
            resolve(undefined);
            return;
          }
          const get = db.transaction('vault', 'readonly').objectStore('vault').get('device');
          get.onsuccess = () => {
            db.close();
            resolve(get.result as VaultRecord | undefined);
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

/** The secret in clear, in Base64 at each of the three alignments, and hex: none may appear in storage. */
function forms(secret: string): string[] {
  const b = Buffer.from(secret, 'utf8');
  const out = [secret, b.toString('hex')];
  for (let shift = 0; shift < 3; shift++)
    out.push(
      Buffer.concat([Buffer.alloc(shift), b])
        .toString('base64')
        .slice(4, -4),
    );
  return out.filter((s) => s.length >= 12);
}

function expectNoSecrets(text: string, secrets: string[]) {
  for (const secret of secrets)
    for (const form of forms(secret))
      expect(text, `storage holds a form of a secret (${form.slice(0, 6)}…)`).not.toContain(form);
}

const CONTROL_KEY = 'E2E-CTRL-7d1e4b0a-9f2c-4c55-b1a3-secret';
const PASSPHRASE = 'correct horse battery staple';
const { privateKey: PKCS1_PEM } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const FINGERPRINT = createHash('sha256')
  .update(createPublicKey(PKCS1_PEM).export({ type: 'spki', format: 'der' }))
  .digest('hex');
/** The key material as it appears inside the PEM (its Base64 body without line breaks). */
const PEM_BODY = PKCS1_PEM.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

const keyStatus = (page: Page) =>
  page.getByRole('status').filter({ hasText: /fingerprint|No private key|Reading the key/ });

test('secrets stay out of storage by default, and once remembered are stored only encrypted', async ({
  page,
  request,
}) => {
  const demo = (await (await request.get('/sandbox/demo-merchant')).json()) as {
    controlKey: string;
    privateKeyPkcs8Pem: string | null;
  };
  const demoSecrets = [
    demo.controlKey,
    ...(demo.privateKeyPkcs8Pem
      ? [
          demo.privateKeyPkcs8Pem
            .replace(/-----[^-]+-----/g, '')
            .replace(/\s+/g, '')
            .slice(40, 400),
        ]
      : []),
  ];
  const secrets = [CONTROL_KEY, PEM_BODY.slice(40, 400), PEM_BODY.slice(-300), ...demoSecrets];

  await test.step('first start: the demo profile from the local sandbox', async () => {
    await page.goto('/');
    await expect(page.getByLabel('Profile', { exact: true }).locator('option:checked')).toHaveText(
      'Local sandbox (demo)',
    );
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue('demo-merchant');
    await expect(page.getByLabel('Target', { exact: true })).toHaveValue('local');
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue(demo.controlKey);
  });

  await test.step('a new profile with a control key and a PKCS#1 private key', async () => {
    await page.getByRole('button', { name: 'New profile' }).click();
    await expect(page.getByLabel('Profile', { exact: true }).locator('option:checked')).toHaveText(
      'New profile',
    );
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
    await page.getByLabel('Login', { exact: true }).fill('e2e-merchant');
    await page.getByLabel('Endpoint id', { exact: true }).fill('1111');
    await page.getByLabel('Control key', { exact: true }).fill(CONTROL_KEY);
    await expect(page.getByLabel('Control key', { exact: true })).toHaveAttribute('type', 'password');
    await page.getByLabel('Private key', { exact: true }).fill(PKCS1_PEM);
    await expect(keyStatus(page)).toHaveText(
      `PKCS#1 RSA private key, 2048 bits, fingerprint ${FINGERPRINT} — converted to PKCS#8 for Web Crypto`,
    );
  });

  await test.step('secret inputs are masked, with a reveal toggle', async () => {
    const reveal = page.getByRole('button', { name: 'Show control key' });
    await reveal.click();
    await expect(page.getByLabel('Control key', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide control key' }).click();
    await expect(page.getByLabel('Control key', { exact: true })).toHaveAttribute('type', 'password');
  });

  await test.step('by default no storage holds a secret, in clear or in Base64', async () => {
    const { text } = await dumpStorage(page);
    expect(text).toContain('e2e-merchant');
    expectNoSecrets(text, secrets);
    expect(text).not.toContain('PRIVATE KEY');
  });

  await test.step('opting in asks for a passphrase twice', async () => {
    await page.getByRole('button', { name: 'Remember on this device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remember the secrets on this device' });
    await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await dialog.getByLabel('Repeat the passphrase').fill(`${PASSPHRASE}!`);
    await dialog.getByRole('button', { name: 'Encrypt and remember' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(/differ/);
    await dialog.getByLabel('Repeat the passphrase').fill(PASSPHRASE);
    await dialog.getByRole('button', { name: 'Encrypt and remember' }).click();
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(page.getByText('Remembered on this device, encrypted with your passphrase.')).toBeVisible();
  });

  let firstIv = '';
  await test.step('the stored record is AES-GCM under PBKDF2-SHA-256 (≥ 600,000 rounds), never plain text', async () => {
    await expect.poll(async () => (await readVaultRecord(page))?.ciphertext.length ?? 0).toBeGreaterThan(100);
    const record = (await readVaultRecord(page))!;
    expect(record.version).toBe(1);
    expect(record.kdf).toMatchObject({ name: 'PBKDF2', hash: 'SHA-256' });
    expect(record.kdf.iterations).toBeGreaterThanOrEqual(600_000);
    expect(Buffer.from(record.kdf.salt, 'base64')).toHaveLength(16);
    expect(record.cipher.name).toBe('AES-GCM');
    expect(Buffer.from(record.cipher.iv, 'base64')).toHaveLength(12);
    firstIv = record.cipher.iv;
    const { text } = await dumpStorage(page);
    expectNoSecrets(text, secrets);
    expect(text).not.toContain('PRIVATE KEY');
  });

  await test.step('each write draws a fresh IV', async () => {
    await page.getByLabel('Control key', { exact: true }).press('End');
    await page.getByLabel('Control key', { exact: true }).pressSequentially('X');
    await expect.poll(async () => (await readVaultRecord(page))?.cipher.iv).not.toBe(firstIv);
    const ivWithX = (await readVaultRecord(page))!.cipher.iv;
    await page.getByLabel('Control key', { exact: true }).press('Backspace');
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue(CONTROL_KEY);
    // The Backspace's own write lands (a fresh IV again) before the reload.
    await expect.poll(async () => (await readVaultRecord(page))?.cipher.iv).not.toBe(ivWithX);
  });

  await test.step('after a reload the profile is there and its secrets are locked', async () => {
    await page.reload();
    await expect(page.getByLabel('Profile', { exact: true }).locator('option:checked')).toHaveText(
      'New profile',
    );
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue('e2e-merchant');
    await expect(page.getByText('The remembered secrets are locked. Unlock to sign.')).toBeVisible();
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Control key', { exact: true })).toBeDisabled();
    await expect(page.getByLabel('Private key', { exact: true })).toBeDisabled();
    const { text } = await dumpStorage(page);
    expectNoSecrets(text, secrets);
  });

  await test.step('a record without the fast-start hint (an older version wrote it) is still found and locked', async () => {
    await page.evaluate(() => localStorage.removeItem('pay-console.vault'));
    await page.reload();
    await expect(page.getByText('The remembered secrets are locked. Unlock to sign.')).toBeVisible();
    await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Local sandbox (demo)' });
    // Locked means no profile has secrets, the demo's included, whatever the first render took.
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Control key', { exact: true })).toBeDisabled();
    expect(await page.evaluate(() => localStorage.getItem('pay-console.vault'))).toBe('present');
    await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'New profile' });
  });

  const before = await readVaultRecord(page);
  await test.step('a wrong passphrase is refused clearly and nothing is lost', async () => {
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlock the remembered secrets' });
    await dialog.getByLabel('Passphrase', { exact: true }).fill('not the passphrase');
    await dialog.getByRole('button', { name: 'Unlock with this passphrase' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      /Wrong passphrase: the secrets stay locked and nothing was changed/,
      { timeout: 20_000 },
    );
    expect(await readVaultRecord(page)).toEqual(before);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByLabel('Control key', { exact: true })).toBeDisabled();
  });

  await test.step('the right passphrase restores the secrets', async () => {
    await page.getByRole('button', { name: 'Unlock', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlock the remembered secrets' });
    await dialog.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await dialog.getByRole('button', { name: 'Unlock with this passphrase' }).click();
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue(CONTROL_KEY);
    await expect(keyStatus(page)).toContainText(`fingerprint ${FINGERPRINT}`);
    await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Local sandbox (demo)' });
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue(demo.controlKey);
  });

  await test.step('lock drops the secrets from memory', async () => {
    await page.getByRole('button', { name: 'Lock', exact: true }).click();
    await expect(page.getByText('The remembered secrets are locked.')).toBeVisible();
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
    await expect(keyStatus(page)).toHaveText(/No private key/);
  });

  await test.step('forget on this device deletes the stored record', async () => {
    await page.getByRole('button', { name: 'Forget on this device' }).click();
    await page.getByRole('button', { name: 'Yes, forget' }).click();
    await expect(page.getByText('Secrets stay in memory for this session only.')).toBeVisible();
    expect(await readVaultRecord(page)).toBeUndefined();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Remember on this device' })).toBeVisible();
    await expect(page.getByLabel('Control key', { exact: true })).toBeEnabled();
  });
});

test('profiles can be added, renamed, duplicated, switched and deleted; non-secret fields persist', async ({
  page,
}) => {
  await page.goto('/');
  const profile = page.getByLabel('Profile', { exact: true });
  await expect(profile.locator('option:checked')).toHaveText('Local sandbox (demo)');

  await test.step('rename', async () => {
    await page.getByRole('button', { name: 'Rename profile' }).click();
    await page.getByLabel('New name').fill('Sandbox A');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(profile.locator('option:checked')).toHaveText('Sandbox A');
  });

  await test.step('duplicate keeps the fields and the secrets in memory', async () => {
    const controlKey = await page.getByLabel('Control key', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'Duplicate profile' }).click();
    await expect(profile.locator('option:checked')).toHaveText('Sandbox A (copy)');
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue('demo-merchant');
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue(controlKey);
  });

  await test.step('endpoint group id instead of endpoint id', async () => {
    await page.getByLabel('Use endpoint group').check();
    await page.getByLabel('Endpoint group id', { exact: true }).fill('2222');
    await expect(page.getByLabel('Endpoint id', { exact: true })).toHaveCount(0);
  });

  await test.step('a garbage private key shows the core message', async () => {
    await page.getByLabel('Private key', { exact: true }).fill('not a key at all');
    await expect(page.getByRole('status').filter({ hasText: 'This is not a PEM key' })).toBeVisible();
  });

  await test.step('switch back and forth', async () => {
    await profile.selectOption({ label: 'Sandbox A' });
    await expect(page.getByLabel('Endpoint id', { exact: true })).toHaveValue('1111');
    await profile.selectOption({ label: 'Sandbox A (copy)' });
    await expect(page.getByLabel('Endpoint group id', { exact: true })).toHaveValue('2222');
  });

  await test.step('non-secret fields survive a reload; secrets of a user profile do not', async () => {
    await page.reload();
    await expect(profile.locator('option:checked')).toHaveText('Sandbox A (copy)');
    await expect(page.getByLabel('Endpoint group id', { exact: true })).toHaveValue('2222');
    await expect(page.getByLabel('Control key', { exact: true })).toHaveValue('');
  });

  await test.step('delete asks first, and the last profile cannot be deleted', async () => {
    await page.getByRole('button', { name: 'Delete profile' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect(profile.locator('option')).toHaveCount(1);
    await expect(profile.locator('option:checked')).toHaveText('Sandbox A');
    await expect(page.getByRole('button', { name: 'Delete profile' })).toBeDisabled();
  });
});
