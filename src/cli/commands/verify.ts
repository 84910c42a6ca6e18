import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import type { Operation } from '../../catalog/index.ts';
import { decodeFormBody, normalizeUrl, type CapturedRequest } from '../../core/index.ts';
import { importVerifyingKey } from '../../core/keys/key-containers.ts';
import {
  CAPTURE_FORMAT_LABEL,
  identifyCapture,
  isCaptureUnknown,
  parseCapture,
  type CaptureFormat,
  type ParsedCapture,
} from '../../capture/index.ts';
import { asCallbackCapture, diagnose } from '../../diagnose/index.ts';
import {
  CliError,
  ENV,
  flag,
  parseCommandArgs,
  readFileOrStdin,
  readTextFile,
  resolveControlKey,
  rethrowAbout,
  str,
} from '../args.ts';
import { VERIFY_HELP } from '../help.ts';
import { json, type Io } from '../output.ts';
import { diagnosisJson, renderDiagnosis, type VerifyContext } from '../render-diagnosis.ts';

const OPTIONS = {
  login: { type: 'string' },
  'control-key': { type: 'string' },
  'control-key-file': { type: 'string' },
  'public-key-file': { type: 'string' },
  'private-key-file': { type: 'string' },
  'base-url': { type: 'string' },
  scheme: { type: 'string' },
  format: { type: 'string' },
  'other-order-id': { type: 'string', multiple: true },
  'expected-base-string': { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const FORMATS = Object.keys(CAPTURE_FORMAT_LABEL) as readonly CaptureFormat[];

type Values = Record<string, unknown>;

/** A callback or customer return: its control checked against status + orderid + merchant_order + key. */
async function verifyCallback(
  parsed: ParsedCapture,
  values: Values,
  otherOrderIds: readonly string[],
  io: Io,
): Promise<number> {
  const controlKey = await resolveControlKey(values, io.env);
  const d = await diagnose({
    capture: parsed.request,
    ...(controlKey !== undefined ? { controlKey } : {}),
    headersComplete: parsed.headersComplete,
    ...(otherOrderIds.length > 0 ? { knownIds: { clientOrderIds: otherOrderIds } } : {}),
    crypto: nodeCryptoPort(),
  });
  const ctx: VerifyContext = {
    format: parsed.format,
    ...(parsed.alternatives ? { alternatives: parsed.alternatives } : {}),
    login: undefined,
    loginSource: undefined,
    autoScheme: false,
    parseNotes: parsed.notes,
  };
  io.out(flag(values, 'json') ? json(diagnosisJson(d, ctx)) : renderDiagnosis(d, ctx));
  if (d.verdict === 'cannot-check')
    throw new CliError(
      "no control key given: pass --control-key-file F (or PAYSIGN_CONTROL_KEY) to check the callback's control.",
    );
  return d.verdict === 'ok' ? 0 : 1;
}

/**
 * `paysign verify`: reads a captured request (raw HTTP, curl, HAR or a key=value log line, told
 * apart by their shape), runs the signature debugger on it and prints the verdict, the likely causes,
 * the first difference and the structural checks.
 * Exit codes: 0 OK, 1 mismatch (or refused), 2 bad input or no key to check with.
 */
export async function runVerify(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('verify', args, OPTIONS);
  if (values.help) {
    io.out(`${VERIFY_HELP}\n`);
    return 0;
  }
  if (positionals.length > 1)
    throw new CliError(
      `verify reads one request; got ${positionals.length} arguments: ${positionals.join(' ')}.`,
    );
  const scheme = str(values, 'scheme');
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw new CliError(`--scheme "${scheme}" is not http or https.`);
  }
  if (scheme !== undefined && str(values, 'base-url') !== undefined) {
    throw new CliError('give either --scheme or --base-url, not both: the base URL already has a scheme.');
  }
  const format = str(values, 'format');
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format)) {
    throw new CliError(`--format "${format}" is not one of ${FORMATS.join(', ')}.`);
  }
  const now = readNow(values);
  const expectedBaseString = await readExpected(values);

  const text = await readFileOrStdin(
    positionals[0],
    'request',
    'give a FILE holding the captured request (raw HTTP, a curl command, a HAR entry or a log line), or pipe it on stdin',
  );
  if (text.trim() === '')
    throw new CliError(
      'the request is empty: give the raw HTTP text, starting with e.g. "POST /paynet/api/v2/sale/1111 HTTP/1.1", a curl command, a HAR entry or a log line.',
    );
  let parsed: ParsedCapture;
  try {
    parsed = parseCapture(text, { scheme: 'https', ...(format ? { format: format as CaptureFormat } : {}) });
  } catch (e) {
    rethrowAbout('cannot read the request', e);
  }
  const body = decodeFormBody(parsed.request.body);
  // The one identification the debugger and the sandbox use: operation, endpoint and the scheme
  // the capture is signed with among those the operation allows.
  const id = identifyCapture({
    url: parsed.request.url,
    authorization: parsed.request.headers.authorization,
    body,
  });
  const otherOrderIds = (values['other-order-id'] as string[] | undefined) ?? [];
  // A callback or a customer return names no operation: it is checked against its own formula.
  if (isCaptureUnknown(id) && asCallbackCapture(parsed.request))
    return verifyCallback(parsed, values, otherOrderIds, io);
  if (isCaptureUnknown(id)) {
    const pathname = id.problem === 'operation' ? id.pathname : parsed.request.url;
    throw new CliError(
      `the path "${pathname}" names no known operation: expected .../api/<operation>/<endpoint id>, e.g. /paynet/api/v2/sale/1111 ("paysign sign --help" lists the operations).`,
    );
  }
  const op = id.operation;
  const pathname = new URL(parsed.request.url).pathname;
  const prefix = new URL(id.baseUrl!).pathname;
  const bodyLogin = body.find((p) => p.name === 'login')?.value;
  const optionLogin = str(values, 'login');
  const login = optionLogin ?? bodyLogin ?? id.consumerKey;
  if (id.scheme === 'control' && login === undefined && (op.formula ?? []).some((t) => t.kind === 'login')) {
    throw new CliError(
      `the control formula of ${op.path} signs the merchant login, but the request has no login field: pass --login L.`,
    );
  }
  const controlKey = await resolveControlKey(values, io.env);
  const publicKey = await readPublicKey(values);
  const privateKeyFile = str(values, 'private-key-file');
  const privateKeyText =
    privateKeyFile === undefined ? undefined : await readTextFile(privateKeyFile, '--private-key-file');

  const { capture, urlSchemeKnown } = signedUrl(parsed, pathname, prefix, values);
  const crypto = nodeCryptoPort();
  const d = await diagnose({
    capture,
    operation: op,
    endpoint: id.endpoint,
    ...(login !== undefined ? { login } : {}),
    ...(controlKey !== undefined ? { controlKey } : {}),
    ...(publicKey ? { publicKey } : {}),
    ...(privateKeyText !== undefined ? { privateKeyText } : {}),
    ...(expectedBaseString !== undefined ? { expectedBaseString } : {}),
    ...(now !== undefined ? { now } : {}),
    urlSchemeKnown,
    headersComplete: parsed.headersComplete,
    ...(parsed.maskedExport ? { maskedExport: true } : {}),
    ...(otherOrderIds.length > 0 ? { knownIds: { clientOrderIds: otherOrderIds } } : {}),
    crypto,
  });
  const ctx: VerifyContext = {
    op,
    format: parsed.format,
    ...(parsed.alternatives ? { alternatives: parsed.alternatives } : {}),
    login,
    loginSource:
      optionLogin !== undefined
        ? 'option'
        : bodyLogin !== undefined
          ? 'body'
          : login !== undefined
            ? 'header'
            : undefined,
    autoScheme: !urlSchemeKnown && id.scheme !== 'control',
    parseNotes: parsed.notes,
  };
  io.out(flag(values, 'json') ? json(diagnosisJson(d, ctx)) : renderDiagnosis(d, ctx));
  const masked = d.masked?.signed ? d.structuralFindings.find((f) => f.id === 'masked-values') : undefined;
  if (d.verdict === 'cannot-check' && masked)
    throw new CliError(
      `The signature cannot be checked over masked data (${masked.subject ?? 'card data'}): the key is not to blame. Verify the request as it was sent: pass the original capture (raw HTTP, curl or HAR from your own system), or an export made without masking.`,
    );
  if (d.verdict === 'cannot-check') throw new CliError(missingKeyAdvice(op, d.scheme));
  return d.verdict === 'ok' ? 0 : 1;
}

