import { PayError } from '../core/errors.ts';
import type { CapturedRequest } from './parse-raw-http.ts';
import { parseLogLine } from './parse-log-line.ts';
import { isJsonObject, isRequestAddress, requestFromRecord, type Json } from './request-from-record.ts';

/** Monolog's line format (Laravel and Symfony use it): `[date] channel.LEVEL: message {context} {extra}`. */
export const MONOLOG_LINE = /^\[[^\]]{8,40}\]\s+[\w.-]+\.[A-Z]+:\s/;
/** logback / log4j's default pattern: `2026-12-06 01:02:03.456 INFO [thread] logger - message`. */
export const LOGBACK_LINE =
  /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\S*\s+(?:\[[^\]]*\]\s+)?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\s+.*?\s-\s/;

const METHOD_URL = /\b(GET|POST|PUT|PATCH|DELETE)\s+((?:https?:\/\/|\/)\S+)/;
const ADDRESS = /(https?:\/\/[^\s"'<>]+|\/[^\s"'<>]*\/api\/[^\s"'<>]+)/;
const BODY_MARKER = /\b(?:body|data|payload|params|form|request body|post data)\s*[:=]\s*/i;

/** The end of a JSON value that starts at `at` (`{` or `[`), or -1: strings and escapes respected. */
function jsonEnd(text: string, at: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The JSON objects a line ends with (Monolog's context, then extra), and the message before them. */
export function splitTrailingJson(line: string): { message: string; records: Json[] } {
  for (let at = line.search(/[{[]/); at !== -1;) {
    const records: Json[] = [];
    let i = at;
    let ok = true;
    while (i < line.length) {
      const end = jsonEnd(line, i);
      if (end === -1) {
        ok = false;
        break;
      }
      try {
        records.push(JSON.parse(line.slice(i, end)) as Json);
      } catch {
        ok = false;
        break;
      }
      const rest = /^\s*/.exec(line.slice(end))![0].length;
      i = end + rest;
      if (i < line.length && line[i] !== '{' && line[i] !== '[') {
        ok = false;
        break;
      }
    }
    if (ok && records.some((r) => isJsonObject(r) || (Array.isArray(r) && r.length > 0)))
      return { message: line.slice(0, at).trim(), records };
    const next = line.slice(at + 1).search(/[{[]/);
    at = next === -1 ? -1 : at + 1 + next;
  }
  return { message: line.trim(), records: [] };
}

/** The message part of a Monolog or logback line (after its prefix), else the whole line. */
function messageOf(line: string): string {
  const monolog = MONOLOG_LINE.exec(line);
  if (monolog) return line.slice(monolog[0].length);
  const logback = LOGBACK_LINE.exec(line);
  if (logback) return line.slice(logback[0].length);
  return line;
}

/** What a free-text message says: METHOD URL and a body after `body:` (form text or JSON). */
function readMessage(message: string): { method?: string; url?: string; body?: string; bodyRecord?: Json } {
  const mu = METHOD_URL.exec(message);
  const address = mu ? mu[2]! : ADDRESS.exec(message)?.[1];
  const out: { method?: string; url?: string; body?: string; bodyRecord?: Json } = {};
  if (mu) out.method = mu[1]!;
  if (address && isRequestAddress(address.replace(/[,;.)]+$/, ''))) out.url = address.replace(/[,;.)]+$/, '');
  const marker = BODY_MARKER.exec(message);
  if (marker) {
    const rest = message.slice(marker.index + marker[0].length).trim();
    if (/^[{[]/.test(rest)) {
      try {
        out.bodyRecord = JSON.parse(rest.slice(0, jsonEnd(rest, 0))) as Json;
      } catch {
        /* not JSON after all: read as form text below */
      }
    }
    if (out.bodyRecord === undefined) out.body = rest.replace(/^["']|["']$/g, '');
  } else {
    const form = /(?:^|\s)([^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)+)(?:\s|$)/.exec(
      out.url ? message.slice(message.indexOf(out.url) + out.url.length) : message,
    );
    if (form) out.body = form[1]!;
  }
  return out;
}

/**
 * Reads an application log line of a gateway call, as PHP's Monolog (Laravel, Symfony) and Java's
 * logback print one: `[2026-12-06 01:02:03] payment.INFO: POST https://…/api/v2/sale/1111 {"client_orderid":"…"} []`,
 * `… INFO [http-nio-8080-exec-1] c.m.PaymentClient - Request: POST https://… body: a=1&b=2`. The
 * address and method come from the message or from the context JSON (`url`, `method`); the body
 * from the context (`body`/`data`/`form_params`/`params`, or the context itself when it holds only
 * plain fields) or from the message after `body:` (form text, or JSON of plain values). The first
 * line that names a request address is read.
 * @throws PayError HTTP_PARSE when no line names a request address.
 */
export function parseAppLog(text: string): CapturedRequest {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  for (const line of lines) {
    const { message, records } = splitTrailingJson(messageOf(line));
    const said = readMessage(message);
    const context = records.find(isJsonObject);
    if (!said.url && !(context && hasAddress(context))) continue;
    const fallback = {
      ...(said.method ? { method: said.method } : {}),
      ...(said.url ? { url: said.url } : {}),
      ...(said.body !== undefined ? { body: said.body } : {}),
    };
    if (said.bodyRecord !== undefined) return requestFromRecord(said.bodyRecord, fallback, 'The log line');
    if (said.body === undefined && said.url && (!context || Object.keys(context).length === 0)) {
      // Monolog's message holding key=value pairs, with empty context and extra (`[] []`).
      const pairs = parseLogLine(message);
      if (pairs.body !== '') return pairs;
    }
    return requestFromRecord(context ?? {}, fallback, 'The log line');
  }
  throw new PayError(
    'HTTP_PARSE',
    'The log has no line that names a request address: it needs the URL (https://host/…/api/<operation>/<endpoint id>) in the message or in its context JSON.',
  );
}

function hasAddress(v: Json): boolean {
  return JSON.stringify(v).match(/"(?:url|uri)"\s*:\s*"(https?:\/\/|\/[^"]*\/api\/)/i) !== null;
}
