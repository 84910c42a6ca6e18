import { ProxyError } from './upstream-errors.ts';

/** Characters allowed in a forwarded path: RFC 3986 `pchar` and `/`, nothing else (no `\`, no space). */
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]+$/;

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Each target's base URL parsed once (the base URLs are the configured targets': a handful). */
const bases = new Map<string, { origin: string; pathPrefix: string }>();
function baseOf(baseUrl: string): { origin: string; pathPrefix: string } {
  let b = bases.get(baseUrl);
  if (!b) {
    const u = new URL(baseUrl);
    b = { origin: u.origin, pathPrefix: `${u.pathname.replace(/\/+$/, '')}/` };
    bases.set(baseUrl, b);
  }
  return b;
}

/**
 * Checks the path the console asked the proxy to forward (the part after `/proxy/<target>/`, as
 * it was sent, still percent-encoded) and joins it to the target's base URL. Refuses query
 * strings, empty segments (`//host`), `.` and `..` segments however they are encoded, also with
 * matrix parameters (`..;`, `.;x`, `..%3bjsessionid=1`, which Tomcat/Spring-style servers read as
 * `..`), encoded slashes and backslashes, and any result that would leave the base URL.
 */
export function upstreamUrl(baseUrl: string, rawPath: string): URL {
  if (rawPath.includes('?') || rawPath.includes('#')) {
    throw new ProxyError(
      400,
      'QUERY_NOT_ALLOWED',
      'The proxy forwards a path only: no query string or fragment. Put the parameters in the form body.',
    );
  }
  if (rawPath === '') {
    throw new ProxyError(
      400,
      'PATH_MISSING',
      'Name the operation path after the target, like /proxy/local/api/v2/status/1.',
    );
  }
  if (!PATH_CHARS.test(rawPath)) {
    throw new ProxyError(
      400,
      'PATH_INVALID',
      'The path has characters that are not allowed in a URL path (spaces, backslashes, quotes...); percent-encode them.',
    );
  }
  for (const segment of rawPath.split('/')) {
    if (segment === '') {
      throw new ProxyError(
        400,
        'PATH_INVALID',
        'The path has an empty segment ("//"); remove the extra slash.',
      );
    }
    // A segment is decoded once upstream. Decoding it further here classifies double encoding
    // (%252e%252e is ".." to a server that decodes twice), which is refused as well.
    let value = segment;
    let encodedTwice = false;
    for (let depth = 0; depth < 5; depth++) {
      // Tomcat/Spring drop a segment's ";params" before resolving it: "..;x" is "..".
      const bare = value.split(';')[0];
      if (bare === '.' || bare === '..' || /[/\\]/.test(value) || hasControlCharacter(value)) {
        throw new ProxyError(
          400,
          'PATH_TRAVERSAL',
          'The path may not contain "." or ".." segments (also with ";parameters"), encoded slashes or backslashes: name the operation path as it is, like api/v2/sale/1.',
        );
      }
      if (!value.includes('%')) break;
      if (depth >= 1) encodedTwice = true;
      try {
        value = decodeURIComponent(value);
      } catch {
        if (depth === 0) {
          throw new ProxyError(
            400,
            'PATH_INVALID',
            'The path has a malformed percent-escape; encode "%" as %25.',
          );
        }
        break;
      }
    }
    if (encodedTwice) {
      throw new ProxyError(
        400,
        'PATH_INVALID',
        'The path is percent-encoded twice; send each character encoded once.',
      );
    }
  }
  const base = baseOf(baseUrl);
  const url = new URL(`${baseUrl}/${rawPath}`);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathPrefix) || url.search !== '') {
    throw new ProxyError(
      400,
      'PATH_TRAVERSAL',
      "The path would leave the target's base URL; name the operation path only.",
    );
  }
  return url;
}
