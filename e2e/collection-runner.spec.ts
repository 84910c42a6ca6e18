/**
 * Issue 33: the collection runner in the browser. The demo profile is the environment (its control
 * key the secret, in this tab only). A saved preauth → capture → return collection (the guided
 * flow's own export) runs with its assertions, one of them edited in the runner as fields (a
 * callback with a valid control); an assertion changed to fail is reported and the run goes on.
 * A Postman collection with variables and a test line that saves `orderid` is imported and run,
 * and one step re-run alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { flowAsCollection, flowCollectionsFile } from '../src/features/flows/flow-collection.ts';
import { PREAUTH_CAPTURE_RETURN } from '../src/features/flows/flows-settle.ts';
import { expectAccessible } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';

async function importFile(page: Page, name: string, text: string) {
  await page.goto('/saved');
  await expect(page.getByRole('heading', { name: 'Saved requests', level: 1 })).toBeVisible();
  await page
    .getByLabel('Collections file to import')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

const runner = (page: Page) => page.locator('section.sv-runner');
const step = (page: Page, n: number, name: string) =>
  runner(page).getByRole('listitem', { name: `Step ${n}: ${name}`, exact: true });
const assertions = (page: Page, name: string) =>
  runner(page).getByRole('list', { name: `Assertions of ${name}` });

test('a saved preauth → capture → return runs with its assertions; an edited one is checked', async ({
  page,
}) => {
  const flow = flowAsCollection(PREAUTH_CAPTURE_RETURN).collection;
  await importFile(
    page,
    'preauth-capture-return.json',
    JSON.stringify(flowCollectionsFile(PREAUTH_CAPTURE_RETURN, new Date().toISOString())),
  );
  await expect(page.locator('p.sv-note[role=status]')).toContainText('Imported 1 collection with 3 requests');
  await page.getByRole('button', { name: `Run the collection ${flow.name}` }).click();
  await expect(runner(page).getByRole('heading', { name: `Run: ${flow.name}` })).toBeVisible();

  await test.step('the preauth’s assertions edited as fields: a callback with a valid control', async () => {
    await runner(page).getByRole('button', { name: 'Edit the assertions of Preauth' }).click();
    const form = runner(page).getByRole('form', { name: 'Assertions of Preauth' });
    await expect(form.getByLabel('status', { exact: true })).toHaveValue('approved');
    await form.getByLabel('A callback arrives and its control is valid').check();
    await form.getByRole('button', { name: 'Save assertions' }).click();
    await expect(form).toHaveCount(0);
  });

  await test.step('run: every step passes, orderid carried from the preauth’s answer', async () => {
    await runner(page).getByRole('button', { name: 'Run collection' }).click();
    await expect(runner(page).getByRole('status')).toHaveText('3 passed, 0 failed of 3 steps.');
    await expect(assertions(page, 'Preauth')).toContainText('✓ status: expected approved');
    await expect(assertions(page, 'Preauth')).toContainText('✓ callback: expected received, control valid');
    await expect(assertions(page, 'Partial capture')).toContainText('✓ status: expected approved');
    await expect(assertions(page, 'Partial return')).toContainText('✓ HTTP status: expected 200');
    await expect(step(page, 1, 'Preauth')).toContainText(/Saved \{\{orderid\}\} = \d+/);
    // What was sent is shown without the card number.
    await expect(step(page, 1, 'Preauth')).toContainText('credit_card_number=[withheld]');
    await expectAccessible(page, 'the collection runner after a run');
  });

  await test.step('an assertion changed to fail: reported with what came, the run goes on', async () => {
    await runner(page).getByRole('button', { name: 'Edit the assertions of Partial capture' }).click();
    const form = runner(page).getByRole('form', { name: 'Assertions of Partial capture' });
    await form.getByLabel('status', { exact: true }).fill('declined');
    await form.getByRole('button', { name: 'Save assertions' }).click();
    await runner(page).getByRole('button', { name: 'Run collection' }).click();
    await expect(runner(page).getByRole('status')).toHaveText('2 passed, 1 failed of 3 steps.');
    await expect(assertions(page, 'Partial capture')).toContainText(
      '✗ status: expected declined, got approved',
    );
    await expect(step(page, 3, 'Partial return')).toContainText('passed');
  });
});

test('a Postman collection with variables is imported and run; one step re-run alone', async ({ page }) => {
  const preauth = flowAsCollection(PREAUTH_CAPTURE_RETURN).collection.requests[0]!.draft as {
    values: Record<string, unknown>;
  };
  const pairs = Object.entries(preauth.values)
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .map(([key, value]) => ({ key, value: key === 'client_orderid' ? 'pm-{{run_id}}' : value }));
  const postman = {
    info: {
      name: 'Shop (Postman)',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [
      { key: 'amount', value: '10.42' },
      { key: 'currency', value: 'USD' },
    ],
    item: [
      {
        name: 'Sale',
        event: [
          {
            listen: 'test',
            script: {
              exec: ['pm.collectionVariables.set("orderid", pm.response.json()["paynet-order-id"]);'],
            },
          },
        ],
        request: {
          method: 'POST',
          url: '{{base_url}}/api/v2/sale/{{endpoint_id}}',
          body: { mode: 'urlencoded', urlencoded: pairs },
        },
      },
      {
        name: 'Status',
        request: {
          method: 'POST',
          url: '{{base_url}}/api/v2/status/{{endpoint_id}}',
          body: {
            mode: 'urlencoded',
            urlencoded: [
              { key: 'login', value: '{{login}}' },
              { key: 'client_orderid', value: 'pm-{{run_id}}' },
              { key: 'orderid', value: '{{orderid}}' },
            ],
          },
        },
      },
    ],
  };
  await importFile(page, 'shop.postman_collection.json', JSON.stringify(postman));
  await expect(page.locator('p.sv-note[role=status]')).toContainText(
    'Imported 2 requests of the Postman collection',
  );
  await page.getByRole('button', { name: 'Run the collection Shop (Postman)' }).click();
  await runner(page).getByRole('button', { name: 'Run collection' }).click();
  await expect(runner(page).getByRole('status')).toHaveText('2 passed, 0 failed of 2 steps.');
  const sale = step(page, 1, 'Sale');
  await expect(sale).toContainText(/Saved \{\{orderid\}\} = \d+/);
  const orderid = /Saved \{\{orderid\}\} = (\d+)/.exec((await sale.textContent()) ?? '')![1]!;
  // The collection's {{amount}} went into the signed request.
  await expect(sale.locator('pre').first()).toContainText('amount=10.42', { useInnerText: false });
  await expect(step(page, 2, 'Status').locator('pre').first()).toContainText(`orderid=${orderid}`, {
    useInnerText: false,
  });

  await runner(page).getByRole('button', { name: 'Re-run Status' }).click();
  await expect(runner(page).getByRole('status')).toHaveText('2 passed, 0 failed of 2 steps.');
  await expect(step(page, 2, 'Status')).toContainText('passed');
});

test('a Bruno folder’s .bru files, chosen together, are imported: variables kept, other APIs skipped', async ({
  page,
}) => {
  const dir = path.join(import.meta.dirname, '../test/exports/fixtures/bruno-shop');
  const files = [
    'bruno.json',
    'collection.bru',
    'environments/Local.bru',
    'Payments/Sale.bru',
    'Payments/Status.bru',
  ]
    .concat(['Payments/Status-v4.bru', 'Other/Weather.bru'])
    .map((f) => ({
      name: f.replace(/\//g, '-'),
      mimeType: 'text/plain',
      buffer: readFileSync(path.join(dir, f)),
    }));
  await page.goto('/saved');
  await page.getByLabel('Collections file to import').setInputFiles(files);
  await expect(page.locator('p.sv-note[role=status]')).toContainText(
    'Imported 3 requests of the Bruno collection “Shop checkout (Bruno)”',
  );
  await expect(page.getByRole('list', { name: 'Skipped requests' })).toContainText(
    'Weather for the shop page',
  );
  await expect(page.getByRole('button', { name: 'Run the collection Shop checkout (Bruno)' })).toBeVisible();
});
