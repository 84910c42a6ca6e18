import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upstreamUrl } from '../../proxy/forward-path.ts';
import { ProxyError } from '../../proxy/upstream-errors.ts';

const BASE = 'https://sandbox.example.com/paynet';

function refusal(path: string): string {
  try {
    upstreamUrl(BASE, path);
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return (e as ProxyError).code;
  }
  throw new Error(`expected ${path} to be refused`);
}

describe('upstreamUrl', () => {
  it('joins an operation path to the base URL unchanged', () => {
    expect(upstreamUrl(BASE, 'api/v2/sale/1234').href).toBe(
      'https://sandbox.example.com/paynet/api/v2/sale/1234',
    );
    expect(upstreamUrl(BASE, 'api/v2/pan-eligibility/send/1').href).toBe(
      'https://sandbox.example.com/paynet/api/v2/pan-eligibility/send/1',
    );
    expect(upstreamUrl('http://127.0.0.1:4173', 'api/3ds/v1/upload-cres-result/7').href).toBe(
      'http://127.0.0.1:4173/api/3ds/v1/upload-cres-result/7',
    );
    expect(upstreamUrl(BASE, 'api/v2/sale/group/9').pathname).toBe('/paynet/api/v2/sale/group/9');
  });

  it.each([
    ['..', 'PATH_TRAVERSAL'],
    ['api/..', 'PATH_TRAVERSAL'],
    ['api/../../etc', 'PATH_TRAVERSAL'],
    ['%2e%2e/x', 'PATH_TRAVERSAL'],
    ['.%2E/x', 'PATH_TRAVERSAL'],
    ['%252e%252e/x', 'PATH_TRAVERSAL'],
    ['%25252e%25252e/x', 'PATH_TRAVERSAL'],
    ['a%2fb', 'PATH_TRAVERSAL'],
    ['a%5cb', 'PATH_TRAVERSAL'],
    ['a%00b', 'PATH_TRAVERSAL'],
    ['/evil.example/x', 'PATH_INVALID'],
    ['a//b', 'PATH_INVALID'],
    ['a\\b', 'PATH_INVALID'],
    ['a b', 'PATH_INVALID'],
    ['%zz', 'PATH_INVALID'],
    ['x?url=https://evil.example', 'QUERY_NOT_ALLOWED'],
    ['x#frag', 'QUERY_NOT_ALLOWED'],
    ['', 'PATH_MISSING'],
  ])('refuses %j (%s)', (path, code) => {
    expect(refusal(path)).toBe(code);
  });

  // Tomcat and Spring strip a segment's ";params" before resolving dot segments: "..;x" is "..".
  it.each([
    'api/..;/x',
    '..;/x',
    'api/.;/x',
    '.;',
    'api/..;jsessionid=x/y',
    'api/.;jsessionid=x/y',
    'api/..;a=b;c=d/x',
    'api/%2e%2e;/x',
    'api/%2E%2e;/x',
    'api/.%2E;x/y',
    'api/..%3b/x',
    'api/..%3B/x',
    'api/%2e%2e%3Bjsessionid=1/x',
    'api/%252e%252e%253b/x',
    'api/..%253b/x',
    'api/%2e;/x',
  ])('refuses the dot segment with parameters %j (PATH_TRAVERSAL)', (path) => {
    expect(refusal(path)).toBe('PATH_TRAVERSAL');
  });

  it('still forwards ";" elsewhere in a segment', () => {
    expect(upstreamUrl(BASE, 'api/v2/a;b/1').pathname).toBe('/paynet/api/v2/a;b/1');
    expect(upstreamUrl(BASE, 'api/...;x/1').pathname).toBe('/paynet/api/...;x/1');
    expect(upstreamUrl(BASE, 'api/x..;/1').pathname).toBe('/paynet/api/x..;/1');
  });

  it('never leaves the base URL, whatever the path (property)', () => {
    const piece = fc.constantFrom(
      'api',
      'v2',
      'sale',
      '1',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%5c',
      '%25',
      '/',
      '//',
      '?',
      '#',
      '@',
      ':',
      'evil.example',
      '\\',
      '%',
      'x',
      ';',
      '%3b',
      '%253b',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const path = pieces.join('');
        let url: URL;
        try {
          url = upstreamUrl(BASE, path);
        } catch (e) {
          return e instanceof ProxyError && e.statusCode === 400;
        }
        return (
          url.origin === 'https://sandbox.example.com' &&
          url.pathname.startsWith('/paynet/') &&
          url.search === '' &&
          // Read the way Tomcat/Spring do: each segment's ";params" removed, then decoded.
          !url.pathname
            .split('/')
            .map((seg) => {
              let v = seg;
              for (let i = 0; i < 4; i++) {
                v = v.split(/;|%3b/i)[0]!;
                try {
                  v = decodeURIComponent(v);
                } catch {
                  break;
                }
              }
              return v.split(';')[0];
            })
            .some((seg) => seg === '.' || seg === '..')
        );
      }),
      { numRuns: 3000 },
    );
  });
});
