import { findOperation, OPERATION_PATHS, type Operation } from '../../catalog/index.ts';
import {
  decodeFormBody,
  importVerifyingKey,
  matchOperationPath,
  normalizeUrl,
  parseAuthorizationHeader,
  parseRawHttp,
  webCryptoPort,
  type CapturedRequest,
  type ControlVerification,
  type EndpointRef,
  type OAuthVerification,
  type Verification,
  verifySignature,
} from '../../core/index.ts';
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
import { fields, heading, json, type Io } from '../output.ts';
import {
  describeOperation,
  renderBaseString,
  renderControlInput,
  renderOAuthParameters,
  schemeLine,
} from '../render-signing.ts';

const OPTIONS = {
  login: { type: 'string' },
  'control-key': { type: 'string' },
  'control-key-file': { type: 'string' },
  'public-key-file': { type: 'string' },
  'base-url': { type: 'string' },
  scheme: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = Record<string, unknown>;

/** One way the URL may have been signed, and what checking it gave. */
interface Attempt {
  url: string;
  result: OAuthVerification;
}

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

  const text = await readFileOrStdin(
    positionals[0],
    'request',
    'give a FILE holding the raw HTTP request, or pipe it on stdin',
  );
  if (text.trim() === '')
    throw new CliError(
      'the request is empty: give the raw HTTP text, starting with e.g. "POST /paynet/api/v2/sale/1111 HTTP/1.1".',
    );
  let captured: CapturedRequest;
  let absoluteTarget: boolean;
  try {
    captured = parseRawHttp(text, 'https');
    absoluteTarget = parseRawHttp(text, 'http').url === captured.url;
  } catch (e) {
    rethrowAbout('cannot read the request', e);
  }
  const pathname = new URL(captured.url).pathname;
  const match = matchOperationPath(pathname, OPERATION_PATHS);
  const op = match && findOperation(match.path);
  if (!match || !op) {
    throw new CliError(
      `the path "${pathname}" names no known operation: expected .../api/<operation>/<endpoint id>, e.g. /paynet/api/v2/sale/1111 ("paysign sign --help" lists the operations).`,
    );
  }
  const crypto = webCryptoPort();
  const body = decodeFormBody(captured.body);
  const bodyLogin = body.find((p) => p.name === 'login')?.value;
  const optionLogin = str(values, 'login');

  if (op.scheme === 'control') {
    const controlKey = await requireControlKey(op, values, io);
    const login = optionLogin ?? bodyLogin;
    if (login === undefined && (op.formula ?? []).some((t) => t.kind === 'login')) {
      throw new CliError(
        `the control formula of ${op.path} signs the merchant login, but the request has no login field: pass --login L.`,
      );
    }
    const result = await verifySignature({
      request: captured,
      operation: op,
      endpoint: match.endpoint,
      ...(login !== undefined ? { login } : {}),
      controlKey,
      crypto,
    }).then(asControl);
    if (flag(values, 'json')) io.out(json(controlJson(op, match.endpoint, result, login)));
    else io.out(renderControl(op, match.endpoint, result, login, optionLogin !== undefined));
    return result.ok ? 0 : 1;
  }

  const verifyKey =
    op.scheme === 'oauth-hmac-sha1'
      ? { controlKey: await requireControlKey(op, values, io) }
      : { publicKey: await requirePublicKey(op, values) };
  const urls = candidateUrls(captured, pathname, match.prefix, values, absoluteTarget);
  const attempts: Attempt[] = [];
  for (const url of urls) {
    const result = await verifySignature({
      request: { ...captured, url },
      operation: op,
      endpoint: match.endpoint,
      ...verifyKey,
      crypto,
    }).then(asOAuth);
    attempts.push({ url, result });
    if (result.ok) break;
  }
  const consumerKey = consumerKeyOf(captured);
  const login = optionLogin ?? bodyLogin ?? consumerKey;
  const loginNote =
    login !== undefined && consumerKey !== undefined && login !== consumerKey
      ? `oauth_consumer_key is "${consumerKey}", not the merchant login "${login}": the gateway looks the merchant up by it.`
      : undefined;
  const autoScheme = urls.length > 1;
  if (flag(values, 'json'))
    io.out(json(oauthJson(op, match.endpoint, attempts, autoScheme, login, loginNote)));
  else io.out(renderOAuth(op, match.endpoint, attempts, autoScheme, loginNote));
  return attempts.some((a) => a.result.ok) ? 0 : 1;
}

