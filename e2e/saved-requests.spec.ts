import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { answer, expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

const PAN = '4444444444444448';

async function saveCurrent(page: Page, name: string, collection: string | { new: string }) {
  await page.getByRole('button', { name: 'Save request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save request' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Request name').fill(name);
  if (typeof collection === 'string')
    await dialog.getByLabel('Collection', { exact: true }).selectOption({ label: collection });
  else {
    await dialog.getByLabel('Collection', { exact: true }).selectOption({ label: 'New collection…' });
    await dialog.getByLabel('New collection name').fill(collection.new);
  }
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Saved “${name}”` })).toBeVisible();
}

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [d] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return { name: d.suggestedFilename(), text: await readFile(await d.path(), 'utf8') };
}

function collection(page: Page, name: string) {
  return page.getByRole('region', { name, exact: true });
}

test('saved requests: save, rename, duplicate, reopen, send in one click, export, delete and import', async ({
  page,
}) => {
  let orderId = '';
  await test.step('save a hosted-form sale with test data in a new collection', async () => {
    await openOperation(page, 'v2/sale-form');
    await fillTestData(page);
    orderId = await field(page, 'client_orderid').inputValue();
    expect(orderId).not.toBe('');
    await saveCurrent(page, 'Hosted sale', { new: 'Demo' });
  });

  await test.step('the Saved page lists it in its collection', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Saved' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Saved requests' })).toBeVisible();
    await expect(collection(page, 'Demo').getByRole('row', { name: /Hosted sale/ })).toContainText(
      'v2/sale-form',
    );
  });

  await test.step('rename and duplicate it', async () => {
    await page.getByRole('button', { name: 'Rename Hosted sale' }).click();
    await page.getByLabel('New name for Hosted sale').fill('Hosted sale A');
    await page.getByLabel('New name for Hosted sale').press('Enter');
    await expect(page.getByRole('button', { name: 'Open Hosted sale A' })).toBeVisible();
    await page.getByRole('button', { name: 'Duplicate Hosted sale A' }).click();
    await expect(page.getByRole('button', { name: 'Open Hosted sale A (copy)' })).toBeVisible();
    // Issue 30: a copy's copy counts on ("(copy 2)"), never "(copy) (2)".
    await page.getByRole('button', { name: 'Duplicate Hosted sale A (copy)' }).click();
    await expect(page.getByRole('button', { name: 'Open Hosted sale A (copy 2)' })).toBeVisible();
    // A rename to a name the collection already has is refused, as Save asks: no two identical rows.
    await page.getByRole('button', { name: 'Rename Hosted sale A (copy 2)' }).click();
    await page.getByLabel('New name for Hosted sale A (copy 2)').fill('Hosted sale A');
    await page.getByLabel('New name for Hosted sale A (copy 2)').press('Enter');
    await expect(collection(page, 'Demo').getByRole('alert')).toHaveText(
      '“Hosted sale A” is already a request of this collection: choose another name (or delete or rename that one first).',
    );
    await page.getByLabel('New name for Hosted sale A (copy 2)').press('Escape');
    await expect(page.getByRole('button', { name: 'Open Hosted sale A', exact: true })).toHaveCount(1);
    for (const name of ['Hosted sale A (copy)', 'Hosted sale A (copy 2)']) {
      await page.getByRole('button', { name: `Delete ${name}` }).click();
      await expect(page.getByRole('button', { name: `Open ${name}` })).toHaveCount(0);
    }
  });

  await test.step('open it in the workbench with its values', async () => {
    await page.getByRole('button', { name: 'Open Hosted sale A' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/sale-form$/);
    await expect(field(page, 'client_orderid')).toHaveValue(orderId);
    await expect(answer(page)).toHaveCount(0);
  });

  await test.step('send it in one click from the Saved page; a reload does not send it again', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Saved' }).click();
    await page.getByRole('button', { name: 'Send Hosted sale A' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/sale-form$/);
    await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
    await expect(field(page, 'client_orderid')).toHaveValue(orderId);
    await page.reload();
    await expect(field(page, 'client_orderid')).toHaveValue(orderId);
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
    await expect(answer(page)).toHaveCount(0);
  });

  let exported = '';
  await test.step('export the collections as a versioned JSON file', async () => {
    await page.goto('/saved');
    const file = await download(page, 'Export collections');
    expect(file.name).toBe('pay-console-collections.json');
    const json = JSON.parse(file.text) as {
      format: string;
      version: number;
      collections: Array<{ name: string; requests: Array<{ name: string; draft: { operation: string } }> }>;
    };
    expect(json.format).toBe('pay-console-collections');
    expect(json.version).toBe(1);
    expect(json.collections).toEqual([
      { name: 'Demo', requests: [expect.objectContaining({ name: 'Hosted sale A' })] },
    ]);
    expect(json.collections[0]!.requests[0]!.draft.operation).toBe('v2/sale-form');
    exported = file.text;
  });

  await test.step('delete the collection (after confirming), then import the file back', async () => {
    await page.getByRole('button', { name: 'Delete the collection Demo' }).click();
    await page
      .getByRole('dialog', { name: 'Delete the collection?' })
      .getByRole('button', { name: 'Delete collection' })
      .click();
    await expect(collection(page, 'Demo')).toHaveCount(0);
    await page.getByLabel('Collections file to import').setInputFiles({
      name: 'demo.json',
      mimeType: 'application/json',
      buffer: Buffer.from(exported),
    });
    await expect(
      page.getByRole('status').filter({ hasText: 'Imported 1 collection with 1 request from demo.json.' }),
    ).toBeVisible();
    await expect(collection(page, 'Demo').getByRole('button', { name: 'Open Hosted sale A' })).toBeVisible();
  });

  await test.step('a file that is not a collections file gets a clear error and imports nothing', async () => {
    await page.getByLabel('Collections file to import').setInputFiles({
      name: 'postman.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ info: { name: 'x' }, item: [] })),
    });
    await expect(page.getByRole('alert')).toContainText('postman.json was not imported.');
    await expect(page.getByRole('alert')).toContainText('not a collections file');
    await page.getByLabel('Collections file to import').setInputFiles({
      name: 'newer.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ format: 'pay-console-collections', version: 9, collections: [] })),
    });
    await expect(page.getByRole('alert')).toContainText('made by a newer console');
    await expect(page.getByRole('region', { name: /^Demo/ })).toHaveCount(1);
  });
});

test('a saved card payment keeps no card number or CVV, and sending it asks for them', async ({ page }) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page);
  await page.getByRole('button', { name: 'Save request' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save request' });
  await expect(dialog).toContainText('left out: credit_card_number, cvv2 (card data)');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved “Sale' })).toBeVisible();

  await page.goto('/saved');
  const file = await download(page, 'Export collections');
  expect(file.text).not.toContain(PAN);
  // The CVV keeps its name, withheld (a send asks for it), never its value.
  expect(file.text).not.toMatch(/"cvv2":\s*"/);
  const stored = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const req = indexedDB.open('pay-console-saved');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const all = req.result.transaction('requests').objectStore('requests').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result));
        };
      }),
  );
  expect(stored).toContain('v2/sale');
  expect(stored).not.toContain(PAN);
  expect(stored).not.toMatch(/"cvv2":"/);

  await page.getByRole('button', { name: /^Send Sale/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not sent: fill in' })).toContainText(
    'credit_card_number, cvv2',
  );
  await expect(answer(page)).toHaveCount(0);
  await field(page, 'credit_card_number').fill(PAN);
  await field(page, 'cvv2').fill('123');
  await send(page);
  await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
});

test('a saved payout-check exported and imported in a fresh browser: Send asks for its optional destination card', async ({
  page,
  browser,
  baseURL,
}) => {
  let exported = '';
  await test.step('save a payout-check with test data (an optional destination card among them)', async () => {
    await openOperation(page, 'v4/payout-check');
    await fillTestData(page);
    await expect(field(page, 'destination-card-no')).toHaveValue(PAN);
    await saveCurrent(page, 'Payout check', { new: 'Payouts' });
  });

  await test.step('the Saved page says what Send will ask for; the export keeps no card number', async () => {
    await page.goto('/saved');
    await expect(collection(page, 'Payouts').getByRole('row', { name: /Payout check/ })).toContainText(
      'Send asks first for: destination-card-no',
    );
    exported = (await download(page, 'Export collections')).text;
    expect(exported).not.toContain(PAN);
  });

  const fresh = await browser.newContext({ baseURL: baseURL! });
  const other = await fresh.newPage();
  const errors: string[] = [];
  other.on('pageerror', (e) => errors.push(e.message));
  try {
    await test.step('import the file in a fresh browser and press Send: nothing goes out', async () => {
      await other.goto('/saved');
      await other.getByLabel('Collections file to import').setInputFiles({
        name: 'payouts.json',
        mimeType: 'application/json',
        buffer: Buffer.from(exported),
      });
      await other.getByRole('button', { name: 'Send Payout check' }).click();
      await expect(other).toHaveURL(/\/ops\/v4\/payout-check$/);
      await expect(other.getByRole('alert').filter({ hasText: 'Not sent: fill in' })).toContainText(
        'destination-card-no',
      );
      await expect(field(other, 'destination-card-no')).toBeFocused();
      await expect(
        other.getByRole('group', { name: /Not kept with this request/ }).getByRole('button', {
          name: 'destination-card-no',
        }),
      ).toBeVisible();
      await expect(answer(other)).toHaveCount(0);
      await other.goto('/history');
      await expect(other.getByText('Nothing sent yet.', { exact: false })).toBeVisible();
    });

    await test.step('filled in, it goes out with the destination card', async () => {
      await other.goBack();
      await expect(other).toHaveURL(/\/ops\/v4\/payout-check$/);
      await field(other, 'destination-card-no').fill(PAN);
      await expect(other.getByRole('group', { name: /Not kept with this request/ })).toHaveCount(0);
      await expect(other.getByRole('group', { name: 'Raw HTTP request' })).toContainText(
        `destination-card-no=${PAN}`,
      );
      await send(other);
      await expect(answer(other).getByText(/^HTTP 200\b/)).toBeVisible();
    });
  } finally {
    await fresh.close();
  }
  expect(errors).toEqual([]);
});

test('Save updates the open saved request, Save as makes a copy, a second one of a name asks', async ({
  page,
}) => {
  await test.step('save a hosted sale, then open it from the Saved page', async () => {
    await openOperation(page, 'v2/sale-form');
    await fillTestData(page);
    await field(page, 'amount').fill('10.42');
    await saveCurrent(page, 'Sale A', { new: 'Mine' });
    await page.goto('/saved');
    await page.getByRole('button', { name: 'Open Sale A' }).click();
    await expect(field(page, 'amount')).toHaveValue('10.42');
    await expect(page.getByText('Saved request Sale A')).toBeVisible();
    await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  });

  await test.step('a change shows the unsaved-changes mark; changed back, it goes', async () => {
    await field(page, 'amount').fill('11.00');
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await field(page, 'amount').fill('10.42');
    await expect(page.getByText('Unsaved changes')).toHaveCount(0);
  });

  await test.step('Save updates it in place', async () => {
    await field(page, 'amount').fill('12.00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved changes to “Sale A”.' })).toBeVisible();
    await expect(page.getByText('Unsaved changes')).toHaveCount(0);
    await page.goto('/saved');
    await expect(collection(page, 'Mine').getByRole('row')).toHaveCount(2);
    await page.getByRole('button', { name: 'Open Sale A' }).click();
    await expect(field(page, 'amount')).toHaveValue('12.00');
  });

  await test.step('Save as under the same name asks: keep both', async () => {
    await field(page, 'amount').fill('13.00');
    await page.getByRole('button', { name: 'Save as…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as a new request' });
    await dialog.getByLabel('Request name').fill('Sale A');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('“Sale A” is already in Mine.');
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Saved request Sale A (2)')).toBeVisible();
  });

  await test.step('… or replace it', async () => {
    await field(page, 'amount').fill('14.00');
    await page.getByRole('button', { name: 'Save as…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as a new request' });
    await dialog.getByLabel('Request name').fill('Sale A');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Replaced “Sale A” in Mine.' })).toBeVisible();
    await page.goto('/saved');
    const rows = collection(page, 'Mine').getByRole('row');
    await expect(rows).toHaveCount(3);
    await page.getByRole('button', { name: 'Open Sale A', exact: true }).click();
    await expect(field(page, 'amount')).toHaveValue('14.00');
    await page.goto('/saved');
    await page.getByRole('button', { name: 'Open Sale A (2)' }).click();
    await expect(field(page, 'amount')).toHaveValue('13.00');
  });
});
