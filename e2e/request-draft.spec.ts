/**
 * One request draft under every surface (issue 8 §1), in the browser: a captured OAuth request
 * opened from the debugger shows the captured signature unchanged (nonce and timestamp pinned);
 * teaching and share links use the opener's origin and callback inbox (this server runs on
 * E2E_PORT, not the default 4173); Send sends the request the panes show.
 */
import type { Page } from '@playwright/test';
import {
  demoMerchant,
  expect,
  field,
  fillTestData,
  localBaseUrl,
  openOperation,
  send,
  signature,
  test,
} from './support/fixtures.ts';
import { hmacSha1, oauthBaseString, rfc3986 } from './support/oracle.ts';

/** The answer's "request as sent" (opened: it is folded by default). */
async function sentRequest(page: Page): Promise<string> {
  await page.getByRole('region', { name: 'Answer' }).getByText('The request as sent').click();
  return (await page.getByRole('group', { name: 'Request as sent' }).textContent()) ?? '';
}

const inboxOf = async (page: Page) => {
  const text = (await page.getByText(/^Inbox: /).textContent()) ?? '';
  const m = /(https?:\/\/\S+\/callbacks\/[A-Za-z0-9_-]+)/.exec(text);
  expect(m, `the callbacks panel names this session's inbox: ${text}`).toBeTruthy();
  return m![1]!;
};

test('a captured OAuth request opened from the debugger shows the captured signature, pinned', async ({
  page,
}) => {
  const demo = await demoMerchant(page);
  const base = await localBaseUrl(page);
  const url = `${base}/api/v2/payout/${demo.endpointIds[0]}`;
  const body: Array<[string, string]> = [
    ['client_orderid', 'captured-1'],
    ['amount', '25.00'],
    ['currency', 'EUR'],
    ['order_desc', 'Captured payout, 100% real'],
  ];
  const oauth = {
    oauth_consumer_key: demo.login,
    oauth_nonce: 'capturedNonce0001',
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: '1767225600',
    oauth_version: '1.0',
  };
  // The capture's signature, computed here with Node's crypto.
  const captured = hmacSha1(oauthBaseString(url, body, oauth), demo.controlKey);
  const header = Object.entries({ ...oauth, oauth_signature: captured })
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}="${rfc3986(v)}"`)
    .join(', ');
  const curl = [
    `curl -sS -X POST '${url}'`,
    `-H 'Accept: application/vnd.pay+json'`,
    `-H 'Content-Type: application/x-www-form-urlencoded'`,
    `-H 'Authorization: OAuth ${header}'`,
    `--data-raw '${body.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&')}'`,
  ].join(' \\\n  ');

  await test.step('the debugger reads the capture', async () => {
    await page.goto('/debugger');
    const form = page.getByRole('form', { name: 'Captured request and secrets' });
    await form.getByLabel('Captured request').fill(curl);
    await form.getByRole('button', { name: 'Diagnose' }).click();
    await expect(
      page.getByRole('region', { name: 'Diagnosis' }).getByRole('status', { name: /^Verdict: / }),
    ).toBeVisible();
  });
  await test.step('"Open in the workbench" shows the captured signature with nonce and timestamp pinned', async () => {
    await page
      .getByRole('region', { name: 'Diagnosis' })
      .getByRole('button', { name: 'Open in the workbench' })
      .click();
    await expect(page).toHaveURL(/\/ops\/v2\/payout$/);
    await expect(page.getByLabel('Pin nonce and timestamp (to reproduce a ticket)')).toBeChecked();
    await expect(page.getByLabel('oauth_nonce value')).toHaveText('capturedNonce0001');
    await expect(page.getByLabel('oauth_timestamp value')).toHaveText('1767225600');
    await expect(signature(page)).toHaveText(captured);
    await expect(field(page, 'order_desc')).toHaveValue('Captured payout, 100% real');
  });
});

test('teaching fills redirect_url and server_callback_url with this console’s origin and inbox', async ({
  page,
}) => {
  await openOperation(page, 'v2/sale');
  const inbox = await inboxOf(page);
  const origin = new URL(page.url()).origin;
  expect(origin).not.toContain(':4173');
  expect(inbox.startsWith(`${origin}/callbacks/`)).toBe(true);
  await page.goto('/teach/v2/sale');
  await expect(page.getByRole('heading', { name: 'Teaching mode', level: 1 })).toBeVisible();
  const values = page.locator('details').filter({ has: page.getByText(/^Values \(/) });
  if ((await values.getAttribute('open')) === null) await values.getByText(/^Values \(/).click();
  await expect(field(page, 'redirect_url')).toHaveValue(`${origin}/return`);
  await expect(field(page, 'server_callback_url')).toHaveValue(inbox);
});

test('a share link carries no callback inbox: it opens with the recipient’s own', async ({
  page,
  context,
}) => {
  await openOperation(page, 'v2/sale');
  await fillTestData(page, '123');
  const senderInbox = await inboxOf(page);
  await expect(field(page, 'server_callback_url')).toHaveValue(senderInbox);
  await page.getByRole('button', { name: 'Share link' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  const json = Buffer.from(new URL(link).hash.replace(/^#share=/, ''), 'base64url').toString('utf8');
  expect(json).not.toContain(senderInbox);
  expect(json).not.toContain(new URL(senderInbox).pathname.split('/').pop()!);
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);

  const other = await context.newPage(); // a new tab: a session, and so an inbox, of its own
  await other.goto(link);
  await expect(other).toHaveURL(/\/ops\/v2\/sale$/);
  const recipientInbox = await inboxOf(other);
  expect(recipientInbox).not.toBe(senderInbox);
  await expect(field(other, 'server_callback_url')).toHaveValue(recipientInbox);
  await expect(field(other, 'redirect_url')).toHaveValue(`${new URL(other.url()).origin}/return`);
});

test('Send sends the request the panes show, byte for byte', async ({ page }) => {
  await test.step('control: the request shown is the request sent', async () => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    const shown = (await page.getByRole('group', { name: 'curl command' }).textContent()) ?? '';
    const sig = (await signature(page).textContent()) ?? '';
    await send(page);
    const sent = await sentRequest(page);
    expect(sent).toContain(`control=${sig}`);
    expect(shown).toContain(`control=${sig}`);
    await expect(signature(page)).toHaveText(sig);
  });
  await test.step('OAuth unpinned: a fresh nonce and timestamp are drawn, shown, and that request is sent', async () => {
    await openOperation(page, 'v2/payout');
    await fillTestData(page);
    await send(page);
    const sent = await sentRequest(page);
    const nonce = (await page.getByLabel('oauth_nonce value').textContent()) ?? '';
    const sig = (await signature(page).textContent()) ?? '';
    expect(sent).toContain(`oauth_nonce="${rfc3986(nonce)}"`);
    expect(sent).toContain(`oauth_signature="${rfc3986(sig)}"`);
    await expect(page.getByRole('group', { name: 'Authorization header' })).toHaveText(/oauth_signature=/);
    const auth = (await page.getByRole('group', { name: 'Authorization header' }).textContent()) ?? '';
    expect(sent).toContain(`Authorization: ${auth}`);
  });
});