function missingKeyAdvice(op: Operation, scheme: string): string {
  return scheme === 'oauth-rsa-sha256'
    ? `the signature was not checked: ${op.path} is signed with RSA-SHA256; pass --public-key-file FILE (the merchant's RSA public key, PEM). The structural checks above ran.`
    : `the signature was not checked: ${op.path} is signed with the merchant control key; pass --control-key-file FILE, set ${ENV.controlKey}, or pass --control-key KEY. The structural checks above ran.`;
}

function readNow(values: Values): number | undefined {
  const text = str(values, 'now');
  if (text === undefined) return undefined;
  if (!/^\d{1,11}$/.test(text.trim())) {
    throw new CliError(
      /^\d{12,}$/.test(text.trim())
        ? `--now "${text}" looks like milliseconds: give whole seconds since 1970, e.g. ${text.trim().slice(0, -3)}.`
        : `--now "${text}" is not whole seconds since 1970: give e.g. --now ${Math.floor(Date.now() / 1000)}.`,
    );
  }
  return Number(text.trim()) * 1000;
}

async function readExpected(values: Values): Promise<string | undefined> {
  const file = str(values, 'expected-base-string');
  if (file === undefined) return undefined;
  const text = (await readTextFile(file, '--expected-base-string')).replace(/\r?\n$/, '');
  if (text.trim() === '')
    throw new CliError(
      `--expected-base-string "${file}" is empty: put the gateway's expected base string (or concatenation) in it.`,
    );
  return text;
}

