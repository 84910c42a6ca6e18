/** Test helpers for the paysign CLI: spawn the real program, and independent reference computations. */
import { execFileSync, spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OAuth from 'oauth-1.0a';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx src/cli/paysign.ts …` from the repository root, with a clean paysign environment. */
export function paysign(
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  for (const name of ['PAYSIGN_CONTROL_KEY', 'PAYSIGN_BASE_URL'])
    if (!opts.env || !(name in opts.env)) delete env[name];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/paysign.ts', ...args], {
      cwd: ROOT,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/** A failure the CLI reports: exit 2, nothing on stdout, exactly one line on stderr, no stack trace. */
export function expectOneLineError(r: CliResult): string {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  if (
    r.code !== 2 ||
    r.stdout !== '' ||
    lines.length !== 1 ||
    !lines[0]!.startsWith('paysign: ') ||
    /\n\s+at /.test(r.stderr)
  ) {
    throw new Error(
      `expected one error line and exit 2, got exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
    );
  }
  return lines[0]!;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'paysign-test-'));
}

export function writeTemp(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export function openssl(args: readonly string[], input?: string | Buffer): Buffer {
  return execFileSync('openssl', [...args], { input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'] });
}

export function sha1Hex(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** RFC 3986 encoding, written here independently of src/core. */
export function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function formBody(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
}

/**
 * The OAuth 1.0a base string and HMAC-SHA1 signature as the ddo/oauth-1.0a package computes them,
 * with the nonce and timestamp pinned.
 */
export function referenceOAuth(input: {
  url: string;
  body: Record<string, string>;
  consumerKey: string;
  method: 'HMAC-SHA1' | 'RSA-SHA256';
  nonce: string;
  timestamp: string;
  controlKey?: string;
}): { baseString: string; hmac?: string; oauth: OAuth } {
  const oauth = new OAuth({
    consumer: { key: input.consumerKey, secret: input.controlKey ?? '' },
    signature_method: input.method,
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const data: OAuth.Data = {
    oauth_consumer_key: input.consumerKey,
    oauth_nonce: input.nonce,
    oauth_signature_method: input.method,
    oauth_timestamp: Number(input.timestamp),
    oauth_version: '1.0',
  };
  const request = { url: input.url, method: 'POST', data: input.body };
  const baseString = oauth.getBaseString(request, data);
  return {
    baseString,
    ...(input.controlKey !== undefined ? { hmac: oauth.getSignature(request, '', data) } : {}),
    oauth,
  };
}

/** RSA-SHA256 (PKCS#1 v1.5) of a text with `openssl dgst`, Base64. */
export function opensslSign(privateKeyFile: string, text: string): string {
  return openssl(['dgst', '-sha256', '-sign', privateKeyFile, '-binary'], Buffer.from(text, 'utf8')).toString(
    'base64',
  );
}
