import type { FlowDefinition, Template } from './flow-types.ts';

const CUSTOMER: Template = {
  order_desc: 'Guided flow order',
  first_name: 'John',
  last_name: 'Smith',
  address1: '100 Main Street',
  city: 'Seattle',
  zip_code: '98102',
  country: 'US',
  phone: '12063582043',
  email: 'john.smith@example.com',
  ipaddress: '203.0.113.7',
};

const CARD: Template = {
  card_printed_name: 'JOHN SMITH',
  credit_card_number: '4444444444444448',
  expire_month: '12',
  expire_year: '{env.expireYear}',
};

const BROWSER: Template = {
  browserAcceptHeader: '{browser.browserAcceptHeader}',
  browserJavaEnabled: 'false',
  browserJavascriptEnabled: 'true',
  browserLanguage: '{browser.browserLanguage}',
  browserColorDepth: '{browser.browserColorDepth}',
  browserScreenHeight: '{browser.browserScreenHeight}',
  browserScreenWidth: '{browser.browserScreenWidth}',
  browserTZ: '{browser.browserTZ}',
  browserUserAgent: '{browser.browserUserAgent}',
};

const ORDER = { client_orderid: '{order}', orderid: '{orderid}' };
const SETTLED = { login: '{env.login}', ...ORDER };
const TDS = { login: '{env.login}', 'client-order-id': '{order}', orderid: '{orderid}' };
const ACK = { orderid: 'paynet-order-id' };

function sale(cvv: string, extra: Template = {}): Template {
  return {
    client_orderid: '{order}',
    ...CUSTOMER,
    amount: '{amount}',
    currency: '{currency}',
    ...CARD,
    cvv2: cvv,
    ...extra,
    server_callback_url: '{env.callbackUrl}',
  };
}

const AMOUNT = (value: string) => ({ name: 'amount', label: 'Amount', value });
const CURRENCY = { name: 'currency', label: 'Currency', value: 'USD' };

/** The guided flows, in the order the page lists them. */
export const FLOWS: readonly FlowDefinition[] = [
  {
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
        explain: 'A preauth holds funds until the merchant captures or releases them.',
        operation: 'v2/preauth',
        values: sale('123'),
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
  },
  {
    id: 'sale-3ds-1',
    title: 'Sale with 3-D Secure 1.0.2',
    summary:
      'A sale that needs the cardholder at the issuer: status points to the issuer page, the customer comes back with a PaRes, and the merchant uploads it.',
    inputs: [AMOUNT('10.42'), CURRENCY],
    freshIds: ['order'],
    steps: [
      {
        kind: 'request',
        id: 'sale',
        title: 'Sale (CVV 321, no browser fields)',
        explain:
          'On the sandbox CVV 321 asks for 3-D Secure; without 3DS 2 browser fields the version is 1.0.2.',
        operation: 'v2/sale',
        values: sale('321', { redirect_url: '{env.returnUrl}' }),
        save: ACK,
      },
      {
        kind: 'status',
        id: 'issuer-address',
        title: 'Wait for the issuer page (redirect-to)',
        explain: 'For 3DS the customer is redirected to the issuer access-control server.',
        order: ORDER,
        until: 'redirect-to',
        save: { issuerUrl: 'redirect-to' },
      },
      {
        kind: 'customer',
        id: 'issuer',
        title: 'Customer authenticates at the issuer',
        explain:
          'The customer enters the password (sandbox: hint) and is sent back to redirect_url with PaRes.',
        url: '{issuerUrl}',
        clientOrderId: '{order}',
        returns: 'PaRes',
        save: { paRes: 'PaRes' },
      },
      {
        kind: 'request',
        id: 'upload-pares',
        title: 'Upload the PaRes',
        explain: 'The 3DS 1.0.2 flow uses a single PaRes upload.',
        operation: '3ds/v1/upload-pares-result',
        values: { ...TDS, paRes: '{paRes}' },
      },
      {
        kind: 'status',
        id: 'sale-final',
        title: 'Wait for the final status',
        explain: 'The outcome of the sale, after authentication.',
        order: ORDER,
        until: 'final',
        expect: ['approved'],
      },
    ],
  },
  {
    id: 'sale-3ds-2',
    title: 'Sale with 3-D Secure 2',
    summary:
      'A 3DS 2 sale: the browser loads the 3DS Method URL, the merchant uploads the method result (threeDSCompInd), the customer passes the challenge, and the merchant uploads the CRes.',
    inputs: [AMOUNT('10.42'), CURRENCY],
    freshIds: ['order'],
    steps: [
      {
        kind: 'request',
        id: 'sale',
        title: 'Sale (CVV 321, threeds_version=2, browser fields)',
        explain: 'The 3DS 2 browser fields (and threeds_version=2) make the sandbox run 3-D Secure 2.',
        operation: 'v2/sale',
        values: sale('321', { threeds_version: '2', ...BROWSER, redirect_url: '{env.returnUrl}' }),
        save: ACK,
      },
      {
        kind: 'status',
        id: 'method-address',
        title: 'Wait for the 3DS Method URL',
        explain: 'Status carries the Method URL and the 3DS server transaction id first.',
        order: ORDER,
        until: 'method-url',
        save: { methodUrl: 'threeds-method-url', transId: 'threeds-server-trans-id' },
      },
      {
        kind: 'method',
        id: 'method',
        title: 'Load the 3DS Method URL in a hidden frame',
        explain: 'The browser fingerprinting step; it must complete within 10 seconds of the sale.',
        url: '{methodUrl}',
      },
      {
        kind: 'request',
        id: 'upload-method',
        title: 'Upload the method result (threeDSCompInd Y)',
        explain: '3DS 2 order of uploads: the method-url result first, then the challenge result.',
        operation: '3ds/v1/upload-method-url-result',
        values: { ...TDS, threeDSCompInd: 'Y', threeDSServerTransID: '{transId}', ...BROWSER },
        hope: { 'threeds-comp-ind': 'Y' },
      },
      {
        kind: 'status',
        id: 'challenge-address',
        title: 'Wait for the challenge page (redirect-to)',
        explain: 'After the method result, status points to the challenge.',
        order: ORDER,
        until: 'redirect-to',
        save: { challengeUrl: 'redirect-to' },
      },
      {
        kind: 'customer',
        id: 'challenge',
        title: 'Customer passes the challenge',
        explain:
          'The customer enters the password (sandbox: hint) and is sent back to redirect_url with the CRes.',
        url: '{challengeUrl}',
        clientOrderId: '{order}',
        returns: 'cres',
        save: { cres: 'cres' },
      },
      {
        kind: 'request',
        id: 'upload-cres',
        title: 'Upload the CRes',
        explain: 'The challenge result comes after the method-url result.',
        operation: '3ds/v1/upload-cres-result',
        values: { ...TDS, cRes: '{cres}' },
      },
      {
        kind: 'status',
        id: 'sale-final',
        title: 'Wait for the final status',
        explain: 'The outcome of the sale, after the challenge.',
        order: ORDER,
        until: 'final',
        expect: ['approved'],
      },
    ],
  },
  {
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
  },
  {
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
  },
  {
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
  },
];

export function findFlow(id: string): FlowDefinition | undefined {
  return FLOWS.find((f) => f.id === id);
}
