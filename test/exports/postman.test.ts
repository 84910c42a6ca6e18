/**
 * The Postman collection (v2.1) runs under newman against the local sandbox: `control` from the
 * pre-request scripts, OAuth 1.0a HMAC-SHA1 and RSA-SHA256 from Postman's own OAuth 1.0 helper.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATIONS } from '../../src/catalog/index.ts';
import {
  buildPostmanCollection,
  isExportError,
  POSTMAN_SCHEMA_V21,
  type PostmanCollection,
} from '../../src/exports/index.ts';
import { startLocalSandbox, type LocalSandbox } from './support.ts';

/** The part of newman's API this test uses (newman ships no types). */
interface NewmanExecution {
  item: { name: string };
  response?: { code: number; stream?: Uint8Array };
  requestError?: Error;
}
interface NewmanSummary {
  run: {
    executions: NewmanExecution[];
    failures: Array<{ error: { message: string }; source?: { name?: string } }>;
  };
}
interface Newman {
  run(options: Record<string, unknown>, callback: (err: Error | null, summary: NewmanSummary) => void): void;
}
const require = createRequire(import.meta.url);
const newman = require('newman') as Newman;

let sb: LocalSandbox;
beforeAll(async () => {
  sb = await startLocalSandbox();
});
afterAll(async () => {
  await sb?.close();
});

function runNewman(collection: PostmanCollection, env: Record<string, string>): Promise<NewmanSummary> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection,
        environment: {
          name: 'test',
          values: Object.entries(env).map(([key, value]) => ({ key, value, enabled: true })),
        },
        reporters: [],
        timeoutRequest: 20_000,
      },
      (err, summary) => (err ? reject(err) : resolve(summary)),
    );
  });
}

function answers(
  summary: NewmanSummary,
): Array<{ name: string; status: number | undefined; body: Record<string, unknown> }> {
  return summary.run.executions.map((e) => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(new TextDecoder().decode(e.response?.stream ?? new Uint8Array())) as Record<
        string,
        unknown
      >;
    } catch {
      body = { unreadable: true };
    }
    return { name: e.item.name, status: e.response?.code, body };
  });
}

const STANDALONE = [
  'v2/sale',
  'v2/account-verification',
  'v2/status',
  'v2/preauth',
  'v2/sale-form',
  'v2/payout',
  'v2/payout-form',
  'v4/payout-check',
  'v4/create-recurring-payment',
];

