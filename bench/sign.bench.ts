/**
 * Signing speed in Node: the core's Web Crypto path beside node-forge for the same inputs
 * (control SHA-1, HMAC-SHA1, RSA-SHA256 2048 and 4096), and the whole buildRequest per scheme.
 * Every pair is checked to give the same output before it is timed.
 */
import forge from 'node-forge';
import { findOperation } from '../src/catalog/index.ts';
import {
  buildRequest,
  computeControl,
  hmacSigningKey,
  signHmacSha1,
  signRsaSha256,
  webCryptoPort,
  type BuildRequestInput,
  type BuiltRequest,
  type InputParam,
  type SigningKey,
} from '../src/core/index.ts';
import { generateKeyPair, importSigningKey } from '../src/core/keys/key-containers.ts';
import { formatTable, measure, type TableRow } from './lib/measure.ts';

export const title = 'Signing: Web Crypto (core) vs node-forge';

const crypto = webCryptoPort();
const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';
const JOINED = '1111902B4FF51042john.smith@gmail.com';

function forgeSha1Hex(text: string): string {
  return forge.md.sha1.create().update(text, 'utf8').digest().toHex();
}

function forgeHmacSha1Base64(key: string, text: string): string {
  const h = forge.hmac.create();
  h.start('sha1', forge.util.encodeUtf8(key));
  h.update(forge.util.encodeUtf8(text));
  return forge.util.encode64(h.digest().getBytes());
}

function forgeRsaSha256Base64(key: forge.pki.rsa.PrivateKey, text: string): string {
  const md = forge.md.sha256.create().update(text, 'utf8');
  return forge.util.encode64(key.sign(md));
}

function same(a: string | null, b: string, what: string): void {
  if (a !== b)
    throw new Error(
      `${what}: Web Crypto and node-forge disagree (${a} vs ${b}); the timings would compare different work.`,
    );
}

const form = (pairs: Array<[string, string]>): InputParam[] =>
  pairs.map(([name, value]) => ({ name, value, source: 'form' }));

export async function run(): Promise<void> {
  const rows: TableRow[] = [];
  const pair = async (label: string, core: () => Promise<unknown>, viaForge: () => unknown, slow = false) => {
    // node-forge at 4096 bits takes a quarter of a second or more per call: fewer samples.
    const base = await measure('Web Crypto (core)', core);
    const other = await measure(
      'node-forge',
      viaForge,
      slow ? { minSampleMs: 0, samples: 11, budgetMs: 4000 } : {},
    );
    rows.push({ label, m: base, baseline: base }, { label, m: other, baseline: base });
  };

  // control: SHA-1 hex of the published sale example.
  same(await computeControl(JOINED, CONTROL_KEY, crypto), forgeSha1Hex(JOINED + CONTROL_KEY), 'control');
  await pair(
    'control (SHA-1)',
    () => computeControl(JOINED, CONTROL_KEY, crypto),
    () => forgeSha1Hex(JOINED + CONTROL_KEY),
  );

  // Keys: generated once with Web Crypto; forge reads the PKCS#1 copy.
  const keys = new Map<number, { core: SigningKey; forge: forge.pki.rsa.PrivateKey }>();
  for (const bits of [2048, 4096] as const) {
    const gen = await generateKeyPair(bits, crypto);
    keys.set(bits, {
      core: await importSigningKey(gen.pkcs1Pem, crypto),
      forge: forge.pki.privateKeyFromPem(gen.pkcs1Pem) as forge.pki.rsa.PrivateKey,
    });
  }

  // The base string of a realistic payout request, signed by each scheme.
  const hmacReq = await build('v2/payout', keys.get(2048)!.core);
  if (hmacReq.signing.scheme === 'control') throw new Error('v2/payout should be an OAuth operation');
  const base = hmacReq.signing.base.baseString;
  const hmacKey = hmacSigningKey(CONTROL_KEY);
  same(await signHmacSha1(base, hmacKey, crypto), forgeHmacSha1Base64(hmacKey, base), 'HMAC-SHA1');
  await pair(
    `HMAC-SHA1 (${base.length} B)`,
    () => signHmacSha1(base, hmacKey, crypto),
    () => forgeHmacSha1Base64(hmacKey, base),
  );

  for (const [bits, k] of keys) {
    same(
      await signRsaSha256(base, k.core.key, crypto),
      forgeRsaSha256Base64(k.forge, base),
      `RSA-SHA256 ${bits}`,
    );
    await pair(
      `RSA-SHA256 ${bits}`,
      () => signRsaSha256(base, k.core.key, crypto),
      () => forgeRsaSha256Base64(k.forge, base),
      bits === 4096,
    );
  }
  console.log(formatTable(rows));

  // The whole request: select body, resolve terms or collect parameters, base string, sign, header.
  const whole: TableRow[] = [];
  const control = await measure('buildRequest', () => build('v2/sale', keys.get(2048)!.core));
  whole.push({ label: 'scheme C (v2/sale)', m: control, baseline: control });
  whole.push({
    label: 'O1 HMAC-SHA1 (v2/payout)',
    m: await measure('buildRequest', () => build('v2/payout', keys.get(2048)!.core)),
    baseline: control,
  });
  whole.push({
    label: 'O2 RSA-SHA256 2048 (v4/payout)',
    m: await measure('buildRequest', () => build('v4/payout', keys.get(2048)!.core)),
    baseline: control,
  });
  whole.push({
    label: 'O2 RSA-SHA256 4096 (v4/payout)',
    m: await measure('buildRequest', () => build('v4/payout', keys.get(4096)!.core), { samples: 15 }),
    baseline: control,
  });
  console.log(`\nbuildRequest, whole request (ratio vs scheme C):\n`);
  console.log(formatTable(whole));
}

