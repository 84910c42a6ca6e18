import type { ControlTerm, Scheme } from '../core/index.ts';
import {
  BROWSER_FIELDS,
  CALLBACKS,
  CARD,
  CUSTOMER,
  F,
  field,
  opt,
  req,
  type FieldSpec,
  type Provenance,
} from './fields.ts';
import type { ResponseSchemaName } from './responses.ts';

export type OperationGroup =
  | 'payments'
  | 'preauth-settlement'
  | 'card-references'
  | 'recurring'
  | 'payouts'
  | 'hosted-forms'
  | 'three-d-secure'
  | 'status';

export const GROUP_TITLES: Record<OperationGroup, string> = {
  payments: 'Payments',
  'preauth-settlement': 'Preauth and settlement',
  'card-references': 'Card references',
  recurring: 'Recurring',
  payouts: 'Payouts and transfers',
  'hosted-forms': 'Hosted forms',
  'three-d-secure': '3-D Secure',
  status: 'Status',
};

/** How every surface names a signing scheme (console, debugger, teaching, CLI, home page). */
export const SCHEME_TITLES: Record<Scheme, string> = {
  control: 'control (SHA-1)',
  'oauth-hmac-sha1': 'OAuth 1.0a HMAC-SHA1',
  'oauth-rsa-sha256': 'OAuth 1.0a RSA-SHA256',
};

/**
 * One operation of the API as written in {@link OPERATIONS}, before its id and path are narrowed to
 * the catalog's literal unions ({@link Operation} is what every reader uses).
 */
export interface OperationSpec {
  /** The description's operation id (`SALE`), or one made up for the example-only operations. */
  id: string;
  /** The path after `/api/`, without the endpoint id. */
  path: string;
  title: string;
  /** The description's own words about the operation. */
  summary: string;
  group: OperationGroup;
  scheme: Scheme;
  schemeSource: Provenance | 'unsure';
  /** Other schemes the user may pick where the sources disagree. */
  schemeAlternatives?: readonly Scheme[];
  formula?: readonly ControlTerm[];
  formulaSource?: Provenance | 'unsure';
  /** Why the formula is what it is, when it is not straight from the description. */
  formulaNote?: string;
  fields: readonly FieldSpec[];
  requestSchemaName: string | null;
  response: ResponseSchemaName;
  /** Moving money: a production target asks for confirmation. */
  movesMoney: boolean;
  /** Appears only in the description's authentication examples. */
  exampleOnly?: boolean;
  /** Operations that naturally follow from this one's answer (paths). */
  followUps?: readonly string[];
  /**
   * Where the request's fields hold one of several alternatives, exactly one of which must be
   * given in full (v4 payout: a card or a bank account). Checked by `requestSchema` and
   * `requestAccepted`; the fields themselves are then optional.
   */
  destinations?: readonly Destination[];
  /** Where the operation itself comes from when not from the description ({@link OperationSource}); shown in the form's header and the docs. */
  source?: OperationSource;
  /**
   * The operation may be sent with no body at all (only the OAuth header), as the vendor's examples
   * send v4/tokenize/create-ephemeral-ticket (gateway-notes.md, "What the vendor's live clients also
   * rely on"); its fields are then all optional.
   */
  emptyBody?: boolean;
}

/** How each {@link OperationSpec.source} reads in the console and the docs. */
export const OPERATION_SOURCE_LABEL = {
  'gateway-examples': "From the gateway's public examples, not the description",
  'vendor-clients': "From the vendor's own client code (its SDK, plugin or node client), not the description",
} as const;

/**
 * Where an operation comes from when not from the description: `gateway-examples` for the ones the
 * vendor's current public examples call (gateway-notes.md, "The gateway's default dialect");
 * `vendor-clients` for those the vendor's SDK, plugin or node client call (gateway-notes.md, "What
 * the vendor's live clients also rely on").
 */
export type OperationSource = keyof typeof OPERATION_SOURCE_LABEL;

/** One alternative of {@link OperationSpec.destinations}: its fields are all required together. */
export interface Destination {
  /** Short name for the sentences: "a card", "a bank account". */
  title: string;
  /** The fields it needs, spelled as the operation spells them. */
  fields: readonly string[];
  provenance: Provenance;
}

const T = {
  login: { kind: 'login' } as const,
  endpointId: { kind: 'endpointId' } as const,
  field: (name: string): ControlTerm => ({ kind: 'field', name }),
  amount: { kind: 'field', name: 'amount', minorUnits: true } as const,
};

