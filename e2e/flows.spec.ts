import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/fixtures.ts';

interface FlowCase {
  title: string;
  steps: number;
  /** The issuer page the customer passes, for the 3-D Secure flows. */
  issuer?: 'PaRes' | 'cres';
  /** Final statuses, in order, with the transaction type the status shows. */
  approved: string[];
}

const FLOWS: FlowCase[] = [
  {
    title: 'Preauth → partial capture → return',
    steps: 6,
    approved: ['preauth', 'capture', 'reversal'],
  },
  { title: 'Sale with 3-D Secure 1.0.2', steps: 5, issuer: 'PaRes', approved: ['sale'] },
  { title: 'Sale with 3-D Secure 2', steps: 8, issuer: 'cres', approved: ['sale'] },
  { title: 'Payout check → payout pay', steps: 4, approved: ['payout-check', 'payout-pay'] },
  { title: 'Create card ref → get card info → make rebill', steps: 6, approved: ['sale', 'rebill'] },
  { title: 'Create recurring payment', steps: 2, approved: ['recurring'] },
];

const progress = (page: Page) => page.getByRole('status', { name: 'Flow progress' });
const steps = (page: Page) => page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
const timeline = (page: Page) => page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');

async function openFlow(page: Page, title: string): Promise<void> {
  await page.goto('/flows');
  await expect(page.getByRole('heading', { level: 1, name: 'Guided flows' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: title, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run all' })).toBeEnabled();
  await expect(page.getByText('callback inbox connected')).toBeVisible();
}

async function passIssuerPage(page: Page, context: BrowserContext, returns: string): Promise<void> {
  const link = page.getByRole('link', { name: 'Open the issuer page' });
  await expect(link).toBeVisible({ timeout: 20_000 });
  await expect(link).toHaveAttribute('target', '_blank');
  const [issuer] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(issuer.getByRole('heading', { name: /Issuer authentication/ })).toBeVisible();
  await issuer.getByLabel('Password').fill('hint');
  // The issuer page POSTs the result back to the flow's inbox, as the gateway's TermUrl gets it.
  const back = issuer.waitForRequest((r) => r.method() === 'POST' && /\/callbacks\//.test(r.url()));
  await issuer.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    issuer.getByRole('heading', { level: 1, name: 'Authentication done, you can close this tab' }),
  ).toBeVisible();
  expect(new URLSearchParams((await back).postData() ?? '').get(returns)).toBeTruthy();
  await issuer.close();
}

test.describe('guided flows run end to end against the local sandbox', () => {
  for (const flow of FLOWS) {
    test(flow.title, async ({ page, context }) => {
      await test.step('open the flow', async () => {
        await openFlow(page, flow.title);
        await expect(steps(page)).toHaveCount(flow.steps);
      });
      await test.step('run all', async () => {
        await page.getByRole('button', { name: 'Run all' }).click();
      });
      if (flow.issuer) {
        await test.step(`the customer passes the issuer page with the password "hint"`, async () => {
          await passIssuerPage(page, context, flow.issuer!);
          await expect(
            timeline(page).filter({ hasText: `Customer returned to redirect_url with ${flow.issuer}` }),
          ).toHaveCount(1);
        });
      }
      await test.step('every step succeeded', async () => {
        await expect(progress(page)).toHaveText(`Flow complete: all ${flow.steps} steps succeeded.`, {
          timeout: 45_000,
        });
        for (const item of await steps(page).all()) await expect(item).toContainText('— done');
      });
      await test.step('the timeline shows the requests and the final statuses', async () => {
        const approved = timeline(page).filter({ hasText: /^\S+\s*status\s*Status: approved/ });
        await expect(approved).toHaveCount(flow.approved.length);
        for (const [i, type] of flow.approved.entries())
          await expect(approved.nth(i)).toContainText(`approved · ${type}`);
        const failed = timeline(page).filter({ hasText: /HTTP (4|5)\d\d/ });
        await expect(failed).toHaveCount(0);
        await expect(
          timeline(page)
            .filter({ hasText: /HTTP 200/ })
            .first(),
        ).toBeVisible();
      });
    });
  }

  test('callbacks arrive on the timeline with a valid control', async ({ page }) => {
    await openFlow(page, 'Payout check → payout pay');
    await page.getByRole('button', { name: 'Run all' }).click();
    await expect(progress(page)).toHaveText('Flow complete: all 4 steps succeeded.', { timeout: 45_000 });
    const callbacks = timeline(page).filter({ hasText: 'Callback: approved' });
    await expect(callbacks).toHaveCount(2, { timeout: 20_000 });
    await expect(callbacks.first()).toContainText('✓ control valid');
    await expect(callbacks.nth(1)).toContainText('✓ control valid');
  });

  test('steps one at a time, and opens a step’s request in the workbench', async ({ page }) => {
    await openFlow(page, 'Create card ref → get card info → make rebill');
    await test.step('the inputs are editable before the first step', async () => {
      await page.getByLabel('Rebill amount').fill('5.55');
    });
    await test.step('Next step runs one step at a time', async () => {
      await page.getByRole('button', { name: 'Next step' }).click();
      await expect(progress(page)).toHaveText(
        'Done: Sale (CVV 123). Next: Wait for the sale to be approved.',
      );
      await expect(steps(page).nth(0)).toContainText('— done');
      await expect(steps(page).nth(1)).toContainText('— pending');
      await expect(page.getByLabel('Rebill amount')).toBeDisabled();
    });
    await test.step('run the rest', async () => {
      await page.getByRole('button', { name: 'Run all' }).click();
      await expect(progress(page)).toHaveText('Flow complete: all 6 steps succeeded.', { timeout: 45_000 });
    });
    await test.step('open the rebill in the workbench with the values the flow filled in', async () => {
      const rebill = timeline(page).filter({ hasText: 'v2/make-rebill' });
      // The visible words lead the accessible name (WCAG 2.5.3; axe's label-content-name-mismatch).
      const results = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
      expect(results.violations.map((v) => v.id)).toEqual([]);
      await rebill.getByRole('button', { name: /^Open in workbench: Rebill a stored card \(.*\)$/ }).click();
      await expect(page).toHaveURL(/\/ops\/v2\/make-rebill$/);
      await expect(page.getByLabel('cardrefid', { exact: true })).toHaveValue(/^\d+$/);
      await expect(page.getByLabel('amount', { exact: true })).toHaveValue('5.55');
    });
  });
});
