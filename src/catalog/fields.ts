/**
 * Request field definitions. Each carries where its facts come from: the user's description
 * (the authority), the gateway's public notes, or an assumption this tool makes (labelled in the UI).
 */
export type Provenance = 'description' | 'gateway-notes' | 'assumed';

export type FieldType =
  | 'text'
  | 'amount'
  | 'currency'
  | 'email'
  | 'pan'
  | 'cvv'
  | 'month'
  | 'year'
  | 'digits'
  | 'url'
  | 'country'
  | 'ip'
  | 'phone'
  | 'boolean'
  | 'enum'
  | 'date'
  | 'base64';

export interface FieldSpec {
  /** The exact API parameter name, spelled as this operation spells it. */
  name: string;
  title: string;
  type: FieldType;
  required: boolean;
  maxLength?: number;
  minLength?: number;
  example?: string;
  /**
   * A sample shown only in the placeholder, for an optional field that "Fill with test data"
   * leaves empty (sending it would change what the request does).
   */
  sample?: string;
  help?: string;
  options?: readonly string[];
  provenance: Provenance;
  /** Card data is masked in history and exports, CVV dropped. */
  sensitive?: 'pan' | 'cvv';
  /** Filled from the profile unless the user overrides it. */
  fromProfile?: 'login';
  /**
   * What the field means whatever its spelling: the merchant's order id is `client_orderid`,
   * `client-order-id` or `client-orderid` depending on the operation.
   */
  role?: 'client-order-id';
  /**
   * A URL of the place the request is made from (this console's return page, this session's
   * callback inbox): filled in where the request is opened, never frozen into a shared request.
   */
  place?: 'return-url' | 'callback-url';
}

type Opt = Partial<Omit<FieldSpec, 'name' | 'title' | 'type'>>;
const f = (name: string, title: string, type: FieldType, opt: Opt = {}): FieldSpec => ({
  name,
  title,
  type,
  required: false,
  provenance: 'gateway-notes',
  ...opt,
});
const req = (spec: FieldSpec): FieldSpec => ({ ...spec, required: true });
const opt = (spec: FieldSpec): FieldSpec => ({ ...spec, required: false });
export { req, opt };

