import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMerchantHandler, type HandlerMode, type MerchantHandler } from '../sandbox/merchant-handler.ts';
import { paysign } from './run-cli.ts';

const KEY = 'HANDLER-CHECK-KEY-0001';

/** Parses the JUnit file with Python's own XML parser (independent of ours). */
function junitCases(file: string): Array<{ name: string; failed: boolean; skipped: boolean }> {
  const out = execFileSync('python3', [
    '-c',
    `import json,sys,xml.etree.ElementTree as ET
r=ET.parse(sys.argv[1]).getroot()
print(json.dumps([{"name":c.get("name"),"failed":c.find("failure") is not None,"skipped":c.find("skipped") is not None} for c in r.iter("testcase")]))`,
    file,
  ]);
  return JSON.parse(String(out)) as Array<{ name: string; failed: boolean; skipped: boolean }>;
}

describe('paysign handler-check', () => {
  const handlers: MerchantHandler[] = [];
  afterAll(async () => {
    await Promise.all(handlers.map((h) => h.close()));
  });
  const check = async (mode: HandlerMode) => {
    const h = await startMerchantHandler(KEY, mode);
    handlers.push(h);
    const junit = join(mkdtempSync(join(tmpdir(), 'hc-')), 'out.xml');
    const r = await paysign(
      [
        'handler-check',
        `${h.base}/callback`,
        '--state-url',
        `${h.base}/orders/{orderid}`,
        '--junit',
        junit,
        '--timeout-ms',
        '300',
      ],
      { env: { PAYSIGN_CONTROL_KEY: KEY } },
    );
    return { ...r, cases: junitCases(junit) };
  };

  it('passes a correct handler and writes valid JUnit XML', async () => {
    const r = await check('correct');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('All checks passed.');
    expect(r.stdout).toContain('Rule (gateway-notes.md, Callbacks)');
    expect(r.cases).toHaveLength(4);
    expect(r.cases.every((c) => !c.failed && !c.skipped)).toBe(true);
  });

  it.each([
    ['not-idempotent', 'idempotent-duplicate'],
    ['accepts-bad-control', 'refuses-bad-control'],
    ['slow', 'answers-in-time'],
    ['moves-state-back', 'no-state-rollback'],
  ] as const)('fails a %s handler with %s', async (mode, id) => {
    const r = await check(mode);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`FAIL  ${id}:`));
    expect(r.cases.find((c) => c.name.startsWith(`${id}:`))!.failed).toBe(true);
  });

  it('passes nothing that needs an answer when the handler is not listening', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const junit = join(mkdtempSync(join(tmpdir(), 'hc-')), 'out.xml');
    const r = await paysign(
      ['handler-check', `http://127.0.0.1:${port}/callback`, '--junit', junit, '--timeout-ms', '300'],
      { env: { PAYSIGN_CONTROL_KEY: KEY } },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('PASS');
    expect(r.stdout).toMatch(/FAIL {2}refuses-bad-control: .*\n.*did not answer/);
    expect(junitCases(junit).every((c) => c.failed || c.skipped)).toBe(true);
  });

  it('refuses bad input with one line and exit 2', async () => {
    const r = await paysign(['handler-check', 'not a url'], { env: { PAYSIGN_CONTROL_KEY: KEY } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^paysign: "not a url" is not an absolute URL/);
    const noKey = await paysign(['handler-check', 'http://127.0.0.1:9/cb']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/control key/);
  });

  it('JUnit file exists and names each check', async () => {
    const r = await check('correct');
    expect(r.cases.map((c) => c.name.split(':')[0])).toEqual([
      'answers-in-time',
      'idempotent-duplicate',
      'refuses-bad-control',
      'no-state-rollback',
    ]);
  });
});
