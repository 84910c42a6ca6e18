/**
 * `paysign verify` as the signature debugger: curl, HAR and log-line captures from the corpus
 * (test/corpus, signed by its own generator), the likely causes and first difference, --now,
 * --expected-base-string, --private-key-file, and the exit codes (0 OK, 1 mismatch, 2 bad input or no key).
 */
import { createHmac } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, paysign, tempDir, writeTemp } from './run-cli.ts';

const CASES = resolve(import.meta.dirname, '../corpus/cases');
const KEYS = resolve(import.meta.dirname, '../corpus/keys');
const KEY = 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B';
const T0 = 1767225600;
const capture = (name: string) => readFileSync(join(CASES, name), 'utf8');

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paysign verify reads curl, HAR and log-line captures and names the likely cause', () => {
  it('a curl capture (spaces signed as +): MISMATCH, the confirmed cause with evidence, advice and rule, the first difference', async () => {
    const r = await paysign(['verify', '--control-key', KEY], { input: capture('plus-for-space.curl') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const out = r.stdout;
    expect(out.split('\n')[0]).toBe('signature MISMATCH');
    expect(out).toMatch(/capture\s+curl command/);
    expect(out).toContain('  1. `+` for a space [confirmed]');
    expect(out).toMatch(
      /evidence: Re-signing the capture's own values this way reproduces the received oauth_signature exactly: spaces encoded as \+/,
    );
    expect(out).toMatch(/advice: +Encode a space as %20, never \+/);
    expect(out).toMatch(/rule: +api-description\.md › Authentication › Scheme O1 step 2/);
    expect(out).toMatch(
      /First difference\n-+\n {2}pair 3: bank_name=Test%20Bank%20AG expected, bank_name=Test\+Bank\+AG signed/,
    );
    expect(out).not.toContain(KEY);
  });

  it('a log line with the key swapped with the login, --json: the cause and the first difference as data', async () => {
    const r = await paysign(['verify', '--control-key', KEY, '--json'], {
      input: capture('key-swapped-with-login.line'),
    });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as {
      verdict: string;
      captureFormat: string;
      likelyCauses: Array<{ mistakeId: string; confidence: string }>;
      firstDifference: { location: string; name: string; actual: string };
    };
    expect(j.verdict).toBe('MISMATCH');
    expect(j.captureFormat).toBe('log-line');
    expect(j.likelyCauses[0]).toMatchObject({ mistakeId: 'key-swapped-with-login', confidence: 'confirmed' });
    expect(j.firstDifference).toMatchObject({
      location: 'term',
      name: 'login',
      actual: '<merchant_control_key>',
    });
    expect(r.stdout).not.toContain(KEY);
  });

  it('a correct HAR capture (RSA-SHA256) is OK; a correct log line (HMAC-SHA1) is OK', async () => {
    const rsa = await paysign(['verify', '--public-key-file', join(KEYS, 'merchant-a-public.pem')], {
      input: capture('ok-rsa-payout-check.har'),
    });
    expect(rsa.code).toBe(0);
    expect(rsa.stdout.split('\n')[0]).toBe('signature OK');
    expect(rsa.stdout).toMatch(/capture\s+HAR entry/);
    expect(rsa.stdout).toContain('note: The HAR file holds 2 entries; entry 2 was read.');
    const hmac = await paysign(['verify', join(CASES, 'ok-hmac-pan-eligibility.line')], {
      env: { PAYSIGN_CONTROL_KEY: KEY },
    });
    expect(hmac.code).toBe(0);
    expect(hmac.stdout.split('\n')[0]).toBe('signature OK');
  });
});

describe('--now', () => {
  it('a replayed capture: signature OK, but refused as stale (exit 1); without --now the time is not judged (exit 0)', async () => {
    const stale = await paysign(['verify', '--control-key', KEY, '--now', String(T0 + 3 * 86400)], {
      input: capture('stale-timestamp.har'),
    });
    expect(stale.code).toBe(1);
    expect(stale.stdout.split('\n')[0]).toBe(
      'signature OK, but the request would be refused (see the likely causes)',
    );
    expect(stale.stdout).toContain('1. Stale timestamp [confirmed]');
    expect(stale.stdout).toMatch(/oauth_timestamp 1767225600 is 3 days \(259200 s\) in the past/);
    const fresh = await paysign(['verify', '--control-key', KEY, '--now', String(T0 + 60)], {
      input: capture('stale-timestamp.har'),
    });
    expect(fresh.code).toBe(0);
    const unjudged = await paysign(['verify', '--control-key', KEY], {
      input: capture('stale-timestamp.har'),
    });
    expect(unjudged.code).toBe(0);
  });

  it('refuses milliseconds and text with one line', async () => {
    expect(
      expectOneLineError(
        await paysign(['verify', '--control-key', KEY, '--now', '1767225600123'], { input: 'x' }),
      ),
    ).toMatch(
      /--now "1767225600123" looks like milliseconds: give whole seconds since 1970, e\.g\. 1767225600/,
    );
    expect(
      expectOneLineError(
        await paysign(['verify', '--control-key', KEY, '--now', 'yesterday'], { input: 'x' }),
      ),
    ).toMatch(/--now "yesterday" is not whole seconds/);
  });
});

