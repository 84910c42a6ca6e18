import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectOneLineError,
  formBody,
  openssl,
  opensslSign,
  paysign,
  referenceOAuth,
  sha1Hex,
  tempDir,
  writeTemp,
} from './run-cli.ts';

// The gateway's published worked example (gateway-notes.md, `control`).
const EXAMPLE_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const EXAMPLE_ARGS = ['client_orderid=902B4FF5', 'amount=10.42', 'email=john.smith@gmail.com'];
const SANDBOX = 'http://127.0.0.1:4173/sandbox/paynet';

let dir: string;
let keyFile: string;
let privatePem: string;

beforeAll(() => {
  dir = tempDir();
  keyFile = writeTemp(dir, 'control-key.txt', `${EXAMPLE_KEY}\n`);
  privatePem = writeTemp(
    dir,
    'private.pem',
    openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']).toString(),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('paysign sign, control scheme', () => {
  it('reproduces the gateway example and shows every term with the key masked', async () => {
    const r = await paysign([
      'sign',
      'v2/sale',
      '--endpoint-id',
      '1111',
      '--control-key',
      EXAMPLE_KEY,
      ...EXAMPLE_ARGS,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('control = c6bdd88a78834ef4b863b088827a459f039e8257');
    expect(r.stdout).toContain('1111902B4FF51042john.smith@gmail.com<merchant_control_key>');
    expect(r.stdout).toMatch(/^\s+3\s+amount\s+1042\s+body\s+10\.42 in minor units$/m);
    expect(r.stdout).toMatch(/^\s+1\s+endpointId\s+1111\s+path\s+endpoint id from the path$/m);
    expect(r.stdout).toContain('POST /sandbox/paynet/api/v2/sale/1111 HTTP/1.1\r\nHost: 127.0.0.1:4173\r\n');
    expect(r.stdout).not.toContain(EXAMPLE_KEY);
  });

  it('--json: key from $PAYSIGN_CONTROL_KEY, base URL from $PAYSIGN_BASE_URL, nothing secret', async () => {
    const r = await paysign(['sign', 'v2/sale', '--endpoint-id', '1111', ...EXAMPLE_ARGS, '--json'], {
      env: { PAYSIGN_CONTROL_KEY: EXAMPLE_KEY, PAYSIGN_BASE_URL: 'https://sandbox.gw.example/paynet' },
    });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j.url).toBe('https://sandbox.gw.example/paynet/api/v2/sale/1111');
    expect(j.control).toBe('c6bdd88a78834ef4b863b088827a459f039e8257');
    expect(j.signingInput).toBe('1111902B4FF51042john.smith@gmail.com<merchant_control_key>');
    expect(j.body).toBe(
      'client_orderid=902B4FF5&amount=10.42&email=john.smith%40gmail.com&control=c6bdd88a78834ef4b863b088827a459f039e8257',
    );
    expect(j.headers).toEqual({
      Accept: 'application/vnd.pay+json',
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(r.stdout).not.toContain(EXAMPLE_KEY);
  });

  it('group endpoint, login filled from --login, minor units, extra fields and values with "="', async () => {
    const r = await paysign([
      'sign',
      'v2/capture',
      '--endpoint-group-id',
      '22',
      '--login',
      'demo-merchant',
      '--control-key-file',
      keyFile,
      '--json',
      'client_orderid=c-1',
      'orderid=42',
      'amount=0.29',
      'currency=EUR',
      'comment=a=b c',
      'x_extra=é+1',
    ]);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    const control = sha1Hex(`demo-merchantc-142` + `29` + `EUR${EXAMPLE_KEY}`);
    expect(j.url).toBe(`${SANDBOX}/api/v2/capture/group/22`);
    expect(j.control).toBe(control);
    expect(j.signingInput).toBe('demo-merchantc-14229EUR<merchant_control_key>');
    expect(j.body).toBe(
      formBody([
        ['login', 'demo-merchant'],
        ['client_orderid', 'c-1'],
        ['orderid', '42'],
        ['amount', '0.29'],
        ['currency', 'EUR'],
        ['comment', 'a=b c'],
        ['x_extra', 'é+1'],
        ['control', control],
      ]),
    );
    expect(j.params).toContainEqual({ name: 'login', value: 'demo-merchant', source: 'profile' });
    expect(j.params).toContainEqual({ name: 'x_extra', value: 'é+1', source: 'extra' });
  });
});

describe('paysign sign, OAuth', () => {
  const body = { client_orderid: 'p-1', amount: '5.00', currency: 'USD', order_desc: "Pay é!*(x)+y=z 'q'" };
  const pairs = Object.entries(body).map(([k, v]) => `${k}=${v}`);
  /** `sign v2/payout` with a control key and a pinned nonce and timestamp (HMAC-SHA1). */
  const HMAC_PAYOUT_ARGS = [
    'sign',
    'v2/payout',
    '--endpoint-id',
    '1111',
    '--login',
    'demo',
    '--control-key',
    'k&e y',
    '--nonce',
    'n0nce',
    '--timestamp',
    '1700000000',
  ];
  /** `sign v4/payout-check` with the openssl RSA key and a pinned nonce and timestamp (the key file exists once beforeAll ran). */
  const rsaPayoutCheckArgs = () => [
    'sign',
    'v4/payout-check',
    '--endpoint-id',
    '2222',
    '--login',
    'demo',
    '--private-key-file',
    privatePem,
    '--nonce',
    'abc123',
    '--timestamp',
    '1700000001',
  ];

  it('HMAC-SHA1 with pinned nonce and timestamp matches oauth-1.0a and Node crypto', async () => {
    const r = await paysign([...HMAC_PAYOUT_ARGS, ...pairs, '--json']);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as Record<string, string>;
    const url = `${SANDBOX}/api/v2/payout/1111`;
    const ref = referenceOAuth({
      url,
      body,
      consumerKey: 'demo',
      method: 'HMAC-SHA1',
      nonce: 'n0nce',
      timestamp: '1700000000',
      controlKey: 'k&e y',
    });
    expect(j.url).toBe(url);
    expect(j.baseString).toBe(ref.baseString);
    expect(j.signingInput).toBe(ref.baseString);
    expect(j.signature).toBe(ref.hmac);
    const header = ref.oauth.toHeader({
      oauth_consumer_key: 'demo',
      oauth_nonce: 'n0nce',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: 1700000000,
      oauth_version: '1.0',
      oauth_signature: ref.hmac!,
    }).Authorization;
    expect(j.authorization).toBe(header);
    expect((j.headers as unknown as Record<string, string>).Authorization).toBe(header);
    expect(j.body).toBe(formBody(Object.entries(body)));
    expect(j.signingKey).toBe('<merchant_control_key>&');
    expect(r.stdout).not.toContain('k&e y');
  });

  it('--curl prints only a curl command carrying the same signed request', async () => {
    const r = await paysign([...HMAC_PAYOUT_ARGS, ...pairs, '--curl']);
    const ref = referenceOAuth({
      url: `${SANDBOX}/api/v2/payout/1111`,
      body,
      consumerKey: 'demo',
      method: 'HMAC-SHA1',
      nonce: 'n0nce',
      timestamp: '1700000000',
      controlKey: 'k&e y',
    });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(`curl -sS -X POST '${SANDBOX}/api/v2/payout/1111'`)).toBe(true);
    expect(r.stdout).toContain(`oauth_signature="${encodeURIComponent(ref.hmac!)}"`);
    expect(r.stdout).toContain("-H 'Accept: application/vnd.pay+json'");
    // The body is single-quoted for the shell: the ' in order_desc is percent-encoded, so no escaping is needed.
    expect(r.stdout.trimEnd().endsWith(`--data-raw '${formBody(Object.entries(body))}'`)).toBe(true);
    expect(r.stdout).not.toContain('Signing input');
  });

  it('RSA-SHA256 with an openssl key equals `openssl dgst -sha256 -sign` over the reference base string', async () => {
    const r = await paysign([
      ...rsaPayoutCheckArgs(),
      '--base-url',
      'https://gate.gw.example/paynet/',
      ...pairs,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as Record<string, string>;
    const url = 'https://gate.gw.example/paynet/api/v4/payout-check/2222';
    const ref = referenceOAuth({
      url,
      body,
      consumerKey: 'demo',
      method: 'RSA-SHA256',
      nonce: 'abc123',
      timestamp: '1700000001',
    });
    expect(j.url).toBe(url);
    expect(j.baseString).toBe(ref.baseString);
    expect(j.signature).toBe(opensslSign(privatePem, ref.baseString));
    expect(j.authorization).toContain(`oauth_signature="${encodeURIComponent(j.signature!)}"`);
    expect(j.authorization).toContain('oauth_signature_method="RSA-SHA256"');
    expect(r.stdout).not.toContain('PRIVATE KEY');
  });

  it('--raw prints exactly the HTTP request, CRLF line ends and a byte-exact Content-Length', async () => {
    const r = await paysign([...rsaPayoutCheckArgs(), ...pairs, '--raw']);
    expect(r.code).toBe(0);
    const [head, bodyText] = r.stdout.split('\r\n\r\n');
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('POST /sandbox/paynet/api/v4/payout-check/2222 HTTP/1.1');
    expect(lines[1]).toBe('Host: 127.0.0.1:4173');
    expect(lines).toContain(`Content-Length: ${Buffer.byteLength(bodyText!, 'utf8')}`);
    expect(bodyText).toBe(formBody(Object.entries(body)));
    expect(head).not.toMatch(/[^\r]\n/);
  });
});

describe('paysign sign --scheme (payout-form: HMAC-SHA1 by default, RSA-SHA256 and control allowed)', () => {
  const body = { client_orderid: 'pf-1', amount: '12.34', currency: 'EUR', order_desc: 'a b+c' };
  const pairs = Object.entries(body).map(([k, v]) => `${k}=${v}`);
  const base = ['sign', 'v2/payout-form', '--endpoint-id', '1111', '--login', 'demo'];
  const pin = ['--nonce', 'pfnonce', '--timestamp', '1700000002'];
  const url = `${SANDBOX}/api/v2/payout-form/1111`;

  it('--scheme rsa-sha256 asks for the private key and equals `openssl dgst -sha256 -sign`', async () => {
    const noKey = await paysign([...base, '--scheme', 'rsa-sha256', '--control-key', EXAMPLE_KEY, ...pairs]);
    expect(expectOneLineError(noKey)).toContain('--private-key-file');
    const r = await paysign([
      ...base,
      '--scheme',
      'oauth-rsa-sha256',
      '--private-key-file',
      privatePem,
      ...pin,
      ...pairs,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout) as Record<string, string>;
    const ref = referenceOAuth({
      url,
      body,
      consumerKey: 'demo',
      method: 'RSA-SHA256',
      nonce: 'pfnonce',
      timestamp: '1700000002',
    });
    expect(j.scheme).toBe('oauth-rsa-sha256');
    expect(j.baseString).toBe(ref.baseString);
    expect(j.signature).toBe(opensslSign(privatePem, ref.baseString));
    expect(j.authorization).toContain('oauth_signature_method="RSA-SHA256"');
  });

  it('--scheme control signs the sale formula (SHA-1 checked with node:crypto) and says so on every line', async () => {
    const r = await paysign([...base, '--scheme', 'control', '--control-key', EXAMPLE_KEY, ...pairs]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const control = sha1Hex(`1111pf-11234${EXAMPLE_KEY}`);
    expect(r.stdout).toMatch(/^Scheme\s+control \(SHA-1\)$/m);
    expect(r.stdout).toContain(`control = ${control}`);
    expect(r.stdout).toContain(
      'Formula: endpointId + client_orderid + amount + email + merchant_control_key',
    );
    expect(r.stdout).not.toContain('Authorization: OAuth');
    expect(r.stdout).toContain(`&control=${control}`);
  });

  it('without --scheme: its own HMAC-SHA1, as oauth-1.0a computes it', async () => {
    const r = await paysign([...base, '--control-key', EXAMPLE_KEY, ...pin, ...pairs, '--json']);
    const j = JSON.parse(r.stdout) as Record<string, string>;
    const ref = referenceOAuth({
      url,
      body,
      consumerKey: 'demo',
      method: 'HMAC-SHA1',
      nonce: 'pfnonce',
      timestamp: '1700000002',
      controlKey: EXAMPLE_KEY,
    });
    expect(j.scheme).toBe('oauth-hmac-sha1');
    expect(j.signature).toBe(ref.hmac);
  });

  it('refuses a scheme the operation does not allow, naming the ones it does', async () => {
    const other = expectOneLineError(
      await paysign([...base, '--scheme', 'md5', '--control-key', 'k', ...pairs]),
    );
    expect(other).toContain('control');
    expect(other).toContain('oauth-rsa-sha256');
    const single = expectOneLineError(
      await paysign([
        'sign',
        'v2/sale',
        '--endpoint-id',
        '1111',
        '--scheme',
        'rsa-sha256',
        '--control-key',
        'k',
      ]),
    );
    expect(single).toContain('v2/sale is signed with control only');
  });
});
