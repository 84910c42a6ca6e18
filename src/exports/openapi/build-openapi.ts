import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { describeFormula, FORM_MEDIA_TYPE, PAY_MEDIA_TYPE, type Scheme } from '../../core/index.ts';
import {
  exampleValues,
  GROUP_TITLES,
  OPERATION_SOURCE_LABEL,
  OPERATIONS,
  type FieldSpec,
  type Operation,
} from '../../catalog/index.ts';
import { RESPONSE_SCHEMAS, type ResponseSchemaName } from '../../catalog/responses.ts';
import { ExportError } from '../errors.ts';

/** A JSON value of the document (OpenAPI objects are plain JSON). */
export type OpenApiDocument = Record<string, unknown>;

const inputSchema = z.object({
  serverUrl: z
    .string()
    .check(z.minLength(1, 'serverUrl is required, e.g. https://sandbox.example.com/paynet')),
  /** `info.version`; the description's own label is `dev`. */
  version: z._default(z.string().check(z.minLength(1)), 'dev'),
});
export type OpenApiInput = z.input<typeof inputSchema>;

/** Security scheme names, one per authentication scheme of the description. */
export const SECURITY_SCHEME_NAMES: Record<Scheme, string> = {
  control: 'controlSignature',
  'oauth-hmac-sha1': 'oauth1HmacSha1',
  'oauth-rsa-sha256': 'oauth1RsaSha256',
};

const FIELD_PATTERN: Partial<Record<FieldSpec['type'], string>> = {
  amount: '^[0-9]+(\\.[0-9]{1,2})?$',
  currency: '^[A-Z]{3}$',
  digits: '^-?[0-9]+$',
  month: '^(0?[1-9]|1[0-2])$',
  year: '^[0-9]{4}$',
  cvv: '^[0-9]{3,4}$',
  country: '^[A-Z]{2}$',
  date: '^[0-9]{8}$',
  phone: '^\\+?[0-9\\s()-]{4,}$',
};

function fieldSchema(spec: FieldSpec): Record<string, unknown> {
  const s: Record<string, unknown> = { type: 'string', title: spec.title };
  const notes = [
    spec.help,
    spec.type === 'pan' ? 'Card number: 12 to 19 digits, Luhn-valid.' : undefined,
  ].filter(Boolean);
  if (notes.length > 0) s.description = notes.join(' ');
  if (spec.maxLength !== undefined) s.maxLength = spec.maxLength;
  if (spec.minLength !== undefined) s.minLength = spec.minLength;
  if (spec.options) s.enum = [...spec.options];
  else if (spec.type === 'boolean') s.enum = ['true', 'false'];
  const pattern = FIELD_PATTERN[spec.type];
  if (pattern && !spec.options) s.pattern = pattern;
  if (spec.type === 'email') s.format = 'email';
  if (spec.type === 'url') s.format = 'uri';
  if (spec.type === 'base64') s.contentEncoding = 'base64';
  if (spec.example !== undefined) s.examples = [spec.example];
  s['x-provenance'] = spec.provenance;
  if (spec.sensitive) s['x-sensitive'] = spec.sensitive;
  if (spec.fromProfile) s['x-from-profile'] = spec.fromProfile;
  return s;
}

function requestSchemaName(op: Operation): string {
  if (op.requestSchemaName) return op.requestSchemaName;
  return `${op.id
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Request`;
}

function requestBodySchema(op: Operation): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const spec of op.fields) {
    properties[spec.name] = fieldSchema(spec);
    if (spec.required) required.push(spec.name);
  }
  if (op.scheme === 'control' || op.schemeAlternatives?.includes('control')) {
    properties.control = {
      type: 'string',
      title: 'Request signature (scheme C)',
      description: `Lowercase hex SHA-1 of ${describeFormula(op.formula ?? [])}, concatenated without separators; amounts in minor units. Computed for every request; see x-control-formula.`,
      pattern: '^[0-9a-f]{40}$',
      'x-provenance': 'description',
      'x-computed': true,
    };
    if (op.scheme === 'control') required.push('control');
  }
  return {
    type: 'object',
    title: op.title,
    description: `Request parameters of ${op.id}. The field lists of the description are incomplete: other parameters are accepted as text.`,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: { type: 'string' },
  };
}

function controlFormula(op: Operation, group: boolean): Record<string, unknown> | undefined {
  if (!op.formula || !(op.scheme === 'control' || op.schemeAlternatives?.includes('control')))
    return undefined;
  const terms = op.formula.map((t) =>
    t.kind === 'field'
      ? { source: 'body', name: t.name, ...(t.minorUnits ? { minorUnits: true } : {}) }
      : t.kind === 'login'
        ? { source: 'merchant', name: 'login' }
        : { source: 'path', name: group ? 'endpointGroupId' : 'endpointId' },
  );
  return {
    algorithm: 'SHA-1, lowercase hex',
    terms: [...terms, { source: 'secret', name: 'merchant_control_key' }],
    spelled: describeFormula(op.formula).replace('endpointId', group ? 'endpointGroupId' : 'endpointId'),
    absentField: 'an absent body field signs as the empty string',
    ...(op.formulaSource ? { source: op.formulaSource } : {}),
    ...(op.formulaNote ? { note: op.formulaNote } : {}),
  };
}

