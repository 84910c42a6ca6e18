import { PayError } from '../core/errors.ts';
import { parseRawHttp, type CapturedRequest } from './parse-raw-http.ts';
import { parseCurl } from './parse-curl.ts';
import { parseHar } from './parse-har.ts';
import { parseLogLine } from './parse-log-line.ts';
import { parseAppLog } from './parse-app-log.ts';
import { parseJsonLog } from './parse-json-log.ts';
import { parsePythonDebug } from './parse-python-debug.ts';
import { parseAccessLog } from './parse-access-log.ts';
import { rankCaptureFormats, type CaptureFormat } from './detect-capture-format.ts';

export { rankCaptureFormats, type CaptureFormat, type FormatCandidate } from './detect-capture-format.ts';

export const CAPTURE_FORMAT_LABEL: Record<CaptureFormat, string> = {
  'raw-http': 'raw HTTP request',
  curl: 'curl command',
  har: 'HAR entry',
  'log-line': 'log line of key=value pairs',
  'app-log': 'application log line (Monolog, Laravel, Symfony, logback)',
  'json-log': 'JSON log line (pino, bunyan, Monolog JSON)',
  'python-debug': 'Python requests/http.client debug output',
  'access-log': 'web server access-log line (nginx, Apache)',
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
  /**
   * Detected, not chosen: the other formats the text also reads as, most likely first (a wrong
   * guess is then one choice away).
   */
  alternatives?: CaptureFormat[];
}

/**
 * Which capture format a pasted text most likely is, judged by its content (never its first
 * character alone): see {@link rankCaptureFormats}. Undefined when it looks like none.
 */
export function detectCaptureFormat(text: string): CaptureFormat | undefined {
  return rankCaptureFormats(text)[0]?.format;
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
  if (options.format !== undefined) return parseAs(text, options.format, options);
  const ranked = rankCaptureFormats(text);
  if (ranked.length === 0) return parseAs(text, undefined, options);
  // The most likely format that reads; the others that read too are named as alternatives.
  let chosen: ParsedCapture | undefined;
  let firstError: unknown;
  const alternatives: CaptureFormat[] = [];
  for (const { format } of ranked) {
    try {
      const parsed = parseAs(text, format, options);
      if (chosen === undefined) chosen = parsed;
      else alternatives.push(format);
    } catch (e) {
      firstError ??= e;
    }
  }
  if (chosen === undefined) throw firstError;
  return alternatives.length > 0 ? { ...chosen, alternatives } : chosen;
}

function parseAs(
  text: string,
  format: CaptureFormat | undefined,
  options: ParseCaptureOptions,
): ParsedCapture {
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
    case 'app-log':
      return { format, request: parseAppLog(text), schemeKnown: true, headersComplete: false, notes };
    case 'json-log':
      return { format, request: parseJsonLog(text), schemeKnown: true, headersComplete: false, notes };
    case 'python-debug': {
      const { request, schemeKnown } = parsePythonDebug(text);
      if (!schemeKnown) notes.push(schemeAssumedNote(options.scheme ?? 'https'));
      return { format, request, schemeKnown, headersComplete: true, notes };
    }
    case 'access-log': {
      const { request } = parseAccessLog(text);
      notes.push(
        'An access-log line shows the address and its query only: no headers, no body, and no host unless the format logs it.',
      );
      return { format, request, schemeKnown: false, headersComplete: false, notes };
    }
    case undefined: {
      const first = text
        .replace(/^\uFEFF/, '')
        .trimStart()
        .split(/\r?\n/, 1)[0]!;
      throw new PayError(
        'HTTP_PARSE',
        `The first line "${first.slice(0, 60)}" is not an HTTP request line, and the text is not a curl command, a HAR entry or a log line (key=value, Monolog, logback, JSON), nor Python's debug output or an access-log line: paste one of these, e.g. "POST /paynet/api/v2/sale/1111 HTTP/1.1" with its headers and body.`,
      );
    }
  }
}