function asControl(v: Verification): ControlVerification {
  if (v.scheme !== 'control') throw new Error(`expected a control verification, got ${v.scheme}`);
  return v;
}

function asOAuth(v: Verification): OAuthVerification {
  if (v.scheme === 'control') throw new Error('expected an OAuth verification, got control');
  return v;
}

async function requireControlKey(op: Operation, values: Values, io: Io): Promise<string> {
  const key = await resolveControlKey(values, io.env);
  if (key === undefined) {
    throw new CliError(
      `${op.path} is signed with the merchant control key: pass --control-key-file FILE, set ${ENV.controlKey}, or pass --control-key KEY.`,
    );
  }
  return key;
}

async function requirePublicKey(op: Operation, values: Values): Promise<CryptoKey> {
  const file = str(values, 'public-key-file');
  if (file === undefined) {
    throw new CliError(
      `${op.path} is signed with RSA-SHA256: pass --public-key-file FILE (the merchant's RSA public key, PEM).`,
    );
  }
  const text = await readTextFile(file, '--public-key-file');
  try {
    return (await importVerifyingKey(text, webCryptoPort())).key;
  } catch (e) {
    rethrowAbout(`--public-key-file "${file}"`, e);
  }
}

/**
 * The URLs the OAuth signature may have been computed over: the one given by --base-url or
 * --scheme, the absolute URL of the request line, or else https and then http.
 */
function candidateUrls(
  captured: CapturedRequest,
  pathname: string,
  prefix: string,
  values: Values,
  absoluteTarget: boolean,
): string[] {
  const baseUrl = str(values, 'base-url');
  if (baseUrl !== undefined) {
    try {
      normalizeUrl(baseUrl);
    } catch (e) {
      rethrowAbout('--base-url', e);
    }
    return [`${baseUrl.replace(/\/+$/, '')}${pathname.slice(prefix.length)}`];
  }
  const u = new URL(captured.url);
  const scheme = str(values, 'scheme');
  if (scheme !== undefined) return [withScheme(u, scheme)];
  if (absoluteTarget) return [captured.url];
  return [withScheme(u, 'https'), withScheme(u, 'http')];
}

function withScheme(u: URL, scheme: string): string {
  return `${scheme}://${u.host}${u.pathname}${u.search}`;
}

function consumerKeyOf(captured: CapturedRequest): string | undefined {
  const auth = captured.headers.authorization;
  if (!auth) return undefined;
  try {
    return parseAuthorizationHeader(auth).find((p) => p.name === 'oauth_consumer_key')?.value;
  } catch {
    return undefined;
  }
}

function header(op: Operation, endpoint: EndpointRef): Array<[string, string]> {
  return [
    ['operation', describeOperation(op)],
    ['scheme', schemeLine(op)],
    ['endpoint', endpoint.kind === 'group' ? `group ${endpoint.id}` : endpoint.id],
  ];
}

function verdict(ok: boolean): string {
  return ok ? 'signature OK' : 'signature MISMATCH';
}

function renderControl(
  op: Operation,
  endpoint: EndpointRef,
  r: ControlVerification,
  login: string | undefined,
  loginGiven: boolean,
): string {
  const rows = header(op, endpoint);
  if (login !== undefined)
    rows.push(['login', `${login} (${loginGiven ? 'from --login' : "from the body's login field"})`]);
  rows.push(['received control', r.received ?? '(none)']);
  if (!r.ok) rows.push(['expected control', r.expected ?? '(cannot be computed, see below)']);
  const out = [verdict(r.ok), fields(rows, '  ')];
  for (const p of r.problems) out.push(`  why: ${p.message}`);
  if (!r.ok) out.push(heading('Expected signing input').trimEnd(), renderControlInput(op, r.trace));
  return `${out.join('\n')}\n`;
}

function controlJson(
  op: Operation,
  endpoint: EndpointRef,
  r: ControlVerification,
  login: string | undefined,
): Record<string, unknown> {
  return {
    verdict: r.ok ? 'OK' : 'MISMATCH',
    ok: r.ok,
    operation: op.path,
    scheme: op.scheme,
    endpoint,
    ...(login !== undefined ? { login } : {}),
    received: r.received,
    expected: r.expected,
    signingInput: r.trace.maskedInput,
    terms: r.trace.terms.map((t) => ({
      name: t.label,
      value: t.value,
      source: t.source,
      ...(t.note ? { note: t.note } : {}),
    })),
    problems: r.problems.map((p) => p.message),
  };
}

