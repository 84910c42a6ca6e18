/** The capsule page's headless session: build from a paste, export, open read-only, refuse junk. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webCryptoPort } from '../../src/core/index.ts';
import { CapsuleSession } from '../../src/features/capsule/capsule-session.ts';

const KEY = 'SESSION-TEST-ONLY-KEY';
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const line = (ms: number) =>
  `2026-12-06 01:00:01.${String(ms).padStart(3, '0')} INFO [p] c.m.G - Request: POST https://gw.test/paynet/api/v2/status/4411 body: login=shop&client_orderid=c-1&orderid=9&control=${sha1(`shopc-19${KEY}`)}`;

describe('CapsuleSession', () => {
  it('builds, exports without the key, and opens the export read-only with its chain intact', async () => {
    const s = new CapsuleSession(webCryptoPort());
    s.set('text', [0, 100, 200].map(line).join('\n'));
    s.set('controlKey', KEY);
    await s.build();
    const built = s.getSnapshot();
    expect(built.capsule?.steps.map((x) => x.verdict)).toEqual(['ok', 'ok', 'ok']);
    expect(built.capsule?.findings.map((f) => f.rule)).toEqual(['status-polled-fast']);
    const text = s.exportText()!;
    expect(text).not.toContain(KEY);

    const reader = new CapsuleSession(webCryptoPort());
    await reader.open(text);
    expect(reader.getSnapshot()).toMatchObject({ readOnly: true, check: { ok: true }, error: null });
  });

  it('says what to paste when nothing is a request, and what to open when a file is no capsule', async () => {
    const s = new CapsuleSession(webCryptoPort());
    s.set('text', 'hello\nworld');
    await s.build();
    expect(s.getSnapshot().error).toMatch(/No request, callback or return found/);
    await s.open('{"kind":"something else"}');
    expect(s.getSnapshot().error).toMatch(/not a capsule/);
    expect(s.getSnapshot().readOnly).toBe(false);
  });
});
