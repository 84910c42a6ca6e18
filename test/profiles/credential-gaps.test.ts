/**
 * Issue 19 §2: with a public key, a 1024-bit key or a locked vault, the Send refusal and the signing
 * pane say what is wrong and what to do, not "paste or load the private key" / "enter it".
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { webCryptoPort } from '../../src/core/index.ts';
import { inspectKey } from '../../src/core/keys/key-containers.ts';
import { credentialGapsOf } from '../../src/features/profiles/credential-gaps.ts';
import { buildDraft, type RequestDraft } from '../../src/model/index.ts';
import { RSA, signingEnv } from '../model/signing-env.ts';

const crypto = webCryptoPort();
const payoutCheck: RequestDraft = {
  v: 2,
  operation: 'v4/payout-check',
  values: { client_orderid: 'o-1', amount: '10.00', currency: 'EUR' },
  extras: [],
};
const sale: RequestDraft = {
  v: 2,
  operation: 'v2/sale',
  values: { client_orderid: 'o-1', amount: '10.00', email: 'a@example.com' },
  extras: [],
};

async function loaded(pem: string) {
  return { status: 'done' as const, inspection: await inspectKey(pem, crypto), error: 'unusable' };
}

function envWithout(secret: 'controlKey' | 'privateKey', gaps: ReturnType<typeof credentialGapsOf>) {
  const env = signingEnv();
  const { [secret]: _dropped, ...credentials } = env.credentials;
  return { ...env, credentials, credentialGaps: gaps };
}

describe('why a secret is missing, in the build’s problems', () => {
  test('a public key loaded: it verifies, it cannot sign; load the private key', async () => {
    const gaps = credentialGapsOf({ locked: false, key: await loaded(RSA.publicKey) });
    const built = await buildDraft(payoutCheck, envWithout('privateKey', gaps));
    const texts = built.problems.map((p) => p.message);
    expect(texts.join(' ')).toMatch(
      /The loaded key is a public key: it verifies, it cannot sign\. Load the merchant's private key/,
    );
    expect(texts.join(' ')).not.toMatch(/paste or load/);
    expect(built.signing.problems.map((p) => p.message)).toEqual(texts);
    expect(built.problems.find((p) => p.code === 'PRIVATE_KEY_MISSING')?.field).toBe('privateKey');
  });

  test('a 1024-bit private key: too short, make a new pair', async () => {
    const short = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const gaps = credentialGapsOf({ locked: false, key: await loaded(short.privateKey) });
    const built = await buildDraft(payoutCheck, envWithout('privateKey', gaps));
    const text = built.problems.map((p) => p.message).join(' ');
    expect(text).toMatch(/has 1024 bits; the gateway refuses keys under 2048 bits/);
    expect(text).not.toMatch(/paste or load/);
  });

  test('a 1024-bit public key is named a public key first', async () => {
    const short = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const gaps = credentialGapsOf({ locked: false, key: await loaded(short.publicKey) });
    const built = await buildDraft(payoutCheck, envWithout('privateKey', gaps));
    expect(built.problems.map((p) => p.message).join(' ')).toMatch(/^The loaded key is a public key/);
  });

  test('the vault locked: unlock it, for the control key and the private key', async () => {
    const gaps = credentialGapsOf({ locked: true, key: { status: 'none' } });
    const control = await buildDraft(sale, envWithout('controlKey', gaps));
    const text = control.problems.map((p) => p.message).join(' ');
    expect(text).toMatch(/^The vault is locked: unlock it/);
    expect(text).not.toMatch(/No merchant control key/);
    const rsa = await buildDraft(payoutCheck, envWithout('privateKey', gaps));
    expect(rsa.problems.map((p) => p.message).join(' ')).toMatch(/The vault is locked: unlock it/);
  });

  test('nothing loaded: the core’s own request stands', async () => {
    const gaps = credentialGapsOf({ locked: false, key: { status: 'none' } });
    expect(gaps).toEqual({});
    const built = await buildDraft(payoutCheck, envWithout('privateKey', gaps));
    expect(built.problems.map((p) => p.message).join(' ')).toMatch(/paste or load it in the profile/);
  });
});
