import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, openssl, paysign, tempDir, writeTemp } from './run-cli.ts';

const KEY = 'errors-test-control-key';
let dir: string;
let files: Record<'garbage' | 'encrypted' | 'short' | 'capture', string>;

beforeAll(() => {
  dir = tempDir();
  const pem = openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']).toString();
  files = {
    garbage: writeTemp(dir, 'garbage.pem', 'this is not a key\n'),
    encrypted: writeTemp(dir, 'enc.pem', openssl(['pkey', '-aes256', '-passout', 'pass:pw'], pem).toString()),
    short: writeTemp(
      dir,
      'short.pem',
      openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024']).toString(),
    ),
    capture: writeTemp(
      dir,
      'v4.http',
      'POST /paynet/api/v4/payout-check/1 HTTP/1.1\r\nHost: gw.example\r\n\r\namount=1.00',
    ),
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const v4 = ['sign', 'v4/payout-check', '--endpoint-id', '1', '--login', 'demo'];

/** [case, arguments (built after the fixtures exist), stdin, what the line must say] */
const CASES: Array<[string, () => string[], string | undefined, RegExp]> = [
  [
    'unknown operation',
    () => ['sign', 'v2/nope', '--endpoint-id', '1', '--control-key', KEY],
    undefined,
    /unknown operation "v2\/nope"/,
  ],
  [
    'non-numeric endpoint',
    () => ['sign', 'v2/sale', '--endpoint-id', '12a', '--control-key', KEY],
    undefined,
    /--endpoint-id "12a" is not a number/,
  ],
  [
    'missing control key',
    () => ['sign', 'v2/sale', '--endpoint-id', '1', 'amount=1.00'],
    undefined,
    /--control-key-file FILE, set PAYSIGN_CONTROL_KEY/,
  ],
  ['missing private key', () => v4, undefined, /RSA-SHA256: pass --private-key-file FILE/],
  [
    'garbage key file',
    () => [...v4, '--private-key-file', files.garbage],
    undefined,
    /garbage\.pem": This is not a PEM key/,
  ],
  [
    'encrypted key',
    () => [...v4, '--private-key-file', files.encrypted],
    undefined,
    /encrypted with a passphrase\. Decrypt it first/,
  ],
  [
    '1024-bit key',
    () => ['verify', files.capture, '--public-key-file', files.short],
    undefined,
    /1024 bits; the gateway requires at least 2048/,
  ],
  [
    'malformed amount',
    () => ['sign', 'v2/sale', '--endpoint-id', '1', '--control-key', KEY, 'amount=10.123'],
    undefined,
    /amount "10\.123" has more than two decimals/,
  ],
  [
    'garbage request to verify',
    () => ['verify', '--control-key', KEY],
    'GARBAGE\x00 not http\n',
    /cannot read the request: The first line/,
  ],
  [
    'request for an unknown path',
    () => ['verify', '--control-key', KEY],
    'POST /api/v9/what/1 HTTP/1.1\nHost: x\n\na=1',
    /names no known operation/,
  ],
  [
    'unknown flag',
    () => ['sign', 'v2/sale', '--endpoint-id', '1', '--colour'],
    undefined,
    /unknown option --colour for "sign"/,
  ],
  ['unknown command', () => ['sing', 'v2/sale'], undefined, /unknown command "sing"/],
];

describe('bad input: exit 2, one line on stderr, no stack trace', () => {
  it.each(CASES)('%s', async (_name, args, input, message) => {
    const r = await paysign(args(), input === undefined ? {} : { input });
    const line = expectOneLineError(r);
    expect(line).toMatch(message);
    expect(line).not.toContain(KEY);
  });
});

describe('help', () => {
  it('paysign --help lists the commands', async () => {
    const r = await paysign(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+sign\s/m);
    expect(r.stdout).toMatch(/^\s+verify\s/m);
    expect(r.stdout).toMatch(/^\s+keys\s/m);
  });

  it('paysign sign --help lists every operation and explains where the key may come from', async () => {
    const r = await paysign(['sign', '--help']);
    expect(r.code).toBe(0);
    for (const path of ['v2/sale', 'v4/payout-check', '3ds/v1/upload-cres-result', 'v2/pan-eligibility/send'])
      expect(r.stdout).toContain(path);
    expect(r.stdout).toContain('PAYSIGN_CONTROL_KEY');
    expect(r.stdout).toContain('--control-key-file');
    expect(r.stdout).toContain('process list');
  });
});