function security(op: Operation): Array<Record<string, string[]>> {
  return [op.scheme, ...(op.schemeAlternatives ?? [])].map((s) => ({ [SECURITY_SCHEME_NAMES[s]]: [] }));
}

function jsonResponse(
  description: string,
  schema: ResponseSchemaName | 'ForbiddenResponse',
): Record<string, unknown> {
  return {
    description,
    content: { [PAY_MEDIA_TYPE]: { schema: { $ref: `#/components/schemas/${schema}` } } },
  };
}

function operationObject(op: Operation, group: boolean): Record<string, unknown> {
  const oauth = op.scheme !== 'control' || (op.schemeAlternatives ?? []).some((s) => s !== 'control');
  const formula = controlFormula(op, group);
  const example = exampleValues(op);
  const responses: Record<string, unknown> = {
    '200': jsonResponse(`Accepted or answered (${op.response}).`, op.response),
    '400': jsonResponse(
      'Validation error, including a wrong `control` (INVALID_CONTROL_CODE).',
      'ValidationErrorResponse',
    ),
    ...(oauth
      ? {
          '403': jsonResponse(
            'Invalid OAuth signature (gateway-notes.md: a bad OAuth signature is answered 403 Forbidden).',
            'ForbiddenResponse',
          ),
        }
      : {}),
    '500': jsonResponse('Server error.', 'ServerErrorResponse'),
  };
  return {
    operationId: group ? `${op.id}_GROUP` : op.id,
    summary: group ? `${op.title} (endpoint group)` : op.title,
    description:
      op.summary +
      (group
        ? ' Sent to an endpoint group: the group id replaces endpointId in the path and in the `control` formula.'
        : '') +
      (op.exampleOnly ? ' This operation appears only in the description’s authentication examples.' : '') +
      (op.source ? ` ${OPERATION_SOURCE_LABEL[op.source]}.` : ''),
    tags: [GROUP_TITLES[op.group]],
    parameters: [
      { $ref: group ? '#/components/parameters/endpointGroupId' : '#/components/parameters/endpointId' },
      { $ref: '#/components/parameters/accept' },
    ],
    requestBody: {
      required: true,
      content: {
        [FORM_MEDIA_TYPE]: {
          schema: { $ref: `#/components/schemas/${requestSchemaName(op)}` },
          ...(Object.keys(example).length > 0 ? { example } : {}),
        },
      },
    },
    responses,
    security: security(op),
    'x-pay-scheme': op.scheme,
    'x-pay-scheme-source': op.schemeSource,
    ...(op.schemeAlternatives ? { 'x-pay-scheme-alternatives': [...op.schemeAlternatives] } : {}),
    ...(formula ? { 'x-control-formula': formula } : {}),
    'x-moves-money': op.movesMoney,
    ...(op.followUps ? { 'x-follow-ups': [...op.followUps] } : {}),
  };
}

function responseComponents(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Record<string, unknown>;
    delete json.$schema;
    out[name] = {
      title: name,
      description:
        'Keys are hyphenated, as the gateway sends them (gateway-notes.md, Responses); other keys may be present.',
      ...json,
    };
  }
  out.ForbiddenResponse = {
    title: 'ForbiddenResponse',
    description:
      'The answer to a refused OAuth signature, as the local sandbox sends it; the description does not show the real gateway’s body.',
    ...(z.toJSONSchema(RESPONSE_SCHEMAS.ServerErrorResponse, { target: 'draft-2020-12' }) as Record<
      string,
      unknown
    >),
  };
  delete (out.ForbiddenResponse as Record<string, unknown>).$schema;
  return out;
}

