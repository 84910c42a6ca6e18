import type { Page } from '@playwright/test';
import { expectAccessible } from './support/axe.ts';
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

/** Every page of the console (the routes in src/app/routes.ts), with what shows it is ready. */
const PAGES: Array<{ path: string; name: string; ready: (page: Page) => Promise<void> }> = [
  { path: '/', name: 'home', ready: h1() },
  { path: '/ops/v2/sale', name: 'workbench (control)', ready: signed },
  { path: '/ops/v4/payout-check', name: 'workbench (RSA-SHA256)', ready: signed },
  { path: '/ops/3ds/v1/upload-cres-result', name: 'workbench (3-D Secure upload)', ready: signed },
  { path: '/history', name: 'history', ready: h1('History') },
  { path: '/saved', name: 'saved requests', ready: h1('Saved requests') },
  { path: '/keys', name: 'keys', ready: h1('Keys') },
  { path: '/flows', name: 'flows', ready: h1('Guided flows') },
  { path: '/flows/sale-3ds-2', name: 'a flow', ready: h1('Sale with 3-D Secure 2') },
  { path: '/export', name: 'exports', ready: h1() },
  { path: '/debugger', name: 'debugger', ready: h1() },
  { path: '/teach', name: 'teaching', ready: h1() },
  { path: '/scenarios', name: 'scenario lab', ready: scenarioLab },
  { path: '/teach/v2/sale', name: 'teaching an operation', ready: h1() },
  {
    path: '/return?status=approved&orderid=1&merchant_order=a&client_orderid=a&control=00',
    name: 'return page',
    ready: h1(),
  },
  {
    path: '/return?cres=eyJ0cmFuc1N0YXR1cyI6IlkifQ&orderid=1&client_orderid=a',
    name: 'return page with an issuer result',
    ready: h1(),
  },
  { path: '/ops/v9/no-such-operation', name: 'unknown operation', ready: h1('Unknown operation') },
  { path: '/no-such-page', name: 'not found', ready: h1('Not found') },
];

function h1(name?: string) {
  return async (page: Page) => {
    await expect(page.getByRole('heading', { level: 1, ...(name ? { name } : {}) })).toBeVisible();
  };
}

/** The lab with its table of scenarios and the merchant's choice loaded from the sandbox. */
async function scenarioLab(page: Page) {
  await h1('Scenario lab')(page);
  await expect(page.getByRole('checkbox', { name: /Duplicated callback/ })).toBeVisible();
}

