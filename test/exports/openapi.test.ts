/**
 * The OpenAPI 3.1 document of the catalog: a standard validator (@seriousme/openapi-schema-validator,
 * offline, the official OAS 3.1 JSON schema) accepts it, every operation is in it, and every schema
 * in it is itself a valid JSON Schema 2020-12 that accepts the catalog's own examples.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import { exampleValues, OPERATIONS, type Operation } from '../../src/catalog/index.ts';
import { buildOpenApi, isExportError } from '../../src/exports/index.ts';

type Obj = Record<string, unknown>;
const doc = buildOpenApi({ serverUrl: 'https://sandbox.example.com/paynet/' });
const paths = doc.paths as Record<string, { post: Obj }>;
const components = doc.components as { schemas: Record<string, Obj>; securitySchemes: Record<string, Obj> };

/** An operation's two paths: by endpoint and by endpoint group, with their parameter and operationId. */
function variantsOf(op: Operation) {
  return [
    [`/api/${op.path}/{endpointId}`, 'endpointId', op.id],
    [`/api/${op.path}/group/{endpointGroupId}`, 'endpointGroupId', `${op.id}_GROUP`],
  ] as const;
}

async function validate(document: Obj): Promise<{ valid: boolean; errors: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  if (result.valid) validator.resolveRefs(); // throws on a $ref that points nowhere
  return { valid: result.valid, errors: result.errors };
}

