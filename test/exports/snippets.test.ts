/**
 * The one suite that runs the generated snippets (issue 22: each language runs in one suite only),
 * in every language this machine has: against a real local sandbox (the sandbox's fastify plugin on
 * a loopback port), where each must sign at run time and be accepted; and as a dry run with the
 * draft's pinned values, where each must print the signature the workbench shows for that draft.
 * test/model/draft-snippets.test.ts checks the plans without running an interpreter.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findOperation, type Operation } from '../../src/catalog/index.ts';
import type { ControlTerm, Scheme } from '../../src/core/index.ts';
import {
  renderSnippet,
  SNIPPET_LANGUAGES,
  type SnippetLanguage,
  type SnippetTarget,
} from '../../src/exports/index.ts';
import { buildDraft, exampleDraft, type Place, type RequestDraft } from '../../src/model/index.ts';
import { draftOf } from '../model/draft-arbitraries.ts';
import { BASE_URL, CONTROL_KEY, PLACE, RSA, signingEnv } from '../model/signing-env.ts';
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
let place: Place;
let dryKeyFile: string;
beforeAll(async () => {
  sb = await startLocalSandbox();
  place = { origin: sb.baseUrl, inboxUrl: `${sb.baseUrl}/callbacks/s-snippets`, login: sb.demo.login };
  dryKeyFile = path.join(sb.dir, 'dry-run-private.pem');
  writeFileSync(dryKeyFile, RSA.privateKey, { mode: 0o600 });
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

/** The catalog's example draft, with a fresh order id and the values that test the encoders. */
function draftFor(operation: Operation, tag: string): RequestDraft {
  return exampleDraft(operation, {
    client_orderid: orderId(tag),
    // 0.29 * 100 is 28.999… in floating point
    ...(operation.path === 'v2/sale' ? { amount: '0.29' } : {}),
    order_desc: TRICKY,
  });
}

/** The local sandbox's demo merchant, as the console's profile would give it. */
function sandboxTarget(over: Partial<SnippetTarget> = {}): SnippetTarget {
  return {
    place,
    baseUrl: sb.baseUrl,
    endpoint: { kind: 'endpoint', id: sb.demo.endpointIds[0]! },
    credentials: { login: sb.demo.login },
    ...over,
  };
}

const orderIdOf = (draft: RequestDraft) => draft.values.client_orderid as string;

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
          const draft = draftFor(op(opPath), language);
          const snippet = renderSnippet(language, draft, sandboxTarget());
          expect(snippet.containsSecrets).toBe(false);
          expectAccepted(
            await runSnippet(language, snippet.code, snippet.fileName, secretEnv()),
            orderIdOf(draft),
          );
        },
      );
    }
  }

  test('node: sale to an endpoint group signs the group id in place of the endpoint id', async () => {
    const draft = draftFor(op('v2/sale'), 'group');
    const snippet = renderSnippet(
      'node',
      draft,
      sandboxTarget({ endpoint: { kind: 'group', id: sb.demo.endpointGroupIds[0]! } }),
    );
    expect(snippet.code).toContain(`/api/v2/sale/group/`);
    expectAccepted(await runSnippet('node', snippet.code, snippet.fileName, secretEnv()), orderIdOf(draft));
  });

  test('node: status signs login + client_orderid + orderid with the login taken from MERCHANT_LOGIN', async () => {
    const sale = draftFor(op('v2/sale'), 'status');
    const saleRun = await runSnippet(
      'node',
      renderSnippet('node', sale, sandboxTarget()).code,
      'sale.mjs',
      secretEnv(),
    );
    const ack = parseSnippetOutput(saleRun.stdout).body;
    const status = renderSnippet(
      'node',
      {
        v: 2,
        operation: 'v2/status',
        values: {
          login: 'placeholder-login',
          client_orderid: String(ack['merchant-order-id']),
          orderid: String(ack['paynet-order-id']),
        },
        extras: [],
      },
      sandboxTarget({ credentials: { login: 'placeholder-login' } }),
    );
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
      const draft = draftFor(op(opPath), `embedded-${language}`);
      const snippet = renderSnippet(
        language,
        draft,
        sandboxTarget({
          credentials: { login: sb.demo.login, controlKey: sb.demo.controlKey },
          includeSecrets: true,
          privateKeyPem: sb.privateKeyPem,
        }),
      );
      expect(snippet.containsSecrets).toBe(true);
      expect(snippet.code).toContain('WARNING: secret embedded at your request');
      expectAccepted(await runSnippet(language, snippet.code, snippet.fileName, {}), orderIdOf(draft));
    }
  });

  test('the sandbox refuses a snippet run with the wrong key, so acceptance above means something', async () => {
    const control = renderSnippet('bash', draftFor(op('v2/sale'), 'wrong'), sandboxTarget());
    const refused = parseSnippetOutput(
      (await runSnippet('bash', control.code, control.fileName, { MERCHANT_CONTROL_KEY: 'not-the-key' }))
        .stdout,
    );
    expect(refused.status).toBe(400);
    expect(refused.body['error-reason']).toBe('INVALID_CONTROL_CODE');
    const hmac = renderSnippet('python', draftFor(op('v2/payout'), 'wrong'), sandboxTarget());
    const forbidden = parseSnippetOutput(
      (await runSnippet('python', hmac.code, hmac.fileName, { MERCHANT_CONTROL_KEY: 'not-the-key' })).stdout,
    );
    expect(forbidden.status).toBe(403);
  });

  test('a snippet without its secret stops with a message naming the variable', async () => {
    for (const language of ['bash', 'node', 'python'] as const) {
      const snippet = renderSnippet(language, draftFor(op('v2/sale'), 'nokey'), sandboxTarget());
      const result = await runSnippet(language, snippet.code, snippet.fileName, {});
      expect(result.code, language).not.toBe(0);
      expect(result.stderr + result.stdout, language).toContain('MERCHANT_CONTROL_KEY');
    }
  });
});

