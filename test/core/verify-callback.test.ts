/**
 * Core `verifyCallback` against answers computed outside the console: node:crypto's SHA-1 and the
 * openssl CLI over the same concatenation, plus the published vectors of gateway-notes.md.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyCallback, webCryptoPort, type CryptoPort } from '../../src/core/index.ts';
import { nodeCryptoPort } from '../../src/node/node-crypto-port.ts';

const PORTS: ReadonlyArray<readonly [string, CryptoPort]> = [
  ['web crypto', webCryptoPort()],
  ['node:crypto', nodeCryptoPort()],
];
const KEY = 'test-merchant-control';

function opensslSha1(text: string): string {
  const r = spawnSync('openssl', ['dgst', '-sha1', '-r'], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.split(' ')[0]!.trim();
}

const CASES = [
  { status: 'approved', orderid: '1234567', merchant_order: 'hf-abc' },
  { status: 'declined', orderid: '9000001', client_orderid: 'ord-é-1' },
  { status: 'error', orderid: '', merchant_order: '' },
];

describe('verifyCallback', () => {
  it('matches the published vectors of gateway-notes.md', async () => {
    for (const [, port] of PORTS) {
      const q = { status: 'approved', orderid: '1234567', merchant_order: 'hf-abc' };
      expect(
        await verifyCallback({ ...q, control: '652ace404c4dfe8bba069ecee594ec23a89340e1' }, KEY, port),
      ).toBe('valid');
      expect(
        await verifyCallback(
          {
            status: '',
            orderid: '',
            merchant_order: '',
            control: '1a66987ac24e927ff2979f83a41cb818936a9e62',
          },
          KEY,
          port,
        ),
      ).toBe('valid');
    }
  });

  for (const [name, port] of PORTS) {
    it(`accepts the control computed by node:crypto and openssl, refuses a changed field (${name})`, async () => {
      for (const c of CASES) {
        const input = c.status + c.orderid + (c.merchant_order ?? c.client_orderid ?? '') + KEY;
        const byNode = createHash('sha1').update(input, 'utf8').digest('hex');
        expect(opensslSha1(input)).toBe(byNode);
        expect(await verifyCallback({ ...c, control: byNode }, KEY, port)).toBe('valid');
        expect(await verifyCallback({ ...c, control: byNode.toUpperCase() }, KEY, port)).toBe('valid');
        expect(await verifyCallback({ ...c, status: 'filtered', control: byNode }, KEY, port)).toBe(
          'invalid',
        );
        expect(await verifyCallback({ ...c, control: byNode }, `${KEY}x`, port)).toBe('invalid');
      }
    });
  }

  it('says when there is nothing to check or nothing to check it with', async () => {
    const port = webCryptoPort();
    expect(await verifyCallback({ status: 'approved' }, KEY, port)).toBe('no-control');
    expect(await verifyCallback({ status: 'approved', control: 'ab' }, undefined, port)).toBe('no-key');
    expect(await verifyCallback({ status: 'approved', control: 'ab' }, '', port)).toBe('no-key');
  });
});
