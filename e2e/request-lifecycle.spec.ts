import type { Page } from '@playwright/test';
import { answer, expect, field, fillTestData, openOperation, test } from './support/fixtures.ts';

/**
 * Holds every send to the local sandbox unanswered (the proxy request stays open), so that a
 * send is in flight for as long as the test needs: no timing involved.
 */
async function holdSends(page: Page): Promise<string[]> {
  const held: string[] = [];
  await page.route('**/proxy/local/api/**', (route) => {
    held.push(route.request().url());
    // Never answered: the browser's own cancel or timeout ends it.
  });
  return held;
}

test.describe('the request lifecycle', () => {
  test('a send in flight can be cancelled, and says how to find out what happened', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    const held = await holdSends(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    await expect.poll(() => held.length).toBe(1);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'cancelled' })).toContainText(
      'The order may exist: this is not a failure, and not a reason to send a new order.',
    );
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);

    await test.step('check with status asks the gateway by client_orderid, in place', async () => {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.getByRole('button', { name: 'Check with status' }).click();
      // The held request never reached the gateway: the status check finds no such order.
      await expect(page.getByText(/^The status check answered HTTP \d+|^The gateway says: /)).toBeVisible();
      await expect(page).toHaveURL(/\/ops\/v2\/sale$/);
    });
  });

  test('a send gives up after the timeout the user set', async ({ page }) => {
    await openOperation(page, 'v2/status');
    const timeout = page.getByLabel('Timeout (s)');
    await expect(timeout).toHaveValue('30');
    await timeout.fill('0');
    await expect(timeout).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('The timeout is a whole number of seconds from 1 to 600')).toBeVisible();
    await timeout.fill('1');
    await field(page, 'client_orderid').fill('inv-timeout-1');
    await holdSends(page);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Timed out' })).toHaveText(
      /Timed out after 1 s — the gateway may still have processed it; check with status\./,
    );
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await test.step('the timeout is remembered on this device', async () => {
      await page.reload();
      await expect(page.getByLabel('Timeout (s)')).toHaveValue('1');
    });
    await expect(answer(page)).toHaveCount(0);
  });
});

test.describe('field errors where the field is', () => {
  test('an invalid endpoint id marks the endpoint field and keeps the signing panes', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    const endpoint = page.getByLabel('Endpoint id', { exact: true });
    const original = await endpoint.inputValue();
    const panes = page.getByRole('heading', { level: 2, name: /^Signing input/ });
    const problems = page.getByRole('list', { name: 'Problems' });

    await test.step('letters: the field says so, the panes still sign', async () => {
      await endpoint.fill('12a');
      await expect(endpoint).toHaveAttribute('aria-invalid', 'true');
      await expect(endpoint).toHaveAccessibleDescription(
        'The endpoint id "12a" must be a whole number (digits only), e.g. 1111.',
      );
      await expect(page.getByLabel('Signature', { exact: true })).toHaveText(/^[0-9a-f]{40}$/);
      await expect(panes).toBeVisible();
      // Said once, at the field (issue 19): not again in the panes' problems.
      await expect(page.getByText('must be a whole number')).toHaveCount(1);
      await expect(problems).toHaveCount(0);
    });

    await test.step('Send refuses it and says why', async () => {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Not sent' })).toContainText(
        "Not sent: the profile's endpoint id needs fixing (see the profile bar).",
      );
      await expect(page.getByText('must be a whole number')).toHaveCount(1);
      await expect(answer(page)).toHaveCount(0);
    });

    await test.step('more than int64: says so', async () => {
      await endpoint.fill('9223372036854775808');
      await expect(endpoint).toHaveAccessibleDescription(
        /larger than the largest int64 \(9223372036854775807\)/,
      );
      await expect(page.getByLabel('Signature', { exact: true })).toHaveText(/^[0-9a-f]{40}$/);
    });

    await test.step('a valid id clears the mark', async () => {
      await endpoint.fill(original);
      await expect(endpoint).not.toHaveAttribute('aria-invalid', 'true');
      await expect(problems).toHaveCount(0);
    });
  });
});

test('every placeholder in the form starts with "e.g. "', async ({ page }) => {
  for (const path of ['v2/sale', 'v2/status', 'v4/create-recurring-payment', '3ds/v1/upload-cres-result']) {
    await openOperation(page, path);
    const form = page.getByRole('form', { name: /parameters$/ });
    await form.getByRole('button', { name: 'Add parameter' }).click();
    const placeholders = await form
      .locator('input[placeholder], textarea[placeholder]')
      .evaluateAll((els) =>
        els.map((e) => `${e.id || e.getAttribute('aria-label')}: ${e.getAttribute('placeholder')}`),
      );
    expect(placeholders.length).toBeGreaterThan(2);
    expect(placeholders.filter((p) => !/: e\.g\. \S/.test(p))).toEqual([]);
  }
});