/** A target away from the sandbox (nothing is run): the profile's base URL, endpoint and login. */
const PAPER: SnippetTarget = {
  place: PLACE,
  baseUrl: 'https://sandbox.example.com/paynet',
  endpoint: { kind: 'endpoint', id: '1111' },
  credentials: { login: 'demo-merchant' },
};

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
        const draft: RequestDraft = {
          v: 2,
          operation: path,
          values: { client_orderid: 'inv-1' },
          extras: [],
        };
        // The secrets are at hand (the profile has them) but not asked for.
        const target: SnippetTarget = {
          ...PAPER,
          credentials: { login: 'demo-merchant', controlKey },
          privateKeyPem: pem,
        };
        const plain = renderSnippet(language, draft, target);
        expect(plain.containsSecrets).toBe(false);
        expect(plain.code).not.toContain(controlKey);
        expect(plain.code).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj');
        expect(plain.code).toMatch(
          path.startsWith('v4') ? /MERCHANT_PRIVATE_KEY_FILE/ : /MERCHANT_CONTROL_KEY/,
        );
        const embedded = renderSnippet(language, draft, { ...target, includeSecrets: true });
        expect(embedded.containsSecrets).toBe(true);
        expect(embedded.code).toContain('WARNING: secret embedded at your request');
        if (path.startsWith('v4'))
          expect(embedded.code).toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj');
        else expect(embedded.code).toContain(controlKey);
      }
    });
  }

  test('a signature is never frozen into the text: two renders are identical and hold no nonce or control', () => {
    // A draft that carries a stale control (as a capture does): it must not be copied into the text.
    const draft: RequestDraft = {
      v: 2,
      operation: 'v2/payout',
      values: { client_orderid: 'inv-1', control: '0123456789abcdef0123456789abcdef01234567' },
      extras: [],
    };
    for (const language of SNIPPET_LANGUAGES) {
      const a = renderSnippet(language, draft, PAPER).code;
      expect(renderSnippet(language, draft, PAPER).code).toBe(a);
      expect(a).not.toContain('0123456789abcdef0123456789abcdef01234567');
      expect(a).not.toMatch(/oauth_signature="[A-Za-z0-9%]{20,}"/);
    }
  });

  test('bad input is refused with a message that says what to fix', () => {
    const draft: RequestDraft = { v: 2, operation: 'v2/sale', values: {}, extras: [] };
    expect(() =>
      renderSnippet('node', draft, { ...PAPER, endpoint: { kind: 'endpoint', id: '11a' } }),
    ).toThrow(/endpoint id is a whole number/);
    expect(() => renderSnippet('node', { ...draft, endpoint: { kind: 'group', id: '22b' } }, PAPER)).toThrow(
      /endpoint id is a whole number/,
    );
    expect(() => renderSnippet('node', draft, { ...PAPER, baseUrl: 'sandbox.example.com' })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() => renderSnippet('node', draft, { ...PAPER, baseUrl: '' })).toThrow(/baseUrl is required/);
    expect(() => renderSnippet('node', { ...draft, operation: 'v9/nothing' }, PAPER)).toThrow(
      /No operation is at "v9\/nothing": give the path after \/api\//,
    );
    expect(() =>
      renderSnippet(
        'node',
        { v: 2, operation: 'v2/payout', values: {}, extras: [], pinned: { nonce: 'n', timestamp: 'soon' } },
        PAPER,
      ),
    ).toThrow(/pinned.timestamp: the timestamp is whole seconds/);
    expect(() => renderSnippet('cobol' as SnippetLanguage, draft, PAPER)).toThrow(/pick one of bash, node/);
  });
});

