import type { Template } from './flow-types.ts';

// The values the guided flows share: the sandbox's test customer, card and browser, and the
// placeholders that carry one answer's ids into the next request.

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

export const BROWSER: Template = {
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

export const ORDER = { client_orderid: '{order}', orderid: '{orderid}' };
export const SETTLED = { login: '{env.login}', ...ORDER };
export const TDS = { login: '{env.login}', 'client-order-id': '{order}', orderid: '{orderid}' };
export const ACK = { orderid: 'paynet-order-id' };

export function sale(cvv: string, extra: Template = {}): Template {
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

export const AMOUNT = (value: string) => ({ name: 'amount', label: 'Amount', value });
export const CURRENCY = { name: 'currency', label: 'Currency', value: 'USD' };
