import {
  answer,
  demoMerchant,
  expect,
  field,
  localBaseUrl,
  openOperation,
  send,
  signature,
  test,
} from './support/fixtures.ts';
import { controlSha1, hmacSha1, minorUnits, oauthBaseString, rfc3986, rsaSha256 } from './support/oracle.ts';

// A fixed clock: the preview's timestamp is what the test pins, and the sandbox still accepts it.
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);

test.describe('the signature on screen equals an independent implementation', () => {
  test.beforeEach(async ({ page }) => {
    await page.clock.setFixedTime(NOW);
  });

  test('v2/sale: control = sha1(endpointId + client_orderid + amount in minor units + email + key)', async ({
    page,
  }) => {
    const demo = await demoMerchant(page);
    await test.step('open the sale form with the demo profile', async () => {
      await openOperation(page, 'v2/sale');
    });
    const values = {
      client_orderid: `sig-${NOW.getTime()}`,
      amount: '10.42',
      email: 'john.smith@example.com',
    };
    await test.step('type the signed fields', async () => {
      await page.getByRole('button', { name: 'Fill with test data' }).click();
      for (const [k, v] of Object.entries(values)) await field(page, k).fill(v);
    });
    const endpointId = await page.getByLabel('Endpoint id', { exact: true }).inputValue();
    const expected = controlSha1(
      [endpointId, values.client_orderid, minorUnits(values.amount), values.email],
      demo.controlKey,
    );
    await test.step('the page shows the same control and the amount as 10.42 → 1042', async () => {
      await expect(signature(page)).toHaveText(expected);
      const terms = page.getByRole('table', { name: 'Control terms' });
      await expect(terms.getByRole('row', { name: /amount/ })).toContainText('10.42 → 1042');
      await expect(page.getByLabel('Concatenation')).toHaveText(
        `${endpointId}${values.client_orderid}1042${values.email}<merchant_control_key>`,
      );
    });
    await test.step('typing a character updates the signature', async () => {
      await field(page, 'amount').fill('10.43');
      await expect(signature(page)).toHaveText(
        controlSha1([endpointId, values.client_orderid, '1043', values.email], demo.controlKey),
      );
    });
    await test.step('the sandbox accepts it', async () => {
      await send(page);
      await expect(answer(page).getByText('HTTP 200')).toBeVisible();
      await expect(answer(page).getByRole('status', { name: 'Status: accepted: processing' })).toBeVisible();
    });
  });

  for (const c of [
    { path: 'v2/payout', method: 'HMAC-SHA1', cores: undefined },
    // Where RSA signs depends on the machine's cores (src/app/runtime.ts): both ways are checked.
    { path: 'v4/payout-check', method: 'RSA-SHA256', cores: 2 },
    { path: 'v4/payout-check', method: 'RSA-SHA256', cores: 8 },
  ] as const) {
    const on = c.cores === undefined ? '' : ` (${c.cores} cores)`;
    test(`${c.path}: OAuth 1.0a ${c.method} over a base string the test builds${on}`, async ({ page }) => {
      if (c.cores !== undefined) {
        await page.addInitScript((n) => {
          Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n });
        }, c.cores);
      }
      const demo = await demoMerchant(page);
      const base = await localBaseUrl(page);
      await openOperation(page, c.path);
      const nonce = `pinned${c.method.replace('-', '')}${c.cores ?? ''}${NOW.getTime()}`;
      const timestamp = String(Math.floor(NOW.getTime() / 1000));
      const body: Array<[string, string]> = [
        ['client_orderid', `oa-${c.method}-${c.cores ?? 0}-${NOW.getTime()}`],
        ['amount', '25.00'],
        ['currency', 'EUR'],
        ['order_desc', "Payout: O'Brien & Sons (test) *100%*"],
        ['ipaddress', '203.0.113.7'],
        ['account_number', 'GB29NWBK60161331926819'],
        ['bank_name', 'Bank ü ~ é'],
      ];
      await test.step('fill the form and pin nonce and timestamp', async () => {
        for (const [k, v] of body) await field(page, k).fill(v);
        await page.getByLabel('Pin nonce and timestamp (to reproduce a ticket)').check();
        await field(page, 'oauth_nonce').fill(nonce);
        await field(page, 'oauth_timestamp').fill(timestamp);
      });
      const endpointId = await page.getByLabel('Endpoint id', { exact: true }).inputValue();
      const url = `${base}/api/${c.path}/${endpointId}`;
      const oauth = {
        oauth_consumer_key: demo.login,
        oauth_nonce: nonce,
        oauth_signature_method: c.method,
        oauth_timestamp: timestamp,
        oauth_version: '1.0',
      };
      const baseString = oauthBaseString(url, body, oauth);
      const expected =
        c.method === 'HMAC-SHA1'
          ? hmacSha1(baseString, demo.controlKey)
          : rsaSha256(baseString, demo.privateKeyPkcs8Pem);
      await test.step('the page shows the same base string, signature and header', async () => {
        await expect(page.getByLabel('Base string', { exact: true })).toHaveText(baseString);
        await expect(signature(page)).toHaveText(expected);
        await expect(page.getByLabel('Authorization header', { exact: true })).toContainText(
          `oauth_signature="${rfc3986(expected)}"`,
        );
        await expect(page.getByLabel('oauth_nonce value')).toHaveText(nonce);
        await expect(page.getByLabel('oauth_timestamp value')).toHaveText(timestamp);
      });
      if (c.method === 'RSA-SHA256' && c.cores > 2) {
        // With cores to spare the first RSA signature is made on the page and starts the signing
        // worker; every one after it (so the one just checked) comes from the worker.
        await test.step('RSA signatures come from the signing worker', async () => {
          await expect
            .poll(() =>
              page
                .workers()
                .map((w) => w.url())
                .join(' '),
            )
            .toContain('rsa-signer-worker');
        });
      }
      if (c.method === 'RSA-SHA256' && c.cores <= 2) {
        await test.step('on two cores RSA signs on the page: no signing worker', async () => {
          expect(page.workers().map((w) => w.url())).not.toContainEqual(
            expect.stringContaining('rsa-signer-worker'),
          );
        });
      }
      await test.step('the sandbox accepts exactly that request', async () => {
        await send(page);
        await expect(answer(page).getByText('HTTP 200')).toBeVisible();
        await expect(answer(page).getByRole('region', { name: 'Signature refused' })).toHaveCount(0);
      });
    });
  }
});
