/**
 * The one canonical spelling of a request path that any check made before (or beside) routing reads.
 * Access itself is decided on the route the router picked (route-access.ts); this refuses the
 * spellings that would let a path mean one thing to a check and another to the router or to a
 * server behind the proxy: an encoded `/`, `\` or NUL, a second level of percent-encoding, dot
 * segments, `;` parameters and empty segments.
 */

export type CanonicalPath =
  | { ok: true; path: string }
  /** PATH_TRAVERSAL: a spelling that could climb or split segments; PATH_INVALID: any other. */
  | { ok: false; code: 'PATH_INVALID' | 'PATH_TRAVERSAL'; message: string };

const HEX = /^[0-9A-Fa-f]{2}$/;
/** What a plain, canonical path never holds: an escape, ";", "\\", "//" or a segment starting with ".". */
const NEEDS_A_LOOK = /[%;\\]|\/\/|\/\./;

function refused(message: string, code: 'PATH_INVALID' | 'PATH_TRAVERSAL' = 'PATH_INVALID'): CanonicalPath {
  return { ok: false, code, message };
}

/**
 * Percent-decodes the path of `url` (the request line's target, query ignored) exactly once and
 * checks its segments. A trailing slash is allowed (the routers treat `/a/` as `/a`); every other
 * empty segment is refused.
 */
export function canonicalPath(url: string): CanonicalPath {
  const q = url.indexOf('?');
  const raw = q === -1 ? url : url.slice(0, q);
  // Most paths have nothing to decode or check: one scan, on every request.
  if (raw.startsWith('/') && !NEEDS_A_LOOK.test(raw)) return { ok: true, path: raw };
  if (!raw.startsWith('/'))
    return refused('The path must start with "/": send an absolute path, such as /ops/v2/sale.');
  if (raw.includes('\\')) return refused('The path contains "\\": use "/" between segments.');
  for (let i = raw.indexOf('%'); i !== -1; i = raw.indexOf('%', i + 1)) {
    const hex = raw.slice(i + 1, i + 3);
    if (!HEX.test(hex)) return refused('The path has a malformed percent-escape; encode "%" as %25.');
    const byte = parseInt(hex, 16);
    if (byte === 0x2f || byte === 0x5c)
      return refused(
        `The path encodes a separator (%${hex}): write the path with plain "/" segments.`,
        'PATH_TRAVERSAL',
      );
    if (byte === 0x00) return refused('The path encodes a NUL character (%00): remove it.');
    if (byte === 0x25)
      return refused(
        'The path is percent-encoded twice (%25): encode each character once.',
        'PATH_TRAVERSAL',
      );
  }
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return refused('The path does not decode to UTF-8 text: encode each character once, as UTF-8.');
  }
  if (path.includes(';')) return refused('The path has a ";" parameter: remove ";" and what follows it.');
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s === '.' || s === '..')
      return refused(`The path has a "${s}" segment: send the resolved path.`, 'PATH_TRAVERSAL');
    if (s === '' && i < segments.length - 1)
      return refused('The path has an empty segment ("//"): use a single "/" between segments.');
  }
  return { ok: true, path };
}