async function signed(page: Page) {
  await h1()(page);
  await expect(page.getByLabel('Signature', { exact: true })).not.toHaveText('(not signed)');
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe-core finds no WCAG 2.2 AA violation (${theme} theme)`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
    });

    for (const p of PAGES) {
      test(p.name, async ({ page }) => {
        await page.goto(p.path);
        await p.ready(page);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        await expectAccessible(page, `${p.path} (${theme})`);
      });
    }

    test('save dialog, saved collections, history comparison, command palette and shortcut list', async ({
      page,
    }) => {
      test.slow();
      await openOperation(page, 'v2/sale-form');
      await fillTestData(page);
      await page.getByRole('button', { name: 'Save request' }).click();
      const dialog = page.getByRole('dialog', { name: 'Save request' });
      await expect(dialog.getByLabel('New collection name')).toBeVisible();
      await expectAccessible(page, `the save dialog (${theme})`);
      await dialog.getByLabel('Request name').fill('Hosted sale');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog).toBeHidden();
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();

      await page.goto('/saved');
      await expect(page.getByRole('region', { name: 'My requests', exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Rename Hosted sale' }).click();
      await expectAccessible(page, `saved requests with a collection (${theme})`);

      await page.goto('/history');
      const boxes = page.getByRole('checkbox', { name: /^Compare / });
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByRole('button', { name: 'Compare selected' }).click();
      await expect(page.getByRole('article', { name: 'Comparison' })).toBeVisible();
      await expectAccessible(page, `a history comparison (${theme})`);

      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Go to a page, an operation or a request' }).fill('sale');
      await expect(
        page.getByRole('dialog', { name: 'Command palette' }).getByRole('option').nth(1),
      ).toBeVisible();
      await expectAccessible(page, `the command palette (${theme})`);
      await page.keyboard.press('Escape');
      await page.getByRole('heading', { level: 1 }).click();
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      await expectAccessible(page, `the shortcut list (${theme})`);
    });

    test('history details open, a flow run and a diagnosis', async ({ page }) => {
      test.slow();
      await openOperation(page, 'v2/sale');
      await fillTestData(page);
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      await page.goto('/history');
      await page.getByRole('button', { name: 'Details', exact: true }).first().click();
      await expect(page.getByLabel('Stored answer')).toBeVisible();
      await expectAccessible(page, `history details (${theme})`);

      await page.goto('/flows/payout-check-pay');
      await expect(page.getByRole('heading', { level: 1, name: 'Payout check → payout pay' })).toBeVisible();
      await expect(page.getByText('callback inbox connected')).toBeVisible();
      await page.getByRole('button', { name: 'Run all' }).click();
      await expect(page.getByRole('status', { name: 'Flow progress' })).toHaveText(
        'Flow complete: all 4 steps succeeded.',
        { timeout: 45_000 },
      );
      await expectAccessible(page, `a flow run (${theme})`);

      await page.goto('/debugger');
      const form = page.getByRole('form', { name: 'Captured request and secrets' });
      await form
        .getByLabel('Captured request')
        .fill(
          'POST /paynet/api/v2/sale/1111 HTTP/1.1\r\nHost: gw.example\r\nAccept: application/vnd.pay+json\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\nclient_orderid=a&amount=1.00&email=a%40b.c&credit_card_number=444444******4448&control=0000000000000000000000000000000000000000',
        );
      await form.getByLabel('Merchant control key').fill('AXE-ONLY-KEY');
      await form.getByRole('button', { name: 'Diagnose' }).click();
      await expect(page.getByRole('region', { name: 'Diagnosis' }).getByRole('status').first()).toBeVisible();
      await expectAccessible(page, `a diagnosis (${theme})`);
    });

    test('the scenario lab with a delivery, a scenario opened and a handler check report', async ({
      page,
    }) => {
      test.slow();
      // A declined sale, no scenario: its relay row matches none that scenario-lab.spec.ts counts
      // (the relay table lists the whole merchant's deliveries).
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '116');
      await send(page);
      await expect(page.getByRole('table', { name: 'Callbacks received' }).locator('tbody tr')).toHaveCount(
        1,
      );
      await page.goto('/scenarios');
      await scenarioLab(page);
      const relay = page.getByRole('table', { name: 'Relay deliveries' });
      await expect(relay.getByRole('row', { name: /declined/ }).first()).toBeVisible();
      await page.getByText('What it does, what a correct merchant does').first().click();
      await page.getByRole('button', { name: 'Advance +1 s' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Advanced +1 s' })).toBeVisible();
      // A handler that answers 404 to everything: a report with failed checks.
      await page.getByLabel('Handler URL').fill(`${new URL(page.url()).origin}/proxy/no-such-handler`);
      await page.getByRole('button', { name: 'Run the checks' }).click();
      await expect(page.getByRole('table', { name: 'Handler checks' })).toBeVisible();
      await expectAccessible(page, `the scenario lab in use (${theme})`);
    });

    test('workbench with an answer and the raw request editor', async ({ page }) => {
      // A send, Monaco and a full axe run: on a loaded 2-core machine close to the default 60 s.
      test.slow();
      await openOperation(page, 'v2/sale');
      await fillTestData(page);
      await send(page);
      await expect(answer(page).getByText(/^HTTP 200\b/)).toBeVisible();
      await expectAccessible(page, `an answer (${theme})`);
    });

    test('the poll panel, a stale answer, a cancelled send and the ids picker', async ({ page }) => {
      test.slow();
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '116');
      await send(page);
      await pollUntilFinal(page, 'declined');
      await field(page, 'amount').fill('1.00');
      await expect(answer(page).getByRole('note')).toContainText('belongs to the previous request');
      await expectAccessible(page, `the poll panel and a stale answer (${theme})`);
      await page.route('**/proxy/local/api/**', () => undefined);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Check with status' })).toBeVisible();
      await expectAccessible(page, `a cancelled send (${theme})`);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await openOperation(page, 'v2/capture');
      await expect(page.getByText('No answer of this session has ids for this form yet')).toBeVisible();
      await openOperation(page, 'v2/status');
      await expect(page.getByLabel('Ids from this session’s answers')).toBeVisible();
      await expectAccessible(page, `the ids picker (${theme})`);
    });
  });
}