export const F = {
  login: f('login', 'Merchant login', 'text', {
    required: true,
    maxLength: 64,
    fromProfile: 'login',
    provenance: 'description',
    example: 'demo-merchant',
  }),
  client_orderid: f('client_orderid', 'Merchant order id', 'text', {
    role: 'client-order-id',
    required: true,
    maxLength: 128,
    provenance: 'description',
    example: 'inv-10001',
  }),
  clientOrderIdHyphen: f('client-order-id', 'Merchant order id', 'text', {
    role: 'client-order-id',
    required: true,
    maxLength: 128,
    provenance: 'description',
    example: 'inv-10001',
    help: 'Spelled with hyphens in this operation.',
  }),
  clientOrderidHyphen: f('client-orderid', 'Merchant order id', 'text', {
    role: 'client-order-id',
    required: true,
    maxLength: 128,
    example: 'rp-10001',
    help: 'Spelled client-orderid in this operation.',
  }),
  orderid: f('orderid', 'Gateway order id', 'digits', {
    required: true,
    maxLength: 20,
    provenance: 'description',
    example: '6768788',
  }),
  order_desc: f('order_desc', 'Order description', 'text', {
    required: true,
    maxLength: 64000,
    example: 'Order #10001',
  }),
  amount: f('amount', 'Amount (major units)', 'amount', {
    required: true,
    maxLength: 12,
    provenance: 'description',
    example: '10.42',
    help: 'Decimal with a dot; signed in minor units (10.42 → 1042).',
  }),
  currency: f('currency', 'Currency', 'currency', {
    required: true,
    minLength: 3,
    maxLength: 3,
    provenance: 'description',
    example: 'USD',
  }),
  email: f('email', 'Customer e-mail', 'email', {
    required: true,
    maxLength: 50,
    provenance: 'description',
    example: 'john.smith@example.com',
  }),
  ipaddress: f('ipaddress', 'Customer IP address', 'ip', {
    required: true,
    maxLength: 45,
    example: '203.0.113.7',
  }),
  first_name: f('first_name', 'First name', 'text', { maxLength: 50, example: 'John' }),
  last_name: f('last_name', 'Last name', 'text', { maxLength: 50, example: 'Smith' }),
  ssn: f('ssn', 'SSN (last 4)', 'digits', { maxLength: 4, sample: '1234' }),
  birthday: f('birthday', 'Birthday', 'date', { maxLength: 8, example: '19820115', help: 'YYYYMMDD' }),
  address1: f('address1', 'Address', 'text', { required: true, maxLength: 50, example: '100 Main Street' }),
  city: f('city', 'City', 'text', { required: true, maxLength: 50, example: 'Seattle' }),
  state: f('state', 'State', 'text', {
    maxLength: 2,
    example: 'WA',
    help: 'Two letters; US, CA and AU only.',
  }),
  zip_code: f('zip_code', 'ZIP code', 'text', { required: true, maxLength: 10, example: '98102' }),
  country: f('country', 'Country', 'country', { required: true, minLength: 2, maxLength: 2, example: 'US' }),
  phone: f('phone', 'Phone', 'phone', { required: true, maxLength: 15, example: '12063582043' }),
  cell_phone: f('cell_phone', 'Cell phone', 'phone', { maxLength: 15, sample: '12063582044' }),
  site_url: f('site_url', 'Site URL', 'url', { maxLength: 128, sample: 'https://shop.example.com' }),
  destination: f('destination', 'Destination', 'text', { maxLength: 128, sample: 'www.shop.example.com' }),
  card_printed_name: f('card_printed_name', 'Cardholder name', 'text', {
    required: true,
    maxLength: 128,
    example: 'JOHN SMITH',
  }),
  credit_card_number: f('credit_card_number', 'Card number', 'pan', {
    required: true,
    minLength: 12,
    maxLength: 19,
    sensitive: 'pan',
    example: '4444444444444448',
  }),
  expire_month: f('expire_month', 'Expiry month', 'month', { required: true, maxLength: 2, example: '12' }),
  expire_year: f('expire_year', 'Expiry year', 'year', { required: true, maxLength: 4, example: '2030' }),
  cvv2: f('cvv2', 'CVV2', 'cvv', {
    required: true,
    minLength: 3,
    maxLength: 4,
    sensitive: 'cvv',
    example: '123',
    help: 'On the sandbox the CVV picks the outcome.',
  }),
  redirect_url: f('redirect_url', 'Customer return URL', 'url', {
    maxLength: 1024,
    provenance: 'description',
    example: 'https://merchant.example.com/return',
    place: 'return-url',
  }),
  server_callback_url: f('server_callback_url', 'Server callback URL', 'url', {
    maxLength: 1024,
    provenance: 'description',
    example: 'https://merchant.example.com/callbacks',
    place: 'callback-url',
  }),
  // gateway-notes.md, "What the vendor's live clients also rely on": server_callback_url hears the
  // order's initial transaction only; notify_url also its later ones. Left empty by the test data.
  notify_url: f('notify_url', 'Notify URL (later transactions too)', 'url', {
    maxLength: 1024,
    sample: 'https://merchant.example.com/notify',
    help: 'Hears every transaction of the order, the later ones too (reversal, chargeback, capture, void); server_callback_url hears only the initial one.',
  }),
  comment: f('comment', 'Comment', 'text', { maxLength: 50, sample: 'Refund for order #10001' }),
  cardrefid: f('cardrefid', 'Card reference id', 'digits', {
    required: true,
    maxLength: 20,
    provenance: 'description',
    example: '1000001',
  }),
  by_request_sn: f('by-request-sn', 'Serial number of the request', 'text', {
    maxLength: 64,
    sample: '00000001',
    help: 'Status of one particular request of the order.',
  }),
  account_number: f('account_number', 'Bank account number', 'text', {
    maxLength: 34,
    provenance: 'description',
    example: 'GB29NWBK60161331926819',
  }),
  bank_name: f('bank_name', 'Bank name', 'text', {
    maxLength: 128,
    provenance: 'description',
    example: 'Example Bank',
  }),
  destination_card_no: f('destination-card-no', 'Destination card number', 'pan', {
    minLength: 12,
    maxLength: 19,
    sensitive: 'pan',
    provenance: 'description',
    example: '4444444444444448',
  }),
} satisfies Record<string, FieldSpec>;