const SECURITY_SCHEMES = {
  [SECURITY_SCHEME_NAMES.control]: {
    type: 'apiKey',
    in: 'query',
    name: 'control',
    description:
      'Scheme C (api-description.md, Authentication). NOT a static key and NOT a query parameter: `control` is a body parameter computed for every request as the lowercase hex SHA-1 of the terms of the operation’s formula (see each operation’s x-control-formula) followed by the merchant control key. OpenAPI has no body-located API key, so this is declared as an apiKey and x-pay-in says where it really goes; tools that fill apiKeys into the query cannot produce it.',
    'x-pay-in': 'body',
    'x-pay-computed': 'sha1-hex(formula terms + merchant_control_key)',
  },
  [SECURITY_SCHEME_NAMES['oauth-hmac-sha1']]: {
    type: 'http',
    scheme: 'OAuth',
    description:
      'Scheme O1: OAuth 1.0a (RFC 5849) with HMAC-SHA1, two-legged. OpenAPI has no OAuth 1.0 type, so this is the HTTP authentication scheme "OAuth" (registered by RFC 5849 §3.5.1) and x-oauth1 gives the signing parameters. oauth_consumer_key is the merchant login; the key is the merchant control key followed by "&" (empty token secret); body parameters are signed.',
    'x-oauth1': {
      version: '1.0a',
      signatureMethod: 'HMAC-SHA1',
      consumerKey: 'merchant login',
      consumerSecret: 'merchant control key',
      token: null,
      parameterTransmission: 'Authorization header',
      bodyParametersSigned: true,
      percentEncoding: 'RFC 3986 (space is %20)',
    },
  },
  [SECURITY_SCHEME_NAMES['oauth-rsa-sha256']]: {
    type: 'http',
    scheme: 'OAuth',
    description:
      'Scheme O2: OAuth 1.0a (RFC 5849) with RSA-SHA256 (RSASSA-PKCS1-v1_5 over the base string), two-legged. Declared as the HTTP authentication scheme "OAuth", with x-oauth1 for the signing parameters (OpenAPI has no OAuth 1.0 type). oauth_consumer_key is the merchant login; the merchant signs with its RSA private key (2048 bits or more) whose public key the gateway holds.',
    'x-oauth1': {
      version: '1.0a',
      signatureMethod: 'RSA-SHA256',
      consumerKey: 'merchant login',
      privateKey: 'merchant RSA private key (PEM, at least 2048 bits)',
      token: null,
      parameterTransmission: 'Authorization header',
      bodyParametersSigned: true,
      percentEncoding: 'RFC 3986 (space is %20)',
    },
  },
};

/**
 * An OpenAPI 3.1.0 document of the whole catalog: one POST per operation and per endpoint-group
 * variant, the form body as a schema built from the catalog's fields (types, lengths, required,
 * examples, provenance), the response schemas from the catalog's zod schemas, and the three
 * authentication schemes. OpenAPI cannot express a body signature or OAuth 1.0a: `control` is an
 * apiKey with `x-pay-in: body`, OAuth 1.0a the HTTP scheme "OAuth" with `x-oauth1`.
 * @see api-description.md, Versioning ("The service description format is OpenAPI 3.1.0").
 * @throws ExportError OPENAPI_INPUT when serverUrl is empty.
 */
export function buildOpenApi(input: OpenApiInput): OpenApiDocument {
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) {
    throw new ExportError(
      'OPENAPI_INPUT',
      `The OpenAPI document cannot be built: ${parsed.error.issues[0]!.message}.`,
    );
  }
  const { serverUrl, version } = parsed.data;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const op of OPERATIONS) {
    paths[`/api/${op.path}/{endpointId}`] = { post: operationObject(op, false) };
    paths[`/api/${op.path}/group/{endpointGroupId}`] = { post: operationObject(op, true) };
    schemas[requestSchemaName(op)] = requestBodySchema(op);
  }
  const tags = [...new Set(OPERATIONS.map((o) => o.group))].map((g) => ({ name: GROUP_TITLES[g] }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Card Payment Processing API (server-to-server)',
      version,
      description:
        'Generated by pay-console from its operation catalog. Every operation is POST with a form-encoded body and requires `Accept: application/vnd.pay+json`. Authentication is per operation: the `control` body signature (scheme C) or OAuth 1.0a with HMAC-SHA1 (O1) or RSA-SHA256 (O2). OpenAPI cannot describe a computed body signature or OAuth 1.0a; see the security schemes for how they are declared, and x-control-formula on each control operation. x-provenance on a field says where its facts come from: the description, the gateway notes, or an assumption of this tool.',
    },
    servers: [
      { url: serverUrl.replace(/\/+$/, ''), description: 'The gateway base URL ({base_url}), e.g. …/paynet' },
    ],
    tags,
    paths,
    components: {
      parameters: {
        endpointId: {
          name: 'endpointId',
          in: 'path',
          required: true,
          description: 'Merchant endpoint id.',
          schema: { type: 'integer', format: 'int64', minimum: 0 },
        },
        endpointGroupId: {
          name: 'endpointGroupId',
          in: 'path',
          required: true,
          description:
            'Endpoint group id; it replaces endpointId in the `control` formula too (gateway-notes.md, Addresses).',
          schema: { type: 'integer', format: 'int64', minimum: 0 },
        },
        accept: {
          name: 'Accept',
          in: 'header',
          required: true,
          description:
            'Must equal application/vnd.pay+json (api-description.md, Endpoints). Listed for readers: OpenAPI tools derive Accept from the response media type and may ignore this entry.',
          schema: { type: 'string', enum: [PAY_MEDIA_TYPE] },
        },
      },
      schemas: { ...schemas, ...responseComponents() },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
