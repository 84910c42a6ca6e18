import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, send, startConsole, type ErrorAnswer, type Running } from './helpers.ts';

let server: Running;

beforeAll(async () => {
  server = await startConsole();
});
afterAll(async () => {
  await server.close();
});

function cspDirectives(value: string | string[] | undefined): Map<string, string> {
  const text = Array.isArray(value) ? value.join(';') : (value ?? '');
  return new Map(
    text
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...rest] = d.split(/\s+/);
        return [name ?? '', rest.join(' ')];
      }),
  );
}

describe('console pages', () => {
  it('answers every page of the console with index.html and the server’s prefixes, in any spelling, with JSON', async () => {
    for (const page of [
      '/',
      '/ops/v2/sale',
      '/ops/v2/sale/',
      '/classroom',
      '/trainer',
      '/join',
      '/%6Fps/v2/sale',
    ]) {
      const answer = await send(server.port, 'GET', page);
      expect(answer.status, page).toBe(200);
      expect(answer.body, page).toContain('<title>pay-console fixture</title>');
    }
    for (const api of [
      '/classroom/me',
      '/proxy/nothing',
      '/%70roxy/nothing',
      '/sandbox/nothing',
      '/s%61ndbox',
      '/callbacks/a/b/c',
      '/assets/missing.js',
    ]) {
      const answer = await send(server.port, 'GET', api);
      expect(answer.status, api).toBe(404);
      expect(answer.headers['content-type'], api).toMatch(/json/);
    }
    const asset = await send(server.port, 'GET', '/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Asked for by pages without an icon link (the sandbox's issuer page): no 404 in their console.
    expect((await send(server.port, 'GET', '/favicon.ico')).status).toBe(204);
  });

  it('answers /ops/v2/sale with index.html and the strict headers (SPA fallback)', async () => {
    const answer = await send(server.port, 'GET', '/ops/v2/sale');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('<title>pay-console fixture</title>');
    const csp = cspDirectives(answer.headers['content-security-policy']);
    expect(csp.get('default-src')).toBe("'self'");
    expect(csp.get('script-src')).toBe("'self'");
    expect(csp.get('connect-src')).toBe("'self'");
    expect(csp.get('img-src')).toBe("'self' data:");
    expect(csp.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(csp.get('worker-src')).toBe("'self' blob:");
    expect(csp.get('font-src')).toBe("'self' data:");
    expect(csp.get('object-src')).toBe("'none'");
    expect(csp.get('base-uri')).toBe("'none'");
    expect(csp.get('frame-ancestors')).toBe("'none'");
    expect(csp.get('form-action')).toBe("'self'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('serves / and existing files, and 404s a missing asset instead of sending the page', async () => {
    const root = await send(server.port, 'GET', '/');
    expect(root.status).toBe(200);
    expect(root.body).toContain('pay-console fixture');
    expect(root.headers['content-security-policy']).toContain("script-src 'self'");
    const asset = await send(server.port, 'GET', '/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await send(server.port, 'GET', '/assets/missing.js');
    expect(missing.status).toBe(404);
    expect(json<ErrorAnswer>(missing).error.code).toBe('NOT_FOUND');
  });

  it('never answers the page for server paths or other methods', async () => {
    for (const path of ['/proxy/nothing', '/callbacks/a/b/c', '/sandbox/no-such-page']) {
      const answer = await send(server.port, 'GET', path);
      expect(answer.status, path).toBe(404);
      expect(answer.body).not.toContain('pay-console fixture');
    }
    const post = await send(server.port, 'POST', '/ops/v2/sale', { 'content-type': 'text/plain' }, 'x');
    expect(post.status).toBe(404);
    expect(json<ErrorAnswer>(post).error.code).toBe('NOT_FOUND');
  });

  it("leaves the sandbox's own pages their own Content-Security-Policy", async () => {
    const page = await send(server.port, 'GET', '/sandbox/paynet/form/no-such-token');
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).not.toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('says to run npm run build when the console is not built', async () => {
    const empty = await startConsole({ DIST_DIR: mkdtempSync(join(tmpdir(), 'pay-console-empty-')) });
    try {
      const answer = await send(empty.port, 'GET', '/ops/v2/sale');
      expect(answer.status).toBe(503);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body).toContain('npm run build');
      expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
      expect((await send(empty.port, 'GET', '/proxy/targets')).status).toBe(200);
    } finally {
      await empty.close();
    }
  });
});
