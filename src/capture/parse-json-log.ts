import { PayError } from '../core/errors.ts';
import type { CapturedRequest } from './parse-raw-http.ts';
import { recordHasRequest, requestFromRecord, type Json } from './request-from-record.ts';
import { parseAppLog } from './parse-app-log.ts';

/** The JSON records of a text of JSON lines (pino, bunyan, Monolog's JsonFormatter…), unparsable lines skipped. */
export function jsonLines(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      out.push(JSON.parse(t) as Json);
    } catch {
      /* a line cut short by the log viewer: skip it */
    }
  }
  return out;
}

/**
 * Reads JSON log lines (one JSON object a line, as pino, bunyan, winston or Monolog's JSON
 * formatter write them): the first record that holds a request address (`url`/`uri`, at the top or
 * under `req`, `request`, `context`…) is read with its `method`, `headers` and body
 * (`body`/`data`/`params`: form text, or an object of plain values). A record whose message
 * (`msg`/`message`) names the request instead is read like an application log line.
 * @throws PayError HTTP_PARSE when no record names a request.
 */
export function parseJsonLog(text: string): CapturedRequest {
  const records = jsonLines(text);
  const withRequest = records.find(recordHasRequest);
  if (withRequest !== undefined) return requestFromRecord(withRequest, {}, 'The JSON log record');
  for (const r of records) {
    const msg = typeof r === 'object' && r !== null && !Array.isArray(r) ? (r.msg ?? r.message) : undefined;
    if (typeof msg === 'string' && /(https?:\/\/|\/api\/)/.test(msg)) {
      const ctx = (r as Record<string, Json>).context ?? null;
      return parseAppLog(ctx !== null ? `${msg} ${JSON.stringify(ctx)}` : msg);
    }
  }
  throw new PayError(
    'HTTP_PARSE',
    'No JSON log record names a request: it needs "url" (https://host/…/api/<operation>/<endpoint id>), or a "msg" with the address, and the body under "body", "data" or "params".',
  );
}
