import { PayError } from '../core/errors.ts';
import { parseRawHttp, type CapturedRequest } from './parse-raw-http.ts';
import { parseCurl } from './parse-curl.ts';
import { parseHar } from './parse-har.ts';
import { parseLogLine } from './parse-log-line.ts';

/** The four ways a request reaches the debugger. */
export type CaptureFormat = 'raw-http' | 'curl' | 'har' | 'log-line';

export const CAPTURE_FORMAT_LABEL: Record<CaptureFormat, string> = {
  'raw-http': 'raw HTTP request',
  curl: 'curl command',
  har: 'HAR entry',
  'log-line': 'log line of key=value pairs',
};

export interface ParsedCapture {
  format: CaptureFormat;
  request: CapturedRequest;
  /**
   * False when the capture does not say whether it went over http or https (raw HTTP with a
   * path-only request line): the scheme in `request.url` is then a guess.
   */
  schemeKnown: boolean;
  /** False when the capture shows only some headers (a log line): a missing header proves nothing. */
  headersComplete: boolean;
  /** The capture is an export that says it masked card data (the console's own HAR). */
  maskedExport?: boolean;
  /** What the parser had to assume or choose, in plain words. */
  notes: string[];
}

const REQUEST_LINE = /^[A-Z]+\s+\S+(?:\s+HTTP\/\d(?:\.\d)?)?\s*$/;

/**
 * Tells which of the four capture formats a pasted text is, from its shape: JSON (`{` or `[`) is a
 * HAR capture; a first word `curl` a curl command; a first line `METHOD target [HTTP/x]` raw HTTP;
 * a line with a URL (or an `/api/` path) and `key=value` pairs a log line. Undefined for anything else.
 */
export function detectCaptureFormat(text: string): CaptureFormat | undefined {
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (t === '') return undefined;
  if (/^[{[]/.test(t)) return 'har';
  if (/^(?:\$\s+)?(?:\S*[/\\])?curl(?:\.exe)?(?:\s|$)/i.test(t)) return 'curl';
  const firstLine = t.split(/\r?\n/, 1)[0]!;
  if (REQUEST_LINE.test(firstLine.trim())) return 'raw-http';
  if (/(^|[\s"'=])(https?:\/\/\S+|\/\S*\/api\/\S+)/.test(t) && /[A-Za-z_][\w.-]*=\S/.test(t))
    return 'log-line';
  return undefined;
}

export interface ParseCaptureOptions {
  /** For raw HTTP with a path-only request line: the scheme to assume (default https). */
  scheme?: 'http' | 'https';
  /** For a HAR file with several entries: which one (0-based). */
  harEntry?: number;
  /** Skip detection and read the text as this format. */
  format?: CaptureFormat;
}

const schemeAssumedNote = (scheme: 'http' | 'https') =>
  `The request line has no scheme: ${scheme}:// is assumed for the URL the signature covers.`;

/** Whether a parse note is the "no scheme, https:// assumed" one (a diagnosis that tried both replaces it). */
export function isSchemeAssumedNote(note: string): boolean {
  return note === schemeAssumedNote('https') || note === schemeAssumedNote('http');
}

/**
 * Reads a captured request in any of the four formats into the core's {@link CapturedRequest}.
 * @throws PayError HTTP_PARSE with a message that names the format and what is wrong, or, for text
 *   that is none of the four, what to paste instead.
 */
export function parseCapture(text: string, options: ParseCaptureOptions = {}): ParsedCapture {
  if (text.trim() === '') {
    throw new PayError(
      'HTTP_PARSE',
      'The capture is empty: paste a raw HTTP request, a curl command, a HAR entry or a log line of key=value pairs.',
    );
  }
  const format = options.format ?? detectCaptureFormat(text);
  const notes: string[] = [];
  switch (format) {
    case 'raw-http': {
      const scheme = options.scheme ?? 'https';
      const request = parseRawHttp(text, scheme);
      const absolute = parseRawHttp(text, scheme === 'https' ? 'http' : 'https').url === request.url;
      if (!absolute) notes.push(schemeAssumedNote(scheme));
      return { format, request, schemeKnown: absolute, headersComplete: true, notes };
    }
    case 'curl':
      return { format, request: parseCurl(text), schemeKnown: true, headersComplete: true, notes };
    case 'har': {
      const { request, entry, maskedExport } = parseHar(text, options.harEntry);
      if (entry && entry.of > 1)
        notes.push(`The HAR file holds ${entry.of} entries; entry ${entry.index + 1} was read.`);
      return {
        format,
        request,
        schemeKnown: true,
        headersComplete: true,
        ...(maskedExport ? { maskedExport } : {}),
        notes,
      };
    }
    case 'log-line':
      notes.push('Values of a log line are read as plain text (not percent-encoded).');
      return { format, request: parseLogLine(text), schemeKnown: true, headersComplete: false, notes };
    case undefined: {
      const first = text
        .replace(/^\uFEFF/, '')
        .trimStart()
        .split(/\r?\n/, 1)[0]!;
      throw new PayError(
        'HTTP_PARSE',
        `The first line "${first.slice(0, 60)}" is not an HTTP request line, and the text is not a curl command, a HAR entry or a log line of key=value pairs: paste one of these, e.g. "POST /paynet/api/v2/sale/1111 HTTP/1.1" with its headers and body.`,
      );
    }
  }
}