const SALE_FORMULA: ControlTerm[] = [T.endpointId, T.field('client_orderid'), T.amount, T.field('email')];
const ORDER_FORMULA: ControlTerm[] = [T.login, T.field('client_orderid'), T.field('orderid')];
const SETTLE_FORMULA: ControlTerm[] = [...ORDER_FORMULA, T.amount, T.field('currency')];
const TDS_FORMULA: ControlTerm[] = [T.login, T.field('client-order-id'), T.field('orderid')];

const SALE_FIELDS: FieldSpec[] = [
  F.client_orderid,
  F.order_desc,
  ...CUSTOMER,
  F.amount,
  F.currency,
  F.ipaddress,
  F.site_url,
  ...CARD,
  F.destination,
  ...CALLBACKS,
  ...BROWSER_FIELDS.filter((b) => b.name !== 'threeDSServerTransID').map(opt),
];
const FORM_FIELDS: FieldSpec[] = SALE_FIELDS.filter(
  (s) => !CARD.includes(s) && !s.name.startsWith('browser'),
).map((s) => (s.name === 'redirect_url' ? req(s) : s));
const ORDER_FIELDS: FieldSpec[] = [F.login, F.client_orderid, F.orderid];
const TDS_FIELDS: FieldSpec[] = [F.login, F.clientOrderIdHyphen, F.orderid];
const PAYOUT_FIELDS: FieldSpec[] = [
  F.client_orderid,
  F.amount,
  F.currency,
  F.order_desc,
  F.ipaddress,
  F.account_number,
  F.bank_name,
  F.destination_card_no,
  field('receiver_phone', 'Recipient phone (instant payments)', 'phone', {
    maxLength: 15,
    sample: '12063582045',
    provenance: 'assumed',
    help: 'For phone-based instant-payment-system payouts.',
  }),
  ...CALLBACKS,
];
const without = (fields: readonly FieldSpec[], ...names: string[]) =>
  fields.filter((x) => !names.includes(x.name));
// v4 sale: the notes name only the token; the rest is v2 sale's without the card (assumed).
const V4_SALE_FIELDS: FieldSpec[] = [
  field('hosted_fields_token', 'Hosted fields token', 'text', {
    required: true,
    maxLength: 128,
    example: 'hft_example',
    help: "One-time token from the payment page's card tokenizer, sent instead of the card fields.",
  }),
  ...SALE_FIELDS.filter((s) => !CARD.includes(s)).map((s) => ({ ...s, provenance: 'assumed' as const })),
];

// Operations the vendor's own clients call that the description lacks (gateway-notes.md, "What the
// vendor's live clients also rely on"); fields and formulas from the clients' code.
const REBILL_FORMULA: ControlTerm[] = [
  T.login,
  T.field('client_orderid'),
  T.field('cardrefid'),
  T.amount,
  T.field('currency'),
];
const REBILL_FIELDS: FieldSpec[] = [
  F.login,
  F.client_orderid,
  F.order_desc,
  F.amount,
  F.currency,
  F.ipaddress,
  F.cardrefid,
  opt(F.cvv2),
  F.comment,
  F.server_callback_url,
  F.notify_url,
];
// The vendor's 2026 WooCommerce plugin sends these two with every renewal.
const RECURRENT_FIELDS: FieldSpec[] = [
  field('recurrent_scenario', 'Recurrent scenario', 'enum', {
    options: ['REGULAR', 'UNSCHEDULED'],
    sample: 'REGULAR',
    help: "Why the stored card is charged: REGULAR for a subscription's renewal (what the vendor's plugin sends).",
  }),
  field('recurrent_initiator', 'Recurrent initiator', 'enum', {
    options: ['MERCHANT', 'CUSTOMER'],
    sample: 'MERCHANT',
    help: "Who starts the charge: MERCHANT when the customer is not present (what the vendor's plugin sends).",
  }),
];
const cardRefField = (name: string, title: string, required: boolean): FieldSpec =>
  field(name, title, 'digits', { required, maxLength: 20, example: '1000001' });