function schemeReport(attempts: readonly Attempt[], autoScheme: boolean): string {
  const hit = attempts.find((a) => a.result.ok);
  if (hit) {
    const others = attempts
      .filter((a) => a !== hit)
      .map((a) => `${new URL(a.url).protocol}// does not match`);
    return `matches when signed as ${hit.url}${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
  }
  if (autoScheme) return `matches neither when signed as ${attempts.map((a) => a.url).join(' nor as ')}`;
  return `checked as signed over ${attempts[0]!.url}`;
}

function renderOAuth(
  op: Operation,
  endpoint: EndpointRef,
  attempts: readonly Attempt[],
  autoScheme: boolean,
  loginNote: string | undefined,
): string {
  const hit = attempts.find((a) => a.result.ok);
  const shown = hit ?? attempts[0]!;
  const r = shown.result;
  const rows = header(op, endpoint);
  rows.push(['url', schemeReport(attempts, autoScheme)]);
  if (r.oauth.oauth_consumer_key !== undefined) rows.push(['consumer key', r.oauth.oauth_consumer_key]);
  if (r.oauth.oauth_signature_method !== undefined) rows.push(['method', r.oauth.oauth_signature_method]);
  rows.push(['received', r.received ?? '(no oauth_signature)']);
  if (!hit && r.scheme === 'oauth-hmac-sha1') {
    for (const a of attempts)
      rows.push([
        attempts.length > 1 ? `expected (${new URL(a.url).protocol}//)` : 'expected',
        a.result.expected ?? '(cannot be computed)',
      ]);
  }
  const out = [verdict(hit !== undefined), fields(rows, '  ')];
  const expectedMethod = op.scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256';
  if (r.oauth.oauth_signature_method !== undefined && r.oauth.oauth_signature_method !== expectedMethod) {
    out.push(
      `  why: ${op.path} is signed with ${expectedMethod}, but the request says oauth_signature_method="${r.oauth.oauth_signature_method}".`,
    );
  }
  for (const p of r.problems) out.push(`  why: ${p.message}`);
  if (loginNote) out.push(`  note: ${loginNote}`);
  if (!hit) {
    const title =
      r.scheme === 'oauth-hmac-sha1'
        ? 'Base string recomputed from the capture'
        : 'Base string the signature was checked against';
    const suffix =
      attempts.length > 1
        ? ` (${new URL(shown.url).protocol}//; the other URL differs only in the scheme)`
        : '';
    out.push(
      heading(title + suffix).trimEnd(),
      'Parameters:',
      renderOAuthParameters(r.parameters),
      renderBaseString(sortedString(r), r.normalizedUrl, r.base),
    );
  }
  return `${out.join('\n')}\n`;
}

function sortedString(r: OAuthVerification): string {
  return r.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('&');
}

function oauthJson(
  op: Operation,
  endpoint: EndpointRef,
  attempts: readonly Attempt[],
  autoScheme: boolean,
  login: string | undefined,
  loginNote: string | undefined,
): Record<string, unknown> {
  const hit = attempts.find((a) => a.result.ok);
  const r = (hit ?? attempts[0]!).result;
  return {
    verdict: hit ? 'OK' : 'MISMATCH',
    ok: hit !== undefined,
    operation: op.path,
    scheme: op.scheme,
    endpoint,
    ...(login !== undefined ? { login } : {}),
    signedUrl: hit?.url ?? null,
    triedUrls: attempts.map((a) => a.url),
    urlReport: schemeReport(attempts, autoScheme),
    received: r.received,
    expected: r.scheme === 'oauth-hmac-sha1' ? r.expected : null,
    ...(r.scheme === 'oauth-hmac-sha1'
      ? { expectedByUrl: Object.fromEntries(attempts.map((a) => [a.url, a.result.expected])) }
      : {}),
    signingInput: r.base.baseString,
    baseString: r.base.baseString,
    parameterString: sortedString(r),
    parameters: r.parameters.map((p) => ({
      name: p.name,
      value: p.value,
      source: p.source,
      signed: p.included,
    })),
    problems: [...r.problems.map((p) => p.message), ...(loginNote ? [loginNote] : [])],
  };
}
