import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { describeFormula, FORM_MEDIA_TYPE, PAY_MEDIA_TYPE } from '../../core/index.ts';
import {
  findOperation,
  GROUP_TITLES,
  OPERATIONS,
  type FieldSpec,
  type Operation,
  type OperationGroup,
} from '../../catalog/index.ts';
import { ExportError } from '../errors.ts';

/** The Postman Collection Format v2.1 schema address, as Postman writes it in `info.schema`. */
export const POSTMAN_SCHEMA_V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

const variableName = z
  .string()
  .check(
    z.regex(
      /^[A-Za-z_][A-Za-z0-9_.-]*$/,
      'a variable name is letters, digits, _ . -, starting with a letter or _',
    ),
  );

const inputSchema = z.object({
  /** Name of the collection variable holding the gateway base URL (`…/paynet`). */
  baseUrlVariable: z._default(variableName, 'base_url'),
  /** Its initial value. */
  baseUrl: z._default(z.string(), 'https://sandbox.example.com/paynet'),
  endpointId: z._default(
    z.string().check(z.regex(/^\d{1,19}$/, 'the endpoint id is a whole number')),
    '1111',
  ),
  login: z._default(z.string(), ''),
  /**
   * The customer return page and the callback inbox of whoever runs the collection (variables
   * `return_url` and `callback_url`); by default this machine's loopback, which the local sandbox accepts.
   */
  returnUrl: z._default(z.string(), 'http://127.0.0.1/return'),
  callbackUrl: z._default(z.string(), ''),
  name: z._default(z.string().check(z.minLength(1)), 'Card Payment Processing API (pay-console)'),
  /** Only these operations (paths such as `v2/sale`); all by default. */
  operations: z.optional(z.array(z.string())),
  /** Put the secrets below into the collection variables. Off by default: they stay empty. */
  includeSecrets: z._default(z.boolean(), false),
  secrets: z.optional(
    z.object({ controlKey: z.optional(z.string()), privateKeyPem: z.optional(z.string()) }),
  ),
});
export type PostmanInput = z.input<typeof inputSchema>;

/** The parts of Postman's v2.1 format this generator writes. */
export interface PostmanVariable {
  key: string;
  value: string;
  type?: 'string' | 'secret';
  description?: string;
}
export interface PostmanEvent {
  listen: 'prerequest' | 'test';
  script: { type: 'text/javascript'; exec: string[] };
}
export interface PostmanRequestItem {
  name: string;
  description?: string;
  event?: PostmanEvent[];
  request: {
    method: 'POST';
    header: Array<{ key: string; value: string }>;
    body: {
      mode: 'urlencoded';
      urlencoded: Array<{
        key: string;
        value: string;
        type: 'text';
        disabled?: boolean;
        description?: string;
      }>;
    };
    url: { raw: string; host: string[]; path: string[] };
    auth?: {
      type: 'oauth1';
      oauth1: Array<{ key: string; value: string | boolean; type: 'string' | 'boolean' }>;
    };
    description?: string;
  };
}
export interface PostmanFolder {
  name: string;
  item: PostmanRequestItem[];
}
export interface PostmanCollection {
  info: { name: string; description: string; schema: string };
  item: PostmanFolder[];
  event: PostmanEvent[];
  variable: PostmanVariable[];
}

/**
 * The value a body parameter starts with in the collection: the merchant login from its variable,
 * a fresh order id per send for operations that start an order, the last answer's ids for the
 * operations that refer to one (so sale → status → capture runs in order), else the catalog example.
 */
function initialValue(op: Operation, spec: FieldSpec): string | undefined {
  const refersToOrder = op.fields.some((f) => f.name === 'orderid');
  if (spec.fromProfile === 'login') return '{{login}}';
  if (spec.role === 'client-order-id') return refersToOrder ? '{{last_client_orderid}}' : 'pc-{{$guid}}';
  if (spec.name === 'orderid') return '{{last_orderid}}';
  if (spec.name === 'cardrefid' || spec.name === 'sending-card-ref-id') return '{{last_card_ref_id}}';
  // The return page and callback inbox belong to whoever runs the collection: variables, set there.
  if (spec.place === 'return-url') return '{{return_url}}';
  if (spec.place === 'callback-url') return spec.required ? '{{callback_url}}' : undefined;
  return spec.example;
}

