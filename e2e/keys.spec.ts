import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { Page } from '@playwright/test';
import { answer, answerFact, expect, test } from './support/fixtures.ts';

const DEMO_LOGIN = 'demo-merchant';

function spkiFingerprint(pem: string): string {
  return createHash('sha256')
    .update(createPublicKey(pem).export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

async function gotoSection(page: Page, name: 'Keys' | 'History' | 'Workbench') {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
}

async function openOperation(page: Page, path: string) {
  await page
    .getByRole('navigation', { name: 'Operations' })
    .getByRole('link', { name: new RegExp(path.replace(/\//g, '\\/')) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/ops/${path}$`));
}

/**
 * Fills the form with fresh test data, sends it and waits for the answer with the expected HTTP
 * status: a previous answer on the page (another status) is never read in its place.
 */
async function sendWithTestData(page: Page, expected: 200 | 403): Promise<void> {
  await page.getByRole('button', { name: 'Fill with test data' }).click();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(answer(page).getByText(new RegExp(`^HTTP ${expected}\\b`))).toBeVisible();
}

test('a key pair generated in the page signs a v4 request the sandbox accepts once its public key is registered', async ({
  page,
  request,
}) => {
  const demo = (await (await request.get('/sandbox/demo-merchant')).json()) as {
    publicKeyPem: string;
    privateKeyPkcs8Pem: string | null;
  };
  expect(demo.privateKeyPkcs8Pem, 'the sandbox starts with the demo key pair registered').not.toBeNull();

  try {
    await page.goto('/keys');
    await expect(page.getByLabel('Login', { exact: true })).toHaveValue(DEMO_LOGIN);

    const generated = await test.step('generate a 2048-bit pair in the page', async () => {
      await page.getByRole('radio', { name: '2048 bits' }).check();
      const button = page.getByRole('button', { name: 'Generate key pair' });
      await button.click();
      await expect(
        page.getByRole('status').filter({ hasText: /Generated a 2048-bit key pair in \d+ ms/ }),
      ).toBeVisible({ timeout: 30_000 });
      await expect(button).toBeEnabled();
      const pkcs8 = await page.getByLabel('Generated PKCS#8').inputValue();
      const pkcs1 = await page.getByLabel('Generated PKCS#1').inputValue();
      const spki = await page.getByLabel('Generated public key (SPKI)').inputValue();
      expect(pkcs8).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      expect(pkcs1).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
      expect(spki).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
      const fingerprint = spkiFingerprint(spki);
      await expect(page.getByLabel('Generated key fingerprint')).toHaveText(fingerprint);
      expect(spkiFingerprint(pkcs8)).toBe(fingerprint);
      expect(spkiFingerprint(pkcs1)).toBe(fingerprint);
      expect(createPrivateKey(pkcs8).asymmetricKeyDetails?.modulusLength).toBe(2048);
      return { pkcs8, spki, fingerprint };
    });

    await test.step('use it in the active profile', async () => {
      await page.getByRole('button', { name: 'Use this key in the active profile' }).click();
      await expect(
        page.getByText(`The active profile now signs with this key (fingerprint ${generated.fingerprint}).`),
      ).toBeVisible();
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: `fingerprint ${generated.fingerprint}` })
          .first(),
      ).toBeVisible();
    });

    await test.step('before registration the sandbox refuses its signature (403)', async () => {
      await gotoSection(page, 'Workbench');
      await openOperation(page, 'v4/payout-check');
      await sendWithTestData(page, 403);
    });

    await test.step('register the public key with the local sandbox', async () => {
      await gotoSection(page, 'Keys');
      await expect(page.getByLabel('Generated public key (SPKI)')).toHaveValue(generated.spki);
      await page.getByRole('button', { name: 'Register with the local sandbox' }).click();
      // The private key was neither downloaded nor remembered: the console asks to save it first.
      const dialog = page.getByRole('dialog', { name: 'Save the private key before registering' });
      await expect(dialog).toBeVisible();
      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download the private key, then register' }).click();
      expect((await download).suggestedFilename()).toBe('private-pkcs8.pem');
      await expect(page.getByText('Registered: the sandbox answered HTTP 200')).toBeVisible();
      await expect(page.getByText(`${generated.fingerprint} (this pair).`, { exact: false })).toBeVisible();
    });

    await test.step('now the v4 payout-check is accepted (200 async-response)', async () => {
      await gotoSection(page, 'Workbench');
      await openOperation(page, 'v4/payout-check');
      await sendWithTestData(page, 200);
      await expect(answerFact(page, 'type')).toHaveText('async-response');
    });

    await test.step('the old demo key is now refused (403)', async () => {
      await page.getByLabel('Private key', { exact: true }).fill(demo.privateKeyPkcs8Pem!);
      await expect(
        page.getByRole('status').filter({ hasText: `fingerprint ${spkiFingerprint(demo.publicKeyPem)}` }),
      ).toBeVisible();
      await sendWithTestData(page, 403);
    });
  } finally {
    const restored = await request.put(`/sandbox/merchants/${DEMO_LOGIN}/public-key`, {
      data: { publicKeyPem: demo.publicKeyPem },
    });
    expect(restored.status()).toBe(200);
  }
});

test('4096-bit generation keeps the page responsive and is timed; pasted keys are inspected and converted', async ({
  page,
}) => {
  await page.goto('/keys');

  await test.step('generate 4096 bits with a progress indicator and a disabled button', async () => {
    await page.getByRole('radio', { name: '4096 bits' }).check();
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[] };
      w.__frames = [];
      const tick = (t: number) => {
        w.__frames.push(t);
        if (w.__frames.length < 100_000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    // A baseline of idle frames before the click: counted frames, not a wall-clock wait.
    await page.waitForFunction(() => (window as unknown as { __frames: number[] }).__frames.length >= 30);
    const clickedAt = await page.evaluate(() => performance.now());
    const button = page.getByRole('button', { name: 'Generate key pair' });
    await button.click();
    await expect(page.getByRole('progressbar', { name: 'Generating the key pair' })).toBeVisible();
    await expect(button).toBeDisabled();
    const done = page.getByRole('status').filter({ hasText: /Generated a 4096-bit key pair in \d+ ms/ });
    await expect(done).toBeVisible({ timeout: 60_000 });
    const ms = Number(/in (\d+) ms/.exec((await done.textContent()) ?? '')?.[1]);
    const gaps = await page.evaluate((split) => {
      const f = (window as unknown as { __frames: number[] }).__frames;
      let idle = 0;
      let busy = 0;
      for (let i = 1; i < f.length; i++) {
        const gap = f[i]! - f[i - 1]!;
        if (f[i]! < split) idle = Math.max(idle, gap);
        else busy = Math.max(busy, gap);
      }
      return { idle: Math.round(idle), busy: Math.round(busy) };
    }, clickedAt);
    test.info().annotations.push({
      type: 'measured',
      description: `RSA-4096 generation ${ms} ms; longest frame gap while generating ${gaps.busy} ms (idle page before: ${gaps.idle} ms)`,
    });
    expect(
      createPrivateKey(await page.getByLabel('Generated PKCS#8').inputValue()).asymmetricKeyDetails
        ?.modulusLength,
    ).toBe(4096);
  });

  const pkcs1 = await page.getByLabel('Generated PKCS#1').inputValue();
  const fingerprint = await page.getByLabel('Generated key fingerprint').textContent();

  await test.step('inspect a pasted PKCS#1 key and convert it', async () => {
    await page.getByLabel('Key to inspect').fill(pkcs1);
    const facts = page.getByRole('definition');
    await expect(facts.filter({ hasText: 'PKCS#1 RSA private key' })).toBeVisible();
    await expect(facts.filter({ hasText: '4096 bits' })).toBeVisible();
    await expect(facts.filter({ hasText: fingerprint! })).toBeVisible();
    await page.getByRole('button', { name: 'Convert to PKCS#8' }).click();
    const pkcs8 = await page.getByLabel('Converted PKCS#8 private key').inputValue();
    expect(pkcs8).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(spkiFingerprint(pkcs8)).toBe(fingerprint);
    await page.getByRole('button', { name: 'Convert to PKCS#1 public key' }).click();
    const rsaPub = await page.getByLabel('Converted PKCS#1 public key').inputValue();
    expect(rsaPub).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    expect(
      createHash('sha256')
        .update(createPublicKey(rsaPub).export({ type: 'spki', format: 'der' }))
        .digest('hex'),
    ).toBe(fingerprint);
    await page.getByRole('button', { name: 'Convert to SPKI public key' }).click();
    expect(spkiFingerprint(await page.getByLabel('Converted public key (SPKI)').inputValue())).toBe(
      fingerprint,
    );
  });

  await test.step('a key is never offered a conversion to the container it is in', async () => {
    const convert = page.getByRole('group', { name: 'Convert' });
    const facts = page.getByRole('definition');
    const spki = await page.getByLabel('Converted public key (SPKI)').inputValue();
    await page.getByLabel('Key to inspect').fill(spki);
    await expect(
      facts.filter({ hasText: 'it is a public key: it verifies RSA-SHA256 signatures' }),
    ).toBeVisible();
    await expect(convert.getByRole('button')).toHaveText(['Convert to PKCS#1 public key']);
    await page.getByLabel('Key to inspect').fill(pkcs1);
    await convert.getByRole('button', { name: 'Convert to PKCS#8' }).click();
    await page
      .getByLabel('Key to inspect')
      .fill(await page.getByLabel('Converted PKCS#8 private key').inputValue());
    await expect(facts.filter({ hasText: 'PKCS#8' })).toBeVisible();
    await expect(facts.filter({ hasText: 'None: it signs RSA-SHA256 requests.' })).toBeVisible();
    await expect(convert.getByRole('button', { name: 'Convert to PKCS#8' })).toHaveCount(0);
    await expect(convert.getByRole('button', { name: 'Convert to PKCS#1', exact: true })).toBeVisible();
  });

  await test.step('encrypted and garbage keys get the core message', async () => {
    await page
      .getByLabel('Key to inspect')
      .fill(
        '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n',
      );
    await expect(page.getByText(/This private key is encrypted with a passphrase/)).toBeVisible();
    // The command is shown as code, not with the message's literal backticks.
    await expect(page.getByRole('definition').getByRole('code')).toHaveText(
      'openssl pkey -in key.pem -out key-plain.pem',
    );
    await expect(page.getByText(/`openssl/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Convert to PKCS#8' })).toHaveCount(0);
    await page.getByLabel('Key to inspect').fill('hello');
    await expect(page.getByText(/This is not a PEM key/)).toBeVisible();
  });
});
