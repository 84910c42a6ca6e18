/**
 * The teaching mode through its page, against the real server and the local sandbox: a switch per
 * scheme changes the signature (checked against Node's crypto for control) and the sandbox's
 * refusal is shown; the three walkthroughs show each step with its rule, and their signatures are
 * the ones Node's crypto computes or verifies.
 */
import { createVerify } from 'node:crypto';
import type { Page } from '@playwright/test';
import { demoMerchant, expect, test } from './support/fixtures.ts';
import { controlSha1, hmacSha1, minorUnits } from './support/oracle.ts';

const correctSignature = (page: Page) => page.getByLabel('Correct signature', { exact: true });
const mistakenSignature = (page: Page) => page.getByLabel('Mistaken signature', { exact: true });
const answer = (page: Page) => page.getByRole('region', { name: 'Sandbox answer' });

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`/teach/${path}`);
  await expect(page.getByRole('heading', { name: 'Teaching mode', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Operation', { exact: true })).toHaveValue(path);
  await expect(correctSignature(page)).toHaveText(/^[0-9a-f]{40}$|^[A-Za-z0-9+/]+=*$/);
}

async function value(page: Page, name: string): Promise<string> {
  const values = page.locator('details').filter({ has: page.getByText(/^Values \(/) });
  if ((await values.getAttribute('open')) === null) await values.getByText(/^Values \(/).click();
  await expect(page.getByLabel(name, { exact: true })).toBeVisible();
  return page.getByLabel(name, { exact: true }).inputValue();
}

async function inject(page: Page, name: string): Promise<{ correct: string; mistaken: string }> {
  const before = (await correctSignature(page).textContent()) ?? '';
  await page
    .getByRole('group', { name: 'Inject one mistake' })
    .getByRole('radio', { name, exact: true })
    .check();
  await expect(page.getByRole('status', { name: 'Signature changed' })).toHaveText('The signature changed.');
  const mistaken = (await mistakenSignature(page).textContent()) ?? '';
  expect(mistaken).not.toBe(before);
  await expect(correctSignature(page)).toHaveText(before);
  return { correct: before, mistaken };
}

async function sendMistaken(page: Page, status: number, code: string): Promise<void> {
  await page.getByRole('button', { name: 'Send the mistaken request to the local sandbox' }).click();
  await expect(
    // The code as every surface shows it: the gateway's number, then the sandbox's name ("201 · INVALID_CONTROL_CODE").
    answer(page).getByRole('status', { name: new RegExp(`^Sandbox answer: HTTP ${status} \\d+ · ${code}$`) }),
  ).toBeVisible();
  await expect(answer(page).getByLabel('Sandbox error message')).toContainText(
    code === 'INVALID_CONTROL_CODE' ? code : 'Invalid OAuth signature',
  );
  // The sandbox's own signing input is the correct one: it signs what the description says.
  const sandbox =
    (await answer(page).getByRole('group', { name: 'Sandbox signing input' }).textContent()) ?? '';
  await expect(page.getByRole('group', { name: 'Correct signing input' })).toHaveText(sandbox);
  await expect(answer(page).getByText('It is the correct signing input')).toBeVisible();
}

test('one switch per scheme changes the signature, and the local sandbox refuses the mistaken request', async ({
  page,
}) => {
  const demo = await demoMerchant(page);

  await test.step('control (v2/sale): amount in major units', async () => {
    await open(page, 'v2/sale');
    const [orderId, amount, email] = [
      await value(page, 'client_orderid'),
      await value(page, 'amount'),
      await value(page, 'email'),
    ];
    const id = demo.endpointIds[0]!;
    const sig = await inject(page, 'Amount in major units');
    expect(sig.correct).toBe(controlSha1([id, orderId, minorUnits(amount), email], demo.controlKey));
    expect(sig.mistaken).toBe(controlSha1([id, orderId, amount, email], demo.controlKey));
    await expect(page.getByRole('group', { name: 'Mistaken signing input' }).locator('mark')).toHaveText([
      amount.includes('.') ? '.' : amount,
    ]);
    await expect(
      page.getByText('Breaks api-description.md › Authentication › Scheme C step 3'),
    ).toBeVisible();
    await sendMistaken(page, 400, 'INVALID_CONTROL_CODE');
  });

  await test.step('control: the correct request is accepted, and a new order id is drawn', async () => {
    const before = await value(page, 'client_orderid');
    await page.getByRole('button', { name: 'Send the correct request' }).click();
    await expect(answer(page).getByRole('status', { name: 'Sandbox answer: HTTP 200' })).toBeVisible();
    await expect(page.getByLabel('client_orderid', { exact: true })).not.toHaveValue(before);
  });

  await test.step('control: uppercase hex is accepted by the local sandbox, and the page says why', async () => {
    await inject(page, 'Uppercase hex');
    await expect(mistakenSignature(page)).toHaveText(
      (await correctSignature(page).textContent())!.toUpperCase(),
    );
    await page.getByRole('button', { name: 'Send the mistaken request to the local sandbox' }).click();
    await expect(answer(page).getByRole('status', { name: 'Sandbox answer: HTTP 200' })).toBeVisible();
    await expect(answer(page).getByRole('note')).toContainText('either hex case');
  });

  await test.step('OAuth HMAC-SHA1 (v2/payout): drop the & from the HMAC key', async () => {
    await open(page, 'v2/payout');
    const sig = await inject(page, 'Drop the & from the HMAC key');
    const base = (await page.getByRole('group', { name: 'Correct signing input' }).textContent()) ?? '';
    expect(sig.correct).toBe(hmacSha1(base, demo.controlKey));
    await expect(page.getByRole('group', { name: 'Mistaken signing input' })).toHaveText(base);
    await sendMistaken(page, 403, 'INVALID_SIGNATURE');
  });

  await test.step('OAuth HMAC-SHA1: space as +', async () => {
    await inject(page, 'Space as +');
    await expect(
      page.getByRole('group', { name: 'Mistaken signing input' }).locator('mark').first(),
    ).toBeVisible();
    await sendMistaken(page, 403, 'INVALID_SIGNATURE');
  });

  await test.step('OAuth RSA-SHA256 (v4/payout-check): skip sorting', async () => {
    await open(page, 'v4/payout-check');
    const sig = await inject(page, 'Skip sorting');
    const base = (await page.getByRole('group', { name: 'Correct signing input' }).textContent()) ?? '';
    expect(createVerify('RSA-SHA256').update(base).verify(demo.publicKeyPem, sig.correct, 'base64')).toBe(
      true,
    );
    const wrongBase = (await page.getByRole('group', { name: 'Mistaken signing input' }).textContent()) ?? '';
    expect(
      createVerify('RSA-SHA256').update(wrongBase).verify(demo.publicKeyPem, sig.mistaken, 'base64'),
    ).toBe(true);
    await sendMistaken(page, 403, 'INVALID_SIGNATURE');
  });

  await test.step('OAuth RSA-SHA256: sign with the wrong key (a throwaway key made in the page)', async () => {
    await inject(page, 'Sign with the wrong key');
    await expect(page.getByText('Signed with a throwaway RSA-2048 key')).toBeVisible();
    const base = (await page.getByRole('group', { name: 'Correct signing input' }).textContent()) ?? '';
    const wrong = (await mistakenSignature(page).textContent()) ?? '';
    expect(createVerify('RSA-SHA256').update(base).verify(demo.publicKeyPem, wrong, 'base64')).toBe(false);
    await sendMistaken(page, 403, 'INVALID_SIGNATURE');
  });

  await test.step('"Sign with the other id" starts from the profile’s other id', async () => {
    await open(page, 'v2/sale');
    await page
      .getByRole('group', { name: 'Inject one mistake' })
      .getByRole('radio', { name: 'Sign with the other id' })
      .check();
    await expect(page.getByLabel(/The merchant’s other id/)).toHaveValue(demo.endpointGroupIds[0]!);
    await expect(page.getByRole('status', { name: 'Signature changed' })).toHaveText(
      'The signature changed.',
    );
    await sendMistaken(page, 400, 'INVALID_CONTROL_CODE');
  });

  await test.step('a switch with nothing to act on says so, and when it would', async () => {
    await page.getByLabel(/The merchant’s other id/).fill('');
    await expect(page.getByRole('note')).toContainText('changes nothing here');
    await open(page, 'v2/payout');
    await page
      .getByRole('group', { name: 'Inject one mistake' })
      .getByRole('radio', { name: 'Keep the default port' })
      .check();
    await expect(page.getByRole('note')).toContainText('changes nothing here');
    await expect(page.getByRole('note')).toContainText('bites only on an address with the default port');
  });
});

test('"Teach this" in the workbench opens the teaching mode with the form’s values', async ({ page }) => {
  await page.goto('/ops/v2/sale');
  await expect(page.getByLabel('Signature', { exact: true })).toHaveText(/^[0-9a-f]{40}$/);
  await page.getByRole('button', { name: 'Fill with test data' }).click();
  await page.getByLabel('amount', { exact: true }).fill('7.35');
  const orderId = await page.getByLabel('client_orderid', { exact: true }).inputValue();
  const workbenchSignature = (await page.getByLabel('Signature', { exact: true }).textContent()) ?? '';
  await page.getByRole('button', { name: 'Teach this' }).click();
  await expect(page).toHaveURL(/\/teach\/v2\/sale$/);
  await expect(page.getByText(/^Values \(\d+ fields, from the workbench\)/)).toBeVisible();
  expect(await value(page, 'client_orderid')).toBe(orderId);
  expect(await value(page, 'amount')).toBe('7.35');
  await expect(correctSignature(page)).toHaveText(workbenchSignature);
});

test('the three walkthroughs: every step shows its input, its output and the rule it applies', async ({
  page,
}) => {
  const demo = await demoMerchant(page);
  const steps = page.getByRole('list', { name: 'Steps' });
  const text = async (label: string) =>
    (await page.getByRole('group', { name: label, exact: true }).textContent()) ?? '';

  await test.step('control, on v2/sale', async () => {
    await open(page, 'v2/sale');
    await expect(page.getByRole('heading', { name: 'Step by step: control (SHA-1)' })).toBeVisible();
    await expect(steps.getByRole('listitem')).toHaveCount(5);
    const step2 = steps.getByRole('listitem').nth(1);
    await expect(step2.getByRole('heading', { level: 3 })).toHaveText(
      'Step 2: Resolve each term to the text that is signed',
    );
    await expect(step2.locator('cite').first()).toHaveText('Authentication › Scheme C step 3');
    await expect(step2).toContainText('Computed by resolveControlTerms()');
    const orderId = await value(page, 'client_orderid');
    const joined = await text('Concatenation (step 3)');
    expect(joined).toBe(
      `${demo.endpointIds[0]}${orderId}${minorUnits(await value(page, 'amount'))}${await value(page, 'email')}`,
    );
    expect(await text('control (step 4)')).toBe(controlSha1([joined], demo.controlKey));
    await expect(correctSignature(page)).toHaveText(await text('control (step 4)'));
    await expect(page.getByRole('table', { name: 'Terms (step 2)' })).toContainText('minor units');
  });

  await test.step('the steps can be walked one at a time', async () => {
    await expect(page.getByText('Step 1 of 5')).toBeVisible();
    await page.getByRole('button', { name: 'Next step' }).click();
    await expect(page.getByText('Step 2 of 5')).toBeVisible();
    await expect(steps.locator('[aria-current="step"]')).toContainText('Step 2:');
    await page.getByRole('button', { name: 'Previous step' }).click();
    await expect(page.getByText('Step 1 of 5')).toBeVisible();
  });

  await test.step('OAuth HMAC-SHA1, on v2/payout', async () => {
    await page
      .getByRole('group', { name: 'Walk through a scheme' })
      .getByRole('button', { name: /HMAC-SHA1/ })
      .click();
    await expect(page).toHaveURL(/\/teach\/v2\/payout$/);
    await expect(page.getByRole('heading', { name: 'Step by step: OAuth 1.0a HMAC-SHA1' })).toBeVisible();
    await expect(steps.getByRole('listitem')).toHaveCount(8);
    const step2 = steps.getByRole('listitem').nth(1);
    await expect(step2.locator('cite')).toHaveText('Authentication › Scheme O1 step 2');
    await expect(step2).toContainText('percent-encode (RFC 3986');
    const base = await text('Base string (step 5)');
    expect(base).toMatch(
      /^POST&http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fsandbox%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F1111&/,
    );
    await expect(page.getByRole('group', { name: 'Correct signing input' })).toHaveText(base);
    expect(await text('oauth_signature (step 7)')).toBe(hmacSha1(base, demo.controlKey));
    await expect(correctSignature(page)).toHaveText(await text('oauth_signature (step 7)'));
    await expect(page.getByRole('group', { name: 'Signing key (step 6)' })).toHaveText(
      '<merchant_control_key>&',
    );
    await expect(page.getByRole('main')).not.toContainText(demo.controlKey);
  });

  await test.step('OAuth RSA-SHA256, on v4/payout-check', async () => {
    await page
      .getByRole('group', { name: 'Walk through a scheme' })
      .getByRole('button', { name: /RSA-SHA256/ })
      .click();
    await expect(page).toHaveURL(/\/teach\/v4\/payout-check$/);
    await expect(page.getByRole('heading', { name: 'Step by step: OAuth 1.0a RSA-SHA256' })).toBeVisible();
    await expect(steps.getByRole('listitem')).toHaveCount(8);
    await expect(steps.getByRole('listitem').nth(6).locator('cite')).toHaveText(
      'Authentication › Scheme O2 step 2',
    );
    const base = await text('Base string (step 5)');
    const sig = await text('oauth_signature (step 7)');
    expect(createVerify('RSA-SHA256').update(base).verify(demo.publicKeyPem, sig, 'base64')).toBe(true);
    await expect(page.getByRole('group', { name: 'Authorization (step 8)' })).toContainText(
      'oauth_signature_method="RSA-SHA256"',
    );
    await expect(page.getByRole('main')).not.toContainText('PRIVATE KEY');
  });
});

test('"Teach this" keeps an edited payout-form formula: the walkthrough shows it and signs as the workbench', async ({
  page,
}) => {
  const demo = await demoMerchant(page);
  const text = async (label: string) =>
    (await page.getByRole('group', { name: label, exact: true }).textContent()) ?? '';
  let workbenchSignature = '';
  await test.step('payout-form in the workbench, signed with control, its formula edited', async () => {
    await page.goto('/ops/v2/payout-form');
    await page.getByLabel('Signature scheme').selectOption('control');
    await expect(page.getByRole('group', { name: /Control formula/ })).toBeVisible();
    await page.getByRole('button', { name: 'Fill with test data' }).click();
    await expect(page.getByLabel('Signature', { exact: true })).toHaveText(/^[0-9a-f]{40}$/);
    const before = (await page.getByLabel('Signature', { exact: true }).textContent()) ?? '';
    await page.getByRole('button', { name: 'Move term 2 up' }).click();
    await expect(page.getByLabel('Signature', { exact: true })).not.toHaveText(before);
    await expect(page.getByLabel('Signature', { exact: true })).toHaveText(/^[0-9a-f]{40}$/);
    workbenchSignature = (await page.getByLabel('Signature', { exact: true }).textContent()) ?? '';
  });

  await test.step('the teaching page walks through the edited formula and signs the same', async () => {
    await page.getByRole('button', { name: 'Teach this' }).click();
    await expect(page).toHaveURL(/\/teach\/v2\/payout-form$/);
    await expect(page.getByLabel('Scheme', { exact: true })).toHaveValue('control');
    await expect(page.getByRole('heading', { name: 'Step by step: control (SHA-1)' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Formula (step 1)', exact: true })).toHaveText(
      'client_orderid + endpointId + amount + email + merchant_control_key',
    );
    await expect(page.getByRole('group', { name: 'control (step 4)', exact: true })).toHaveText(
      workbenchSignature,
    );
    await expect(correctSignature(page)).toHaveText(workbenchSignature);
    // The concatenation in the edited order, signed as Node's crypto signs it.
    const joined = await text('Concatenation (step 3)');
    expect(joined).toBe(
      `${await value(page, 'client_orderid')}${demo.endpointIds[0]}${minorUnits(await value(page, 'amount'))}${await value(page, 'email')}`,
    );
    expect(controlSha1([joined], demo.controlKey)).toBe(workbenchSignature);
  });
});
