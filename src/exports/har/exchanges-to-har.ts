import { encodeFormBody, FORM_MEDIA_TYPE, PAY_MEDIA_TYPE } from '../../core/index.ts';
import type { Exchange } from '../../model/exchange.ts';
import { isSecretName, maskPair, scrubText } from '../../catalog/index.ts';

/** The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) this export writes. */
export interface HarNameValue {
  name: string;
  value: string;
}
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; params: HarNameValue[]; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _operationPath: string;
  _pinned?: { nonce?: string; timestamp?: string };
}
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    comment?: string;
  };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const bytes = (text: string) => new TextEncoder().encode(text).length;

function isoDate(text: string): string {
  const t = Date.parse(text);
  return Number.isNaN(t) ? new Date(0).toISOString() : new Date(t).toISOString();
}

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value: scrubText(value) }));
  } catch {
    return [];
  }
}

function entryOf(ex: Exchange): HarEntry {
  const params = ex.request.body.flatMap((p) => maskPair(p, ex.operationPath) ?? []);
  const headers = ex.request.headers
    .filter((h) => !isSecretName(h.name))
    .map((h) => ({ name: h.name, value: scrubText(h.value) }));
  const contentType = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? FORM_MEDIA_TYPE;
  const text = encodeFormBody(params);
  const url = scrubText(ex.request.url);
  const res = ex.response;
  const responseHeaders = res
    ? Object.entries(res.headers)
        .filter(([k]) => !isSecretName(k))
        .map(([name, value]) => ({ name, value: scrubText(value) }))
    : [];
  const resText = res ? scrubText(res.body) : '';
  const resType =
    responseHeaders.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? PAY_MEDIA_TYPE;
  const elapsed = res && Number.isFinite(res.elapsedMs) && res.elapsedMs >= 0 ? res.elapsedMs : 0;
  return {
    startedDateTime: isoDate(ex.sentAt),
    time: elapsed,
    request: {
      method: ex.request.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      queryString: queryOf(url),
      ...(ex.request.method !== 'GET' ? { postData: { mimeType: contentType, params, text } } : {}),
      headersSize: -1,
      bodySize: bytes(text),
    },
    response: res
      ? {
          status: res.status,
          statusText: STATUS_TEXT[res.status] ?? '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: responseHeaders,
          content: { size: bytes(resText), mimeType: resType, text: resText },
          redirectURL: responseHeaders.find((h) => h.name.toLowerCase() === 'location')?.value ?? '',
          headersSize: -1,
          bodySize: bytes(resText),
        }
      : {
          status: 0,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'x-unknown' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          _error: scrubText(ex.error ?? 'No answer was received.'),
        },
    cache: {},
    timings: { send: 0, wait: elapsed, receive: 0 },
    comment: scrubText(`${ex.operationPath} — profile ${ex.profileName}, target ${ex.targetName}`),
    _operationPath: ex.operationPath,
    // A record keeps its pinned values in its draft; an entry stored before, in its request.
    ...((ex.draft?.pinned ?? ex.request.pinned)
      ? { _pinned: { ...(ex.draft?.pinned ?? ex.request.pinned) } }
      : {}),
  };
}

/**
 * History as a HAR 1.2 log. Card numbers are masked to first six and last four digits and CVVs,
 * secret-looking parameters and headers, private keys and cookies left out, again: an export never
 * trusts that its input was masked. The form body's `text` is rebuilt from the masked pairs.
 */
export function exchangesToHar(exchanges: readonly Exchange[], creatorVersion = 'dev'): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'pay-console', version: creatorVersion },
      entries: exchanges.map(entryOf),
      comment: 'Exported by pay-console: card numbers masked, CVVs and secrets removed.',
    },
  };
}
