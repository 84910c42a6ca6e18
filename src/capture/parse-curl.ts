import { toBase64, utf8Bytes } from '../core/bytes.ts';
import { PayError } from '../core/errors.ts';
import { percentEncode } from '../core/percent-encode.ts';
import type { CapturedRequest } from './parse-raw-http.ts';
import { splitShellWords } from './shell-words.ts';

/** Short options that take a value (the rest of the cluster or the next word). */
const SHORT_WITH_VALUE = new Set([
  'X',
  'H',
  'd',
  'u',
  'A',
  'e',
  'b',
  'o',
  'm',
  'w',
  'x',
  'F',
  'T',
  'c',
  'E',
  'r',
  'K',
  'y',
  'Y',
  'U',
  'C',
  'z',
  'Q',
  't',
  'P',
]);

/** Long options that take a value; any other long option is taken as a switch. */
const LONG_WITH_VALUE = new Set([
  'request',
  'header',
  'data',
  'data-raw',
  'data-ascii',
  'data-binary',
  'data-urlencode',
  'url',
  'user',
  'user-agent',
  'referer',
  'cookie',
  'output',
  'max-time',
  'connect-timeout',
  'write-out',
  'proxy',
  'form',
  'form-string',
  'upload-file',
  'cookie-jar',
  'cert',
  'key',
  'cacert',
  'capath',
  'resolve',
  'connect-to',
  'retry',
  'retry-delay',
  'retry-max-time',
  'config',
  'range',
  'limit-rate',
  'interface',
  'max-redirs',
  'ciphers',
  'tls-max',
  'proxy-user',
  'oauth2-bearer',
  'aws-sigv4',
  'json',
  'url-query',
  'dns-servers',
  'unix-socket',
  'cert-type',
  'key-type',
  'pass',
  'expect100-timeout',
  'speed-limit',
  'speed-time',
  'time-cond',
  'trace',
  'trace-ascii',
  'stderr',
  'variable',
]);

const DATA_OPTIONS = new Set([
  'd',
  'data',
  'data-ascii',
  'data-binary',
  'data-raw',
  'data-urlencode',
  'json',
]);

/**
 * Reads a curl command (bash quoting, as browsers' "Copy as cURL" and `paysign sign --curl` write it)
 * into the request curl would send: `-X/--request`, `-H/--header`, the data options (`-d`, `--data`,
 * `--data-raw`, `--data-ascii`, `--data-binary`, `--data-urlencode`, several joined with `&`),
 * `-G/--get`, `-A`, `-e`, `-b`, `-u`, `--url`, and the URL anywhere on the line. Like curl, it sends
 * POST with `Content-Type: application/x-www-form-urlencoded` when there is data, and `Accept: *\/*`
 * when no Accept header is given.
 * @throws PayError HTTP_PARSE for a text that is not a curl command, a body read from a file, or a multipart form.
 */
export function parseCurl(text: string): CapturedRequest {
  const { command, stdin } = splitStdin(text.replace(/^\s*\$\s+/, ''));
  const words = splitShellWords(command);
  const first = words[0] ?? '';
  if (!/(^|[/\\])curl(\.exe)?$/i.test(first)) {
    throw new PayError(
      'HTTP_PARSE',
      `This is not a curl command: it starts with "${first.slice(0, 30)}" instead of "curl".`,
    );
  }
  let method: string | undefined;
  const headerLines: string[] = [];
  const data: string[] = [];
  const urls: string[] = [];
  let get = false;
  let head = false;

  const take = (name: string, value: string | undefined): void => {
    if (value === undefined) {
      throw new PayError(
        'HTTP_PARSE',
        `The curl option ${name} has no value after it: copy the whole command again.`,
      );
    }
    const key = name.replace(/^-+/, '');
    switch (key) {
      case 'X':
      case 'request':
        method = value.toUpperCase();
        return;
      case 'H':
      case 'header':
        headerLines.push(value);
        return;
      case 'A':
      case 'user-agent':
        headerLines.push(`User-Agent: ${value}`);
        return;
      case 'e':
      case 'referer':
        headerLines.push(`Referer: ${value}`);
        return;
      case 'b':
      case 'cookie':
        if (value.includes('=')) headerLines.push(`Cookie: ${value}`);
        return;
      case 'u':
      case 'user':
        headerLines.push(`Authorization: Basic ${toBase64(utf8Bytes(value))}`);
        return;
      case 'url':
        urls.push(value);
        return;
      case 'F':
      case 'form':
      case 'form-string':
        throw new PayError(
          'HTTP_PARSE',
          `The curl command sends a multipart form (${name}); the gateway takes an application/x-www-form-urlencoded body: use -d name=value instead.`,
        );
      case 'T':
      case 'upload-file':
        throw new PayError(
          'HTTP_PARSE',
          `The curl command uploads a file (${name}): paste the request body itself instead.`,
        );
    }
    if (DATA_OPTIONS.has(key)) {
      data.push(dataValue(key, value, stdin));
      if (key === 'json') {
        headerLines.push('Content-Type: application/json', 'Accept: application/json');
      }
    }
  };

  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') {
      urls.push(...words.slice(i + 1));
      break;
    }
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = eq === -1 ? w.slice(2) : w.slice(2, eq);
      if (name === 'get') get = true;
      else if (name === 'head') head = true;
      else if (LONG_WITH_VALUE.has(name)) take(`--${name}`, eq === -1 ? words[++i] : w.slice(eq + 1));
      continue;
    }
    if (w.startsWith('-') && w.length > 1) {
      for (let j = 1; j < w.length; j++) {
        const c = w[j]!;
        if (SHORT_WITH_VALUE.has(c)) {
          take(`-${c}`, j + 1 < w.length ? w.slice(j + 1) : words[++i]);
          break;
        }
        if (c === 'G') get = true;
        if (c === 'I') head = true;
      }
      continue;
    }
    urls.push(w);
  }

  const url = pickUrl(urls);
  const body = data.join('&');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    // `-H 'Name:'` removes a header curl would add; `-H 'Name;'` sends it empty.
    if (!(name in headers)) headers[name] = value;
  }
  let finalUrl = url;
  let finalBody = body;
  if (get && data.length > 0) {
    finalUrl = `${url}${url.includes('?') ? '&' : '?'}${body}`;
    finalBody = '';
  }
  const finalMethod = method ?? (head ? 'HEAD' : get ? 'GET' : data.length > 0 ? 'POST' : 'GET');
  headers.host ??= new URL(finalUrl).host;
  if (finalBody !== '') headers['content-type'] ??= 'application/x-www-form-urlencoded';
  headers.accept ??= '*/*';
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  return { method: finalMethod, url: finalUrl, headers, body: finalBody };
}

