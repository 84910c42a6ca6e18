/**
 * The node:crypto port (src/node) against the Web Crypto port, over the same known-answer vectors
 * (test/vectors) and an RSA-SHA256 round trip checked by the openssl CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  callbackControl,
  signControl,
  signHmacSha1,
  webCryptoPort,
  type BaseString,
  type ControlTerm,
  type CryptoPort,
  type EndpointRef,
} from '../../src/core/index.ts';
import { nodeCryptoPort } from '../../src/node/node-crypto-port.ts';
import { loadVector } from '../oracles/vectors.ts';

const PORTS: ReadonlyArray<readonly [string, CryptoPort]> = [
  ['web crypto', webCryptoPort()],
  ['node:crypto', nodeCryptoPort()],
];

interface ControlVector {
  cases: Array<{
    name: string;
    endpoint: EndpointRef;
    login: string;
    controlKey: string;
    formula: ControlTerm[];
    params: Array<{ name: string; value: string }>;
    expected: { signature: string; maskedInput: string };
  }>;
}
interface CallbackVector {
  cases: Array<{
    name: string;
    fields: { status: string; orderid: string; merchantOrder: string };
    controlKey: string;
    expected: { signature: string };
  }>;
}
interface PhotosVector {
  expected: { baseString: string; signingKey: string; signature: string };
}

const control = loadVector<ControlVector>('gateway-notes-control.json');
const callback = loadVector<CallbackVector>('gateway-notes-callback.json');
const photos = loadVector<PhotosVector>('rfc5849-photos.json');

describe.each(PORTS)('%s port', (_name, crypto) => {
  it.each(control.cases.map((c) => [c.name, c] as const))('control vector %s', async (_n, c) => {
    const body = c.params.filter((p) => p.value !== '');
    const trace = await signControl(
      c.formula,
      { login: c.login, endpoint: c.endpoint, body },
      c.controlKey,
      crypto,
    );
    expect(trace.signature).toBe(c.expected.signature);
    expect(trace.maskedInput).toBe(c.expected.maskedInput);
  });

  it.each(callback.cases.map((c) => [c.name, c] as const))('callback vector %s', async (_n, c) => {
    expect(await callbackControl(c.fields, c.controlKey, crypto)).toBe(c.expected.signature);
  });

  it('rfc5849-photos HMAC-SHA1', async () => {
    const e = photos.expected;
    expect(await signHmacSha1(e.baseString as BaseString, e.signingKey, crypto)).toBe(e.signature);
  });

  it('FIPS 180 digests, including non-ASCII text', async () => {
    expect(await crypto.sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(await crypto.sha256Hex(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await crypto.sha1Hex('Zürich €')).toBe(await PORTS[0]![1].sha1Hex('Zürich €'));
    expect(await crypto.hmacSha1Base64('ключ&', 'données')).toBe(
      await PORTS[0]![1].hmacSha1Base64('ключ&', 'données'),
    );
  });
});

describe('RSA-SHA256: both ports give byte-identical signatures that openssl verifies', () => {
  const [web, node] = [PORTS[0]![1], PORTS[1]![1]];
  let pair: CryptoKeyPair;
  const text = 'POST&http%3A%2F%2F127.0.0.1%2Fpaynet%2Fapi%2Fv4%2Fpayout-check%2F1111&amount%3D5.00 Zürich';
  beforeAll(async () => {
    pair = (await web.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
  });

  it('signs the same bytes, and each verifies the other', async () => {
    const a = await web.rsaSha256SignBase64(pair.privateKey, text);
    const b = await node.rsaSha256SignBase64(pair.privateKey, text);
    expect(b).toBe(a);
    expect(await node.rsaSha256Verify(pair.publicKey, a, text)).toBe(true);
    expect(await web.rsaSha256Verify(pair.publicKey, b, text)).toBe(true);
    expect(await node.rsaSha256Verify(pair.publicKey, b, `${text}x`)).toBe(false);
    expect(await node.rsaSha256Verify(pair.publicKey, 'not base64!', text)).toBe(false);
    expect(await node.rsaSha256Verify(pair.publicKey, '', text)).toBe(false);
    const flipped = Buffer.from(b, 'base64');
    flipped[10]! ^= 1;
    expect(await node.rsaSha256Verify(pair.publicKey, flipped.toString('base64'), text)).toBe(false);
  });

  it('openssl dgst -verify accepts the node port signature', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'node-port-'));
    const spki = new Uint8Array(await web.subtle.exportKey('spki', pair.publicKey));
    const pem = `-----BEGIN PUBLIC KEY-----\n${Buffer.from(spki)
      .toString('base64')
      .replace(/(.{64})/g, '$1\n')
      .trim()}\n-----END PUBLIC KEY-----\n`;
    writeFileSync(path.join(dir, 'pub.pem'), pem);
    writeFileSync(path.join(dir, 'data.txt'), text);
    writeFileSync(
      path.join(dir, 'sig.bin'),
      Buffer.from(await node.rsaSha256SignBase64(pair.privateKey, text), 'base64'),
    );
    const r = spawnSync('openssl', [
      'dgst',
      '-sha256',
      '-verify',
      path.join(dir, 'pub.pem'),
      '-signature',
      path.join(dir, 'sig.bin'),
      path.join(dir, 'data.txt'),
    ]);
    expect(r.stdout.toString()).toContain('Verified OK');
  });

  it('a public key cannot sign', async () => {
    await expect(node.rsaSha256SignBase64(pair.publicKey, text)).rejects.toThrow();
    await expect(web.rsaSha256SignBase64(pair.publicKey, text)).rejects.toThrow();
  });
});
