/**
 * Each of the six snippets, made from a draft and run with the draft's pinned values (PAY_DRY_RUN:
 * sign, print, send nothing), prints the signature the workbench shows for that draft: the model's
 * build and the snippet generator agree on the parameters, scheme, formula, nonce and timestamp.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { findOperation, type Operation } from '../../src/catalog/index.ts';
import type { ControlTerm, Scheme } from '../../src/core/index.ts';
import {
  renderSnippet,
  snippetInputFromDraft,
  SNIPPET_LANGUAGES,
  type SnippetLanguage,
} from '../../src/exports/index.ts';
import { buildDraft, exampleDraft, type RequestDraft } from '../../src/model/index.ts';
import { available, run, type RunResult } from '../exports/support.ts';
import { draftOf } from './draft-arbitraries.ts';
import { BASE_URL, CONTROL_KEY, PLACE, RSA, signingEnv } from './signing-env.ts';

const tools: Record<SnippetLanguage, string | null> = {
  bash: (await available('curl')) && (await available('openssl')) ? null : 'curl or openssl is not installed',
  node: null,
  python:
    (await available('python3')) && (await available('openssl'))
      ? null
      : 'python3 or openssl is not installed',
  php: (await available('php')) ? null : 'php is not installed on this machine',
  java: (await available('java')) ? null : 'java is not installed on this machine',
  csharp: (await available('dotnet')) ? null : 'dotnet (the .NET SDK) is not installed on this machine',
};

const dir = mkdtempSync(path.join(tmpdir(), 'pay-draft-snippets-'));
const keyFile = path.join(dir, 'private.pem');
writeFileSync(keyFile, RSA.privateKey, { mode: 0o600 });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
async function runDry(
  language: SnippetLanguage,
  code: string,
  fileName: string,
  env: Record<string, string>,
): Promise<RunResult> {
  const sub = path.join(dir, `${language}-${(counter += 1)}`);
  mkdirSync(sub, { recursive: true });
  const file = path.join(sub, fileName);
  writeFileSync(file, code);
  const all = {
    MERCHANT_CONTROL_KEY: CONTROL_KEY,
    MERCHANT_PRIVATE_KEY_FILE: keyFile,
    PAY_DRY_RUN: '1',
    ...env,
  };
  switch (language) {
    case 'bash':
      return run('bash', [file], all, sub);
    case 'node':
      return run(process.execPath, [file], all, sub);
    case 'python':
      return run('python3', [file], all, sub);
    case 'php':
      return run('php', [file], all, sub);
    case 'java':
      return run('java', [file], all, sub, 120_000);
    case 'csharp': {
      writeFileSync(
        path.join(sub, 'PayRequest.csproj'),
        '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework><Nullable>enable</Nullable></PropertyGroup></Project>\n',
      );
      return run(
        'dotnet',
        ['run', '--project', sub],
        { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1', ...all },
        sub,
        300_000,
      );
    }
  }
}

const op = (p: string): Operation => findOperation(p)!;
const TRICKY = "Café #1 — !'()* a+b=c&d 100% 😀";

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

function payoutForm(scheme: Scheme, formula?: ControlTerm[]): RequestDraft {
  const d = exampleDraft(op('v2/payout-form'), {
    client_orderid: 'pf-1',
    order_desc: TRICKY,
    amount: '0.29',
  });
  return {
    ...d,
    ...(scheme !== 'oauth-hmac-sha1' ? { scheme } : {}),
    ...(formula ? { formula } : {}),
    ...(scheme !== 'control' ? { pinned: { nonce: 'Qm9uam91cg', timestamp: '1700000000' } } : {}),
  };
}

const CASES: Array<[string, RequestDraft]> = [
  ['v2/payout-form, control with the catalog formula', payoutForm('control')],
  [
    'v2/payout-form, control with an edited formula',
    payoutForm('control', [
      { kind: 'login' },
      { kind: 'field', name: 'client_orderid' },
      { kind: 'field', name: 'amount', minorUnits: true },
      { kind: 'field', name: 'order_desc' },
    ]),
  ],
  ['v2/payout-form, OAuth HMAC-SHA1 pinned', payoutForm('oauth-hmac-sha1')],
  ['v2/payout-form, switched to OAuth RSA-SHA256 pinned', payoutForm('oauth-rsa-sha256')],
  [
    'v2/sale to an endpoint group',
    { ...exampleDraft(op('v2/sale'), { order_desc: TRICKY }), endpoint: { kind: 'group', id: '2222' } },
  ],
  [
    'v2/payout unpinned, run with the nonce and timestamp the workbench shows',
    exampleDraft(op('v2/payout'), { order_desc: TRICKY }),
  ],
];

describe.concurrent('a snippet run with the pinned values prints the workbench’s signature', () => {
  for (const language of SNIPPET_LANGUAGES) {
    const skip = tools[language];
    for (const [name, draft] of CASES) {
      test.skipIf(skip !== null)(
        `${language}: ${name}${skip ? ` — skipped: ${skip}` : ''}`,
        { timeout: 300_000 },
        async () => {
          const { signature, env } = await workbench(draft);
          const input = snippetInputFromDraft(draft, {
            place: PLACE,
            baseUrl: BASE_URL,
            endpoint: { kind: 'endpoint', id: '1111' },
            credentials: { login: PLACE.login },
          });
          const snippet = renderSnippet(language, input);
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
          const snippet = renderSnippet(
            language,
            snippetInputFromDraft(draft, {
              place: PLACE,
              baseUrl: BASE_URL,
              endpoint: { kind: 'endpoint', id: '1111' },
              credentials: { login: PLACE.login },
            }),
          );
          const result = await runDry(language, snippet.code, snippet.fileName, env);
          expect(result.stdout.trim(), JSON.stringify(draft)).toBe(`signature: ${signature}`);
        }
      },
    );
  }
});
