import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible } from './support/axe.ts';
import { expect, field, fillTestData, openOperation, send, test } from './support/fixtures.ts';

/** The merchant's own callback handler: answers 200 and remembers what it got. */
function handler(): Promise<{ server: Server; url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    received.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('OK from the merchant handler');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
        received,
      }),
    ),
  );
}

test.describe('the callbacks panel shows your own handler', () => {
  test.afterEach(async ({ page }) => {
    await page.request.put('/sandbox/scenarios/merchants/demo-merchant', { data: { choice: [] } });
  });

  for (const theme of ['light', 'dark'] as const)
    test(`callback-duplicate to the own handler: both deliveries, where they went, and a replay (${theme})`, async ({
      page,
    }) => {
      await page.addInitScript((t) => localStorage.setItem('pay-console.theme', t), theme);
      const own = await handler();
      try {
        await page.request.put('/sandbox/scenarios/merchants/demo-merchant', {
          data: { choice: [{ name: 'callback-duplicate' }] },
        });
        await openOperation(page, 'v2/sale');
        await fillTestData(page, '123');
        await page.getByText(/^Optional parameters/).click();
        await field(page, 'server_callback_url').fill(own.url);
        await send(page);
        const panel = page.getByRole('region', { name: 'Callbacks this session' });
        const deliveries = panel.getByRole('table', { name: /^Deliveries of order \d+$/ });
        await expect(deliveries.locator('tbody tr')).toHaveCount(2);
        await expect(
          panel.getByText(/^No callback in this session's inbox yet; the deliveries of order \d+/),
        ).toBeVisible();
        const first = deliveries
          .locator('tbody tr')
          .filter({ has: page.getByRole('cell', { name: 'delivered', exact: true }) });
        await expect(first).toContainText(own.url);
        await expect(first).toContainText('HTTP 200 · OK from the merchant handler');
        await expect(first.locator('td').nth(8)).toHaveText('1');
        await expect(
          deliveries
            .locator('tbody tr')
            .filter({ has: page.getByRole('cell', { name: 'duplicate', exact: true }) }),
        ).toContainText(own.url);
        expect(own.received).toHaveLength(2);
        await expectAccessible(page, `the callbacks panel with the own handler deliveries (${theme})`);

        await first.getByRole('button', { name: /^Replay \d+ as bad-control$/ }).click();
        await expect(panel.getByRole('status').filter({ hasText: 'Replayed delivery' })).toContainText(
          '(bad-control): HTTP 200',
        );
        await expect(
          deliveries
            .locator('tbody tr')
            .filter({ has: page.getByRole('cell', { name: 'replay (bad-control)', exact: true }) }),
        ).toContainText(own.url);
        expect(own.received).toHaveLength(3);

        // Beside "Export code": the program a handler runs to check a callback's control.
        await page.getByRole('button', { name: 'Verify a callback' }).click();
        const verifier = page.getByRole('region', { name: 'Verify a callback' });
        await expect(verifier.getByRole('region', { name: 'Callback verifier' })).toContainText(
          'PAY_CONTROL_KEY',
        );
        await verifier.getByLabel('Language').selectOption('python');
        await expect(verifier.getByRole('region', { name: 'Callback verifier' })).toContainText(
          'hmac.compare_digest',
        );
        await expectAccessible(page, `the callback verifier beside Export code (${theme})`);
      } finally {
        own.server.close();
      }
    });
});
