import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import { findOperation, OPERATIONS, type Operation } from '../../catalog/index.ts';
import {
  normalizeUrl,
  renderCurl,
  renderRawHttp,
  secureNonceSource,
  toOAuthTimestamp,
  type BuiltRequest,
  type Credentials,
  type EndpointRef,
  type Scheme,
  type SigningKey,
} from '../../core/index.ts';
import { importSigningKey } from '../../core/keys/key-containers.ts';
import {
  buildDraft,
  draftFromValues,
  draftParams,
  formulaOf,
  isDraftError,
  requireAllValues,
  resolveDraft,
  schemeOf,
  schemesOf,
  type Place,
  type RequestDraft,
} from '../../model/index.ts';
import {
  CliError,
  DEFAULT_BASE_URL,
  ENV,
  flag,
  parseCommandArgs,
  parsePairs,
  readTextFile,
  resolveControlKey,
  rethrowAbout,
  str,
} from '../args.ts';
import { signHelp } from '../help.ts';
import { fields, heading, json, type Io } from '../output.ts';
import {
  describeOperation,
  renderBaseString,
  renderControlInput,
  renderOAuthParameters,
  schemeLine,
} from '../render-signing.ts';

const OPTIONS = {
  'endpoint-id': { type: 'string' },
  'endpoint-group-id': { type: 'string' },
  login: { type: 'string' },
  'control-key': { type: 'string' },
  'control-key-file': { type: 'string' },
  'private-key-file': { type: 'string' },
  'base-url': { type: 'string' },
  scheme: { type: 'string' },
  nonce: { type: 'string' },
  timestamp: { type: 'string' },
  json: { type: 'boolean' },
  curl: { type: 'boolean' },
  raw: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = Record<string, unknown>;

export async function runSign(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('sign', args, OPTIONS);
  if (values.help) {
    io.out(`${signHelp()}\n`);
    return 0;
  }
  const [opName, ...pairArgs] = positionals;
  if (opName === undefined || opName.includes('=')) {
    throw new CliError(
      'no operation given: write it first, e.g. "paysign sign v2/sale --endpoint-id 1111 ..." ("paysign sign --help" lists them).',
    );
  }
  const op = findOperation(opName);
  if (!op)
    throw new CliError(
      `unknown operation "${opName}": give the path after /api/, e.g. v2/sale ("paysign sign --help" lists all ${OPERATIONS.length}).`,
    );
  const modes = (['json', 'curl', 'raw'] as const).filter((m) => flag(values, m));
  if (modes.length > 1)
    throw new CliError(`choose one output: ${modes.map((m) => `--${m}`).join(' and ')} cannot be combined.`);

  const endpoint = endpointOf(values);
  const login = str(values, 'login') ?? '';
  const pinned = pinnedValues(values);
  const runtime = { crypto: nodeCryptoPort(), clock: Date.now, nonce: secureNonceSource() };
  // Half a pin (only --nonce or only --timestamp): the other half is drawn fresh, here.
  const pin = pinned
    ? {
        nonce: pinned.nonce ?? runtime.nonce(),
        timestamp: pinned.timestamp ?? toOAuthTimestamp(runtime.clock()),
      }
    : undefined;
  const draft = draftFromValues(op, {
    values: parsePairs(pairArgs),
    endpoint,
    pinned: pin,
    scheme: schemeOption(op, values),
  });
  try {
    requireAllValues(draft, 'sign this request');
  } catch (e) {
    if (isDraftError(e)) throw new CliError(e.message);
    throw e;
  }
  // Every line below reads the draft's scheme and formula, not the operation's own.
  const scheme = schemeOf(op, draft);
  const needsLogin = scheme !== 'control' || formulaOf(op, draft).some((t) => t.kind === 'login');
  if (needsLogin && login === '') {
    const why =
      scheme === 'control'
        ? 'its control formula signs the merchant login'
        : 'oauth_consumer_key is the merchant login';
    throw new CliError(`${op.path} needs --login L: ${why}.`);
  }
  const { credentials, signingKey } = await credentialsFor(op, scheme, login, values, io);
  const baseUrl = baseUrlOf(values, io);
  // The command line has no console origin or callback inbox: only the login is the place's.
  const place: Place = { origin: '', inboxUrl: '', login };
  const params = draftParams(op, resolveDraft(draft, place));

  // `name=` on the command line is sent empty, on purpose.
  const keepEmpty = new Set(
    parsePairs(pairArgs)
      .filter((p) => p.value === '')
      .map((p) => p.name),
  );
  const built = await buildDraft(draft, { place, baseUrl, endpoint, credentials, runtime }, { keepEmpty });
  if (built.problems.length > 0) throw new CliError(built.problems.map((p) => p.message).join(' '));

  if (modes[0] === 'raw') io.out(renderRawHttp(built));
  else if (modes[0] === 'curl') io.out(`${renderCurl(built)}\n`);
  else if (modes[0] === 'json') io.out(json(toJson(op, scheme, endpoint, built)));
  else {
    // What the user gave (control too, to say it is ignored) and what the profile filled in.
    const given = new Set([
      ...parsePairs(pairArgs).map((p) => p.name),
      ...params.filter((p) => p.value !== '').map((p) => p.name),
    ]);
    io.out(renderHuman(op, draft, endpoint, built, given, signingKey));
  }
  return 0;
}

function endpointOf(values: Values): EndpointRef {
  const id = str(values, 'endpoint-id');
  const group = str(values, 'endpoint-group-id');
  if (id !== undefined && group !== undefined) {
    throw new CliError('give either --endpoint-id or --endpoint-group-id, not both.');
  }
  if (id === undefined && group === undefined) {
    throw new CliError(
      'no endpoint: pass --endpoint-id N (or --endpoint-group-id N), e.g. --endpoint-id 1111.',
    );
  }
  const [name, value] = id !== undefined ? ['--endpoint-id', id] : ['--endpoint-group-id', group!];
  if (!/^\d+$/.test(value))
    throw new CliError(
      `${name} "${value}" is not a number: give the whole number of the endpoint, e.g. 1111.`,
    );
  return { kind: id !== undefined ? 'endpoint' : 'group', id: value };
}

function baseUrlOf(values: Values, io: Io): string {
  const given = str(values, 'base-url');
  const fromEnv = io.env[ENV.baseUrl];
  const [source, url] =
    given !== undefined
      ? ['--base-url', given]
      : fromEnv
        ? [`$${ENV.baseUrl}`, fromEnv]
        : ['default base URL', DEFAULT_BASE_URL];
  try {
    normalizeUrl(url);
  } catch (e) {
    rethrowAbout(source, e);
  }
  return url;
}

function pinnedValues(values: Values): { nonce?: string; timestamp?: string } | undefined {
  const nonce = str(values, 'nonce');
  const timestamp = str(values, 'timestamp');
  if (nonce !== undefined && nonce === '')
    throw new CliError('--nonce is empty: give the nonce to reuse, or leave the option out for a fresh one.');
  if (timestamp !== undefined && !/^\d+$/.test(timestamp)) {
    throw new CliError(
      `--timestamp "${timestamp}" is not a number: give whole seconds since 1970, e.g. 1700000000.`,
    );
  }
  if (nonce === undefined && timestamp === undefined) return undefined;
  return { ...(nonce !== undefined ? { nonce } : {}), ...(timestamp !== undefined ? { timestamp } : {}) };
}

/** `--scheme`: one of the schemes the operation may be signed with (payout-form has three). */
function schemeOption(op: Operation, values: Values): Scheme | undefined {
  const given = str(values, 'scheme');
  if (given === undefined) return undefined;
  const allowed = schemesOf(op);
  const scheme = SCHEME_NAMES[given.toLowerCase()];
  if (scheme && allowed.includes(scheme)) return scheme;
  const list = allowed.join(', ');
  throw new CliError(
    allowed.length === 1
      ? `--scheme "${given}": ${op.path} is signed with ${op.scheme} only; leave --scheme out.`
      : `--scheme "${given}" is not a scheme of ${op.path}: give one of ${list}.`,
  );
}

/** The scheme names `--scheme` takes: the console's, and the OAuth signature methods. */
const SCHEME_NAMES: Readonly<Record<string, Scheme>> = {
  control: 'control',
  'oauth-hmac-sha1': 'oauth-hmac-sha1',
  'hmac-sha1': 'oauth-hmac-sha1',
  'oauth-rsa-sha256': 'oauth-rsa-sha256',
  'rsa-sha256': 'oauth-rsa-sha256',
};

async function credentialsFor(
  op: Operation,
  scheme: Scheme,
  login: string,
  values: Values,
  io: Io,
): Promise<{ credentials: Credentials; signingKey?: SigningKey }> {
  if (scheme === 'oauth-rsa-sha256') {
    const file = str(values, 'private-key-file');
    if (file === undefined) {
      throw new CliError(
        `${op.path} is signed with RSA-SHA256: pass --private-key-file FILE (the merchant's RSA private key, PEM).`,
      );
    }
    const text = await readTextFile(file, '--private-key-file');
    let signingKey: SigningKey;
    try {
      signingKey = await importSigningKey(text, nodeCryptoPort());
    } catch (e) {
      rethrowAbout(`--private-key-file "${file}"`, e);
    }
    return { credentials: { login, privateKey: signingKey.key }, signingKey };
  }
  const controlKey = await resolveControlKey(values, io.env);
  if (controlKey === undefined) {
    const what =
      scheme === 'control' ? 'the control signature' : 'HMAC-SHA1 (the key is the consumer secret)';
    throw new CliError(
      `${op.path} is signed with the merchant control key (${what}): pass --control-key-file FILE, set ${ENV.controlKey}, or pass --control-key KEY.`,
    );
  }
  return { credentials: { login, controlKey } };
}

function headerObject(built: BuiltRequest): Record<string, string> {
  return Object.fromEntries(built.headers.map((h) => [h.name, h.value]));
}

function toJson(
  op: Operation,
  scheme: Scheme,
  endpoint: EndpointRef,
  built: BuiltRequest,
): Record<string, unknown> {
  const common = {
    operation: op.path,
    operationId: op.id,
    scheme,
    endpoint,
    method: built.method,
    url: built.url,
    headers: headerObject(built),
    body: built.bodyText,
    params: built.body.map((p) => ({ name: p.name, value: p.value, source: p.source })),
  };
  const s = built.signing;
  const signed =
    s.scheme === 'control'
      ? {
          control: s.signature,
          signingInput: s.maskedInput,
          terms: s.terms.map((t) => ({
            name: t.label,
            value: t.value,
            source: t.source,
            ...(t.original !== undefined ? { original: t.original } : {}),
            ...(t.note !== undefined ? { note: t.note } : {}),
          })),
        }
      : {
          signatureMethod: s.method,
          nonce: s.nonce,
          timestamp: s.timestamp,
          baseString: s.base.baseString,
          signature: s.signature,
          authorization: s.authorization,
          signingInput: s.base.baseString,
          ...(s.maskedSigningKey ? { signingKey: s.maskedSigningKey } : {}),
          normalizedUrl: s.normalizedUrl,
          parameterString: s.parameterString,
          parameters: s.parameters.map((p) => ({
            name: p.name,
            value: p.value,
            encoded: `${p.encodedName}=${p.encodedValue}`,
            source: p.source,
            signed: p.included,
            ...(p.excludedBecause ? { excludedBecause: p.excludedBecause } : {}),
          })),
        };
  return { ...common, ...signed, raw: renderRawHttp(built), curl: renderCurl(built) };
}

function renderHuman(
  op: Operation,
  draft: RequestDraft,
  endpoint: EndpointRef,
  built: BuiltRequest,
  given: ReadonlySet<string>,
  signingKey: SigningKey | undefined,
): string {
  const out: string[] = [];
  out.push(
    fields([
      ['Operation', describeOperation(op)],
      ['Scheme', schemeLine(op, draft)],
      ['Endpoint', endpoint.kind === 'group' ? `group ${endpoint.id}` : endpoint.id],
      ['URL', built.url],
    ]),
  );
  const missing = op.fields.filter((f) => f.required && !given.has(f.name)).map((f) => f.name);
  if (missing.length > 0) out.push(`Not given (the catalog marks them required): ${missing.join(', ')}`);
  if (given.has('control'))
    out.push('Note: control=... was given and ignored: paysign computes control itself.');

  const s = built.signing;
  if (s.scheme === 'control') {
    out.push(heading('Signing input').trimEnd(), renderControlInput(op, draft, s));
    out.push(heading('Signature').trimEnd(), `control = ${s.signature ?? ''}`);
  } else {
    out.push(
      heading(`Signing input (OAuth 1.0a ${s.method})`).trimEnd(),
      'Parameters:',
      renderOAuthParameters(s.parameters),
    );
    out.push(renderBaseString(s.parameterString, s.normalizedUrl, s.base));
    if (s.maskedSigningKey)
      out.push(`Signing key: ${s.maskedSigningKey}  (control key, "&", empty token secret)`);
    if (signingKey) {
      out.push(
        `Signing key: RSA private key, ${signingKey.bits} bits, fingerprint ${signingKey.fingerprint}`,
      );
    }
    out.push(
      heading('Signature').trimEnd(),
      `oauth_signature = ${s.signature ?? ''}`,
      `Authorization: ${s.authorization ?? ''}`,
    );
  }
  out.push(heading('Raw HTTP request').trimEnd(), renderRawHttp(built));
  return `${out.join('\n')}\n`;
}
