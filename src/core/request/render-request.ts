import type { BuiltRequest } from './build-request.ts';

/**
 * Raw HTTP/1.1 text of a built request, byte for byte what goes on the wire: CRLF line ends,
 * `Host`, the request's headers in order, `Content-Length` in bytes, a blank line, the body.
 */
export function renderRawHttp(req: BuiltRequest): string {
  const u = new URL(req.url);
  const bodyBytes = new TextEncoder().encode(req.bodyText).length;
  const lines = [
    `${req.method} ${u.pathname}${u.search} HTTP/1.1`,
    `Host: ${u.host}`,
    ...req.headers.map((h) => `${h.name}: ${h.value}`),
    `Content-Length: ${bodyBytes}`,
  ];
  return `${lines.join('\r\n')}\r\n\r\n${req.bodyText}`;
}

/** POSIX-shell single quoting. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A curl command that sends exactly the built request (body passed verbatim with --data-raw). */
export function renderCurl(req: BuiltRequest): string {
  const parts = [`curl -sS -X ${req.method} ${shellQuote(req.url)}`];
  for (const h of req.headers) parts.push(`-H ${shellQuote(`${h.name}: ${h.value}`)}`);
  parts.push(`--data-raw ${shellQuote(req.bodyText)}`);
  return parts.join(' \\\n  ');
}