const PARAMS: Record<string, InputParam[]> = {
  'v2/sale': form([
    ['client_orderid', '902B4FF5'],
    ['order_desc', 'Test order é'],
    ['first_name', 'John'],
    ['last_name', 'Smith'],
    ['address1', '100 Main Street'],
    ['city', 'Seattle'],
    ['zip_code', '98102'],
    ['country', 'US'],
    ['phone', '12063582043'],
    ['email', 'john.smith@gmail.com'],
    ['amount', '10.42'],
    ['currency', 'USD'],
    ['ipaddress', '203.0.113.7'],
    ['card_printed_name', 'JOHN SMITH'],
    ['credit_card_number', '4444444444444448'],
    ['expire_month', '12'],
    ['expire_year', '2030'],
    ['cvv2', '123'],
    ['redirect_url', 'http://127.0.0.1:4173/return'],
  ]),
  'v2/payout': form([
    ['client_orderid', 'inv-1'],
    ['amount', '10.42'],
    ['currency', 'USD'],
    ['order_desc', 'Payout é & more'],
    ['ipaddress', '203.0.113.7'],
    ['account_number', 'GB29NWBK60161331926819'],
    ['bank_name', 'Example Bank'],
    ['redirect_url', 'http://127.0.0.1:4173/return'],
    ['server_callback_url', 'http://127.0.0.1:4173/callbacks/demo'],
  ]),
  'v4/payout': form([
    ['client-order-id', 'inv-2'],
    ['amount', '10.42'],
    ['currency', 'USD'],
    ['order_desc', 'Payout é & more'],
    ['account_number', 'GB29NWBK60161331926819'],
    ['bank_name', 'Example Bank'],
  ]),
};

function build(path: string, key: SigningKey): Promise<BuiltRequest> {
  const input: BuildRequestInput = {
    operation: findOperation(path)!,
    baseUrl: 'https://sandbox.example.com/paynet',
    endpoint: { kind: 'endpoint', id: '1111' },
    params: PARAMS[path]!,
    credentials: { login: 'demo-merchant', controlKey: CONTROL_KEY, privateKey: key.key },
    crypto,
    clock: () => 1_191_242_096_000,
    nonce: () => 'kllo9940pd9333jhkllo9940pd9333jh',
  };
  return buildRequest(input);
}
