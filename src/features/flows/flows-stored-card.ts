import type { FlowDefinition } from './flow-types.ts';
import { ACK, AMOUNT, CURRENCY, ORDER, sale, SETTLED } from './flow-templates.ts';

/** A card reference made from a sale, read back and charged again. */
export const CARD_REF_REBILL: FlowDefinition = {
  id: 'card-ref-rebill',
  title: 'Create card ref → get card info → make rebill',
  summary:
    'Tokenize the card of an approved sale into a card reference, read the stored card, and charge it again without the cardholder.',
  inputs: [AMOUNT('10.42'), CURRENCY, { name: 'rebillAmount', label: 'Rebill amount', value: '19.99' }],
  freshIds: ['order', 'rebillOrder'],
  steps: [
    {
      kind: 'request',
      id: 'sale',
      title: 'Sale (CVV 123)',
      explain: 'create-card-ref needs a completed sale or preauth.',
      operation: 'v2/sale',
      values: sale('123'),
      save: ACK,
    },
    {
      kind: 'status',
      id: 'sale-final',
      title: 'Wait for the sale to be approved',
      explain: 'The card reference is made from an approved transaction.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
    {
      kind: 'request',
      id: 'card-ref',
      title: 'Create card reference',
      explain: 'Tokenizes the card data of the sale into a card-ref-id.',
      operation: 'v2/create-card-ref',
      values: SETTLED,
      save: { cardrefid: 'card-ref-id' },
    },
    {
      kind: 'request',
      id: 'card-info',
      title: 'Get card information',
      explain: 'Reads the stored card: BIN, brand, masked number and expiry.',
      operation: 'v2/get-card-info',
      values: { login: '{env.login}', cardrefid: '{cardrefid}' },
    },
    {
      kind: 'request',
      id: 'rebill',
      title: 'Make rebill',
      explain: 'Charges the stored card without the cardholder present.',
      operation: 'v2/make-rebill',
      values: {
        login: '{env.login}',
        client_orderid: '{rebillOrder}',
        order_desc: 'Guided flow rebill',
        amount: '{rebillAmount}',
        currency: '{currency}',
        ipaddress: '203.0.113.7',
        cardrefid: '{cardrefid}',
        server_callback_url: '{env.callbackUrl}',
      },
      save: { rebillOrderid: 'paynet-order-id' },
    },
    {
      kind: 'status',
      id: 'rebill-final',
      title: 'Wait for the rebill to be approved',
      explain: 'The rebill is a new order: status names it by its own ids.',
      order: { client_orderid: '{rebillOrder}', orderid: '{rebillOrderid}' },
      until: 'final',
      expect: ['approved'],
    },
  ],
};

/** A subscription on a card. */
export const RECURRING_PAYMENT: FlowDefinition = {
  id: 'recurring-payment',
  title: 'Create recurring payment',
  summary:
    'Create a subscription with a schedule (period, interval), amount and card (RSA-SHA256); the answer carries the recurring-payment-id used by later calls.',
  inputs: [
    AMOUNT('9.99'),
    CURRENCY,
    { name: 'period', label: 'Period', value: 'month', help: 'day, week, month or year' },
    { name: 'interval', label: 'Interval', value: '1' },
  ],
  freshIds: ['order'],
  steps: [
    {
      kind: 'request',
      id: 'create',
      title: 'Create recurring payment',
      explain: 'Returns a recurring-payment-id used by later process and update calls.',
      operation: 'v4/create-recurring-payment',
      values: {
        rp_card_type: 'SRC',
        'client-orderid': '{order}',
        order_desc: 'Guided flow subscription',
        'credit-card-number': '4444444444444448',
        'card-printed-name': 'JOHN SMITH',
        'expire-month': '12',
        'expire-year': '{env.expireYear}',
        cvv2: '123',
        amount: '{amount}',
        currency: '{currency}',
        period: '{period}',
        interval: '{interval}',
        first_name: 'John',
        last_name: 'Smith',
        email: 'john.smith@example.com',
        ipaddress: '203.0.113.7',
      },
      save: { ...ACK, recurringPaymentId: 'recurring-payment-id' },
    },
    {
      kind: 'status',
      id: 'create-final',
      title: 'Check the subscription order status',
      explain: 'Status confirms the outcome of the order that created the subscription.',
      order: ORDER,
      until: 'final',
      expect: ['approved'],
    },
  ],
};
