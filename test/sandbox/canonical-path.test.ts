import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalPath } from '../../sandbox/canonical-path.ts';

/** Percent-encodes the character at `i` of `path`, in upper or lower case hex. */
function encodeAt(path: string, i: number, lower: boolean): string {
  const hex = path.charCodeAt(i).toString(16).padStart(2, '0');
  return `${path.slice(0, i)}%${lower ? hex : hex.toUpperCase()}${path.slice(i + 1)}`;
}

const segment = fc.stringMatching(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,11}$/).filter((s) => s !== '..');
const plainPath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/${s.join('/')}`);

describe('canonicalPath', () => {
  it('decodes once and keeps the query out', () => {
    expect(canonicalPath('/sandbox/%6Derchants/x?y=%2F')).toEqual({ ok: true, path: '/sandbox/merchants/x' });
    expect(canonicalPath('/callbacks/%73-abc/%6cist')).toEqual({ ok: true, path: '/callbacks/s-abc/list' });
    expect(canonicalPath('/')).toEqual({ ok: true, path: '/' });
    expect(canonicalPath('/ops/v2/sale/')).toEqual({ ok: true, path: '/ops/v2/sale/' });
  });

  it.each([
    ['/sandbox/%2Fmerchants', 'PATH_TRAVERSAL'],
    ['/sandbox%2fmerchants', 'PATH_TRAVERSAL'],
    ['/a/%5Cb', 'PATH_TRAVERSAL'],
    ['/a/%00', 'PATH_INVALID'],
    ['/sandbox/%256Derchants', 'PATH_TRAVERSAL'],
    ['/a/../b', 'PATH_TRAVERSAL'],
    ['/a/%2e%2E/b', 'PATH_TRAVERSAL'],
    ['/a/./b', 'PATH_TRAVERSAL'],
    ['/a/%2E/b', 'PATH_TRAVERSAL'],
    ['//sandbox/demo-merchant', 'PATH_INVALID'],
    ['/sandbox//demo-merchant', 'PATH_INVALID'],
    ['/sandbox;x=y/demo-merchant', 'PATH_INVALID'],
    ['/sandbox/demo-merchant%3Bx', 'PATH_INVALID'],
    ['/a\\b', 'PATH_INVALID'],
    ['/a/%zz', 'PATH_INVALID'],
    ['/a/%c3%28', 'PATH_INVALID'],
    ['a/b', 'PATH_INVALID'],
  ])('refuses %s (%s) with a sentence that says what to do', (url, code) => {
    const r = canonicalPath(url);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.message).toMatch(/^The path .*[:;] /);
    }
  });

  it('gives every single-character percent-encoding of a plain path the same canonical path', () => {
    fc.assert(
      fc.property(plainPath, fc.nat(), fc.boolean(), (path, n, lower) => {
        const i = 1 + (n % (path.length - 1 || 1));
        const spelled = path.length > 1 ? encodeAt(path, i, lower) : path;
        const r = canonicalPath(spelled);
        // An encoded "/" is refused; any other character decodes back to the plain path.
        if (path[i] === '/') expect(r.ok).toBe(false);
        else expect(r).toEqual({ ok: true, path });
      }),
    );
  });

  it('refuses every double encoding, dot segment, ";" parameter and empty segment of a plain path', () => {
    fc.assert(
      fc.property(plainPath, fc.nat(), (path, n) => {
        const slashes = [...path].flatMap((c, i) => (c === '/' ? [i] : []));
        const at = slashes[n % slashes.length]!;
        const variants = [
          encodeAt(path, 1, false).replace('%', '%25'),
          `${path.slice(0, at)}/.${path.slice(at)}`,
          `${path.slice(0, at)}/..${path.slice(at)}`,
          `${path.slice(0, at)}/${path.slice(at)}`,
          `${path};x=y`,
          at === 0 ? `/%2F${path.slice(1)}` : `${path.slice(0, at)}%2F${path.slice(at + 1)}`,
        ];
        for (const v of variants) expect(canonicalPath(v).ok, v).toBe(false);
      }),
    );
  });
});
