import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import {
  demoMerchant,
  expect,
  field,
  fillTestData,
  localBaseUrl,
  openOperation,
  send,
  signature,
  test,
} from './support/fixtures.ts';

const CARD = '4444444444444448';
const LANGUAGES = ['bash', 'Node.js', 'Python', 'PHP', 'Java', 'C#'];

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return {
    name: (download as Download).suggestedFilename(),
    text: await readFile(await download.path(), 'utf8'),
  };
}

function tokenOf(link: string): unknown {
  const token = new URL(link).hash.replace(/^#share=/, '');
  return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
}

test.describe('imports and exports', () => {
  test('a curl command opens in the form with its values and the same signature', async ({ page }) => {
    const m = await demoMerchant(page);
    const base = await localBaseUrl(page);
    const endpoint = m.endpointIds[0]!;
    const values: Record<string, string> = {
      client_orderid: 'imported-1',
      order_desc: 'Imported order',
      first_name: 'Ann',
      last_name: 'Lee',
      address1: '1 High Street',
      city: 'Leeds',
      zip_code: 'LS1 1AA',
      country: 'GB',
      phone: '441130000000',
      email: 'ann.lee@example.com',
      amount: '12.30',
      currency: 'GBP',
      ipaddress: '203.0.113.9',
      card_printed_name: 'ANN LEE',
      credit_card_number: CARD,
      expire_month: '11',
      expire_year: String(new Date().getUTCFullYear() + 2),
      cvv2: '123',
    };
    // control = sha1(endpointId + client_orderid + amount in minor units + email + control key)
    const control = createHash('sha1')
      .update(`${endpoint}imported-1${1230}ann.lee@example.com${m.controlKey}`)
      .digest('hex');
    const body = new URLSearchParams({ ...values, control }).toString().replace(/\+/g, '%20');
    const curl = [
      `curl -X POST '${base}/api/v2/sale/${endpoint}'`,
      `  -H 'Accept: application/vnd.pay+json'`,
      `  -H 'Content-Type: application/x-www-form-urlencoded'`,
      `  --data-raw '${body}'`,
    ].join(' \\\n');

    await test.step('paste the command into Import on the workbench', async () => {
      await openOperation(page, 'v2/status');
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByLabel('Captured request (curl command or raw HTTP)').fill(curl);
      await page.getByRole('button', { name: 'Import into the form' }).click();
    });
    await test.step('the sale form holds every value', async () => {
      await expect(page).toHaveURL(/\/ops\/v2\/sale$/);
      for (const [name, value] of Object.entries(values)) await expect(field(page, name)).toHaveValue(value);
    });
    await test.step('and signs to the same control', async () => {
      await expect(signature(page)).toHaveText(control);
    });
  });

  test('an unreadable capture is refused with advice', async ({ page }) => {
    await page.goto('/export');
    await page
      .getByLabel('Captured request (curl command or raw HTTP)')
      .fill('curl https://example.com/nothing');
    await page.getByRole('button', { name: 'Import into the form' }).click();
    await expect(page.getByRole('alert')).toContainText('is not an operation of the catalog');
    await expect(page).toHaveURL(/\/export$/);
  });

  test('a share link carries values only and opens the form with them', async ({ page, context }) => {
    const m = await demoMerchant(page);
    let link = '';
    let orderId = '';
    await test.step('make a link for a filled sale', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      orderId = await field(page, 'client_orderid').inputValue();
      await page.getByRole('button', { name: 'Share link' }).click();
      link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
      expect(link).toMatch(/\/ops\/v2\/sale#share=[A-Za-z0-9_-]+$/);
      await expect(page.getByText('Left out: credit_card_number (card number), cvv2 (CVV).')).toBeVisible();
    });
    await test.step('the link holds no secret and no card data', async () => {
      const decoded = JSON.stringify(tokenOf(link));
      expect(decoded).toContain(orderId);
      for (const secret of [m.controlKey, CARD, 'control', 'PRIVATE KEY']) {
        expect(link).not.toContain(secret);
        expect(decoded).not.toContain(secret);
      }
      // The card fields travel by name only, withheld: the recipient's send asks for them.
      expect(decoded).toContain('"cvv2":{"withheld":"cvv"}');
      expect(decoded).not.toMatch(/"cvv2":"/);
    });
    await test.step('opening it shows the form with the values', async () => {
      const other = await context.newPage();
      await other.goto(link);
      await expect(other).toHaveURL(/\/ops\/v2\/sale$/);
      await expect(field(other, 'client_orderid')).toHaveValue(orderId);
      await expect(field(other, 'email')).toHaveValue('john.smith@example.com');
      await expect(field(other, 'credit_card_number')).toHaveValue('');
      await expect(field(other, 'cvv2')).toHaveValue('');
    });
  });

  test('a damaged share link says what to do', async ({ page }) => {
    await page.goto('/#share=bm90LWpzb24');
    await expect(page.getByRole('alert')).toContainText('This share link is damaged');
  });

  test('code snippets in every language, secrets only when asked for', async ({ page }) => {
    const m = await demoMerchant(page);
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    const orderId = await field(page, 'client_orderid').inputValue();
    await page.getByRole('button', { name: 'Export code' }).click();
    for (const lang of LANGUAGES) {
      await test.step(`${lang} snippet`, async () => {
        await page.getByRole('tab', { name: lang, exact: true }).click();
        await expect(page.getByRole('tab', { name: lang, exact: true })).toHaveAttribute(
          'aria-selected',
          'true',
        );
        const code = page.getByRole('region', { name: `${lang} snippet` });
        await expect(code).toContainText('MERCHANT_CONTROL_KEY');
        await expect(code).toContainText(orderId);
        await expect(code).toContainText('/api/v2/sale/');
        expect(await code.textContent()).not.toContain(m.controlKey);
      });
    }
    await test.step('include secrets warns and embeds the control key', async () => {
      await page.getByRole('tab', { name: 'bash', exact: true }).click();
      await page.getByLabel('Include secrets').check();
      await expect(
        page.getByRole('alert').filter({ hasText: 'holds the merchant control key' }),
      ).toBeVisible();
      await expect(page.getByRole('region', { name: 'bash snippet' })).toContainText(m.controlKey);
      await page.getByLabel('Include secrets').uncheck();
      expect(await page.getByRole('region', { name: 'bash snippet' }).textContent()).not.toContain(
        m.controlKey,
      );
    });
    await test.step('the snippet downloads as a file', async () => {
      const file = await downloaded(page, 'Download v2-sale.sh');
      expect(file.name).toBe('v2-sale.sh');
      expect(file.text).toContain('openssl');
      expect(file.text).not.toContain(m.controlKey);
    });
  });

  test('OpenAPI and Postman downloads parse as JSON', async ({ page }) => {
    const m = await demoMerchant(page);
    await page.goto('/export');
    await test.step('OpenAPI 3.1', async () => {
      const file = await downloaded(page, 'Download OpenAPI 3.1');
      expect(file.name).toBe('pay-api.openapi.json');
      const doc = JSON.parse(file.text) as { openapi: string; paths: Record<string, unknown> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/api/v2/sale/{endpointId}');
    });
    await test.step('Postman collection v2.1', async () => {
      const file = await downloaded(page, 'Download Postman collection');
      expect(file.name).toBe('pay-api.postman_collection.json');
      const collection = JSON.parse(file.text) as { info: { schema: string }; item: unknown[] };
      expect(collection.info.schema).toContain('v2.1.0');
      expect(collection.item.length).toBeGreaterThan(0);
      expect(file.text).not.toContain(m.controlKey);
    });
  });

  test('history exports as HAR with masked card numbers', async ({ page }) => {
    const m = await demoMerchant(page);
    await test.step('send a sale', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      await send(page);
      await page.getByRole('link', { name: 'History' }).click();
      await expect(page.getByText('v2/sale').first()).toBeVisible();
    });
    await test.step('download the history as HAR', async () => {
      await page.getByRole('link', { name: 'Export', exact: true }).click();
      const file = await downloaded(page, 'Download history as HAR');
      expect(file.name).toBe('pay-console-history.har');
      const har = JSON.parse(file.text) as {
        log: {
          version: string;
          entries: Array<{ request: { url: string; postData?: { params: Array<{ name: string }> } } }>;
        };
      };
      expect(har.log.version).toBe('1.2');
      const sale = har.log.entries.find((e) => e.request.url.includes('/api/v2/sale/'));
      expect(sale).toBeTruthy();
      expect(file.text).toContain('444444******4448');
      expect(file.text).not.toContain(CARD);
      expect(sale!.request.postData!.params.map((p) => p.name)).not.toContain('cvv2');
      expect(file.text).not.toContain(m.controlKey);
    });
  });
});
