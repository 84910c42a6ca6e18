import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webCryptoPort } from '../../src/core/index.ts';
import { inspectKey } from '../../src/core/keys/key-containers.ts';
import { conversionsFor, usableFor } from '../../src/features/keys/key-conversions.ts';

const crypto = webCryptoPort();
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** One key in each container, written by Node's crypto (independent of the core's converters). */
const PEMS = {
  'pkcs8-private': pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  'pkcs1-private': pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  'spki-public': pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  'pkcs1-public': pair.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
} as const;

describe('Keys page conversions', () => {
  it.each(Object.entries(PEMS))('offers %s only conversions that change its container', async (kind, pem) => {
    const inspection = await inspectKey(pem, crypto);
    expect(inspection.kind).toBe(kind);
    const offered = conversionsFor(inspection);
    expect(offered.map((c) => c.produces)).not.toContain(kind);
    if (!inspection.isPrivate) expect(offered.every((c) => !c.private)).toBe(true);
    for (const c of offered) {
      const out = await inspectKey(await c.run(pem, crypto), crypto);
      expect(out.kind).toBe(c.produces);
      expect(out.fingerprint).toBe(inspection.fingerprint);
    }
    expect(offered).toHaveLength(inspection.isPrivate ? 3 : 1);
  });

  it('says a public key verifies but cannot sign, and a private key signs', async () => {
    const pub = await inspectKey(PEMS['spki-public'], crypto);
    expect(usableFor(pub)).toMatch(
      /public key: it verifies RSA-SHA256 signatures.*signing needs its private key/,
    );
    expect(usableFor(pub)).not.toMatch(/^None: usable for RSA-SHA256/);
    expect(usableFor(await inspectKey(PEMS['pkcs8-private'], crypto))).toBe(
      'None: it signs RSA-SHA256 requests.',
    );
  });
});
