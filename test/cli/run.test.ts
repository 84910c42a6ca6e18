/**
 * Issue 33 §2: `paysign run` from outside (the real program in a child process). A collection of
 * the console's format and an imported Postman collection with variables run against the local
 * sandbox the command starts; against a gateway of an --env-file (a sandbox started here with a
 * known key) the secrets come from an environment variable or a file and are never printed nor
 * written; JUnit is checked with Python's own XML parser; a failed assertion exits 1.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createSandboxApp } from '../../sandbox/app.ts';
import { paysign, tempDir, writeTemp, type CliResult } from './run-cli.ts';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);
const PCR = fixture('preauth-capture-return.collections.json');
const POSTMAN = fixture('sale-with-variables.postman_collection.json');

interface JUnitCase {
  name: string;
  failures: string[];
  errors: string[];
  out: string;
}

/** The JUnit file read with Python's xml.etree: a parse error fails the test. */
function junit(file: string): { suite: Record<string, string>; cases: JUnitCase[] } {
  const out = execFileSync('python3', [
    '-c',
    `import json,sys,xml.etree.ElementTree as ET
r=ET.parse(sys.argv[1]).getroot()
assert r.tag=="testsuites", r.tag
s=r.find("testsuite")
print(json.dumps({"suite":dict(s.attrib),"cases":[{"name":c.get("name"),"failures":[f.get("message") for f in c.findall("failure")],"errors":[f.get("message") for f in c.findall("error")],"out":(c.findtext("system-out") or "")} for c in s.findall("testcase")]}))`,
    file,
  ]);
  return JSON.parse(String(out)) as { suite: Record<string, string>; cases: JUnitCase[] };
}

function withChecks(
  edit: (file: { collections: Array<{ requests: Array<{ checks?: unknown }> }> }) => void,
): string {
  const file = JSON.parse(readFileSync(PCR, 'utf8')) as {
    collections: Array<{ requests: Array<{ checks?: unknown }> }>;
  };
  edit(file);
  return writeTemp(tempDir(), 'edited.json', JSON.stringify(file));
}

