import {
  answer,
  answerFact,
  expect,
  field,
  fillTestData,
  openOperation,
  send,
  test,
} from './support/fixtures.ts';

test('v4/sale: "Fill with test data" gets a token from the sandbox’s tokenizer, Send is accepted', async ({
  page,
}) => {
  await openOperation(page, 'v4/sale');
  await fillTestData(page);
  // The token replaces the catalog's placeholder example once the ticket and the tokenizer answered.
  await expect(field(page, 'hosted_fields_token')).toHaveValue(/^hft_[A-Za-z0-9_-]{20,}$/);
  await send(page);
  await expect(answer(page).getByRole('status', { name: 'Status: accepted: processing' })).toBeVisible();
  await expect(answerFact(page, 'paynet-order-id')).toHaveText(/^\d+$/);
});
