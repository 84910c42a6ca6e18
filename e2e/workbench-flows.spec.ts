import {
  answer,
  answerFact,
  expect,
  field,
  fillTestData,
  openOperation,
  pollUntilFinal,
  send,
  test,
} from './support/fixtures.ts';

test.describe('user paths through the sandbox', () => {
  test('a sale is approved, polled to its final status, and its callback checks out', async ({ page }) => {
    await test.step('fill the sale with the approving CVV and send it', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '123');
      await expect(field(page, 'credit_card_number')).toHaveValue('4444444444444448');
      await expect(field(page, 'server_callback_url')).toHaveValue(/\/callbacks\/s-[a-z0-9]+$/);
      await send(page);
      await expect(answer(page).getByRole('status', { name: 'Status: accepted: processing' })).toBeVisible();
    });
    await test.step('poll status until it is final', async () => {
      await pollUntilFinal(page, 'approved');
    });
    await test.step('the callback arrives and its control is valid', async () => {
      const callbacks = page.getByRole('table', { name: 'Callbacks received' });
      await expect(callbacks.getByRole('row', { name: /approved/ }).first()).toContainText(
        '✓ control valid',
        { timeout: 20_000 },
      );
    });
  });

  test('Ctrl+Enter sends, and a declined outcome shows its error message', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '116');
    await field(page, 'amount').focus();
    await page.keyboard.press('Control+Enter');
    await expect(answer(page)).toBeVisible();
    await pollUntilFinal(page, 'declined');
    await expect(
      page.getByRole('region', { name: 'Status polling' }).getByText(/insufficient funds/i),
    ).toBeVisible();
  });

  test('preauth → capture → return through the follow-up buttons', async ({ page }) => {
    let orderId = '';
    await test.step('preauth, approved', async () => {
      await openOperation(page, 'v2/preauth');
      await fillTestData(page, '123');
      await send(page);
      // Read from the answer summary, which does not depend on the lazy editor having loaded.
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(/^\d+$/);
      orderId = (await answerFact(page, 'paynet-order-id').textContent()) ?? '';
      await pollUntilFinal(page);
    });
    await test.step('capture with the ids carried over', async () => {
      await answer(page).getByRole('button', { name: 'Next: Capture' }).click();
      await expect(page).toHaveURL(/\/ops\/v2\/capture$/);
      await expect(field(page, 'orderid')).toHaveValue(orderId);
      await expect(field(page, 'client_orderid')).not.toHaveValue('');
      await expect(field(page, 'amount')).toHaveValue('');
      await send(page);
      await expect(answer(page).getByRole('status', { name: 'Status: accepted: processing' })).toBeVisible();
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(orderId);
      await pollUntilFinal(page);
    });
    await test.step('return (refund) the captured preauth', async () => {
      await answer(page).getByRole('button', { name: 'Next: Return' }).click();
      await expect(page).toHaveURL(/\/ops\/v2\/return$/);
      await expect(field(page, 'orderid')).toHaveValue(orderId);
      await send(page);
      await expect(answerFact(page, 'paynet-order-id')).toHaveText(orderId);
      await pollUntilFinal(page);
    });
    expect(orderId).not.toBe('');
  });

  test('payout-check → payout-pay (RSA-SHA256)', async ({ page }) => {
    await openOperation(page, 'v4/payout-check');
    await fillTestData(page);
    await send(page);
    await expect(answer(page).getByText('HTTP 200')).toBeVisible();
    await pollUntilFinal(page);
    await answer(page).getByRole('button', { name: 'Next: Payout pay (step 2)' }).click();
    await expect(page).toHaveURL(/\/ops\/v4\/payout-pay$/);
    await expect(field(page, 'orderid')).toHaveValue(/^\d+$/);
    await send(page);
    await expect(answer(page).getByText('HTTP 200')).toBeVisible();
    await pollUntilFinal(page);
  });

  test('sale → create-card-ref → make-rebill with cardrefid from card-ref-id', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await fillTestData(page, '123');
    await send(page);
    await pollUntilFinal(page);
    await answer(page).getByRole('button', { name: 'Next: Create card reference', exact: true }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/create-card-ref$/);
    await send(page);
    await expect(answer(page).getByRole('status', { name: 'Status: card reference created' })).toBeVisible();
    await answer(page).getByRole('button', { name: 'Next: Rebill a stored card' }).click();
    await expect(page).toHaveURL(/\/ops\/v2\/make-rebill$/);
    await expect(field(page, 'cardrefid')).toHaveValue(/^\d+$/);
    await send(page);
    await expect(answer(page).getByText('HTTP 200')).toBeVisible();
    await pollUntilFinal(page);
  });

  test('a 3-D Secure 2 sale: Method upload, the issuer page in a new tab, the CRes upload', async ({
    page,
    context,
  }) => {
    // Eight steps across two tabs: on a loaded machine the whole exceeds the default 60 s budget.
    test.slow();
    await test.step('sale with the 3DS CVV', async () => {
      await openOperation(page, 'v2/sale');
      await fillTestData(page, '321');
      await send(page);
      await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
    });
    await test.step('the status shows the Method step; upload its result', async () => {
      const poller = page.getByRole('region', { name: 'Status polling' });
      await poller.getByRole('button', { name: 'Next: Upload 3DS Method result' }).click();
      await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-method-url-result$/);
      await expect(field(page, 'threeDSServerTransID')).not.toHaveValue('');
      await send(page);
      await expect(answer(page).getByText('HTTP 200')).toBeVisible();
      await answer(page).getByRole('button', { name: 'Poll status until final' }).click();
    });
    const issuer = await test.step('open the issuer page in a new tab', async () => {
      const link = page
        .getByRole('region', { name: 'Status polling' })
        .getByRole('link', { name: /3-D Secure page/ });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
      const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
      return tab;
    });
    await test.step('authenticate with the sandbox password "hint"', async () => {
      await expect(issuer.getByText(/password "hint"/)).toBeVisible();
      await issuer.getByLabel('Password').fill('hint');
      await issuer.getByRole('button', { name: 'Confirm' }).click();
      await expect(issuer).toHaveURL(/\/return$/);
    });
    await test.step('the sending tab takes the CRes; its upload is approved', async () => {
      // The tab that sent the payment is open: it takes the issuer's result, and the return tab
      // (which holds no upload of its own to make) says so.
      await expect(
        issuer.getByRole('heading', { level: 1, name: 'Authentication done, you can close this tab' }),
      ).toBeVisible();
      await expect(page).toHaveURL(/\/ops\/3ds\/v1\/upload-cres-result$/);
      await expect(field(page, 'cRes')).not.toHaveValue('');
      await expect(field(page, 'Login')).toHaveValue(/.+/);
      await send(page);
      await expect(answer(page).getByText('HTTP 200')).toBeVisible();
      await pollUntilFinal(page, 'approved');
    });
  });

  test('a wrong control key shows the expected signing input beside the one sent', async ({ page }) => {
    await openOperation(page, 'v2/sale');
    await page.getByLabel('Control key', { exact: true }).fill('WRONG-KEY-0000');
    await fillTestData(page);
    await send(page);
    const refused = answer(page).getByRole('region', { name: 'Signature refused' });
    await expect(answer(page).getByRole('status', { name: 'Status: validation error' })).toBeVisible();
    await expect(answer(page).getByLabel('Error message')).toContainText('INVALID_CONTROL_CODE');
    await expect(
      refused.getByText(/Every term matches the sandbox’s: the difference is the merchant control key/),
    ).toBeVisible();
    const terms = refused.getByRole('table', { name: 'Expected versus sent terms' });
    await expect(terms.getByRole('row')).toHaveCount(6);
    await expect(refused.getByLabel('Signing input difference')).toContainText('<merchant_control_key>');
  });

  test('an edited formula shows which terms differ from what the sandbox expected', async ({ page }) => {
    await openOperation(page, 'v2/get-card-info');
    await expect(page.getByText('formula from gateway notes', { exact: true })).toBeVisible();
    await fillTestData(page);
    await page.getByRole('button', { name: 'Move term 2 up' }).click();
    await send(page);
    const refused = answer(page).getByRole('region', { name: 'Signature refused' });
    await expect(refused.getByText('2 terms differ')).toBeVisible();
    const terms = refused.getByRole('table', { name: 'Expected versus sent terms' });
    await expect(terms.getByRole('row', { name: /^1 cardrefid/ })).toContainText('✗ differs');
    await expect(refused.getByLabel('Signing input difference').locator('del, ins').first()).toBeVisible();
  });

  test('a hosted sale form opens in a new tab and the customer comes back with a valid control', async ({
    page,
    context,
  }) => {
    await openOperation(page, 'v2/sale-form');
    await fillTestData(page);
    await send(page);
    await expect(answer(page).getByRole('status', { name: 'Status: redirect' })).toBeVisible();
    const link = answer(page).getByRole('link', { name: /Open the hosted form/ });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    const [form] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await form.getByLabel('Card number').fill('4444444444444448');
    await form.getByLabel('Name on the card').fill('JOHN SMITH');
    await form.getByLabel('Expiry month').fill('12');
    await form.getByLabel('Expiry year').fill(String(new Date().getFullYear() + 3));
    await form.getByLabel('CVV2').fill('123');
    await form.getByRole('button', { name: 'Pay' }).click();
    // POSTed back, as from the gateway: the address has no query.
    await expect(form).toHaveURL(/\/return$/);
    await expect(form.getByRole('heading', { name: 'The customer is back' })).toBeVisible();
    await expect(form.getByRole('status').filter({ hasText: '✓ control matches' })).toBeVisible();
  });
});