/** The collection-level scripts: freeze dynamic values before signing, remember ids after each answer. */
const COLLECTION_PREREQUEST = [
  '// Draw dynamic values of the body ({{$guid}}…) once, so that what is signed is what is sent.',
  'if (pm.request.body && pm.request.body.mode === "urlencoded") {',
  '  pm.request.body.urlencoded.each(function (p) {',
  '    if (!p.disabled && typeof p.value === "string" && p.value.indexOf("{{$") !== -1) p.value = pm.variables.replaceIn(p.value);',
  '  });',
  '}',
];
const COLLECTION_TEST = [
  '// Remember the ids of the last answer: the next request that refers to an order uses them.',
  'var answer;',
  'try { answer = pm.response.json(); } catch (e) { answer = undefined; }',
  'if (answer && answer["paynet-order-id"]) pm.collectionVariables.set("last_orderid", answer["paynet-order-id"]);',
  'if (answer && answer["merchant-order-id"]) pm.collectionVariables.set("last_client_orderid", answer["merchant-order-id"]);',
  'if (answer && answer["card-ref-id"]) pm.collectionVariables.set("last_card_ref_id", answer["card-ref-id"]);',
];

/**
 * The pre-request script that computes `control` in Postman's sandbox (which provides CryptoJS):
 * the formula's terms from the body as it will be sent, the amount in minor units by string
 * arithmetic, SHA-1 as lowercase hex.
 */
function controlScript(op: Operation): string[] {
  const terms = (op.formula ?? []).map((t) =>
    t.kind === 'field'
      ? { kind: 'field', name: t.name, minorUnits: t.minorUnits === true }
      : { kind: t.kind },
  );
  return [
    `// control = SHA-1 of ${describeFormula(op.formula ?? [])} (api-description.md, Scheme C), computed before every send.`,
    `var terms = ${JSON.stringify(terms)};`,
    'var key = pm.variables.get("control_key");',
    'if (!key) throw new Error("Set the variable control_key to the merchant control key (in an environment, not in the collection).");',
    'function param(name) {',
    '  var found = pm.request.body.urlencoded.find(function (p) { return p.key === name && !p.disabled && p.value !== ""; });',
    '  return found ? pm.variables.replaceIn(found.value) : "";',
    '}',
    '// 10.42 -> "1042" with string arithmetic only: never amount * 100 in floating point.',
    'function toMinorUnits(amount) {',
    '  if (amount === "") return "";',
    '  var m = /^([0-9]+)(?:\\.([0-9]{1,2}))?$/.exec(amount);',
    '  if (!m) throw new Error("amount \\"" + amount + "\\" is not a decimal amount such as 10.42");',
    '  var minor = (m[1] + ((m[2] || "") + "00").slice(0, 2)).replace(/^0+/, "");',
    '  return minor === "" ? "0" : minor;',
    '}',
    'var input = terms.map(function (t) {',
    '  if (t.kind === "login") return pm.variables.get("login");',
    '  if (t.kind === "endpointId") return pm.variables.get("endpoint_id");',
    '  return t.minorUnits ? toMinorUnits(param(t.name)) : param(t.name);',
    '}).join("");',
    'pm.variables.set("control", CryptoJS.SHA1(input + key).toString(CryptoJS.enc.Hex));',
  ];
}

function oauthAuth(op: Operation): NonNullable<PostmanRequestItem['request']['auth']> {
  const rsa = op.scheme === 'oauth-rsa-sha256';
  const s = (key: string, value: string) => ({ key, value, type: 'string' as const });
  const b = (key: string, value: boolean) => ({ key, value, type: 'boolean' as const });
  return {
    type: 'oauth1',
    oauth1: [
      s('signatureMethod', rsa ? 'RSA-SHA256' : 'HMAC-SHA1'),
      s('consumerKey', '{{login}}'),
      rsa ? s('privateKey', '{{private_key}}') : s('consumerSecret', '{{control_key}}'),
      s('token', ''),
      s('tokenSecret', ''),
      s('version', '1.0'),
      s('realm', ''),
      b('addParamsToHeader', true),
      b('addEmptyParamsToSign', false),
      b('includeBodyHash', false),
    ],
  };
}

function requestItem(op: Operation): PostmanRequestItem {
  const body: PostmanRequestItem['request']['body']['urlencoded'] = [];
  for (const spec of op.fields) {
    const value = initialValue(op, spec);
    body.push({
      key: spec.name,
      value: value ?? '',
      type: 'text',
      ...(value === undefined ? { disabled: true } : {}),
      description: `${spec.title}${spec.required ? ' (required)' : ''}`,
    });
  }
  const control = op.scheme === 'control';
  if (control)
    body.push({
      key: 'control',
      value: '{{control}}',
      type: 'text',
      description: 'Computed by the pre-request script.',
    });
  const scheme = control
    ? `control = SHA-1(${describeFormula(op.formula ?? [])})`
    : `OAuth 1.0a ${op.scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256'}`;
  return {
    name: op.title,
    description: `${op.summary}\n\nPOST /api/${op.path}/{endpointId}; signed with ${scheme}.`,
    ...(control
      ? {
          event: [
            {
              listen: 'prerequest' as const,
              script: { type: 'text/javascript' as const, exec: controlScript(op) },
            },
          ],
        }
      : {}),
    request: {
      method: 'POST',
      header: [
        { key: 'Accept', value: PAY_MEDIA_TYPE },
        { key: 'Content-Type', value: FORM_MEDIA_TYPE },
      ],
      body: { mode: 'urlencoded', urlencoded: body },
      url: {
        raw: `{{base_url}}/api/${op.path}/{{endpoint_id}}`,
        host: ['{{base_url}}'],
        path: ['api', ...op.path.split('/'), '{{endpoint_id}}'],
      },
      ...(control ? {} : { auth: oauthAuth(op) }),
    },
  };
}

