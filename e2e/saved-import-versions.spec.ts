// Issue 30: a Postman v2.0 collection or an Insomnia export of format 5 is a version this console
// does not read, not a damaged file; a request without a URL is skipped for that, not as another API.
import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

const importFile = async (page: Page, name: string, text: string) => {
  await page.goto('/saved');
  await expect(page.getByRole('heading', { name: 'Saved requests', level: 1 })).toBeVisible();
  await page
    .getByLabel('Collections file to import')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
};

test('a Postman v2.0 collection: told to export v2.1, never "damaged"', async ({ page }) => {
  await importFile(
    page,
    'old.postman_collection.json',
    JSON.stringify({
      info: { name: 'Old', schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
      item: [{ name: 'Sale', request: { method: 'POST', url: 'https://x.example/paynet/api/v2/sale/1' } }],
    }),
  );
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(
    'This Postman collection is v2.0.0, a version this console does not read: in Postman, export it as Collection v2.1 and import that file.',
  );
  await expect(alert).not.toContainText('damaged');
  await expectAccessible(page, 'the Saved page refusing a Postman v2.0 file');
});

test('an Insomnia export of format 5: told to export "Insomnia v4 (JSON)"', async ({ page }) => {
  await importFile(
    page,
    'insomnia5.json',
    JSON.stringify({ _type: 'export', __export_format: 5, resources: [] }),
  );
  await expect(page.getByRole('alert')).toContainText(
    'This Insomnia export is format 5, a version this console does not read: in Insomnia, export it as "Insomnia v4 (JSON)" and import that file.',
  );
});

test('a request without a URL is skipped for that, beside the imported ones', async ({ page }) => {
  await importFile(
    page,
    'mixed.postman_collection.json',
    JSON.stringify({
      info: { name: 'Mixed', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [
        { name: 'Draft', request: { method: 'POST', url: '' } },
        {
          name: 'Status',
          request: {
            method: 'POST',
            url: 'https://sandbox.example/paynet/api/v2/status/1111',
            body: { mode: 'urlencoded', urlencoded: [{ key: 'login', value: 'm' }] },
          },
        },
      ],
    }),
  );
  await expect(
    page.getByRole('status').filter({ hasText: 'skipped 1, each listed below with why' }),
  ).toBeVisible();
  await expect(page.getByRole('list', { name: 'Skipped requests' })).toContainText(
    'Draft: it has no URL (give it one in the tool and export again)',
  );
});