async function readPublicKey(values: Values): Promise<CryptoKey | undefined> {
  const file = str(values, 'public-key-file');
  if (file === undefined) return undefined;
  const text = await readTextFile(file, '--public-key-file');
  try {
    return (await importVerifyingKey(text, nodeCryptoPort())).key;
  } catch (e) {
    rethrowAbout(`--public-key-file "${file}"`, e);
  }
}

/**
 * The URL the OAuth signature covers: --base-url followed by the /api/… part of the path, the
 * capture's URL with --scheme's scheme, or the capture's own; a raw HTTP request with a path-only
 * request line does not say http or https, so both are tried.
 */
function signedUrl(
  parsed: ParsedCapture,
  pathname: string,
  prefix: string,
  values: Values,
): { capture: CapturedRequest; urlSchemeKnown: boolean } {
  const baseUrl = str(values, 'base-url');
  if (baseUrl !== undefined) {
    try {
      normalizeUrl(baseUrl);
    } catch (e) {
      rethrowAbout('--base-url', e);
    }
    return {
      capture: { ...parsed.request, url: `${baseUrl.replace(/\/+$/, '')}${pathname.slice(prefix.length)}` },
      urlSchemeKnown: true,
    };
  }
  const scheme = str(values, 'scheme');
  if (scheme !== undefined) {
    return {
      capture: { ...parsed.request, url: parsed.request.url.replace(/^https?:/i, `${scheme}:`) },
      urlSchemeKnown: true,
    };
  }
  return { capture: parsed.request, urlSchemeKnown: parsed.schemeKnown };
}