const OPERATION_LIST = [
  // 3-D Secure result uploads
  {
    id: 'TDS_UPLOAD_CRES_RESULT',
    path: '3ds/v1/upload-cres-result',
    title: 'Upload 3DS 2 challenge result (CRes)',
    group: 'three-d-secure',
    summary:
      'Returns the challenge response from the issuer at the end of a 3DS 2.x challenge. Comes after the method-url result.',
    scheme: 'control',
    schemeSource: 'description',
    formula: TDS_FORMULA,
    formulaSource: 'description',
    fields: [
      ...TDS_FIELDS,
      field('cRes', 'Challenge response (CRes)', 'base64', {
        required: true,
        maxLength: 8192,
        sample: 'eyJtZXNzYWdlVHlwZSI6IkNSZXMiLCJ0cmFuc1N0YXR1cyI6IlkifQ==',
        help: 'Base64 of the CRes JSON (messageType "CRes").',
      }),
    ],
    requestSchemaName: 'TdsCResResultRequest',
    response: 'AsyncResponse',
    movesMoney: false,
    followUps: ['v2/status'],
  },
  {
    id: 'TDS_UPLOAD_METHOD_URL_RESULT',
    path: '3ds/v1/upload-method-url-result',
    title: 'Upload 3DS Method result',
    group: 'three-d-secure',
    summary:
      'Returns the 3DS Method browser fingerprinting result, with threeDSCompInd: Y completed, N not completed within 10 seconds, U method URL not provided.',
    scheme: 'control',
    schemeSource: 'description',
    formula: TDS_FORMULA,
    formulaSource: 'description',
    fields: [
      ...TDS_FIELDS,
      field('threeDSCompInd', 'Method completion', 'enum', {
        required: true,
        options: ['Y', 'N', 'U'],
        provenance: 'description',
        example: 'Y',
      }),
      ...BROWSER_FIELDS,
    ],
    requestSchemaName: 'TdsMethodUrlResultRequest',
    response: 'AsyncResponse',
    movesMoney: false,
    followUps: ['3ds/v1/upload-cres-result', 'v2/status'],
  },
  {
    id: 'TDS_UPLOAD_PARES_RESULT',
    path: '3ds/v1/upload-pares-result',
    title: 'Upload 3DS 1.0.2 result (PaRes)',
    group: 'three-d-secure',
    summary: 'Returns the payer authentication response of a 3DS 1.0.2 flow (a single upload).',
    scheme: 'control',
    schemeSource: 'description',
    formula: TDS_FORMULA,
    formulaSource: 'description',
    fields: [
      ...TDS_FIELDS,
      field('paRes', 'Payer authentication response (PaRes)', 'base64', {
        required: true,
        maxLength: 16384,
        sample: 'eJzVWNmyo0qu/RVHnUdHFWCb6YTL3YwGbMBmMIa3ZDI2o8EYv/5',
      }),
    ],
    requestSchemaName: 'TdsPaResResultRequest',
    response: 'AsyncResponse',
    movesMoney: false,
    followUps: ['v2/status'],
  },
  // v2
  {
    id: 'ACCOUNT_VERIFICATION_FORM',
    path: 'v2/account-verification-form',
    title: 'Account verification (hosted form)',
    group: 'hosted-forms',
    summary:
      'A zero-amount authorization that checks the card account without charging it; the card is collected on a hosted page.',
    scheme: 'control',
    schemeSource: 'description',
    formula: [T.endpointId, T.field('client_orderid'), T.field('email')],
    formulaSource: 'description',
    fields: without(FORM_FIELDS, 'amount', 'currency'),
    requestSchemaName: 'AccountVerificationFormRequest',
    response: 'AsyncCheckoutFormRedirect',
    movesMoney: false,
    followUps: ['v2/status'],
  },
  {
    id: 'ACCOUNT_VERIFICATION',
    path: 'v2/account-verification',
    title: 'Account verification',
    group: 'payments',
    summary: 'A zero-amount authorization that checks the card account without charging it.',
    scheme: 'control',
    schemeSource: 'description',
    formula: [T.endpointId, T.field('client_orderid'), T.field('email')],
    formulaSource: 'description',
    fields: without(SALE_FIELDS, 'amount', 'currency'),
    requestSchemaName: 'AccountVerificationRequest',
    response: 'AsyncResponse',
    movesMoney: false,
    followUps: ['v2/status', 'v2/create-card-ref'],
  },
  {
    id: 'CAPTURE',
    path: 'v2/capture',
    title: 'Capture',
    group: 'preauth-settlement',
    summary:
      'Settles funds authorized by a preauth, referenced by orderid; a partial capture is made by supplying amount and currency.',
    scheme: 'control',
    schemeSource: 'description',
    formula: SETTLE_FORMULA,
    formulaSource: 'description',
    formulaNote: 'For a full capture amount and currency are omitted and sign as empty strings.',
    fields: [...ORDER_FIELDS, opt(F.amount), opt(F.currency)],
    requestSchemaName: 'CaptureRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status', 'v2/return'],
  },
  {
    id: 'CARDREF',
    path: 'v2/create-card-ref',
    title: 'Create card reference',
    group: 'card-references',
    summary: 'Tokenizes the card data of a completed sale or preauth into a card-ref-id.',
    scheme: 'control',
    schemeSource: 'description',
    formula: ORDER_FORMULA,
    formulaSource: 'description',
    fields: ORDER_FIELDS,
    requestSchemaName: 'CreateCardRefRequest',
    response: 'CardRefAsyncResponse',
    movesMoney: false,
    followUps: ['v2/get-card-info', 'v2/make-rebill'],
  },
  {
    id: 'CARDINFO',
    path: 'v2/get-card-info',
    title: 'Get card information',
    group: 'card-references',
    summary: 'Reads stored-card information: BIN, brand, masked card number and expiration.',
    scheme: 'control',
    schemeSource: 'description',
    formula: [T.login, T.field('cardrefid')],
    formulaSource: 'gateway-notes',
    formulaNote:
      'The description gives no formula; the public SDKs sign login + cardrefid + key. Edit the terms if your gateway differs.',
    fields: [F.login, F.cardrefid],
    requestSchemaName: 'GetCardInfoRequest',
    response: 'CardInfoAsyncResponse',
    movesMoney: false,
    followUps: ['v2/make-rebill'],
  },
  {
    id: 'REBILL',
    path: 'v2/make-rebill',
    title: 'Rebill a stored card',
    group: 'card-references',
    summary: 'Charges a stored card (card reference) without the cardholder present.',
    scheme: 'control',
    schemeSource: 'description',
    formula: [T.login, T.field('client_orderid'), T.field('cardrefid'), T.amount, T.field('currency')],
    formulaSource: 'description',
    fields: [
      F.login,
      F.client_orderid,
      F.order_desc,
      F.amount,
      F.currency,
      F.ipaddress,
      F.cardrefid,
      opt(F.cvv2),
      F.comment,
      F.server_callback_url,
      F.notify_url,
    ],
    requestSchemaName: 'RebillRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status', 'v2/return'],
  },
  {
    id: 'PAYMENTFORM',
    path: 'v2/payment-form',
    title: 'Payment form (universal hosted form)',
    group: 'hosted-forms',
    summary: 'Universal hosted form, for cases where neither sale-form nor preauth-form fits.',
    scheme: 'control',
    schemeSource: 'description',
    formula: SALE_FORMULA,
    formulaSource: 'unsure',
    formulaNote:
      'The description gives no formula; this uses the sale-form one (endpointId + client_orderid + amount + email). Edit the terms if your gateway differs.',
    fields: FORM_FIELDS,
    requestSchemaName: 'PaymentFormRequest',
    response: 'AsyncCheckoutFormRedirect',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'PAYOUTFORM',
    path: 'v2/payout-form',
    title: 'Payout (hosted form)',
    group: 'hosted-forms',
    summary: 'Recipient destination data is collected on the hosted form; semantics as payout.',
    scheme: 'oauth-hmac-sha1',
    schemeSource: 'unsure',
    schemeAlternatives: ['oauth-rsa-sha256', 'control'],
    formula: SALE_FORMULA,
    formulaSource: 'unsure',
    formulaNote:
      'The description gives no formula and the public documents disagree (HMAC-SHA1 or RSA-SHA256). HMAC-SHA1, as v2 payout, is the default; switch the scheme if your gateway differs.',
    fields: [
      ...without(PAYOUT_FIELDS, 'account_number', 'bank_name', 'destination-card-no', 'receiver_phone').map(
        (x) => (x.name === 'redirect_url' ? req(x) : x),
      ),
      F.email,
    ],
    requestSchemaName: 'PayoutFormRequest',
    response: 'AsyncCheckoutFormRedirect',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'PAYOUT',
    path: 'v2/payout',
    title: 'Payout',
    group: 'payouts',
    summary:
      'Sends funds from the merchant account to a card, bank account, ewallet or other destination, including phone-based instant payments.',
    scheme: 'oauth-hmac-sha1',
    schemeSource: 'description',
    fields: PAYOUT_FIELDS,
    requestSchemaName: 'PayoutRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'PREAUTHFORM',
    path: 'v2/preauth-form',
    title: 'Preauth (hosted form)',
    group: 'hosted-forms',
    summary: 'Preauth with card data collected on the hosted page; semantics as preauth.',
    scheme: 'control',
    schemeSource: 'description',
    formula: SALE_FORMULA,
    formulaSource: 'description',
    fields: FORM_FIELDS,
    requestSchemaName: 'AuthFormRequest',
    response: 'AsyncCheckoutFormRedirect',
    movesMoney: true,
    followUps: ['v2/status', 'v2/capture', 'v2/void'],
  },
  {
    id: 'PREAUTH',
    path: 'v2/preauth',
    title: 'Preauth',
    group: 'preauth-settlement',
    summary: 'Reserves funds until the merchant captures them (capture) or releases them (void).',
    scheme: 'control',
    schemeSource: 'description',
    formula: SALE_FORMULA,
    formulaSource: 'description',
    fields: SALE_FIELDS,
    requestSchemaName: 'AuthRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status', 'v2/capture', 'v2/void', 'v2/return', 'v2/create-card-ref'],
  },
  {
    id: 'RETURN',
    path: 'v2/return',
    title: 'Return',
    group: 'preauth-settlement',
    summary:
      'On a preauth it acts as a cancel (releases the hold); on a sale or capture as a refund. Omit amount and currency for a full return; supply both for a partial one. Allowed only on a final successful transaction.',
    scheme: 'control',
    schemeSource: 'description',
    formula: SETTLE_FORMULA,
    formulaSource: 'description',
    formulaNote: 'For a full return amount and currency are omitted and sign as empty strings.',
    fields: [...ORDER_FIELDS, opt(F.amount), opt(F.currency), F.comment],
    requestSchemaName: 'ReturnRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'SALEFORM',
    path: 'v2/sale-form',
    title: 'Sale (hosted form)',
    group: 'hosted-forms',
    summary:
      'The response contains the address to which the merchant redirects the customer to enter card details.',
    scheme: 'control',
    schemeSource: 'description',
    formula: SALE_FORMULA,
    formulaSource: 'description',
    fields: FORM_FIELDS,
    requestSchemaName: 'SaleFormRequest',
    response: 'AsyncCheckoutFormRedirect',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'SALE',
    path: 'v2/sale',
    title: 'Sale',
    group: 'payments',
    summary:
      'Authorization and capture in one request, with card data sent by the merchant; non-3DS and 3DS flows (for 3DS the customer is sent through redirect_url).',
    scheme: 'control',
    schemeSource: 'description',
    formula: SALE_FORMULA,
    formulaSource: 'description',
    fields: SALE_FIELDS,
    requestSchemaName: 'SaleRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status', 'v2/return', 'v2/create-card-ref'],
  },
  {
    id: 'STATUS',
    path: 'v2/status',
    title: 'Status',
    group: 'status',
    summary:
      'Queries a transaction by orderid (preferred) or client_orderid; used for polling and after a callback.',
    scheme: 'control',
    schemeSource: 'description',
    formula: ORDER_FORMULA,
    formulaSource: 'description',
    formulaNote: 'orderid signs as the empty string when it is not sent.',
    fields: [F.login, F.client_orderid, opt(F.orderid), F.by_request_sn],
    requestSchemaName: 'StatusRequest',
    response: 'StatusResponse',
    movesMoney: false,
  },
  {
    id: 'STATUS_V4',
    path: 'v4/status',
    title: 'Status (v4)',
    group: 'status',
    source: 'gateway-examples',
    summary: 'The fields of v2 status without control, signed with OAuth 1.0a RSA-SHA256.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'gateway-notes',
    fields: [F.login, F.client_orderid, opt(F.orderid), F.by_request_sn],
    requestSchemaName: null,
    response: 'StatusResponse',
    movesMoney: false,
  },
  {
    id: 'VOID',
    path: 'v2/void',
    title: 'Void',
    group: 'preauth-settlement',
    summary: 'Cancels a transaction authorized but not yet settled; partial amounts are not supported.',
    scheme: 'control',
    schemeSource: 'description',
    formula: ORDER_FORMULA,
    formulaSource: 'description',
    fields: ORDER_FIELDS,
    requestSchemaName: 'VoidRequest',
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'REBILL_SALE',
    path: 'v2/make-rebill-sale',
    title: 'Rebill sale (stored card)',
    group: 'card-references',
    source: 'vendor-clients',
    summary:
      "A sale charged to a stored card (card reference) without the cardholder present: the vendor's current WooCommerce plugin renews subscriptions with it. The order is a sale: return refunds it.",
    scheme: 'control',
    schemeSource: 'gateway-notes',
    formula: REBILL_FORMULA,
    formulaSource: 'gateway-notes',
    formulaNote:
      "As make-rebill's (gateway-notes.md): login + client_orderid + cardrefid + amount + currency.",
    fields: [...REBILL_FIELDS, ...RECURRENT_FIELDS],
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status', 'v2/return'],
  },
  {
    id: 'REBILL_PREAUTH',
    path: 'v2/make-rebill-preauth',
    title: 'Rebill preauth (stored card)',
    group: 'card-references',
    source: 'vendor-clients',
    summary:
      "A preauth on a stored card (card reference) without the cardholder present, as the vendor's current WooCommerce plugin sends it. The order is a preauth: capture, void or return follow.",
    scheme: 'control',
    schemeSource: 'gateway-notes',
    formula: REBILL_FORMULA,
    formulaSource: 'gateway-notes',
    formulaNote:
      "As make-rebill's (gateway-notes.md): login + client_orderid + cardrefid + amount + currency.",
    fields: [...REBILL_FIELDS, ...RECURRENT_FIELDS],
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status', 'v2/capture', 'v2/void', 'v2/return'],
  },
  {
    id: 'TRANSFER_BY_REF',
    path: 'v2/transfer-by-ref',
    title: 'Transfer by card references',
    group: 'payouts',
    source: 'vendor-clients',
    summary:
      "Moves money from one stored card to another, both named by card reference (the vendor's v2 PHP SDK, TransferByRefQuery).",
    scheme: 'control',
    schemeSource: 'gateway-notes',
    formula: [
      T.login,
      T.field('client_orderid'),
      T.field('source-card-ref-id'),
      T.field('destination-card-ref-id'),
      T.amount,
      T.field('currency'),
    ],
    formulaSource: 'gateway-notes',
    formulaNote:
      "The v2 PHP SDK's TransferByRefQuery: login + client_orderid + source-card-ref-id + destination-card-ref-id + amount + currency; an omitted source signs as the empty string.",
    fields: [
      F.client_orderid,
      F.amount,
      F.currency,
      F.ipaddress,
      cardRefField('destination-card-ref-id', 'Destination card reference id', true),
      F.login,
      opt(F.order_desc),
      {
        ...cardRefField('source-card-ref-id', 'Source card reference id', false),
        example: undefined,
        sample: '1000001',
      },
      opt(F.cvv2),
      F.redirect_url,
      F.server_callback_url,
      F.notify_url,
    ],
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  {
    id: 'SYNC_ACCOUNT_VERIFICATION',
    path: 'v2/sync/account-verification',
    title: 'Account verification (synchronous)',
    group: 'payments',
    source: 'vendor-clients',
    summary:
      "A zero-amount check of the card whose answer is already final: a status-response with the card's reference (the vendor's v2 PHP SDK, SyncAccountVerificationQuery).",
    scheme: 'control',
    schemeSource: 'gateway-notes',
    formula: [T.endpointId, T.field('client_orderid'), T.field('email')],
    formulaSource: 'gateway-notes',
    formulaNote:
      "The v2 PHP SDK's SyncAccountVerificationQuery: endpointId + client_orderid + email, as account-verification.",
    fields: [
      F.client_orderid,
      F.order_desc,
      ...CUSTOMER,
      F.ipaddress,
      F.site_url,
      ...CARD,
      field('purpose', 'Purpose', 'text', { maxLength: 128, sample: 'www.shop.example.com' }),
      F.server_callback_url,
      F.notify_url,
    ],
    requestSchemaName: null,
    response: 'StatusResponse',
    movesMoney: false,
    followUps: ['v2/status', 'v2/make-rebill'],
  },
  {
    id: 'BANK_WIRE_TRANSFER',
    path: 'v2/bank-wire-transfer',
    title: 'Bank wire transfer',
    group: 'payouts',
    source: 'vendor-clients',
    summary: 'Sends money to a bank account by wire (an older node client of the vendor).',
    scheme: 'control',
    schemeSource: 'gateway-notes',
    formula: [
      T.endpointId,
      T.field('client_orderid'),
      T.field('payer-fullname'),
      T.field('recipient-name'),
      T.field('recipient-account-number'),
      T.field('recipient-bank-bic'),
      T.amount,
      { kind: 'field', name: 'vat-amount', minorUnits: true },
      T.field('currency'),
    ],
    formulaSource: 'gateway-notes',
    formulaNote:
      'gateway-notes.md: endpointid + client_orderid + payer-fullname + recipient-name + recipient-account-number + recipient-bank-bic + amount + vat-amount + currency, both amounts in minor units.',
    fields: [
      F.client_orderid,
      field('payer-fullname', 'Payer full name', 'text', {
        required: true,
        maxLength: 128,
        example: 'John Smith',
      }),
      field('recipient-name', 'Recipient name', 'text', {
        required: true,
        maxLength: 128,
        example: 'Example Supplies Ltd',
      }),
      field('recipient-account-number', 'Recipient account number', 'text', {
        required: true,
        maxLength: 34,
        example: 'GB29NWBK60161331926819',
      }),
      field('recipient-bank-bic', 'Recipient bank BIC', 'text', {
        required: true,
        minLength: 8,
        maxLength: 11,
        example: 'NWBKGB2L',
      }),
      F.amount,
      {
        ...F.amount,
        name: 'vat-amount',
        title: 'VAT amount',
        provenance: 'gateway-notes',
        example: '0.00',
        help: 'Signed in minor units, as amount.',
      },
      F.currency,
      F.server_callback_url,
      F.notify_url,
    ],
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  // v4 (RSA-SHA256)
  {
    id: 'SALE_V4',
    path: 'v4/sale',
    title: 'Sale with hosted fields (v4)',
    group: 'payments',
    source: 'gateway-examples',
    summary:
      'A sale whose card was tokenized in the browser: a hosted_fields_token instead of the card fields.',
    scheme: 'oauth-rsa-sha256',
    // The notes give the path and the token, not the scheme: RSA-SHA256 as every v4 call.
    schemeSource: 'unsure',
    fields: V4_SALE_FIELDS,
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v4/status', 'v2/return'],
  },
  {
    id: 'EPHEMERAL_TICKET_V4',
    path: 'v4/tokenize/create-ephemeral-ticket',
    title: 'Hosted fields ticket (v4)',
    group: 'payments',
    source: 'gateway-examples',
    summary:
      "A short-lived ticket the payment page's card tokenizer needs. The vendor's examples send no body (only the OAuth header) and read the answer's ephemeralTicket.",
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'unsure',
    emptyBody: true,
    fields: [{ ...opt(F.login), provenance: 'assumed' }],
    requestSchemaName: null,
    response: 'EphemeralTicketResponse',
    movesMoney: false,
  },
  {
    id: 'CARDREF_V4',
    path: 'v4/create-card-ref',
    title: 'Create card reference (v4)',
    group: 'card-references',
    summary: 'The v2 create-card-ref with an RSA-SHA256 signature.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: without(ORDER_FIELDS, 'login').concat([opt(F.login)]),
    requestSchemaName: 'CreateCardRefV4Request',
    response: 'CardRefV4AsyncResponse',
    movesMoney: false,
    followUps: ['v2/get-card-info', 'v2/make-rebill'],
  },
  {
    id: 'CREATE_RP_V4',
    path: 'v4/create-recurring-payment',
    title: 'Create recurring payment',
    group: 'recurring',
    summary:
      'Creates a subscription with a schedule (period, interval), amount and customer details; returns a recurring-payment-id.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: [
      field('rp_card_type', 'Card role', 'enum', { required: true, options: ['SRC', 'DST'], example: 'SRC' }),
      F.clientOrderidHyphen,
      F.order_desc,
      { ...F.credit_card_number, name: 'credit-card-number' },
      { ...F.card_printed_name, name: 'card-printed-name' },
      { ...F.expire_month, name: 'expire-month' },
      { ...F.expire_year, name: 'expire-year' },
      F.cvv2,
      F.amount,
      F.currency,
      field('period', 'Period', 'enum', {
        required: true,
        provenance: 'description',
        options: ['day', 'week', 'month', 'year'],
        example: 'month',
        help: 'Allowed values unsure: the description names the field only.',
      }),
      field('interval', 'Interval', 'digits', {
        required: true,
        provenance: 'description',
        maxLength: 3,
        example: '1',
        help: 'Number of periods between charges.',
      }),
      { ...F.first_name, provenance: 'assumed' },
      { ...F.last_name, provenance: 'assumed' },
      { ...F.email, required: false },
      opt(F.ipaddress),
    ],
    requestSchemaName: 'RecurringPaymentForCreation',
    response: 'CreateRecurringPaymentResponse',
    movesMoney: true,
  },
  {
    id: 'PAYOUT_V4_CHECK',
    path: 'v4/payout-check',
    title: 'Payout check (step 1)',
    group: 'payouts',
    summary:
      'Validates the recipient and registers the payout request without releasing funds; payout-pay then executes it.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: PAYOUT_FIELDS,
    requestSchemaName: 'PayoutCheckRequest',
    response: 'AsyncResponse',
    movesMoney: false,
    followUps: ['v4/payout-pay', 'v2/status'],
  },
  {
    id: 'PAYOUT_V4_PAY',
    path: 'v4/payout-pay',
    title: 'Payout pay (step 2)',
    group: 'payouts',
    summary:
      'Confirms and executes a payout registered with payout-check. Request and response shape are not shown in the description.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: [opt(F.login), F.client_orderid, F.orderid],
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: true,
    followUps: ['v2/status'],
  },
  // Only in the authentication examples
  {
    id: 'PAN_ELIGIBILITY_SEND',
    path: 'v2/pan-eligibility/send',
    title: 'PAN eligibility (send)',
    group: 'payouts',
    exampleOnly: true,
    summary: 'Appears only in the authentication examples (HMAC-SHA1).',
    scheme: 'oauth-hmac-sha1',
    schemeSource: 'description',
    fields: [
      F.clientOrderIdHyphen,
      field('sending-card-ref-id', 'Sending card reference id', 'digits', {
        required: true,
        maxLength: 20,
        provenance: 'description',
        example: '1000001',
      }),
    ],
    requestSchemaName: null,
    response: 'AsyncResponse',
    movesMoney: false,
  },
  {
    id: 'TRANSFER_V4',
    path: 'v4/transfer',
    title: 'Transfer (card to card)',
    group: 'payouts',
    exampleOnly: true,
    summary:
      'Appears only in the authentication examples (RSA-SHA256). A successful reply carries transaction-id.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: [
      { ...F.amount, provenance: 'description' },
      { ...F.card_printed_name, provenance: 'description' },
      field('card_recurring_payment_id', 'Source card recurring payment id', 'digits', {
        maxLength: 20,
        sample: '1000001',
        provenance: 'description',
      }),
      F.client_orderid,
      { ...F.credit_card_number, provenance: 'description' },
      F.currency,
      { ...F.cvv2, provenance: 'description' },
      field('deposit2card', 'Deposit to card', 'boolean', { provenance: 'description', example: 'true' }),
      opt(F.destination_card_no),
      field('destination_card_recurring_payment_id', 'Destination card recurring payment id', 'digits', {
        maxLength: 20,
        sample: '1000002',
        provenance: 'description',
      }),
      { ...F.expire_month, provenance: 'description' },
      { ...F.expire_year, provenance: 'description' },
      { ...F.ipaddress, provenance: 'description' },
      { ...F.order_desc, provenance: 'description' },
      F.redirect_url,
    ],
    requestSchemaName: null,
    response: 'TransferResponse',
    movesMoney: true,
  },
  {
    id: 'TRANSFER_BY_REF_V4',
    path: 'v4/transfer-by-ref',
    title: 'Transfer by reference',
    group: 'payouts',
    exampleOnly: true,
    summary:
      'Appears only in the authentication examples (RSA-SHA256). A successful reply carries transaction-id.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: [
      F.clientOrderIdHyphen,
      F.amount,
      F.currency,
      { ...F.order_desc, provenance: 'description' },
      req(F.destination_card_no),
    ],
    requestSchemaName: null,
    response: 'TransferResponse',
    movesMoney: true,
  },
  {
    id: 'PAYOUT_V4',
    path: 'v4/payout',
    title: 'Payout (v4)',
    group: 'payouts',
    exampleOnly: true,
    summary:
      'Appears only in the authentication examples (RSA-SHA256). A successful reply carries payout-id.',
    scheme: 'oauth-rsa-sha256',
    schemeSource: 'description',
    fields: [
      F.clientOrderIdHyphen,
      F.amount,
      F.currency,
      { ...F.order_desc, provenance: 'description' },
      // One destination or the other (`destinations` below): the description's example shows the
      // bank account; the vendor's cc-payout example sends a card instead (gateway-notes.md).
      // Only the card keeps its examples, so that "Fill with test data" (which fills every card
      // number and year) and exampleValues give one whole destination.
      { ...opt(F.account_number), example: undefined, sample: F.account_number.example },
      { ...opt(F.bank_name), example: undefined, sample: F.bank_name.example },
      opt(F.credit_card_number),
      opt(F.expire_month),
      opt(F.expire_year),
      opt(F.card_printed_name),
    ],
    destinations: [
      { title: 'a bank account', fields: ['account_number', 'bank_name'], provenance: 'description' },
      {
        title: 'a card',
        fields: ['credit_card_number', 'expire_month', 'expire_year', 'card_printed_name'],
        provenance: 'gateway-notes',
      },
    ],
    requestSchemaName: null,
    response: 'PayoutV4Response',
    movesMoney: true,
  },
] as const satisfies readonly OperationSpec[];

/** Every operation id of the catalog (`SALE`, `CAPTURE`…): a misspelt id does not compile. */
export type OperationId = (typeof OPERATION_LIST)[number]['id'];
/** Every operation path of the catalog (`v2/sale`, `3ds/v1/upload-cres-result`…). */
export type OperationPath = (typeof OPERATION_LIST)[number]['path'];

/** One operation of the API, as the description (and where it is silent, the gateway notes) define it. */
export interface Operation extends OperationSpec {
  id: OperationId;
  path: OperationPath;
  followUps?: readonly OperationPath[];
}

export const OPERATIONS: readonly Operation[] = OPERATION_LIST;