/** Every spelling of the merchant's order id (the fields whose role says so). */
export const CLIENT_ORDER_ID_NAMES: readonly string[] = Object.values(F as Record<string, FieldSpec>)
  .filter((spec) => spec.role === 'client-order-id')
  .map((spec) => spec.name);

/** The field that holds the merchant's order id in this list of fields, whatever its spelling. */
export function clientOrderIdField<T extends FieldSpec>(fields: readonly T[]): T | undefined {
  return fields.find((spec) => spec.role === 'client-order-id');
}

/** 3-D Secure 2 browser fields of the 3DS Method result (gateway-notes.md, Request fields). */
export const BROWSER_FIELDS: FieldSpec[] = [
  f('threeDSServerTransID', '3DS server transaction id', 'text', {
    maxLength: 36,
    example: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
  }),
  f('browserAcceptHeader', 'Browser Accept header', 'text', { maxLength: 2048, example: 'text/html' }),
  f('browserIP', 'Browser IP', 'ip', { maxLength: 45, example: '203.0.113.7' }),
  f('browserJavaEnabled', 'Java enabled', 'boolean', { example: 'false' }),
  f('browserJavascriptEnabled', 'JavaScript enabled', 'boolean', { example: 'true' }),
  f('browserLanguage', 'Browser language', 'text', { maxLength: 8, example: 'en-US' }),
  f('browserColorDepth', 'Colour depth', 'digits', { maxLength: 2, example: '24' }),
  f('browserScreenHeight', 'Screen height', 'digits', { maxLength: 6, example: '800' }),
  f('browserScreenWidth', 'Screen width', 'digits', { maxLength: 6, example: '1280' }),
  f('browserTZ', 'Time-zone offset (minutes)', 'text', { maxLength: 5, example: '-60' }),
  f('browserUserAgent', 'User agent', 'text', { maxLength: 2048, example: 'Mozilla/5.0' }),
];

export const CUSTOMER: FieldSpec[] = [
  F.first_name,
  F.last_name,
  F.ssn,
  F.birthday,
  F.address1,
  F.city,
  F.state,
  F.zip_code,
  F.country,
  F.phone,
  F.cell_phone,
  F.email,
];
export const CARD: FieldSpec[] = [
  F.card_printed_name,
  F.credit_card_number,
  F.expire_month,
  F.expire_year,
  F.cvv2,
];
export const CALLBACKS: FieldSpec[] = [F.redirect_url, F.server_callback_url, F.notify_url];

export { f as field };

/**
 * The placeholder of a field's input, always "e.g. …" so that it cannot be mistaken for a value
 * (a field filled from the profile says so). Null for a choice (a select has no placeholder).
 */
export function placeholderOf(spec: FieldSpec, profileLogin = ''): string | null {
  if (spec.type === 'enum' || spec.type === 'boolean') return null;
  if (spec.fromProfile === 'login')
    return `e.g. ${profileLogin || spec.example || 'merchant-login'} (from the profile)`;
  const sample = spec.example ?? spec.sample;
  return sample === undefined ? null : `e.g. ${sample}`;
}
