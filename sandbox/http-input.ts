import type { FastifyInstance } from 'fastify';
import { PAY_JSON, validationError, type AcceptMode, type ApiReply, type Dialect } from './replies.ts';

export const MAX_PARAMETERS = 500;

/** True when one of the media ranges of an `Accept` header is exactly `application/vnd.pay+json`. */
export function acceptsPayJson(accept: string | string[] | undefined): boolean {
  if (accept === PAY_JSON) return true;
  const text = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return text.split(',').some((range) => range.split(';')[0]!.trim().toLowerCase() === PAY_JSON);
}

/**
 * The dialect of the answer to a request with this `Accept`: JSON when it asks for
 * `application/vnd.pay+json` (or the sandbox is strict, and refuses the others with JSON), else the
 * gateway's default form-encoded format.
 */
export function dialectOf(accept: string | string[] | undefined, mode: AcceptMode): Dialect {
  return mode === 'strict' || acceptsPayJson(accept) ? 'json' : 'gateway';
}

export function isFormContentType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** A `Host` header the sandbox can rebuild the signed URL from: a name or IP, optionally a port. */
export function isValidHost(host: string | undefined): host is string {
  if (!host || host.length > 260) return false;
  return /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(
    host,
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes to text, or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export interface FormBody {
  text: string;
  pairs: Array<{ name: string; value: string }>;
  /** First (and, after the duplicate check, only) value of each name. */
  params: Map<string, string>;
}

/** No body, or one of whitespace only (an operation whose catalog entry allows `emptyBody`). */
export function isEmptyBody(raw: unknown): boolean {
  if (raw === undefined || raw === null) return true;
  return Buffer.isBuffer(raw) && raw.toString('latin1').trim() === '';
}

/** One name or value of a form body: `+` is a space; a malformed escape throws. */
function decodeComponent(raw: string): string {
  const spaced = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  return spaced.includes('%') ? decodeURIComponent(spaced) : spaced;
}

/**
 * Reads an operation's form body strictly: UTF-8, valid percent-encoding, named parameters, each
 * name once, each part decoded once. The pairs equal the core's `decodeFormBody` of the text
 * (test/sandbox/form-body.test.ts), and the signature check is handed them rather than decoding again.
 */
export function readFormBody(
  raw: unknown,
  emptyAllowed = false,
): { ok: true; body: FormBody } | { ok: false; reply: ApiReply } {
  const bytes = Buffer.isBuffer(raw) ? raw : raw === undefined || raw === null ? Buffer.alloc(0) : undefined;
  if (!bytes)
    return { ok: false, reply: validationError('The request body could not be read.', 'BODY_INVALID') };
  const text = decodeUtf8(bytes);
  if (text === undefined) {
    return {
      ok: false,
      reply: validationError(
        'The body is not UTF-8 text: encode the form as UTF-8, then percent-encode it.',
        'BODY_INVALID',
      ),
    };
  }
  if (text.trim() === '') {
    if (emptyAllowed) return { ok: true, body: { text: '', pairs: [], params: new Map() } };
    return {
      ok: false,
      reply: validationError(
        'The request body is empty: send the parameters as an application/x-www-form-urlencoded body.',
        'BODY_INVALID',
      ),
    };
  }
  const parts = text.replace(/\r?\n$/, '').split('&');
  if (parts.length > MAX_PARAMETERS) {
    return {
      ok: false,
      reply: validationError(
        `The body has ${parts.length} parameters; at most ${MAX_PARAMETERS} are accepted.`,
        'BODY_INVALID',
      ),
    };
  }
  const pairs: Array<{ name: string; value: string }> = [];
  const params = new Map<string, string>();
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const shown = rawName.length > 40 ? `${rawName.slice(0, 40)}…` : rawName;
    if (part.includes('%') && /%(?![0-9A-Fa-f]{2})/.test(part)) {
      return {
        ok: false,
        reply: validationError(
          `Parameter "${shown}" has a "%" that is not followed by two hex digits: percent-encode "%" itself as %25.`,
          'BODY_INVALID',
        ),
      };
    }
    // Each part is decoded once, here: name and value decode exactly when the whole part does
    // ("=" cannot sit inside a UTF-8 sequence), as the core's decodeFormBody would decode them.
    let name: string;
    let value: string;
    try {
      name = decodeComponent(rawName);
      value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    } catch {
      return {
        ok: false,
        reply: validationError(
          `Parameter "${shown}" is percent-encoded bytes that are not UTF-8: encode the text as UTF-8 first.`,
          'BODY_INVALID',
        ),
      };
    }
    if (rawName === '') {
      return {
        ok: false,
        reply: validationError(
          'The body has a parameter without a name ("=value"): remove it or name it.',
          'BODY_INVALID',
        ),
      };
    }
    if (params.has(name)) {
      return {
        ok: false,
        reply: validationError(
          `Parameter ${name} is sent more than once: send each parameter once.`,
          'BODY_INVALID',
        ),
      };
    }
    params.set(name, value);
    pairs.push({ name, value });
  }
  return { ok: true, body: { text, pairs, params } };
}

const LOOPBACK_V4 = /^127(?:\.\d{1,3}){3}$/;

/** A loopback IP address as Node reports a socket's peer (`127.x`, `::1`, `::ffff:127.x`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  return LOOPBACK_V4.test(a) || a === '::1' || (a.startsWith('::ffff:') && LOOPBACK_V4.test(a.slice(7)));
}

/** The loopback names sandbox/README.md documents, and no others. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * A loopback host name as a URL or `Host` header names it: exactly `127.0.0.1`, `localhost` or
 * `[::1]` (any case). Not `*.localhost` or `localhost.`, which common resolvers send to DNS, and not
 * other 127.x addresses, which the README does not list.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/** The host name of a `Host` header value (port and brackets handled). */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const i = host.lastIndexOf(':');
  return i === -1 ? host : host.slice(0, i);
}

/**
 * Hands every body to the routes as raw bytes, up to `bodyLimit` (larger: 413): the signature is
 * checked over the exact text that was sent.
 */
export function readBodiesAsBytes(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
}