describe('Postman collection under newman', () => {
  test(
    'operations that succeed on their own are all accepted (control, HMAC-SHA1, RSA-SHA256)',
    { timeout: 60_000 },
    async () => {
      const collection = buildPostmanCollection({ operations: STANDALONE });
      const summary = await runNewman(collection, {
        base_url: sb.baseUrl,
        endpoint_id: sb.demo.endpointIds[0]!,
        login: sb.demo.login,
        control_key: sb.demo.controlKey,
        private_key: sb.privateKeyPem,
      });
      expect(summary.run.failures.map((f) => `${f.source?.name ?? ''}: ${f.error.message}`)).toEqual([]);
      const got = answers(summary);
      expect(got).toHaveLength(STANDALONE.length);
      for (const a of got) {
        expect({
          name: a.name,
          status: a.status,
          type: a.body.type,
          message: a.body['error-message'],
        }).toEqual({
          name: a.name,
          status: 200,
          type: expect.stringMatching(/-response$/),
          message: undefined,
        });
        expect(a.body.type).not.toBe('validation-error');
      }
      expect(got.find((a) => a.name === 'Status')?.body.type).toBe('status-response');
    },
  );

  test(
    'with the wrong secrets the same run is refused, so the acceptance above means something',
    { timeout: 60_000 },
    async () => {
      const collection = buildPostmanCollection({ operations: ['v2/sale', 'v2/payout', 'v4/payout-check'] });
      const other = (await import('node:crypto')).generateKeyPairSync('rsa', {
        modulusLength: 2048,
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        publicKeyEncoding: { type: 'spki', format: 'pem' },
      });
      const summary = await runNewman(collection, {
        base_url: sb.baseUrl,
        endpoint_id: sb.demo.endpointIds[0]!,
        login: sb.demo.login,
        control_key: 'not-the-control-key',
        private_key: other.privateKey,
      });
      const got = Object.fromEntries(
        answers(summary).map((a) => [a.name, [a.status, a.body['error-reason']]]),
      );
      expect(got).toEqual({
        Sale: [400, 'INVALID_CONTROL_CODE'],
        Payout: [403, 'INVALID_SIGNATURE'],
        'Payout check (step 1)': [403, 'INVALID_SIGNATURE'],
      });
    },
  );

  describe('structure: v2.1 schema, one request per operation, OAuth 1.0 set up, control scripted', () => {
    const c = buildPostmanCollection({
      baseUrl: 'https://sandbox.example.com/paynet',
      login: 'demo-merchant',
    });
    const items = c.item.flatMap((f) => f.item);

    test('v2.1 schema, one request per operation, the variables', () => {
      expect(c.info.schema).toBe(POSTMAN_SCHEMA_V21);
      expect(items).toHaveLength(OPERATIONS.length);
      const vars = Object.fromEntries(c.variable.map((v) => [v.key, v.value]));
      expect(vars).toMatchObject({
        base_url: 'https://sandbox.example.com/paynet',
        endpoint_id: '1111',
        login: 'demo-merchant',
        control_key: '',
        private_key: '',
      });
    });

    test.each(OPERATIONS.map((op) => [op.path, op] as const))('%s', (_path, op) => {
      const it = items.find((i) => i.request.url.raw === `{{base_url}}/api/${op.path}/{{endpoint_id}}`);
      expect(it, op.path).toBeDefined();
      expect(it!.request.body.mode).toBe('urlencoded');
      expect(it!.request.header).toContainEqual({ key: 'Accept', value: 'application/vnd.pay+json' });
      if (op.scheme === 'control') {
        expect(it!.request.auth).toBeUndefined();
        expect(it!.event?.[0]?.script.exec.join('\n')).toContain('CryptoJS.SHA1');
        expect(it!.request.body.urlencoded.at(-1)).toMatchObject({ key: 'control', value: '{{control}}' });
      } else {
        const auth = Object.fromEntries(it!.request.auth!.oauth1.map((p) => [p.key, p.value]));
        expect(auth).toMatchObject({
          signatureMethod: op.scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256',
          consumerKey: '{{login}}',
          addParamsToHeader: true,
          addEmptyParamsToSign: false,
          version: '1.0',
        });
        expect(op.scheme === 'oauth-hmac-sha1' ? auth.consumerSecret : auth.privateKey).toBe(
          op.scheme === 'oauth-hmac-sha1' ? '{{control_key}}' : '{{private_key}}',
        );
      }
    });
  });

  test('secrets are never in the collection unless asked for', () => {
    const secrets = {
      controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20',
      privateKeyPem: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\n-----END PRIVATE KEY-----\n',
    };
    const plain = JSON.stringify(buildPostmanCollection({ secrets }));
    expect(plain).not.toContain(secrets.controlKey);
    expect(plain).not.toContain('MIIEvQIBADAN');
    const asked = buildPostmanCollection({ secrets, includeSecrets: true });
    expect(asked.variable.find((v) => v.key === 'control_key')).toMatchObject({
      value: secrets.controlKey,
      type: 'secret',
    });
    expect(asked.variable.find((v) => v.key === 'private_key')?.value).toBe(secrets.privateKeyPem);
  });

  test('a renamed base URL variable is used everywhere; bad input is refused with a message', () => {
    const c = buildPostmanCollection({ baseUrlVariable: 'gateway', operations: ['v2/sale'] });
    expect(c.item[0]!.item[0]!.request.url.raw).toBe('{{gateway}}/api/v2/sale/{{endpoint_id}}');
    expect(c.variable.map((v) => v.key)).toContain('gateway');
    for (const bad of [{ operations: ['v9/none'] }, { baseUrlVariable: '1 bad' }]) {
      try {
        buildPostmanCollection(bad);
        expect.unreachable();
      } catch (e) {
        expect(isExportError(e) && e.code).toBe('POSTMAN_INPUT');
      }
    }
  });
});
