import type { Page } from '@playwright/test';
import { demoMerchant, expect, field, signature, test } from './support/fixtures.ts';
import { controlSha1, minorUnits } from './support/oracle.ts';

/**
 * /ops/<operation> is pre-rendered: the form is in the HTML and a small module signs it before the
 * app has loaded; the app then takes over what was typed. Typing starts right after navigation and
 * must lose nothing whether the app arrives after the typing, in the middle of it or before it
 * (the app's entry is held back by the test, not timed).
 */

const TYPED = {
  client_orderid: 'ff-1042',
  order_desc: 'First form',
  amount: '10.42',
  email: 'john.smith@example.com',
  city: 'Zürich',
} as const;
const NAMES = Object.keys(TYPED) as Array<keyof typeof TYPED>;

/** The app's entry, read from the pre-rendered page (it loads it after the first paint). */
async function appEntry(page: Page): Promise<string> {
  const html = await (await page.request.get('/ops/v2/sale')).text();
  const data = /<script type="application\/json" id="first-form-data">(.*?)<\/script>/.exec(html);
  expect(data, 'the page is pre-rendered').not.toBeNull();
  return (JSON.parse(data![1]!) as { app: { entry: string } }).app.entry;
}

/** Holds the app's entry module until `release()` is called. */
async function holdApp(page: Page): Promise<() => void> {
  const entry = await appEntry(page);
  let release!: () => void;
  const released = new Promise<void>((done) => (release = done));
  await page.route(`**${entry}`, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function typeFields(page: Page, names: readonly (keyof typeof TYPED)[]): Promise<void> {
  for (const name of names) await field(page, name).pressSequentially(TYPED[name]);
}

async function expectTakenOver(page: Page): Promise<void> {
  const demo = await demoMerchant(page);
  await test.step('the app is live and every character is in its form', async () => {
    await expect(page.getByRole('button', { name: 'Fill with test data' })).toBeVisible();
    await expect(page.locator('#first-form')).toHaveCount(0);
    for (const name of NAMES) await expect(field(page, name)).toHaveValue(TYPED[name]);
    await expect(field(page, 'city')).toBeFocused();
  });
  await test.step('the signature on screen is the independent SHA-1 of the control concatenation', async () => {
    const endpointId = await page.getByLabel('Endpoint id', { exact: true }).inputValue();
    expect(endpointId).toBe(String(demo.endpointIds[0]));
    await expect(signature(page)).toHaveText(
      controlSha1([endpointId, TYPED.client_orderid, minorUnits(TYPED.amount), TYPED.email], demo.controlKey),
    );
  });
}

test.describe('the pre-rendered first form', () => {
  test('typing before the app has loaded: signed at once, nothing lost when the app takes over', async ({
    page,
  }) => {
    const release = await holdApp(page);
    const demo = await demoMerchant(page);
    await page.goto('/ops/v2/sale');
    await test.step('type into the pre-rendered form while the app is held back', async () => {
      await typeFields(page, NAMES);
      await expect(page.locator('#root')).toBeEmpty();
      await expect(signature(page)).toHaveText(
        controlSha1(
          [String(demo.endpointIds[0]), TYPED.client_orderid, minorUnits(TYPED.amount), TYPED.email],
          demo.controlKey,
        ),
      );
    });
    release();
    await expectTakenOver(page);
  });

  test('typing while the app arrives: nothing lost', async ({ page }) => {
    const release = await holdApp(page);
    await page.goto('/ops/v2/sale');
    await typeFields(page, NAMES.slice(0, 2));
    release();
    // No wait: the takeover happens somewhere in the middle of these keys.
    await typeFields(page, NAMES.slice(2));
    await expectTakenOver(page);
  });

  test('typing at once, the app loading as it normally does: nothing lost', async ({ page }) => {
    await page.goto('/ops/v2/sale');
    await typeFields(page, NAMES);
    await expectTakenOver(page);
  });

  // Issue 29 §6: the pre-rendered page draws the app's frame around the form, so the first field
  // stays where it is when the app takes over (it moved about 370 px before).
  for (const width of [1280, 1024, 390]) {
    test(`the first field does not move when the app takes over (${width} px wide)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      const release = await holdApp(page);
      await page.goto('/ops/v2/sale');
      const first = page.locator('#f-client_orderid');
      await expect(page.locator('#first-form')).toBeVisible();
      const before = await first.boundingBox();
      release();
      await expect(page.locator('#first-form')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Fill with test data' })).toBeVisible();
      // Measured once the page has settled: the profile bar has replaced its held place and read
      // the demo key (its status line wrapped to two lines at 1280 px and moved the form 16 px).
      await expect(page.locator('.pf-bar[aria-busy="true"]')).toHaveCount(0);
      await expect(
        page
          .getByRole('region', { name: 'Merchant credentials' })
          .getByText(/fingerprint/)
          .first(),
      ).toBeAttached();
      const after = await first.boundingBox();
      expect(before).not.toBeNull();
      expect(Math.abs(after!.x - before!.x), 'horizontal move in px').toBeLessThanOrEqual(1);
      expect(Math.abs(after!.y - before!.y), 'vertical move in px').toBeLessThanOrEqual(1);
      expect(Math.abs(after!.width - before!.width), 'width change in px').toBeLessThanOrEqual(1);
    });
  }

  test('typing after the app has loaded: the app form as usual', async ({ page }) => {
    await page.goto('/ops/v2/sale');
    await expect(page.getByRole('button', { name: 'Fill with test data' })).toBeVisible();
    await typeFields(page, NAMES);
    await expectTakenOver(page);
  });
});
