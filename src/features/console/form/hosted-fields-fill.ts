import { emptyDraft, type SigningEnv } from '../../../model/index.ts';
import { prepareExchange } from '../../../model/exchange.ts';
import { sendThroughProxy } from '../../../browser/proxy-client.ts';
import type { ProxyTarget } from '../../../contracts/proxy.ts';
import { TEST_CARD } from './test-data.ts';

/** Where the sandbox's stand-in for the vendor's browser tokenizer answers (ours; sandbox/README.md). */
const TOKENIZE_PATH = 'hosted-fields/tokenize';

/** Why a token cannot be made here: a real gateway's comes from the merchant page's tokenizer. */
export const REAL_TOKEN_NOTE =
  "A real gateway's hosted_fields_token comes from the tokenizer script on the merchant's payment page; only the local sandbox's can be made here.";

/**
 * "Fill with test data" for v4/sale on the local sandbox: asks v4/tokenize/create-ephemeral-ticket
 * (signed here, with the profile's key: secrets stay in the browser), then the sandbox's tokenizer
 * with the test card, both through the proxy's local target. The card is not kept anywhere.
 */
export async function sandboxHostedFieldsToken(
  target: ProxyTarget,
  env: SigningEnv,
  cvv: string,
  now: Date,
): Promise<string> {
  const ticketCall = await prepareExchange(emptyDraft('v4/tokenize/create-ephemeral-ticket'), env);
  const ticket = await ticketCall.send((r, s) => sendThroughProxy(target, r, s));
  const ticketBody = ticket.ok ? (ticket.answer.json as Record<string, unknown> | undefined) : undefined;
  const value = ticketBody?.ephemeralTicket;
  if (typeof value !== 'string') throw new Error('The sandbox gave no ephemeral ticket: check the profile.');
  const body = new URLSearchParams({
    ticket: value,
    credit_card_number: TEST_CARD,
    card_printed_name: 'TEST CARDHOLDER',
    expire_month: '12',
    expire_year: String(now.getUTCFullYear() + 3),
    cvv2: cvv,
  }).toString();
  const answer = await sendThroughProxy(target, {
    method: 'POST',
    url: `${target.baseUrl.replace(/\/+$/, '')}/${TOKENIZE_PATH}`,
    headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
    bodyText: body,
  } as Parameters<typeof sendThroughProxy>[1]);
  const token = (JSON.parse(answer.body) as Record<string, unknown>).hosted_fields_token;
  if (typeof token !== 'string')
    throw new Error(`The sandbox's tokenizer refused: ${answer.body.slice(0, 200)}`);
  return token;
}