/**
 * What a command line feeds curl's standard input (read by `-d @-`): a here-document
 * (`<<'EOF'` … `EOF`, `<<-EOF` with its tabs), a here-string (`<<< 'a=1'`) or `echo`/`printf … |`
 * in front. Returns the command without it.
 */
export function splitStdin(text: string): { command: string; stdin?: string } {
  const pipe = /^\s*(echo(?:\s+-[ne]+)?|printf)\s+('([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))\s*\|\s*/.exec(text);
  if (pipe) {
    const v = pipe[3] ?? (pipe[4] !== undefined ? pipe[4].replace(/\\(.)/g, '$1') : pipe[5]!);
    const newline = pipe[1] === 'echo' || (pipe[1]!.startsWith('echo') && !pipe[1]!.includes('n'));
    return { command: text.slice(pipe[0].length), stdin: newline ? `${v}\n` : v };
  }
  const here = /<<<\s*('([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+))/.exec(text);
  if (here) {
    const v = here[2] ?? (here[3] !== undefined ? here[3].replace(/\\(.)/g, '$1') : here[4]!);
    return { command: text.slice(0, here.index) + text.slice(here.index + here[0].length), stdin: `${v}\n` };
  }
  const doc = /<<(-?)\s*(['"]?)([A-Za-z_][\w-]*)\2/.exec(text);
  if (!doc) return { command: text };
  // The document starts on the line after the operator's (logical) line.
  let eol = doc.index + doc[0].length;
  while (eol < text.length) {
    const nl = text.indexOf('\n', eol);
    if (nl === -1) {
      eol = text.length;
      break;
    }
    const before = text.slice(eol, nl).replace(/\r$/, '');
    eol = nl + 1;
    if (!before.endsWith('\\')) break;
  }
  const lines = text.slice(eol).split(/\r?\n/);
  const end = lines.findIndex((l) => (doc[1] ? l.replace(/^\t+/, '') : l).trim() === doc[3]);
  const body = (end === -1 ? lines : lines.slice(0, end)).map((l) => (doc[1] ? l.replace(/^\t+/, '') : l));
  const after = end === -1 ? '' : lines.slice(end + 1).join('\n');
  return {
    command: `${text.slice(0, doc.index)}${text.slice(doc.index + doc[0].length, eol)}${after}`,
    stdin: body.length > 0 ? `${body.join('\n')}\n` : '',
  };
}

/** The text one data option adds to the body. */
function dataValue(option: string, value: string, stdin?: string): string {
  if (value === '@-' && stdin !== undefined && option !== 'data-raw' && option !== 'json') {
    // curl strips the line ends of what -d/--data reads from a file or stdin; --data-binary keeps them.
    if (option === 'data-binary') return stdin;
    if (option === 'data-urlencode') return percentEncode(stdin);
    return stdin.replace(/\r?\n/g, '');
  }
  if (option !== 'data-raw' && option !== 'json' && value.startsWith('@')) {
    throw new PayError(
      'HTTP_PARSE',
      `The curl option --${option === 'd' ? 'data' : option} reads the body from the file "${value.slice(1)}": paste the body itself (e.g. --data-raw 'a=1&b=2').`,
    );
  }
  if (option !== 'data-urlencode') return value;
  // curl's --data-urlencode forms: "content", "=content", "name=content" (and name@file).
  const eq = value.indexOf('=');
  const at = value.indexOf('@');
  if (at > 0 && (eq === -1 || at < eq)) {
    throw new PayError(
      'HTTP_PARSE',
      `--data-urlencode "${value}" reads a file: paste the value itself (--data-urlencode name=value).`,
    );
  }
  if (eq === -1) return percentEncode(value);
  if (eq === 0) return percentEncode(value.slice(1));
  return `${value.slice(0, eq)}=${percentEncode(value.slice(eq + 1))}`;
}

function pickUrl(candidates: readonly string[]): string {
  const absolute = candidates.find((u) => /^https?:\/\//i.test(u));
  const withApi = candidates.find((u) => u.includes('/api/'));
  const chosen = absolute ?? withApi ?? candidates[0];
  if (chosen === undefined) {
    throw new PayError(
      'HTTP_PARSE',
      'The curl command has no URL: add the request address, e.g. https://gateway.example/paynet/api/v2/sale/1111.',
    );
  }
  // curl takes a URL without a scheme as http://.
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(chosen) ? chosen : `http://${chosen}`;
  try {
    new URL(url);
  } catch {
    throw new PayError(
      'HTTP_PARSE',
      `The curl command's URL "${chosen.slice(0, 80)}" is not a valid address.`,
    );
  }
  return url;
}
