import { errorText, PayError } from '../core/errors.ts';
import { percentEncode } from '../core/percent-encode.ts';
import type { CapturedRequest } from './parse-raw-http.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface HarParse {
  request: CapturedRequest;
  /** Which entry was taken (0-based) and how many the file holds, for a whole HAR file. */
  entry?: { index: number; of: number };
  /** The file says it was exported with card data masked (the console's own HAR marker). */
  maskedExport?: boolean;
}

/** The console's HAR export says so in its log comment: `… card numbers masked, CVVs and secrets removed.` */
const MASKED_EXPORT_MARKER = /\bmasked\b/i;

/**
 * Reads a HAR capture: a whole HAR file (`{"log":{"entries":[…]}}`), one entry (`{"request":{…}}`)
 * or one request object (`{"method","url","headers","postData"}`). Headers may be HAR's array of
 * `{name, value}` or a plain object; HTTP/2 pseudo-headers (`:authority`…) are dropped
 * (`:authority` gives the host). The body is `postData.text`; without it, `postData.params` are
 * joined as `name=value` pairs: a value is taken as already encoded (as Chrome writes it) unless it
 * holds a character an encoded form value cannot (space, `&`, `=`, non-ASCII, a bare `%`), in which
 * case it is percent-encoded. From a whole file, the entry taken is `entry` when given, else the first
 * POST to an `/api/` address, else the first entry.
 * @throws PayError HTTP_PARSE for JSON that is not a HAR capture, with what was expected.
 */
export function parseHar(text: string, entry?: number): HarParse {
  let doc: Json;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, '')) as Json;
  } catch (cause) {
    throw new PayError(
      'HTTP_PARSE',
      `The text starts like JSON but does not parse (${errorText(cause)}): paste the whole HAR file or one entry of it.`,
      { cause },
    );
  }
  let chosen: { request: Json | undefined; entry?: { index: number; of: number } };
  const log = isObject(doc) ? doc.log : undefined;
  const entries =
    isObject(log) && Array.isArray(log.entries) ? log.entries : Array.isArray(doc) ? doc : undefined;
  if (entries) {
    if (entries.length === 0) {
      throw new PayError(
        'HTTP_PARSE',
        'The HAR file holds no entries: record the failing request again and export it.',
      );
    }
    const requestOf = (e: Json | undefined) =>
      isObject(e) ? (isObject(e.request) ? e.request : e) : undefined;
    let index: number;
    if (entry !== undefined) {
      if (entry < 0 || entry >= entries.length) {
        throw new PayError(
          'HTTP_PARSE',
          `The HAR file has ${entries.length} entries; entry ${entry} does not exist.`,
        );
      }
      index = entry;
    } else {
      index = entries.findIndex((e) => {
        const r = requestOf(e);
        return (
          isObject(r) &&
          String(r.method ?? '').toUpperCase() === 'POST' &&
          String(r.url ?? '').includes('/api/')
        );
      });
      if (index === -1) index = 0;
    }
    chosen = { request: requestOf(entries[index]), entry: { index, of: entries.length } };
  } else if (isObject(doc) && isObject(doc.request)) {
    chosen = { request: doc.request };
  } else {
    chosen = { request: doc };
  }
  const req = chosen.request;
  if (!isObject(req) || typeof req.url !== 'string') {
    throw new PayError(
      'HTTP_PARSE',
      'This JSON is not a HAR capture: expected {"log":{"entries":[…]}}, one entry {"request":{…}} or a request {"method","url","headers","postData"}.',
    );
  }
  let url = req.url;
  const headers: Record<string, string> = {};
  const rawHeaders = req.headers;
  const add = (name: string, value: string) => {
    if (name.startsWith(':')) {
      if (name === ':authority' && !('host' in headers)) headers.host = value;
      return;
    }
    const key = name.toLowerCase();
    if (!(key in headers)) headers[key] = value;
  };
  if (Array.isArray(rawHeaders)) {
    for (const h of rawHeaders)
      if (isObject(h) && typeof h.name === 'string') add(h.name, String(h.value ?? ''));
  } else if (isObject(rawHeaders)) {
    for (const [k, v] of Object.entries(rawHeaders)) add(k, String(v ?? ''));
  }
  if (!/^https?:\/\//i.test(url)) {
    if (!headers.host) {
      throw new PayError(
        'HTTP_PARSE',
        `The HAR request's URL "${url.slice(0, 80)}" is not absolute and there is no Host header: export the entry with its full URL.`,
      );
    }
    url = `https://${headers.host}${url.startsWith('/') ? '' : '/'}${url}`;
  }
  try {
    headers.host ??= new URL(url).host;
  } catch {
    throw new PayError('HTTP_PARSE', `The HAR request's URL "${url.slice(0, 80)}" is not a valid address.`);
  }
  const method = typeof req.method === 'string' && req.method !== '' ? req.method.toUpperCase() : 'POST';
  const body = harBody(req);
  const mime =
    isObject(req.postData) && typeof req.postData.mimeType === 'string' ? req.postData.mimeType : undefined;
  if (mime && !('content-type' in headers)) headers['content-type'] = mime;
  const maskedExport =
    isObject(log) && typeof log.comment === 'string' && MASKED_EXPORT_MARKER.test(log.comment);
  return {
    request: { method, url, headers, body },
    ...(chosen.entry ? { entry: chosen.entry } : {}),
    ...(maskedExport ? { maskedExport } : {}),
  };
}

function harBody(req: { [key: string]: Json }): string {
  const post = req.postData;
  if (isObject(post)) {
    if (typeof post.mimeType === 'string' && /multipart\//i.test(post.mimeType)) {
      throw new PayError(
        'HTTP_PARSE',
        'The HAR request is a multipart form; the gateway takes an application/x-www-form-urlencoded body.',
      );
    }
    if (typeof post.text === 'string' && post.text !== '') return post.text.replace(/\r?\n$/, '');
    if (Array.isArray(post.params)) {
      return post.params
        .filter(isObject)
        .map((p) => `${asEncoded(String(p.name ?? ''))}=${asEncoded(String(p.value ?? ''))}`)
        .join('&');
    }
    return '';
  }
  if (typeof req.body === 'string') return req.body;
  if (isObject(req.body)) {
    return Object.entries(req.body)
      .map(([k, v]) => `${percentEncode(k)}=${percentEncode(String(v ?? ''))}`)
      .join('&');
  }
  return '';
}

/** A HAR param as it goes into the body: kept when it already reads as encoded, else encoded. */
function asEncoded(value: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\s&=#]|[^\x00-\x7f]|%(?![0-9A-Fa-f]{2})/.test(value) ? percentEncode(value) : value;
}
