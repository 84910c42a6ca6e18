/**
 * Issue 31 through `paysign verify`: the captures merchants really send (Monolog, logback, pino,
 * Python's debug output, an access log's callback, curl with --data-urlencode and a here-document,
 * Chrome's HAR with postData.params, chunked raw HTTP), recognised by their content, each with the
 * mistake it carries named (corpus cases, signed by test/corpus/make-corpus.mjs's own signer).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paysign } from './run-cli.ts';

const CORPUS = resolve(import.meta.dirname, '../corpus');
const KEY = 'CORPUS-TEST-ONLY-5F2C9A1E-7D3B-4C8E-A6F0-1B2D3E4F5A6B';
const capture = (name: string) => readFileSync(join(CORPUS, 'cases', name), 'utf8');

interface VerifyJson {
  verdict: string;
  captureFormat: string;
  operation: string;
  likelyCauses: Array<{ mistakeId: string; confidence: string; evidence: string }>;
}

async function verifyJson(
  file: string,
  extra: string[] = [],
): Promise<{ code: number | null; j: VerifyJson }> {
  const r = await paysign(['verify', '--json', ...extra], { input: capture(file) });
  expect(r.stderr).toBe('');
  return { code: r.code, j: JSON.parse(r.stdout) as VerifyJson };
}

describe('paysign verify: captures from the wild', () => {
  it.each([
    ['formula-terms-reordered.applog', 'app-log', 'formula-terms', 'amount + client_orderid'],
    ['formula-term-doubled.applog', 'app-log', 'formula-terms', 'login concatenated twice'],
    ['formula-term-left-out.jsonl', 'json-log', 'formula-terms', 'endpointId left out'],
    ['key-trailing-newline.pylog', 'python-debug', 'key-text-slip', 'line end'],
    ['key-lowercase.http', 'raw-http', 'key-text-slip', 'lowercase'],
    ['key-trailing-space.curl', 'curl', 'key-text-slip', 'followed by a space'],
    ['callback-terms-reordered.access', 'access-log', 'formula-terms', 'orderid + status'],
  ])('%s: read as %s, %s confirmed', async (file, format, cause, words) => {
    const { code, j } = await verifyJson(file, ['--control-key', KEY]);
    expect(code).toBe(1);
    expect(j.captureFormat).toBe(format);
    expect(j.verdict).toBe('MISMATCH');
    expect(j.likelyCauses[0]).toMatchObject({ mistakeId: cause, confidence: 'confirmed' });
    expect(j.likelyCauses[0]!.evidence).toContain(words);
    expect(JSON.stringify(j)).not.toContain(KEY);
  });

  it('a Laravel line and an access-logged callback that are right: OK, exit 0', async () => {
    for (const file of ['ok-laravel-sale.applog', 'ok-callback-access-log.access']) {
      const r = await paysign(['verify', '--control-key', KEY], { input: capture(file) });
      expect(r.stdout.split('\n')[0], file).toBe('signature OK');
      expect(r.code).toBe(0);
    }
  });

  it("another order's client_orderid, given with --other-order-id (HAR with postData.params)", async () => {
    const { code, j } = await verifyJson('other-order-id.har', [
      '--control-key',
      KEY,
      '--other-order-id',
      'inv-2025-0999',
      '--other-order-id',
      'inv-2026-0000',
    ]);
    expect(code).toBe(1);
    expect(j.captureFormat).toBe('har');
    expect(j.likelyCauses[0]).toMatchObject({ mistakeId: 'other-order-id', confidence: 'confirmed' });
    expect(j.likelyCauses[0]!.evidence).toContain('inv-2026-0000');
  });

  it('RSA over SHA-1, from curl reading -d @- from a here-document', async () => {
    const { code, j } = await verifyJson('rsa-sha1.curl', [
      '--public-key-file',
      join(CORPUS, 'keys/merchant-a-public.pem'),
    ]);
    expect(code).toBe(1);
    expect(j.likelyCauses[0]).toMatchObject({ mistakeId: 'rsa-sha1', confidence: 'confirmed' });
  });

  it('a Monolog line starting with [ is not taken for JSON, and the text report names what else it reads as', async () => {
    const line = `[2026-12-06 01:02:03] payment.INFO: POST https://sandbox.pay-gateway.test/paynet/api/v2/status/4411 login=corpus-shop client_orderid=inv-1 orderid=91 control=${'0'.repeat(40)} [] []\n`;
    const r = await paysign(['verify', '--control-key', KEY], { input: line });
    expect(r.stdout).toMatch(
      /capture\s+application log line \(Monolog, Laravel, Symfony, logback\) \(recognised by its content; it also reads as log line of key=value pairs \(--format log-line\)\)/,
    );
    expect(r.stdout).not.toMatch(/HAR/);
    expect(r.code).toBe(1);
  });
});