describe('--expected-base-string', () => {
  it('OAuth: the gateway’s base string against ours, the difference marked, the first difference located', async () => {
    const raw = capture('ok-hmac-payout.curl');
    const j = JSON.parse(
      (await paysign(['verify', '--control-key', KEY, '--json'], { input: raw })).stdout,
    ) as { baseString: string };
    const theirs = j.baseString.replace('https%3A%2F%2F', 'http%3A%2F%2F');
    const file = writeTemp(dir, 'gateway.txt', `${theirs}\n`);
    const r = await paysign(['verify', '--control-key', KEY, '--expected-base-string', file], { input: raw });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Pasted expected base string against ours');
    expect(r.stdout).toContain(`  difference  POST&http[-s-]%3A%2F%2F`);
    expect(r.stdout).toMatch(
      /the URL part: https:\/\/sandbox\.pay-gateway\.test\/paynet\/api\/v2\/payout\/4411 expected, http:\/\/sandbox/,
    );
  });

  it('control: the concatenation the sandbox reports, with its masked key, compared term by term', async () => {
    const file = writeTemp(
      dir,
      'concat.txt',
      '4411inv-2026-00011042jane.doe@example.org<merchant_control_key>\n',
    );
    const r = await paysign(['verify', '--control-key', KEY, '--expected-base-string', file], {
      input: capture('ok-control-sale.http'),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Pasted expected concatenation against ours');
    expect(r.stdout).toContain('  difference  4411inv-2026-00011042jane.doe@example.[-com-]{+org+}');
  });

  it('an empty or missing file: one line, exit 2', async () => {
    expectOneLineError(
      await paysign(['verify', '--control-key', KEY, '--expected-base-string', join(dir, 'nope.txt')], {
        input: 'x',
      }),
    );
    const empty = writeTemp(dir, 'empty.txt', '\n');
    expect(
      expectOneLineError(
        await paysign(['verify', '--control-key', KEY, '--expected-base-string', empty], { input: 'x' }),
      ),
    ).toMatch(/is empty/);
  });
});

describe('without the key, and with a pasted private key', () => {
  it('no key: the report with the structural checks on stdout, one line on stderr, exit 2', async () => {
    const r = await paysign(['verify'], { input: capture('hyphen-vs-underscore.http') });
    expect(r.code).toBe(2);
    expect(r.stdout.split('\n')[0]).toBe('signature NOT CHECKED');
    expect(r.stdout).toContain('1. Hyphen versus underscore in a name [possible]');
    expect(r.stdout).toMatch(/warning +The formula signs client-order-id, but the body sends client_orderid/);
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^paysign: the signature was not checked: .*pass --control-key-file FILE/);
  });

  it('--private-key-file with a PKCS#1 key for a tool that takes PKCS#8 … is inspected, never printed', async () => {
    const r = await paysign(
      [
        'verify',
        '--public-key-file',
        join(KEYS, 'merchant-b-public.pem'),
        '--private-key-file',
        join(KEYS, 'merchant-b-private-pkcs1.pem'),
        '--json',
      ],
      { input: capture('ok-rsa-create-card-ref.http') },
    );
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as {
      likelyCauses: Array<{ mistakeId: string }>;
      structuralFindings: Array<{ id: string }>;
    };
    // Signed by merchant A, checked with merchant B's pair: no mistake reproduces it.
    expect(j.likelyCauses[0]!.mistakeId).toBe('wrong-key');
    expect(r.stdout).not.toMatch(/PRIVATE KEY|MII/);
  });
});

describe('the signature the corpus generator wrote is what an independent HMAC gives', () => {
  it('ok-hmac-payout.curl carries HMAC-SHA1(key&, base string) as paysign rebuilds the base string', async () => {
    const raw = capture('ok-hmac-payout.curl');
    const j = JSON.parse(
      (await paysign(['verify', '--control-key', KEY, '--json'], { input: raw })).stdout,
    ) as {
      baseString: string;
      received: string;
    };
    expect(createHmac('sha1', `${KEY}&`).update(j.baseString).digest('base64')).toBe(j.received);
  });
});
