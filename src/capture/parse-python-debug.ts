import { PayError } from '../core/errors.ts';
import { parseRawHttp, type CapturedRequest } from './parse-raw-http.ts';

/** A `send: b'…'` line of http.client's debug output (requests with HTTPConnection.debuglevel = 1). */
export const PYTHON_SEND = /^\s*send:\s*b?(['"])/m;

/** Decodes a Python bytes literal's body (`\r\n`, `\x41`, `\\`, `\'`) to the bytes it stands for. */
function pythonBytes(body: string): number[] {
  const out: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out.push(...enc.encode(c));
      continue;
    }
    const n = body[++i];
    switch (n) {
      case 'r':
        out.push(13);
        break;
      case 'n':
        out.push(10);
        break;
      case 't':
        out.push(9);
        break;
      case 'x':
        out.push(parseInt(body.slice(i + 1, i + 3), 16));
        i += 2;
        break;
      default:
        if (n !== undefined) out.push(...enc.encode(n));
    }
  }
  return out;
}

/**
 * Reads Python's HTTP debug output: the `send: b'POST /paynet/api/… HTTP/1.1\r\nHost: …\r\n\r\n'`
 * lines http.client prints (requests, urllib3), joined as the bytes that went out, then read as raw
 * HTTP. The scheme comes from urllib3's `Starting new HTTPS connection` or its
 * `https://host:443 "POST …"` line when the output has one.
 * @throws PayError HTTP_PARSE when there is no `send:` line.
 */
export function parsePythonDebug(text: string): { request: CapturedRequest; schemeKnown: boolean } {
  const bytes: number[] = [];
  const re = /^\s*send:\s*b?(['"])(.*)\1\s*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) bytes.push(...pythonBytes(m[2]!));
  if (bytes.length === 0) {
    throw new PayError(
      'HTTP_PARSE',
      "The Python debug output has no send: b'…' line: turn on http.client's debug output (HTTPConnection.debuglevel = 1) and copy every send: line.",
    );
  }
  const raw = new TextDecoder().decode(new Uint8Array(bytes));
  const https = /Starting new HTTPS connection|https:\/\/[^\s"]+:\d+\s+"[A-Z]+ /.test(text);
  const http = /Starting new HTTP connection|http:\/\/[^\s"]+:\d+\s+"[A-Z]+ /.test(text);
  return { request: parseRawHttp(raw, http && !https ? 'http' : 'https'), schemeKnown: https || http };
}
