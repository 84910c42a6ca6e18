import { PayError } from '../core/errors.ts';
import type { CapturedRequest } from './parse-raw-http.ts';

/** nginx's and Apache's common/combined log format: `… [time] "GET /path?query HTTP/1.1" 200 …`. */
export const ACCESS_LOG_LINE = /"([A-Z]+) (\S+) HTTP\/\d(?:\.\d)?" (\d{3}) /;

export interface AccessLogRequest {
  request: CapturedRequest;
  /** The status the server answered with. */
  status: number;
  /** The time the log gives, as written. */
  time?: string;
}

/**
 * Reads a web server's access-log line (nginx `combined`, Apache `common`), the one trace a
 * merchant has of a callback the gateway sent as a GET: `203.0.113.9 - - [06/Dec/2026:01:02:03 +0000]
 * "GET /callback?status=approved&orderid=…&control=… HTTP/1.1" 200 2 "-" "…"`. The line does not
 * name the host: a leading `host:` or `$host` field is used when the format has one, else
 * `localhost` (the signature of a callback does not cover the address). The first line with a
 * request is read.
 * @throws PayError HTTP_PARSE when no line has a quoted request.
 */
export function parseAccessLog(text: string): AccessLogRequest {
  for (const line of text.split(/\r?\n/)) {
    const m = ACCESS_LOG_LINE.exec(line);
    if (!m) continue;
    const time = /\[([^\]]+)\]/.exec(line)?.[1];
    const first = line.trim().split(/\s+/, 1)[0]!;
    const host =
      /^[a-z0-9.-]+\.[a-z]{2,}(?::\d+)?$/i.test(first) && !/^\d+(\.\d+){3}$/.test(first)
        ? first
        : 'localhost';
    const target = m[2]!;
    const url = /^https?:\/\//i.test(target)
      ? target
      : `https://${host}${target.startsWith('/') ? '' : '/'}${target}`;
    return {
      request: { method: m[1]!, url, headers: { host: new URL(url).host }, body: '' },
      status: Number(m[3]),
      ...(time !== undefined ? { time } : {}),
    };
  }
  throw new PayError(
    'HTTP_PARSE',
    'The access log has no line with a quoted request ("GET /path?query HTTP/1.1"): copy the whole line from the web server\'s access log.',
  );
}
