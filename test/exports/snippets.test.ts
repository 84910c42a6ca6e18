/**
 * The generated snippets are run, in every language this machine has, against a real local sandbox
 * (the sandbox's fastify plugin on a loopback port): each must sign at run time and be accepted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { exampleValues, findOperation, type Operation } from '../../src/catalog/index.ts';
import {
  renderSnippet,
  SNIPPET_LANGUAGES,
  type SnippetInput,
  type SnippetLanguage,
} from '../../src/exports/index.ts';
import {
  available,
  parseSnippetOutput,
  run,
  startLocalSandbox,
  type LocalSandbox,
  type RunResult,
} from './support.ts';

const TRICKY = "Café #1 — !'()* a+b=c&d 100%";

const tools: Record<SnippetLanguage, string | null> = {
  bash: (await available('curl')) && (await available('openssl')) ? null : 'curl or openssl is not installed',
  node: null,
  python: (await available('python3'))
    ? (await available('openssl'))
      ? null
      : 'openssl is not installed (RSA)'
    : 'python3 is not installed',
  php: (await available('php')) ? null : 'php is not installed on this machine',
  java: (await available('java')) ? null : 'java is not installed on this machine',
  csharp: (await available('dotnet')) ? null : 'dotnet (the .NET SDK) is not installed on this machine',
};
for (const [lang, why] of Object.entries(tools)) if (why) console.info(`snippets: ${lang} skipped: ${why}.`);

let sb: LocalSandbox;
beforeAll(async () => {
  sb = await startLocalSandbox();
});
afterAll(async () => {
  await sb?.close();
});

let counter = 0;
function orderId(tag: string): string {
  counter += 1;
  return `snip-${tag}-${Date.now().toString(36)}-${counter}`;
}

function op(path: string): Operation {
  const found = findOperation(path);
  if (!found) throw new Error(`no operation ${path}`);
  return found;
}

/** Example values of the catalog, with a fresh order id and the values that test the encoders. */
function valuesFor(operation: Operation, tag: string): Array<{ name: string; value: string }> {
  const values: Record<string, string> = { ...exampleValues(operation), client_orderid: orderId(tag) };
  if (operation.path === 'v2/sale') values.amount = '0.29'; // 0.29 * 100 is 28.999… in floating point
  values.order_desc = TRICKY;
  return Object.entries(values).map(([name, value]) => ({ name, value }));
}

function inputFor(operation: Operation, tag: string, over: Partial<SnippetInput> = {}): SnippetInput {
  return {
    operation,
    baseUrl: sb.baseUrl,
    endpoint: { kind: 'endpoint', id: sb.demo.endpointIds[0]! },
    values: valuesFor(operation, tag),
    login: sb.demo.login,
    ...over,
  };
}