/** The workbench's signature of a draft, and the nonce/timestamp it shows (to run an unpinned snippet with). */
async function workbench(draft: RequestDraft): Promise<{ signature: string; env: Record<string, string> }> {
  const built = await buildDraft(draft, signingEnv());
  expect(built.problems).toEqual([]);
  const s = built.signing;
  return {
    signature: s.signature!,
    env: s.scheme === 'control' || draft.pinned ? {} : { PAY_NONCE: s.nonce, PAY_TIMESTAMP: s.timestamp },
  };
}

/** PAY_DRY_RUN: sign, print the signature, send nothing; the keys are the model's signing environment's. */
function runDry(language: SnippetLanguage, code: string, fileName: string, env: Record<string, string>) {
  return runSnippet(language, code, fileName, {
    MERCHANT_CONTROL_KEY: CONTROL_KEY,
    MERCHANT_PRIVATE_KEY_FILE: dryKeyFile,
    PAY_DRY_RUN: '1',
    ...env,
  });
}

const DRY_TARGET: SnippetTarget = {
  place: PLACE,
  baseUrl: BASE_URL,
  endpoint: { kind: 'endpoint', id: '1111' },
  credentials: { login: PLACE.login },
};

const EMOJI = "Café #1 — !'()* a+b=c&d 100% 😀";

function payoutForm(scheme: Scheme, formula?: ControlTerm[]): RequestDraft {
  const d = exampleDraft(op('v2/payout-form'), {
    client_orderid: 'pf-1',
    order_desc: EMOJI,
    amount: '0.29',
  });
  return {
    ...d,
    ...(scheme !== 'oauth-hmac-sha1' ? { scheme } : {}),
    ...(formula ? { formula } : {}),
    ...(scheme !== 'control' ? { pinned: { nonce: 'Qm9uam91cg', timestamp: '1700000000' } } : {}),
  };
}

const CASES: Array<[string, () => RequestDraft]> = [
  ['v2/payout-form, control with the catalog formula', () => payoutForm('control')],
  [
    'v2/payout-form, control with an edited formula',
    () =>
      payoutForm('control', [
        { kind: 'login' },
        { kind: 'field', name: 'client_orderid' },
        { kind: 'field', name: 'amount', minorUnits: true },
        { kind: 'field', name: 'order_desc' },
      ]),
  ],
  ['v2/payout-form, OAuth HMAC-SHA1 pinned', () => payoutForm('oauth-hmac-sha1')],
  ['v2/payout-form, switched to OAuth RSA-SHA256 pinned', () => payoutForm('oauth-rsa-sha256')],
  [
    'v2/sale to an endpoint group',
    () => ({
      ...exampleDraft(op('v2/sale'), { order_desc: EMOJI }),
      endpoint: { kind: 'group', id: '2222' },
    }),
  ],
  [
    'v2/payout unpinned, run with the nonce and timestamp the workbench shows',
    () => exampleDraft(op('v2/payout'), { order_desc: EMOJI }),
  ],
];

describe.concurrent(
  'a snippet made from a draft and run with its pinned values prints the workbench’s signature',
  () => {
    for (const language of SNIPPET_LANGUAGES) {
      const skip = tools[language];
      for (const [name, make] of CASES) {
        test.skipIf(skip !== null)(
          `${language}: ${name}${skip ? ` — skipped: ${skip}` : ''}`,
          { timeout: 300_000 },
          async () => {
            const draft = make();
            const { signature, env } = await workbench(draft);
            const snippet = renderSnippet(language, draft, DRY_TARGET);
            const result = await runDry(language, snippet.code, snippet.fileName, env);
            expect(result.stderr, 'stderr').toBe('');
            expect(result.stdout.trim()).toBe(`signature: ${signature}`);
          },
        );
      }
    }

    for (const language of ['node', 'python', 'bash'] as const) {
      test.skipIf(tools[language] !== null)(
        `${language}: drafts drawn from the whole catalog, every scheme (property sample)`,
        { timeout: 300_000 },
        async () => {
          const ops = [
            'v2/sale',
            'v2/status',
            'v2/payout-form',
            'v2/payout',
            'v4/payout-check',
            'v2/get-card-info',
          ];
          const drafts = fc.sample(
            fc.constantFrom(...ops).chain((p) => draftOf(op(p))),
            { numRuns: 8, seed: 8 },
          );
          for (const draft of drafts) {
            const { signature, env } = await workbench(draft);
            const snippet = renderSnippet(language, draft, DRY_TARGET);
            const result = await runDry(language, snippet.code, snippet.fileName, env);
            expect(result.stdout.trim(), JSON.stringify(draft)).toBe(`signature: ${signature}`);
          }
        },
      );
    }
  },
);
