import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import {
  answer,
  expect,
  field,
  fillTestData,
  openOperation,
  pollUntilFinal,
  send,
  test,
} from './support/fixtures.ts';

test.use({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });

function shotPath(configFile: string | undefined, name: string): string {
  const dir = join(configFile ? dirname(configFile) : process.cwd(), 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/** Waits until Monaco has replaced the plain text of a code view (it loads when the page is idle). */
async function monacoReady(page: Page, label: string): Promise<void> {
  await expect(page.getByRole('textbox', { name: label })).toBeAttached({ timeout: 20_000 });
}

/** The live raw-HTTP pane stays plain, coloured text (Monaco opens there only on demand). */
async function rawHttpShown(page: Page): Promise<void> {
  await expect(page.getByRole('group', { name: 'Raw HTTP request' })).toContainText('HTTP/1.1');
}

test('README screenshots: control workbench, OAuth workbench, an answer', async ({ page }, testInfo) => {
  const configFile = testInfo.config.configFile;
  await test.step('workbench-control.png: a sale with its control terms', async () => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    await field(page, 'client_orderid').fill('inv-10042');
    await rawHttpShown(page);
    await page.screenshot({ path: shotPath(configFile, 'workbench-control.png') });
  });
  await test.step('workbench-oauth.png: payout-check with its base string', async () => {
    await openOperation(page, 'v4/payout-check');
    await fillTestData(page);
    await field(page, 'client_orderid').fill('po-20001');
    await page.getByLabel('Pin nonce and timestamp (to reproduce a ticket)').check();
    await rawHttpShown(page);
    await page.getByRole('heading', { name: /Signing input/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: shotPath(configFile, 'workbench-oauth.png') });
  });
  await test.step('answer.png: a sale approved after status polling', async () => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    await send(page);
    await pollUntilFinal(page);
    await monacoReady(page, 'Response body');
    await answer(page).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, -8));
    await page.screenshot({ path: shotPath(configFile, 'answer.png') });
  });
});

test('README screenshots: the signature debugger, a guided flow', async ({ page }, testInfo) => {
  const configFile = testInfo.config.configFile;
  await test.step('debugger.png: a captured payout whose spaces were signed as +', async () => {
    const corpus = resolve(import.meta.dirname, '../test/corpus/cases');
    const sidecar = JSON.parse(readFileSync(join(corpus, 'plus-for-space.json'), 'utf8')) as {
      secrets: { login: string; controlKey: string };
    };
    await page.goto('/debugger');
    const form = page.getByRole('form', { name: 'Captured request and secrets' });
    await form.getByLabel('Captured request').fill(readFileSync(join(corpus, 'plus-for-space.curl'), 'utf8'));
    await form.getByLabel('Merchant login').fill(sidecar.secrets.login);
    await form.getByLabel('Merchant control key').fill(sidecar.secrets.controlKey);
    await form.getByRole('button', { name: 'Diagnose' }).click();
    await expect(page.getByRole('region', { name: 'Diagnosis' })).toContainText('MISMATCH');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath(configFile, 'debugger.png') });
  });
  await test.step('flow.png: preauth, partial capture and return, run to the end', async () => {
    await page.goto('/flows');
    await page
      .getByRole('main')
      .getByRole('link', { name: /^Preauth → partial capture → return/ })
      .click();
    await expect(page.getByText('callback inbox connected')).toBeVisible();
    await page.getByRole('button', { name: 'Run all' }).click();
    await expect(page.getByRole('status', { name: 'Flow progress' })).toContainText('Flow complete', {
      timeout: 45_000,
    });
    await page.screenshot({ path: shotPath(configFile, 'flow.png') });
  });
});

test('README screenshot: the answer panel with the whole status answer', async ({ page }, testInfo) => {
  const configFile = testInfo.config.configFile;
  // A fixed clock: the times the panel shows are the same on every run.
  await page.clock.setFixedTime(new Date('2026-11-24T10:00:00Z'));
  await openOperation(page, 'v2/preauth');
  await fillTestData(page, '123');
  await field(page, 'client_orderid').fill('inv-20001');
  await send(page);
  await pollUntilFinal(page, 'approved');
  const poller = page.getByRole('region', { name: 'Status polling' });
  await expect(poller.getByRole('group', { name: 'Last status answer' })).toContainText('approval-code');
  await expect(answer(page).getByRole('button', { name: 'Next: Capture' })).toBeVisible();
  await monacoReady(page, 'Response body');
  await answer(page).screenshot({ path: shotPath(configFile, 'answer-panel.png') });
});

test('README screenshots: saved requests and the command palette', async ({ page }, testInfo) => {
  const configFile = testInfo.config.configFile;
  const save = async (name: string, collection: string) => {
    await page.getByRole('button', { name: 'Save request' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save request' });
    await dialog.getByLabel('Request name').fill(name);
    const select = dialog.getByLabel('Collection', { exact: true });
    if (await select.getByRole('option', { name: collection, exact: true }).count()) {
      await select.selectOption({ label: collection });
    } else {
      await select.selectOption({ label: 'New collection…' });
      await dialog.getByLabel('New collection name').fill(collection);
    }
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: `Saved “${name}”` })).toBeVisible();
  };
  await test.step('save three requests in two collections', async () => {
    await openOperation(page, 'v2/sale-form');
    await fillTestData(page);
    await field(page, 'client_orderid').fill('inv-10042');
    await save('Hosted sale, ticket 4711', 'Support tickets');
    await openOperation(page, 'v4/payout-check');
    await fillTestData(page);
    await field(page, 'client_orderid').fill('inv-10043');
    await save('Payout check, ticket 4720', 'Support tickets');
    await openOperation(page, 'v2/sale');
    await fillTestData(page);
    await field(page, 'client_orderid').fill('inv-10044');
    await save('Sale with the test card', 'Training');
  });
  await test.step('saved-requests.png: the Saved page', async () => {
    await page.goto('/saved');
    await expect(page.getByRole('region', { name: 'Training', exact: true })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Support tickets', exact: true }).getByRole('row'),
    ).toHaveCount(3);
    await page.screenshot({ path: shotPath(configFile, 'saved-requests.png') });
  });
  await test.step('command-palette.png: Ctrl+K, "sale"', async () => {
    await page.keyboard.press('Control+k');
    const combo = page.getByRole('combobox', { name: 'Go to a page, an operation or a request' });
    await combo.fill('sale');
    const list = page.getByRole('dialog', { name: 'Command palette' }).getByRole('option');
    await expect(list.filter({ hasText: 'Sale with the test card' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Command palette' })).not.toContainText('loading');
    await page.screenshot({ path: shotPath(configFile, 'command-palette.png') });
  });
});
