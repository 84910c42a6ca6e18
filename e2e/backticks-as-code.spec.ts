/**
 * Issue 30 §3: texts written with Markdown backticks (cause titles, rule sections, the short-key
 * message) show the names as code, never the literal backticks.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expectAccessible } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const CORPUS = resolve(import.meta.dirname, '../test/corpus');
/** Corpus cases whose first cause has a backticked title, or cites the "`control` (scheme C)" section. */
const CASES = [
  { id: 'plus-for-space', code: '+', in: 'h3' },
  { id: 'http-vs-https', code: 'https', in: 'h3' },
  { id: 'amount-major-units', code: 'control', in: 'cite' },
];

for (const theme of ['light', 'dark'] as const) {
  test.describe(`backticks show as code (${theme} theme)`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    });

    test('debugger: cause titles and the rules’ sections', async ({ page }) => {
      await page.goto('/debugger');
      const form = page.getByRole('form', { name: 'Captured request and secrets' });
      const results = page.getByRole('region', { name: 'Diagnosis' });
      for (const c of CASES) {
        const sidecar = JSON.parse(readFileSync(join(CORPUS, 'cases', `${c.id}.json`), 'utf8')) as {
          capture: string;
          secrets: { login: string; controlKey: string };
        };
        await form.getByRole('button', { name: 'Clear' }).click();
        await form
          .getByLabel('Captured request')
          .fill(readFileSync(join(CORPUS, 'cases', sidecar.capture), 'utf8'));
        await form.getByLabel('Merchant login').fill(sidecar.secrets.login);
        await form.getByLabel('Merchant control key').fill(sidecar.secrets.controlKey);
        await form.getByRole('button', { name: 'Diagnose' }).click();
        await expect(results.getByRole('status', { name: /^Verdict: / })).toBeVisible();
        const first = results.getByRole('article').first();
        await expect(first.locator(`${c.in} code`, { hasText: c.code }).first()).toBeVisible();
        await expect(results).not.toContainText('`');
      }
      await expectAccessible(page, `a diagnosis with code in its titles (${theme})`);
    });

    test('profile bar: the message for a 1024-bit private key', async ({ page }) => {
      const { privateKey } = generateKeyPairSync('rsa', {
        modulusLength: 1024,
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });
      await page.goto('/');
      await page.getByRole('button', { name: 'New profile' }).click();
      await page.getByLabel('Private key', { exact: true }).fill(privateKey);
      const status = page.getByRole('status').filter({ hasText: /1024 bits/ });
      await expect(status).toContainText('Refused: too short');
      await expect(status.locator('code')).toHaveText(/^openssl genpkey /);
      await expect(status).not.toContainText('`');
      await expectAccessible(page, `the short-key message (${theme})`);
    });
  });
}