/**
 * A Postman collection (v2.1) of the catalog: one request per operation with its form body, the
 * OAuth 1.0 helper of Postman set up for the O1 (HMAC-SHA1) and O2 (RSA-SHA256) operations, and a
 * pre-request script that computes `control` for the scheme C ones. Secrets live in variables that
 * stay empty unless `includeSecrets` is set; set them in a Postman environment instead.
 * @throws ExportError POSTMAN_INPUT for an input it cannot use (an unknown operation, a bad variable name).
 */
export function buildPostmanCollection(input: PostmanInput = {}): PostmanCollection {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ExportError(
      'POSTMAN_INPUT',
      `The Postman collection cannot be built: ${issue.path.join('.') || 'input'}: ${issue.message}.`,
    );
  }
  const o = parsed.data;
  let ops: readonly Operation[] = OPERATIONS;
  if (o.operations) {
    ops = o.operations.map((path) => {
      const op = findOperation(path);
      if (!op)
        throw new ExportError(
          'POSTMAN_INPUT',
          `No operation "${path}" in the catalog: use a path such as v2/sale.`,
        );
      return op;
    });
  }
  const folders = new Map<OperationGroup, PostmanRequestItem[]>();
  for (const op of ops) {
    const list = folders.get(op.group) ?? [];
    list.push(requestItem(op));
    folders.set(op.group, list);
  }
  const secrets = o.includeSecrets ? (o.secrets ?? {}) : {};
  const items = [...folders].map(([group, item]) => ({ name: GROUP_TITLES[group], item }));
  const collection: PostmanCollection = {
    info: {
      name: o.name,
      description:
        'Generated by pay-console. Set base_url, endpoint_id and login, and put control_key (and private_key, a PEM, for the v4 RSA-SHA256 operations) in a Postman environment: the collection itself holds no secret unless it was exported with secrets. `control` is computed by each operation’s pre-request script; OAuth 1.0a is Postman’s own OAuth 1.0 helper (its nonce is Postman’s, not from a secure generator).',
      schema: POSTMAN_SCHEMA_V21,
    },
    item: items,
    event: [
      { listen: 'prerequest', script: { type: 'text/javascript', exec: COLLECTION_PREREQUEST } },
      { listen: 'test', script: { type: 'text/javascript', exec: COLLECTION_TEST } },
    ],
    variable: [
      {
        key: 'base_url',
        value: o.baseUrl,
        type: 'string',
        description: 'Gateway base URL, e.g. https://sandbox.<gateway-host>/paynet',
      },
      { key: 'endpoint_id', value: o.endpointId, type: 'string' },
      { key: 'login', value: o.login, type: 'string', description: 'Merchant login (oauth_consumer_key)' },
      {
        key: 'return_url',
        value: o.returnUrl,
        type: 'string',
        description: 'Where the gateway sends the customer back (redirect_url): your own page',
      },
      {
        key: 'callback_url',
        value: o.callbackUrl,
        type: 'string',
        description: 'Your callback inbox (server_callback_url), where the gateway posts the outcome',
      },
      {
        key: 'control_key',
        value: secrets.controlKey ?? '',
        type: 'secret',
        description: 'Merchant control key: set it in an environment',
      },
      {
        key: 'private_key',
        value: secrets.privateKeyPem ?? '',
        type: 'secret',
        description: 'Merchant RSA private key (PEM) for RSA-SHA256: set it in an environment',
      },
      { key: 'last_orderid', value: '', type: 'string', description: 'paynet-order-id of the last answer' },
      {
        key: 'last_client_orderid',
        value: '',
        type: 'string',
        description: 'merchant-order-id of the last answer',
      },
      { key: 'last_card_ref_id', value: '', type: 'string', description: 'card-ref-id of the last answer' },
    ],
  };
  if (o.baseUrlVariable !== 'base_url') renameVariable(collection, 'base_url', o.baseUrlVariable);
  return collection;
}

function renameVariable(c: PostmanCollection, from: string, to: string): void {
  const re = new RegExp(`\\{\\{${from}\\}\\}`, 'g');
  for (const v of c.variable) if (v.key === from) v.key = to;
  for (const folder of c.item) {
    for (const it of folder.item) {
      it.request.url.raw = it.request.url.raw.replace(re, `{{${to}}}`);
      it.request.url.host = it.request.url.host.map((h) => h.replace(re, `{{${to}}}`));
    }
  }
}
