import type { FlowDefinition } from './flow-types.ts';
import { ACK, AMOUNT, CURRENCY, ORDER, sale, SETTLED } from './flow-templates.ts';

/** Funds held, then settled and given back in part. */
export const PREAUTH_CAPTURE_RETURN: FlowDefinition = {
  id: 'preauth-capture-return',
  title: 'Preauth → partial capture → return',
  summary:
    'Hold funds, settle part of them, then give part back. Each step waits for the final status before the next one starts: return is allowed only on a final successful transaction.',
  inputs: [
    AMOUNT('100.00'),
    { ...CURRENCY, value: 'EUR' },
    { name: 'captureAmount', label: 'Capture amount', value: '60.00' },
    { name: 'returnAmount', label: 'Return amount', value: '25.00' },
  ],
  freshIds: ['order'],
  steps: [
    {
      kind: 'request',
      id: 'preauth',
      title: 'Preauth',
      explain:
        'A preauth holds funds until the merchant captures or releases them. notify_url hears the later capture and return (a reversal on the wire); server_callback_url hears the preauth only.',
      operation: 'v2/preauth',
      values: sale('123', { notify_url: '{env.callbackUrl}' }),
      save: ACK,
    },
    {
      kind: 'status',
      id: 'preauth-final',
      title: 'Wait for the preauth to be approved',
      explain: 'Most operations are asynchronous: the final outcome is fetched with status.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
    {
      kind: 'request',
      id: 'capture',
      title: 'Partial capture',
      explain:
        'Capture settles funds of the preauth, referenced by orderid; amount and currency make it partial.',
      operation: 'v2/capture',
      values: { ...SETTLED, amount: '{captureAmount}', currency: '{currency}' },
    },
    {
      kind: 'status',
      id: 'capture-final',
      title: 'Wait for the capture to be approved',
      explain: 'Status answers for the latest request on the order: the capture.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
    {
      kind: 'request',
      id: 'return',
      title: 'Partial return',
      explain:
        'Return on a captured preauth refunds; amount and currency make it partial. Omit both for a full return.',
      operation: 'v2/return',
      values: { ...SETTLED, amount: '{returnAmount}', currency: '{currency}', comment: 'Partial return' },
    },
    {
      kind: 'status',
      id: 'return-final',
      title: 'Wait for the return to be approved',
      explain: 'The return is final when status says so.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
  ],
};

/** The two-step payout. */
export const PAYOUT_CHECK_PAY: FlowDefinition = {
  id: 'payout-check-pay',
  title: 'Payout check → payout pay',
  summary:
    'A two-step payout (RSA-SHA256): payout-check validates the recipient and registers the payout without releasing funds; payout-pay executes it.',
  inputs: [AMOUNT('75.00'), CURRENCY],
  freshIds: ['order'],
  steps: [
    {
      kind: 'request',
      id: 'check',
      title: 'Payout check',
      explain: 'payout-check registers the payout request; no money moves yet.',
      operation: 'v4/payout-check',
      values: {
        client_orderid: '{order}',
        amount: '{amount}',
        currency: '{currency}',
        order_desc: 'Guided flow payout',
        ipaddress: '203.0.113.7',
        account_number: 'GB29NWBK60161331926819',
        bank_name: 'Example Bank',
        server_callback_url: '{env.callbackUrl}',
        // The payout-pay is a later transaction on the order: only notify_url hears it.
        notify_url: '{env.callbackUrl}',
      },
      save: ACK,
    },
    {
      kind: 'status',
      id: 'check-final',
      title: 'Wait for the check to be approved',
      explain: 'payout-pay needs an approved check.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
    {
      kind: 'request',
      id: 'pay',
      title: 'Payout pay',
      explain: 'payout-pay confirms and executes the payout registered with payout-check.',
      operation: 'v4/payout-pay',
      values: SETTLED,
    },
    {
      kind: 'status',
      id: 'pay-final',
      title: 'Wait for the payout to be approved',
      explain: 'The payout is done when status says so.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
  ],
};