describe('paysign run against the local sandbox it starts', () => {
  it('runs preauth → capture → return with its assertions; JUnit says so; exit 0', async () => {
    const out = join(tempDir(), 'junit.xml');
    const r = await paysign(['run', PCR, '--env', 'local', '--junit', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/3 of 3 steps passed, 0 failed/);
    expect(r.stdout).toMatch(/saved \{\{orderid\}\} = \d+/);
    const j = junit(out);
    expect(j.suite).toMatchObject({
      name: 'Preauth, capture, return',
      tests: '3',
      failures: '0',
      errors: '0',
    });
    expect(j.cases.map((c) => c.name)).toEqual(['1. Preauth', '2. Capture 60', '3. Return 25']);
    expect(j.cases[0]!.out).toMatch(/ok callback: expected received, control valid/);
    // The card number and CVV came from variables; what is shown withholds them.
    expect(j.cases[0]!.out).toMatch(/credit_card_number=\[withheld\]/);
    expect(readFileSync(out, 'utf8')).not.toContain('4444444444444448');
    expect(r.stdout).not.toContain('4444444444444448');
  });

  it('a failed assertion exits 1 and is a JUnit failure naming expected and actual', async () => {
    const file = withChecks((f) => {
      f.collections[0]!.requests[1]!.checks = { expect: { status: 'declined' } };
    });
    const out = join(tempDir(), 'junit.xml');
    const r = await paysign(['run', file, '--env', 'local', '--junit', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL 2\. Capture 60/);
    expect(r.stdout).toMatch(/FAILED status: expected declined, got approved/);
    const j = junit(out);
    expect(j.suite).toMatchObject({ failures: '1', errors: '0' });
    expect(j.cases[1]!.failures).toEqual(['status: expected declined, got approved']);
  });

  it('an unresolved variable blocks the step and names itself; --only runs a selection', async () => {
    const all = await paysign(['run', PCR, '--env', 'local', '--only', '2-3', '--json']);
    expect(all.code).toBe(1);
    const report = JSON.parse(all.stdout) as { steps: Array<{ state: string; error?: string }> };
    expect(report.steps[0]!.state).toBe('pending');
    expect(report.steps[1]!.error).toBe(
      'Not sent: {{orderid}} has no value: define it in the environment, or save it from an answer.',
    );
  });

  it('runs an imported Postman collection: its variables kept, the test script’s orderid saved', async () => {
    const r = await paysign(['run', POSTMAN, '--env', 'local', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      steps: Array<{
        state: string;
        saved: Record<string, string>;
        variables: Array<{ variable: string; source: { kind: string } }>;
      }>;
    };
    expect(report.steps.map((s) => s.state)).toEqual(['passed', 'passed']);
    expect(Object.keys(report.steps[0]!.saved)).toEqual(['orderid']);
    expect(report.steps[0]!.variables.find((v) => v.variable === 'amount')?.source.kind).toBe('collection');
    expect(report.steps[0]!.variables.find((v) => v.variable === 'card_number')?.source.kind).toBe(
      'environment',
    );
    expect(report.steps[1]!.variables.find((v) => v.variable === 'orderid')?.source.kind).toBe('answer');
    expect(r.stdout).not.toContain('NEVER-READ-THIS');
  });
});

describe('paysign run against a gateway of an --env-file', () => {
  const CONTROL_KEY = 'RUN-TEST-CONTROL-KEY-5f3a9c';
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const keyBody = pair.privateKey.split('\n')[3]!;
  let sandbox: FastifyInstance;
  let envFile = '';
  const dir = tempDir();

  beforeAll(async () => {
    sandbox = await createSandboxApp({
      dbPath: ':memory:',
      dataDir: dir,
      finalizeDelayMs: 0,
      callbackRetry: { schedule: 'fast', attempts: 1 },
      merchants: [
        { login: 'ci-shop', controlKey: CONTROL_KEY, endpointIds: ['1111'], publicKeyPem: pair.publicKey },
      ],
    });
    await sandbox.listen({ host: '127.0.0.1', port: 0 });
    const { port } = sandbox.server.address() as AddressInfo;
    envFile = writeTemp(
      dir,
      'envs.json',
      JSON.stringify({
        environments: [
          {
            name: 'ci',
            kind: 'vendor-sandbox',
            baseUrl: `http://127.0.0.1:${port}/sandbox/paynet`,
            login: 'ci-shop',
            endpointId: '1111',
            variables: {
              card_number: '4444444444444448',
              cvv: '123',
              expire_month: '12',
              expire_year: '2039',
            },
          },
          {
            name: 'live',
            kind: 'production',
            baseUrl: 'https://gateway.invalid/paynet',
            login: 'x',
            endpointId: '1',
          },
        ],
      }),
    );
  });
  afterAll(async () => {
    await sandbox.close();
  });

  const noSecret = (r: CliResult, ...files: string[]) => {
    for (const text of [r.stdout, r.stderr, ...files.map((f) => readFileSync(f, 'utf8'))]) {
      expect(text).not.toContain(CONTROL_KEY);
      expect(text).not.toContain(keyBody);
    }
  };

  it('the control key from an environment variable: passes, and is never printed nor written', async () => {
    const out = join(dir, 'env-var.xml');
    const r = await paysign(['run', PCR, '--env', 'ci', '--env-file', envFile, '--junit', out, '--json'], {
      env: { PAYSIGN_CONTROL_KEY: CONTROL_KEY },
    });
    // The callback cannot reach this test's inbox from a remote gateway here: only that fails.
    const report = JSON.parse(r.stdout) as {
      steps: Array<{ state: string; assertions: Array<{ name: string; ok: boolean }> }>;
    };
    expect(report.steps.map((s) => s.state)).toEqual(['passed', 'passed', 'passed']);
    expect(r.code).toBe(0);
    noSecret(r, out);
  });

  it('secrets from files (--secret-file), the private key too; never printed', async () => {
    const ck = writeTemp(dir, 'ck.txt', `${CONTROL_KEY}\n`);
    const pk = writeTemp(dir, 'pk.pem', pair.privateKey);
    const out = join(dir, 'files.xml');
    const r = await paysign([
      'run',
      PCR,
      '--env',
      'ci',
      '--env-file',
      envFile,
      '--secret-file',
      `control_key=${ck}`,
      '--secret-file',
      `private_key=${pk}`,
      '--junit',
      out,
    ]);
    expect(r.code).toBe(0);
    noSecret(r, out);
  });

  it('without the control key the steps are not signed: exit 1, said per step, nothing secret', async () => {
    const r = await paysign(['run', PCR, '--env', 'ci', '--env-file', envFile]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ERR {2}1\. Preauth/);
    noSecret(r);
  });

  it('a secret on the command line is refused (exit 2), without echoing it', async () => {
    const v = await paysign([
      'run',
      PCR,
      '--env',
      'ci',
      '--env-file',
      envFile,
      '--var',
      `control_key=${CONTROL_KEY}`,
    ]);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/never goes on the command line/);
    noSecret(v);
    const k = await paysign(['run', PCR, '--env', 'ci', '--env-file', envFile, '--control-key', CONTROL_KEY]);
    expect(k.code).toBe(2);
    noSecret(k);
  });

  it('production asks for --confirm-production', async () => {
    const r = await paysign(['run', PCR, '--env', 'live', '--env-file', envFile]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/production environment: real money moves\. Add --confirm-production/);
  });
});