describe('OpenAPI document', () => {
  test('a standard OpenAPI 3.1 validator accepts it, and refuses a broken copy', async () => {
    const result = await validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ version: 'dev', title: expect.any(String) });
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'https://sandbox.example.com/paynet' })]);

    const broken = structuredClone(doc);
    // OpenAPI 3 has no body parameters: this is the mistake an OAS 2 habit makes.
    ((broken.components as { parameters: Record<string, Obj> }).parameters.accept as Obj).in = 'body';
    expect((await validate(broken)).valid).toBe(false);
  });

  describe('every catalog operation is there, with its endpoint-group variant, as POST', () => {
    test('two paths per operation, each with an operationId of its own', () => {
      expect(Object.keys(paths)).toHaveLength(OPERATIONS.length * 2);
      const ids = new Set(
        OPERATIONS.flatMap((op) => variantsOf(op).map(([path]) => String(paths[path]?.post.operationId))),
      );
      expect(ids.size).toBe(OPERATIONS.length * 2);
    });

    test.each(OPERATIONS.map((op) => [op.path, op] as const))('%s', (_path, op) => {
      for (const [path, param, id] of variantsOf(op)) {
        const post = paths[path]?.post;
        expect(post, path).toBeDefined();
        expect(post!.operationId).toBe(id);
        expect(post!.parameters).toEqual([
          { $ref: `#/components/parameters/${param}` },
          { $ref: '#/components/parameters/accept' },
        ]);
        const responses = post!.responses as Obj;
        expect(Object.keys(responses).sort()).toEqual(
          op.scheme === 'control' && !op.schemeAlternatives
            ? ['200', '400', '500']
            : ['200', '400', '403', '500'],
        );
        expect(
          (responses['200'] as { content: Record<string, { schema: Obj }> }).content[
            'application/vnd.pay+json'
          ]!.schema,
        ).toEqual({
          $ref: `#/components/schemas/${op.response}`,
        });
        const body = (post!.requestBody as { content: Record<string, { schema: { $ref: string } }> }).content[
          'application/x-www-form-urlencoded'
        ];
        expect(body, `${path} form body`).toBeDefined();
        if (op.scheme === 'control') {
          const formula = post!['x-control-formula'] as { terms: Array<{ name: string }>; spelled: string };
          expect(formula.terms.at(-1)!.name).toBe('merchant_control_key');
          expect(formula.terms.map((t) => t.name)).toContain(
            param === 'endpointGroupId' && op.formula!.some((t) => t.kind === 'endpointId')
              ? 'endpointGroupId'
              : formula.terms[0]!.name,
          );
          expect(post!.security).toEqual([{ controlSignature: [] }]);
        } else {
          if (!op.schemeAlternatives?.includes('control')) expect(post!['x-control-formula']).toBeUndefined();
          expect((post!.security as Obj[])[0]).toEqual({
            [op.scheme === 'oauth-hmac-sha1' ? 'oauth1HmacSha1' : 'oauth1RsaSha256']: [],
          });
        }
      }
    });
  });

  test('request schemas carry the catalog fields: types, lengths, required, examples, provenance', () => {
    const sale = components.schemas.SaleRequest as { properties: Record<string, Obj>; required: string[] };
    expect(sale.properties.client_orderid).toMatchObject({
      type: 'string',
      maxLength: 128,
      examples: ['inv-10001'],
      'x-provenance': 'description',
    });
    expect(sale.properties.amount).toMatchObject({ pattern: '^[0-9]+(\\.[0-9]{1,2})?$' });
    expect(sale.properties.credit_card_number).toMatchObject({
      'x-sensitive': 'pan',
      minLength: 12,
      maxLength: 19,
    });
    expect(sale.properties.control).toMatchObject({ pattern: '^[0-9a-f]{40}$' });
    expect(sale.required).toEqual(
      expect.arrayContaining(['client_orderid', 'amount', 'currency', 'email', 'control']),
    );
    const status = components.schemas.StatusRequest as {
      properties: Record<string, Obj>;
      required: string[];
    };
    expect(status.required).not.toContain('orderid');
    expect(status.properties.login).toMatchObject({ 'x-from-profile': 'login' });
  });

  test('security schemes: control as a body apiKey by extension, OAuth 1.0a as the HTTP "OAuth" scheme', () => {
    expect(components.securitySchemes.controlSignature).toMatchObject({
      type: 'apiKey',
      name: 'control',
      'x-pay-in': 'body',
    });
    expect(components.securitySchemes.oauth1HmacSha1).toMatchObject({
      type: 'http',
      scheme: 'OAuth',
      'x-oauth1': { signatureMethod: 'HMAC-SHA1' },
    });
    expect(components.securitySchemes.oauth1RsaSha256).toMatchObject({
      type: 'http',
      scheme: 'OAuth',
      'x-oauth1': { signatureMethod: 'RSA-SHA256' },
    });
  });

  describe('every schema is valid JSON Schema 2020-12; the catalog examples and real answers fit them', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ components: doc.components, $id: 'doc' });
    const ref = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });

    test('every schema compiles; real answers fit theirs', () => {
      for (const name of Object.keys(components.schemas)) expect(() => ref(name), name).not.toThrow();
      const async = ref('AsyncResponse');
      expect(
        async({
          type: 'async-response',
          'serial-number': '00000000-0000-0000-0000-000002d9b22a',
          'merchant-order-id': 'inv4097763',
          'paynet-order-id': '6768788',
          'end-point-id': '22903',
        }),
      ).toBe(true);
      expect(async({ type: 'validation-error', 'error-message': 'x' })).toBe(false);
      expect(
        ref('ValidationErrorResponse')({
          type: 'validation-error',
          'error-message': 'INVALID_CONTROL_CODE',
          'error-reason': 'INVALID_CONTROL_CODE',
        }),
      ).toBe(true);
    });

    test.each(OPERATIONS.map((op) => [op.path, op] as const))('%s: the catalog example fits', (_path, op) => {
      const post = paths[`/api/${op.path}/{endpointId}`]!.post;
      const media = (
        post.requestBody as { content: Record<string, { schema: { $ref: string }; example?: Obj }> }
      ).content['application/x-www-form-urlencoded']!;
      const name = media.schema.$ref.split('/').at(-1)!;
      const values: Record<string, string> = { ...exampleValues(op) };
      for (const f of op.fields) if (f.fromProfile) values[f.name] = 'demo-merchant';
      if (op.scheme === 'control') values.control = '0'.repeat(40);
      const schema = ref(name);
      const required = ((components.schemas[name] as { required?: string[] }).required ?? []).filter(
        (r) => !(r in values),
      );
      // Required fields without a catalog example (e.g. a 3-D Secure blob) are the only ones allowed to be missing.
      const filled = Object.fromEntries([...Object.entries(values), ...required.map((r) => [r, 'x'])]);
      expect(schema(filled) ? null : schema.errors, `${op.id} example`).toBeNull();
      if (media.example) expect(media.example).toEqual(exampleValues(op));
    });
  });

  test('an empty server URL is refused with a message', () => {
    try {
      buildOpenApi({ serverUrl: '' });
      expect.unreachable();
    } catch (e) {
      expect(isExportError(e) && e.code).toBe('OPENAPI_INPUT');
      expect((e as Error).message).toMatch(/serverUrl is required/);
    }
  });
});
