import { test as base, expect, type Page } from '@playwright/test';

/**
 * The test fixture every console spec uses: it records every request the browser context makes
 * (all pages, workers and Monaco included) and fails the test if one goes to another origin, and
 * it fails the test on any uncaught page error.
 */
export const test = base.extend<{ foreignRequests: string[]; pageErrors: string[] }>({
  /** Every uncaught error of any page of the context (popups included) fails the test. */
  pageErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (p: Page) => p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.name}: ${e.message}`));
      context.pages().forEach(watch);
      context.on('page', watch);
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  foreignRequests: [
    async ({ context, baseURL }, use) => {
      const own = new URL(baseURL!).origin;
      const foreign: string[] = [];
      context.on('request', (r) => {
        const u = r.url();
        if (u.startsWith('data:') || u.startsWith('blob:')) return;
        if (new URL(u).origin !== own) foreign.push(u);
      });
      await use(foreign);
      expect(foreign, 'requests to hosts other than the console').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export interface DemoMerchant {
  login: string;
  controlKey: string;
  endpointIds: string[];
  endpointGroupIds: string[];
  privateKeyPkcs8Pem: string;
  publicKeyPem: string;
}

export async function demoMerchant(page: Page): Promise<DemoMerchant> {
  const res = await page.request.get('/sandbox/demo-merchant');
  expect(res.ok()).toBe(true);
  return (await res.json()) as DemoMerchant;
}

export async function localBaseUrl(page: Page): Promise<string> {
  const res = await page.request.get('/proxy/targets');
  const targets = (await res.json()) as Array<{ name: string; baseUrl: string }>;
  const local = targets.find((t) => t.name === 'local');
  expect(local, 'the local sandbox target').toBeTruthy();
  return local!.baseUrl;
}

/** Opens an operation by its address and waits until the demo profile has signed the preview. */
export async function openOperation(page: Page, path: string): Promise<void> {
  await page.goto(`/ops/${path}`);
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  await expect(page.getByLabel('Login', { exact: true })).toHaveValue(/.+/);
  await expect(signature(page)).toHaveText(/^[0-9a-f]{40}$|^[A-Za-z0-9+/]+=*$/);
}

export const signature = (page: Page) => page.getByLabel('Signature', { exact: true });
export const field = (page: Page, name: string) => page.getByLabel(name, { exact: true });
export const answer = (page: Page) => page.getByRole('region', { name: 'Answer' });

/**
 * A fact of the current answer, read from its summary (labelled by the API key, e.g.
 * `paynet-order-id`): rendered with the answer itself, whether or not the lazy editor has loaded.
 */
export const answerFact = (page: Page, key: string) =>
  answer(page)
    .getByRole('group', { name: 'Answer summary' })
    .getByRole('group', { name: key, exact: true })
    .getByRole('definition');

/** Fills the form with the sandbox test data for the chosen CVV outcome. */
export async function fillTestData(page: Page, cvv?: string): Promise<void> {
  if (cvv) await page.getByLabel('Outcome (CVV)').selectOption(cvv);
  await page.getByRole('button', { name: 'Fill with test data' }).click();
}

export async function send(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(answer(page)).toBeVisible();
}

/** Starts status polling from the current answer and waits for a final status. */
export async function pollUntilFinal(page: Page, status = 'approved'): Promise<void> {
  await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
  const poller = page.getByRole('region', { name: 'Status polling' });
  await expect(poller.getByText(/^Final status after \d+ checks?: /)).toBeVisible({ timeout: 30_000 });
  await expect(poller.getByRole('status', { name: `Status: ${status}` })).toBeVisible();
}
