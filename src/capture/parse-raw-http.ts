import { PayError } from '../core/errors.ts';

import type { CapturedRequest } from '../core/verify/captured-request.ts';

export type { CapturedRequest };

/**
 * Parses raw HTTP/1.1 request text (CRLF or LF line ends; an absolute-form request target is
 * accepted too). The scheme is not in the text: `scheme` says which to assume.
 */
export function parseRawHttp(text: string, scheme: 'http' | 'https' = 'https'): CapturedRequest {
  const normalized = text.replace(/^\uFEFF/, '').replace(/^\s*\n/, '');
  const split = /\r?\n\r?\n/.exec(normalized);
  const head = split ? normalized.slice(0, split.index) : normalized;
  const body = split ? normalized.slice(split.index + split[0].length) : '';
  const [requestLine = '', ...headerLines] = head.split(/\r?\n/);
  const rl = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/\d(?:\.\d)?)?\s*$/.exec(requestLine.trim());
  if (!rl) {
    throw new PayError(
      'HTTP_PARSE',
      `The first line "${requestLine.slice(0, 60)}" is not an HTTP request line: expected e.g. "POST /paynet/api/v2/sale/1111 HTTP/1.1".`,
    );
  }
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const i = line.indexOf(':');
    if (i <= 0)
      throw new PayError('HTTP_PARSE', `The header line "${line.slice(0, 60)}" has no "name: value" form.`);
    const name = line.slice(0, i).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(i + 1).trim();
  }
  const target = rl[2]!;
  let url: string;
  if (/^https?:\/\//i.test(target)) url = target;
  else {
    if (!headers.host)
      throw new PayError(
        'HTTP_PARSE',
        'The request has no Host header and no absolute URL: add "Host: …" so the signed URL can be rebuilt.',
      );
    url = `${scheme}://${headers.host}${target}`;
  }
  const chunked = /\bchunked\b/i.test(headers['transfer-encoding'] ?? '');
  return { method: rl[1]!, url, headers, body: chunked ? dechunk(body) : body.replace(/\r?\n$/, '') };
}

/**
 * The body of a `Transfer-Encoding: chunked` message: each chunk's hex size line, its data, and
 * the zero-size chunk that ends it (trailers dropped). A capture whose sizes count CRLF where the
 * paste has LF is still read: the size line is found again after each chunk.
 */
function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const line = /^([0-9A-Fa-f]+)[^\r\n]*\r?\n/.exec(rest);
    if (!line) {
      throw new PayError(
        'HTTP_PARSE',
        `The chunked body has no chunk size line where one is due ("${rest.slice(0, 20)}"): copy the body as it went over the wire, size lines included.`,
      );
    }
    const size = parseInt(line[1]!, 16);
    if (size === 0) return out;
    rest = rest.slice(line[0].length);
    const bytes = new TextEncoder().encode(rest);
    const chunk = new TextDecoder().decode(bytes.slice(0, size));
    out += chunk;
    rest = rest.slice(chunk.length).replace(/^\r?\n/, '');
  }
}

/** Each list of known paths sorted once (a server matches every request against the same list). */
const longestFirst = new WeakMap<readonly string[], readonly string[]>();

/**
 * Finds the operation and endpoint in a request path: `…/api/<operation>/{id}` or
 * `…/api/<operation>/group/{id}`; `known` are the catalog's operation paths. The prefix may itself
 * hold `/api/` (a proxy mounted at `/api`): every `/api/` is tried, leftmost first.
 */
export function matchOperationPath(
  pathname: string,
  known: readonly string[],
): { path: string; endpoint: { kind: 'endpoint' | 'group'; id: string }; prefix: string } | undefined {
  let byLength = longestFirst.get(known);
  if (!byLength) {
    byLength = [...known].sort((a, b) => b.length - a.length);
    longestFirst.set(known, byLength);
  }
  for (let at = pathname.indexOf('/api/'); at !== -1; at = pathname.indexOf('/api/', at + 1)) {
    const rest = pathname.slice(at + '/api/'.length).replace(/\/$/, '');
    for (const path of byLength) {
      if (!rest.startsWith(`${path}/`)) continue;
      const m = /^(?:(group)\/)?([^/]+)$/.exec(rest.slice(path.length + 1));
      if (!m) continue;
      return {
        path,
        endpoint: { kind: m[1] ? 'group' : 'endpoint', id: decodeOrKeep(m[2]!) },
        prefix: pathname.slice(0, at),
      };
    }
  }
  return undefined;
}

/** A captured path may carry a broken %-escape: keep the text rather than throw. */
function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