async function runSnippet(
  language: SnippetLanguage,
  code: string,
  fileName: string,
  env: Record<string, string>,
): Promise<RunResult> {
  const dir = path.join(sb.dir, `${language}-${(counter += 1)}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  writeFileSync(file, code);
  switch (language) {
    case 'bash':
      return run('bash', [file], env, dir);
    case 'node':
      return run(process.execPath, [file], env, dir);
    case 'python':
      return run('python3', [file], env, dir);
    case 'php':
      return run('php', [file], env, dir);
    case 'java':
      return run('java', [file], env, dir, 120_000);
    case 'csharp': {
      const version = await run('dotnet', ['--version'], env);
      const major = /^(\d+)\./.exec(version.stdout)?.[1] ?? '8';
      writeFileSync(
        path.join(dir, 'PayRequest.csproj'),
        `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net${major}.0</TargetFramework><Nullable>enable</Nullable></PropertyGroup></Project>\n`,
      );
      return run(
        'dotnet',
        ['run', '--project', dir],
        { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', ...env },
        dir,
        300_000,
      );
    }
  }
}

function secretEnv(): Record<string, string> {
  return { MERCHANT_CONTROL_KEY: sb.demo.controlKey, MERCHANT_PRIVATE_KEY_FILE: sb.keyFile };
}

function expectAccepted(result: RunResult, clientOrderId: string): void {
  expect(result.stderr, 'the snippet wrote to stderr').toBe('');
  expect(result.code, `exit code; stdout: ${result.stdout}`).toBe(0);
  const { status, body } = parseSnippetOutput(result.stdout);
  expect({ status, type: body.type, message: body['error-message'] }).toEqual({
    status: 200,
    type: 'async-response',
    message: undefined,
  });
  expect(body['merchant-order-id']).toBe(clientOrderId);
}

const SCHEMES = [
  { path: 'v2/sale', scheme: 'control (SHA-1)' },
  { path: 'v2/payout', scheme: 'OAuth 1.0a HMAC-SHA1' },
  { path: 'v4/payout-check', scheme: 'OAuth 1.0a RSA-SHA256' },
] as const;

describe.concurrent('snippets run against the local sandbox and are accepted', () => {
  for (const { path: opPath, scheme } of SCHEMES) {
    for (const language of SNIPPET_LANGUAGES) {
      const skip = tools[language];
      test.skipIf(skip !== null)(
        `${language}: ${opPath} (${scheme})${skip ? ` — skipped: ${skip}` : ''}`,
        { timeout: 300_000 },
        async () => {
          const input = inputFor(op(opPath), language);
          const snippet = renderSnippet(language, input);
          expect(snippet.containsSecrets).toBe(false);
          const clientOrderId = input.values.find((v) => v.name === 'client_orderid')!.value;
          expectAccepted(
            await runSnippet(language, snippet.code, snippet.fileName, secretEnv()),
            clientOrderId,
          );
        },
      );
    }
  }

  test('node: sale to an endpoint group signs the group id in place of the endpoint id', async () => {
    const input = inputFor(op('v2/sale'), 'group', {
      endpoint: { kind: 'group', id: sb.demo.endpointGroupIds[0]! },
    });
    const snippet = renderSnippet('node', input);
    expect(snippet.code).toContain(`/api/v2/sale/group/`);
    expectAccepted(
      await runSnippet('node', snippet.code, snippet.fileName, secretEnv()),
      input.values.find((v) => v.name === 'client_orderid')!.value,
    );
  });

  test('node: status signs login + client_orderid + orderid with the login taken from MERCHANT_LOGIN', async () => {
    const sale = inputFor(op('v2/sale'), 'status');
    const saleRun = await runSnippet('node', renderSnippet('node', sale).code, 'sale.mjs', secretEnv());
    const ack = parseSnippetOutput(saleRun.stdout).body;
    const status = renderSnippet('node', {
      operation: op('v2/status'),
      baseUrl: sb.baseUrl,
      endpoint: { kind: 'endpoint', id: sb.demo.endpointIds[0]! },
      values: [
        { name: 'login', value: 'placeholder-login' },
        { name: 'client_orderid', value: String(ack['merchant-order-id']) },
        { name: 'orderid', value: String(ack['paynet-order-id']) },
      ],
      login: 'placeholder-login',
    });
    const result = await runSnippet('node', status.code, status.fileName, {
      ...secretEnv(),
      MERCHANT_LOGIN: sb.demo.login,
    });
    const { status: http, body } = parseSnippetOutput(result.stdout);
    expect({ http, type: body.type }).toEqual({ http: 200, type: 'status-response' });
  });

  test('a snippet with embedded secrets runs without any secret in the environment', async () => {
    for (const [language, opPath] of [
      ['bash', 'v2/payout'],
      ['python', 'v4/payout-check'],
    ] as const) {
      const input = inputFor(op(opPath), `embedded-${language}`, {
        includeSecrets: true,
        secrets: { controlKey: sb.demo.controlKey, privateKeyPem: sb.privateKeyPem },
      });
      const snippet = renderSnippet(language, input);
      expect(snippet.containsSecrets).toBe(true);
      expect(snippet.code).toContain('WARNING: secret embedded at your request');
      expectAccepted(
        await runSnippet(language, snippet.code, snippet.fileName, {}),
        input.values.find((v) => v.name === 'client_orderid')!.value,
      );
    }
  });

  test('the sandbox refuses a snippet run with the wrong key, so acceptance above means something', async () => {
    const control = renderSnippet('bash', inputFor(op('v2/sale'), 'wrong'));
    const refused = parseSnippetOutput(
      (await runSnippet('bash', control.code, control.fileName, { MERCHANT_CONTROL_KEY: 'not-the-key' }))
        .stdout,
    );
    expect(refused.status).toBe(400);
    expect(refused.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    const hmac = renderSnippet('python', inputFor(op('v2/payout'), 'wrong'));
    const forbidden = parseSnippetOutput(
      (await runSnippet('python', hmac.code, hmac.fileName, { MERCHANT_CONTROL_KEY: 'not-the-key' })).stdout,
    );
    expect(forbidden.status).toBe(403);
  });

  test('a snippet without its secret stops with a message naming the variable', async () => {
    for (const language of ['bash', 'node', 'python'] as const) {
      const snippet = renderSnippet(language, inputFor(op('v2/sale'), 'nokey'));
      const result = await runSnippet(language, snippet.code, snippet.fileName, {});
      expect(result.code, language).not.toBe(0);
      expect(result.stderr + result.stdout, language).toContain('MERCHANT_CONTROL_KEY');
    }
  });
});

describe('snippets hold no secret unless asked', () => {
  const controlKey = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
  const pem = [
    '-----BEGIN PRIVATE KEY-----',
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
    '-----END PRIVATE KEY-----',
    '',
  ].join('\n');
  for (const language of SNIPPET_LANGUAGES) {
    test(`${language}: no control key or private key in the text by default, both embedded with a warning when asked`, () => {
      for (const path of ['v2/sale', 'v2/payout', 'v4/payout-check']) {
        const base: SnippetInput = {
          operation: op(path),
          baseUrl: 'https://sandbox.example.com/paynet',
          endpoint: { kind: 'endpoint', id: '1111' },
          values: [{ name: 'client_orderid', value: 'inv-1' }],
          login: 'demo-merchant',
          secrets: { controlKey, privateKeyPem: pem },
        };
        const plain = renderSnippet(language, base);
        expect(plain.containsSecrets).toBe(false);
        expect(plain.code).not.toContain(controlKey);
        expect(plain.code).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj');
        expect(plain.code).toMatch(
          path.startsWith('v4') ? /MERCHANT_PRIVATE_KEY_FILE/ : /MERCHANT_CONTROL_KEY/,
        );
        const embedded = renderSnippet(language, { ...base, includeSecrets: true });
        expect(embedded.containsSecrets).toBe(true);
        expect(embedded.code).toContain('WARNING: secret embedded at your request');
        if (path.startsWith('v4'))
          expect(embedded.code).toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj');
        else expect(embedded.code).toContain(controlKey);
      }
    });
  }

  test('a signature is never frozen into the text: two renders are identical and hold no nonce or control', () => {
    const input: SnippetInput = {
      operation: op('v2/payout'),
      baseUrl: 'https://sandbox.example.com/paynet',
      endpoint: { kind: 'endpoint', id: '1111' },
      values: [
        { name: 'client_orderid', value: 'inv-1' },
        { name: 'control', value: '0123456789abcdef0123456789abcdef01234567' },
      ],
      login: 'demo-merchant',
    };
    for (const language of SNIPPET_LANGUAGES) {
      const a = renderSnippet(language, input).code;
      expect(renderSnippet(language, input).code).toBe(a);
      expect(a).not.toContain('0123456789abcdef0123456789abcdef01234567');
      expect(a).not.toMatch(/oauth_signature="[A-Za-z0-9%]{20,}"/);
    }
  });

  test('bad input is refused with a message that says what to fix', () => {
    const base: SnippetInput = {
      operation: op('v2/sale'),
      baseUrl: 'https://sandbox.example.com/paynet',
      endpoint: { kind: 'endpoint', id: '1111' },
      values: [],
      login: 'demo-merchant',
    };
    expect(() => renderSnippet('node', { ...base, endpoint: { kind: 'endpoint', id: '11a' } })).toThrow(
      /endpoint id is a whole number/,
    );
    expect(() => renderSnippet('node', { ...base, baseUrl: 'sandbox.example.com' })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() =>
      renderSnippet('node', {
        ...base,
        operation: { ...base.operation, path: 'v9/nothing' } as unknown as Operation,
      }),
    ).toThrow(/entry of the catalog/);
    expect(() => renderSnippet('cobol' as SnippetLanguage, base)).toThrow(/pick one of bash, node/);
  });
});
