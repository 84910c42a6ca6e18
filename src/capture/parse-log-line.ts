import { PayError } from '../core/errors.ts';
import { percentDecode, percentEncode } from '../core/percent-encode.ts';
import type { CapturedRequest } from './parse-raw-http.ts';

/** Keys of a log line that are HTTP headers rather than body parameters (case-insensitive). */
const HEADER_KEYS = new Set(['authorization', 'accept', 'content-type', 'host', 'user-agent']);
/** Keys that describe the request itself (logfmt style). */
const REQUEST_KEYS = new Set(['method', 'url', 'uri', 'path']);
/** Keys whose value, when it holds `=`, is the raw form body. */
const RAW_BODY_KEYS = new Set(['body', 'data', 'payload', 'form']);
const METHODS = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/;
const KEY = /^[A-Za-z_][A-Za-z0-9_.\-[\]]*$/;

interface Token {
  key?: string;
  value: string;
  quoted: boolean;
}

/**
 * Reads a log line of `key=value` pairs, the shape application logs print a gateway call in:
 *
 * `[anything] [METHOD] URL key=value key="quoted value" key='single quoted' …`
 *
 * - The URL is the first word that starts with `http://` or `https://` (or a path holding `/api/`,
 *   with the host from a `host=` pair), or the value of a `url=`/`uri=`/`path=` pair. `METHOD`
 *   (`POST`…) or `method=` may come before it; the default is POST.
 * - Pairs before the URL are the logger's own (time, level) and are ignored; pairs after it are the
 *   request. Values are plain text, as the program had them (not percent-encoded); double quotes
 *   take `\"` and `\\` escapes; one trailing `,` or `;` after a value is dropped.
 * - `Authorization`, `Accept`, `Content-Type`, `Host`, `User-Agent` (any case) are headers.
 *   `oauth_*` pairs are gathered into an `Authorization: OAuth …` header when there is none.
 * - A word such as `a=1&b=2` (or the value of `body=`/`data=` holding `=`) is taken as raw,
 *   already encoded form text and appended to the body as it is.
 * - When the text has several lines, the first line with a URL is read, with the lines after it
 *   that hold pairs but no URL (a wrapped log entry).
 * @throws PayError HTTP_PARSE when there is no URL, or only a path and no host.
 */
export function parseLogLine(text: string): CapturedRequest {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const hasUrl = (l: string) => /(^|[\s"'=])(https?:\/\/\S+|\/\S*\/api\/\S+)/.test(l);
  const start = lines.findIndex(hasUrl);
  if (start === -1) {
    throw new PayError(
      'HTTP_PARSE',
      'The log line has no request URL: it needs the address (https://host/…/api/<operation>/<endpoint id>) followed by the key=value pairs.',
    );
  }
  let end = start + 1;
  while (end < lines.length && !hasUrl(lines[end]!) && /\S=/.test(lines[end]!)) end++;
  const tokens = tokenize(lines.slice(start, end).join(' '));

  let method: string | undefined;
  let url: string | undefined;
  const headers: Record<string, string> = {};
  const oauth: Array<{ name: string; value: string }> = [];
  const pairs: string[] = [];
  for (const t of tokens) {
    if (t.key === undefined) {
      const word = t.value.replace(/^["'[(]+|["'\])]+$/g, '');
      if (url === undefined && METHODS.test(word)) method = word;
      else if (url === undefined && (/^https?:\/\//i.test(word) || /^\/\S*\/api\//.test(word))) url = word;
      else if (url !== undefined && !t.quoted && /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)+$/.test(word))
        pairs.push(word);
      continue;
    }
    const lower = t.key.toLowerCase();
    if (REQUEST_KEYS.has(lower)) {
      if (lower === 'method' && METHODS.test(t.value.toUpperCase())) method = t.value.toUpperCase();
      else if (url === undefined && lower !== 'method') url = t.value;
      continue;
    }
    if (lower === 'host' && !('host' in headers)) {
      headers.host = t.value;
      continue;
    }
    if (url === undefined) continue;
    if (!t.quoted && /&[^=&\s]+=/.test(t.value)) {
      pairs.push(`${t.key}=${t.value}`);
    } else if (HEADER_KEYS.has(lower)) {
      if (!(lower in headers)) headers[lower] = t.value;
    } else if (lower.startsWith('oauth_')) {
      oauth.push({
        name: t.key,
        value: /%[0-9A-Fa-f]{2}/.test(t.value) ? percentDecode(t.value, false) : t.value,
      });
    } else if (RAW_BODY_KEYS.has(lower) && t.value.includes('=')) {
      pairs.push(t.value);
    } else {
      pairs.push(`${percentEncode(t.key)}=${percentEncode(t.value)}`);
    }
  }
  if (url === undefined) {
    throw new PayError(
      'HTTP_PARSE',
      'The log line has no request URL after its prefix: put the address before the key=value pairs.',
    );
  }
  if (!/^https?:\/\//i.test(url)) {
    if (!headers.host) {
      throw new PayError(
        'HTTP_PARSE',
        `The log line gives the path "${url.slice(0, 60)}" but no host: write the full URL (https://host${url.startsWith('/') ? '' : '/'}${url.slice(0, 30)}…) or add host=….`,
      );
    }
    url = `https://${headers.host}${url.startsWith('/') ? '' : '/'}${url}`;
  }
  try {
    headers.host ??= new URL(url).host;
  } catch {
    throw new PayError('HTTP_PARSE', `The log line's URL "${url.slice(0, 80)}" is not a valid address.`);
  }
  if (oauth.length > 0 && !headers.authorization?.match(/oauth_\w+\s*=/)) {
    headers.authorization = `OAuth ${oauth.map((p) => `${p.name}="${percentEncode(p.value)}"`).join(', ')}`;
  }
  const body = pairs.join('&');
  if (body !== '') headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return { method: method ?? 'POST', url, headers, body };
}

function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && /\s/.test(line[i]!)) i++;
    if (i >= n) break;
    let j = i;
    while (j < n && !/[\s="']/.test(line[j]!)) j++;
    const maybeKey = line.slice(i, j);
    if (j < n && line[j] === '=' && KEY.test(maybeKey)) {
      const v = readValue(line, j + 1);
      out.push({ key: maybeKey, value: v.value, quoted: v.quoted });
      i = v.end;
      continue;
    }
    const v = readValue(line, i);
    // A quoted run without a key ("POST /path HTTP/1.1" in access logs) is read word by word.
    if (v.quoted) for (const w of v.value.split(/\s+/).filter(Boolean)) out.push({ value: w, quoted: true });
    else out.push({ value: v.value, quoted: false });
    i = v.end;
  }
  return out;
}

function readValue(line: string, at: number): { value: string; end: number; quoted: boolean } {
  const q = line[at];
  if (q === '"' || q === "'") {
    let value = '';
    let i = at + 1;
    while (i < line.length && line[i] !== q) {
      if (q === '"' && line[i] === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
        value += line[i + 1];
        i += 2;
        continue;
      }
      value += line[i];
      i++;
    }
    let end = i + 1;
    if (line[end] === ',' || line[end] === ';') end++;
    return { value, end, quoted: true };
  }
  let i = at;
  while (i < line.length && !/\s/.test(line[i]!)) i++;
  let value = line.slice(at, i);
  if (/[,;]$/.test(value)) value = value.slice(0, -1);
  return { value, end: i, quoted: false };
}
