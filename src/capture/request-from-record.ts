import { PayError } from '../core/errors.ts';
import { percentEncode } from '../core/percent-encode.ts';
import type { CapturedRequest } from './parse-raw-http.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isJsonObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const URL_KEYS = ['url', 'uri', 'endpoint', 'address', 'path', 'target'];
const BODY_KEYS = ['body', 'data', 'form_params', 'form', 'params', 'payload', 'request_body', 'post'];
const HEADER_KEYS = ['headers', 'header'];
const NEST_KEYS = ['request', 'req', 'http', 'context', 'ctx', 'extra', 'details', 'meta'];

/** Whether a string reads as a gateway request address: absolute, or a path holding `/api/`. */
export function isRequestAddress(s: string): boolean {
  return /^https?:\/\/\S+$/i.test(s) || /^\/\S*\/api\/\S+$/.test(s);
}

/** A record's value as a form body: a string is taken as already encoded, an object encoded pair by pair. */
function formOf(v: Json | undefined): string | undefined {
  if (typeof v === 'string') return v.replace(/\r?\n$/, '');
  if (isJsonObject(v))
    return Object.entries(v)
      .map(([k, x]) => `${percentEncode(k)}=${percentEncode(x === null ? '' : String(x))}`)
      .join('&');
  return undefined;
}

function headersOf(v: Json | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: Json | undefined) => {
    const key = name.toLowerCase();
    const text = Array.isArray(value) ? String(value[0] ?? '') : String(value ?? '');
    if (!(key in out)) out[key] = text;
  };
  if (Array.isArray(v)) {
    for (const h of v) if (isJsonObject(h) && typeof h.name === 'string') add(h.name, h.value);
  } else if (isJsonObject(v)) for (const [k, x] of Object.entries(v)) add(k, x);
  return out;
}

interface Found {
  method?: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The object (itself or nested under request/req/context…) that holds a request address. */
function findRequest(v: Json, depth = 0): Found | undefined {
  if (!isJsonObject(v) || depth > 4) return undefined;
  const keys = Object.keys(v);
  const lower = new Map(keys.map((k) => [k.toLowerCase(), k]));
  const get = (name: string) => {
    const k = lower.get(name);
    return k === undefined ? undefined : v[k];
  };
  const urlKey = URL_KEYS.find((k) => typeof get(k) === 'string' && isRequestAddress(get(k) as string));
  if (urlKey !== undefined) {
    const method = get('method') ?? get('verb');
    const bodyKey = BODY_KEYS.find((k) => formOf(get(k)) !== undefined);
    const body = bodyKey === undefined ? undefined : formOf(get(bodyKey));
    return {
      ...(typeof method === 'string' ? { method: method.toUpperCase() } : {}),
      url: get(urlKey) as string,
      headers: headersOf(HEADER_KEYS.map(get).find((x) => x !== undefined)),
      ...(body !== undefined ? { body } : {}),
    };
  }
  for (const k of NEST_KEYS) {
    const inner = get(k);
    const found = inner === undefined ? undefined : findRequest(inner, depth + 1);
    if (found) return found;
  }
  for (const k of keys) {
    const found = isJsonObject(v[k]!) ? findRequest(v[k]!, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Whether a JSON record holds a request address anywhere a logger puts it. */
export function recordHasRequest(v: Json): boolean {
  return findRequest(v) !== undefined;
}

/**
 * Reads the request a structured log record describes: an object with `url`/`uri` (absolute, or a
 * path with `/api/` and a `host` header), an optional `method`, `headers` (object or HAR array) and
 * a body under `body`/`data`/`form_params`/`params` (a string is the form as sent, an object its
 * plain values), found at the top or nested under `request`, `req`, `context`…. `fallback` gives
 * what the record's message said (METHOD URL) when the record has only the body.
 * @throws PayError HTTP_PARSE when no address is found.
 */
export function requestFromRecord(
  record: Json,
  fallback: { method?: string; url?: string; body?: string } = {},
  what = 'The log record',
): CapturedRequest {
  const found = findRequest(record);
  let url = found?.url ?? fallback.url;
  if (url === undefined) {
    throw new PayError(
      'HTTP_PARSE',
      `${what} names no request address: it needs "url" (https://host/…/api/<operation>/<endpoint id>) with the body under "body", "data" or "params".`,
    );
  }
  const headers = found?.headers ?? (isJsonObject(record) ? headersOf(record.headers) : {});
  let body = found?.body;
  if (body === undefined && found === undefined && isJsonObject(record)) {
    const bodyKey = BODY_KEYS.find((k) => formOf(record[k]) !== undefined);
    if (bodyKey !== undefined) body = formOf(record[bodyKey]);
    else {
      // A context that is the body itself (`{"client_orderid":"…","amount":"10.42"}`).
      const plain = Object.entries(record).filter(([, x]) => x === null || typeof x !== 'object');
      if (plain.length > 0) body = formOf(Object.fromEntries(plain));
    }
  }
  body ??= fallback.body ?? '';
  if (!/^https?:\/\//i.test(url)) {
    if (!headers.host) {
      throw new PayError(
        'HTTP_PARSE',
        `${what} gives the path "${url.slice(0, 60)}" but no host: log the full URL or a Host header.`,
      );
    }
    url = `https://${headers.host}${url}`;
  }
  try {
    headers.host ??= new URL(url).host;
  } catch {
    throw new PayError('HTTP_PARSE', `${what}'s URL "${url.slice(0, 80)}" is not a valid address.`);
  }
  if (body !== '') headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return { method: found?.method ?? fallback.method ?? 'POST', url, headers, body };
}
