import { LOGBACK_LINE, MONOLOG_LINE, splitTrailingJson } from './parse-app-log.ts';
import { ACCESS_LOG_LINE } from './parse-access-log.ts';
import { jsonLines } from './parse-json-log.ts';
import { PYTHON_SEND } from './parse-python-debug.ts';
import { isJsonObject, recordHasRequest, type Json } from './request-from-record.ts';

/** The ways a request reaches the debugger. */
export type CaptureFormat =
  'raw-http' | 'curl' | 'har' | 'log-line' | 'app-log' | 'json-log' | 'python-debug' | 'access-log';

export interface FormatCandidate {
  format: CaptureFormat;
  /** How strongly the content says so (100: a marker only this format has). */
  score: number;
  /** What in the text says so, in plain words. */
  why: string;
}

const REQUEST_LINE = /^[A-Z]+\s+\S+(?:\s+HTTP\/\d(?:\.\d)?)?\s*$/;
const ADDRESS = /(^|[\s"'=:(])(https?:\/\/\S+|\/\S*\/api\/\S+)/;
const CURL =
  /^(?:\$\s+)?(?:(?:echo(?:\s+-[ne]+)?|printf)\s+(?:'[^']*'|"(?:[^"\\]|\\.)*"|\S+)\s*\|\s*)?(?:\S*[/\\])?curl(?:\.exe)?(?:\s|$)/i;

function harShape(doc: Json): string | undefined {
  if (!isJsonObject(doc) && !Array.isArray(doc)) return undefined;
  if (isJsonObject(doc)) {
    if (isJsonObject(doc.log) && Array.isArray(doc.log.entries)) return 'a HAR file (log.entries)';
    if (isJsonObject(doc.request) && typeof doc.request.url === 'string') return 'a HAR entry (request.url)';
    if (typeof doc.url === 'string' && ('postData' in doc || 'httpVersion' in doc || 'queryString' in doc))
      return 'a HAR request (url, postData)';
    return undefined;
  }
  const first = doc[0];
  return isJsonObject(first) && isJsonObject(first.request) ? 'an array of HAR entries' : undefined;
}

/**
 * Every capture format a pasted text may be, most likely first, judged by what it holds: a HAR's
 * `log.entries` or `request.url`, JSON log records with a request address, a `curl` command
 * (after `echo … |` too), Python's `send: b'…'` lines, an HTTP request line, an access log's quoted
 * `"GET /path HTTP/1.1" 200`, Monolog's `[date] channel.LEVEL:` or logback's
 * `date LEVEL [thread] logger -` prefix, a line with an address and `key=value` pairs. A line that
 * starts with `[` is not therefore JSON. Empty when nothing fits.
 */
export function rankCaptureFormats(text: string): FormatCandidate[] {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '') return [];
  const out: FormatCandidate[] = [];
  const add = (format: CaptureFormat, score: number, why: string) => {
    if (!out.some((c) => c.format === format)) out.push({ format, score, why });
  };
  const firstLine = t.split(/\r?\n/, 1)[0]!.trim();

  if (/^[{[]/.test(t)) {
    let doc: Json | undefined;
    try {
      doc = JSON.parse(t) as Json;
    } catch {
      doc = undefined;
    }
    const har = doc !== undefined ? harShape(doc) : undefined;
    if (har) add('har', 100, `it is ${har}`);
    const records = jsonLines(t);
    if (records.some(recordHasRequest))
      add('json-log', har ? 40 : 95, 'a JSON record names a request address');
    else if (
      records.some((r) => isJsonObject(r) && (typeof r.msg === 'string' || typeof r.message === 'string'))
    )
      add('json-log', 60, 'JSON records with a message');
  }
  if (CURL.test(t)) add('curl', 100, 'it is a curl command');
  if (PYTHON_SEND.test(t)) add('python-debug', 100, "it has http.client's send: b'…' lines");
  if (REQUEST_LINE.test(firstLine)) add('raw-http', 95, `its first line is a request line`);
  const lines = t.split(/\r?\n/).map((l) => l.trim());
  if (lines.some((l) => ACCESS_LOG_LINE.test(l)))
    add('access-log', 90, 'a quoted "METHOD /path HTTP/x" and a status');
  const appLine = lines.find((l) => (MONOLOG_LINE.test(l) || LOGBACK_LINE.test(l)) && ADDRESS.test(l));
  if (appLine)
    add(
      'app-log',
      88,
      MONOLOG_LINE.test(appLine)
        ? 'a Monolog line ([date] channel.LEVEL:)'
        : 'a logback line (date LEVEL [thread] logger -)',
    );
  else {
    const withJson = lines.find((l) => ADDRESS.test(l) && splitTrailingJson(l).records.some(isJsonObject));
    if (withJson) add('app-log', 70, 'a log line with an address and a JSON context');
    else if (lines.some((l) => ADDRESS.test(l) && /\b(?:body|data|payload|params)\s*:\s*\S/i.test(l)))
      add('app-log', 65, 'a log line with an address and a body: part');
  }
  if (ADDRESS.test(t) && /(^|[\s,;])[A-Za-z_][\w.\-[\]]*=\S/.test(t))
    add('log-line', 50, 'an address and key=value pairs');
  if (out.length === 0 && /^[{[]/.test(t)) add('har', 10, 'it starts like JSON');
  return out.sort((a, b) => b.score - a.score);
}
