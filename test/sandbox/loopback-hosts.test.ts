import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackAddress, isLoopbackHostname } from '../../sandbox/http-input.ts';
import { saleParams, startSandbox, type Sandbox } from './support.ts';

// sandbox/README.md documents the callback hosts as exactly 127.0.0.1, localhost and [::1]; any other
// name (such as *.localhost) may go to DNS on common resolvers.
describe('loopback host names (issue 9 §3.5)', () => {
  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]', '::1'])('accepts %j', (h) => {
    expect(isLoopbackHostname(h)).toBe(true);
  });

  it.each([
    'evil.localhost',
    'a.b.localhost',
    'localhost.',
    'localhost.example.com',
    '127.0.0.2',
    '127.1.2.3',
    '127.0.0.1.nip.io',
    '0.0.0.0',
    '[::ffff:127.0.0.1]',
    '[::]',
    'example.com',
    '',
  ])('refuses %j', (h) => {
    expect(isLoopbackHostname(h)).toBe(false);
  });

  it('still reads any 127.x peer address as loopback (socket addresses never go to DNS)', () => {
    expect(isLoopbackAddress('127.0.0.2')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });

  describe('server_callback_url', () => {
    let sb: Sandbox;
    beforeAll(async () => {
      sb = await startSandbox();
    });
    afterAll(async () => {
      await sb.app.close();
    });

    it.each(['http://evil.localhost/cb', 'http://x.localhost:4173/callbacks/a', 'http://127.0.0.2/cb'])(
      'refuses %j with CALLBACK_URL_REFUSED',
      async (url) => {
        const r = await sb.acme.call('v2/sale', saleParams({ server_callback_url: url }));
        expect(r.status).toBe(400);
        expect(r.body['error-reason']).toBe('CALLBACK_URL_REFUSED');
      },
    );

    it.each(['http://127.0.0.1:9/cb', 'http://localhost:9/cb', 'http://[::1]:9/cb'])(
      'accepts %j',
      async (url) => {
        const r = await sb.acme.call('v2/sale', saleParams({ server_callback_url: url }));
        expect(r.status).toBe(200);
      },
    );
  });

  it('refuses the merchant-key address to a *.localhost Host', async () => {
    const sb = await startSandbox();
    try {
      const r = await sb.app.inject({
        url: '/sandbox/demo-merchant',
        headers: { host: 'evil.localhost:4174' },
      });
      expect(r.statusCode).toBe(403);
      const ok = await sb.app.inject({ url: '/sandbox/demo-merchant', headers: { host: 'localhost:4174' } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await sb.app.close();
    }
  });
});
