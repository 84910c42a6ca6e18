import { toMinorUnits } from '../core/amount.ts';
import { constantTimeEqual, fromBase64 } from '../core/bytes.ts';
import type { ControlTerm } from '../core/control/control-terms.ts';
import { PayError, errorText } from '../core/errors.ts';
import { parseAuthorizationHeader } from '../core/oauth/authorization-header.ts';
import { OAUTH_PROTOCOL_PARAMETERS } from '../core/oauth/oauth-parameters.ts';
import { FORM_MEDIA_TYPE, PAY_MEDIA_TYPE } from '../core/request/build-request.ts';
import type { EndpointRef, OperationSigningSpec, Scheme } from '../core/request/operation-spec.ts';
import type { CapturedRequest } from '../capture/parse-raw-http.ts';
import type { Operation } from '../catalog/index.ts';
import type { MistakeId } from './mistakes.ts';
import type { RuleId } from './rulebook.ts';

/** A check that needs no secret (or only the one it names), with what it found. */
export interface Finding {
  /** Stable id of the check: `accept-missing`, `timestamp-stale`, `control-uppercase`… */
  id: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** The known mistake the finding points to, when it points to one. */
  mistakeId?: MistakeId;
  /** The parameter or header it is about. */
  subject?: string;
  /** The rule of the description (or the notes) the finding is against, from the rulebook. */
  rule?: RuleId;
}

/** What the gateway does without the JSON Accept (gateway-notes.md, "The gateway's default dialect"). */
const DEFAULT_DIALECT =
  'the gateway then answers in its default dialect (text/html, form-encoded key=value lines, a validation error with HTTP 200), not the JSON the description gives';

/**
 * What the debugger knows of an operation: the core's signing spec plus, when known, the catalog's
 * id, title, fields and scheme alternatives (read from the catalog entry, not restated here).
 */
export type DiagnoseOperation = OperationSigningSpec &
  Partial<Pick<Operation, 'id' | 'title' | 'fields' | 'schemeAlternatives'>>;

export interface StructuralInput {
  capture: CapturedRequest;
  operation: DiagnoseOperation;
  scheme: Scheme;
  endpoint: EndpointRef;
  /** Decoded body pairs in order. */
  body: ReadonlyArray<{ name: string; value: string }>;
  /** The login the checks compare with (given, or the body's). */
  login?: string;
  controlKey?: string;
  now?: number;
  maxSkewSeconds: number;
  headersComplete: boolean;
  /** RSA: the modulus size of the key the signature is checked with. */
  rsaModulusBits?: number;
}

const OAUTH_REQUIRED = OAUTH_PROTOCOL_PARAMETERS;
const EXPECTED_METHOD: Record<'oauth-hmac-sha1' | 'oauth-rsa-sha256', string> = {
  'oauth-hmac-sha1': 'HMAC-SHA1',
  'oauth-rsa-sha256': 'RSA-SHA256',
};

function lookalike(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

function formulaFields(formula: readonly ControlTerm[] | undefined): string[] {
  return (formula ?? []).flatMap((t) => (t.kind === 'field' ? [t.name] : []));
}

/**
 * Every check that needs no secret: headers (Accept, Content-Type), the method, the body's
 * encoding (`+`, `%25`, lowercase escapes), fields (required, unknown, look-alike names, formula
 * terms missing, the amount's format), and per scheme the `control` value or the OAuth header
 * (parameters, signature method, version, consumer key, timestamp against `now`, nonce, signature
 * shape and length).
 */
export function structuralChecks(input: StructuralInput): Finding[] {
  const out: Finding[] = [];
  const { capture, operation, scheme, body } = input;
  const add = (f: Finding) => out.push(f);

  // Request line and headers ----------------------------------------------------------------
  if (capture.method.toUpperCase() !== 'POST') {
    add({
      id: 'method-not-post',
      severity: 'error',
      message: `The request is ${capture.method}; every operation is POST with a form body.`,
    });
  }
  const accept = capture.headers.accept;
  if (accept === undefined) {
    add({
      id: 'accept-missing',
      severity: input.headersComplete ? 'warning' : 'info',
      subject: 'Accept',
      rule: 'desc-accept-required',
      message: input.headersComplete
        ? `Against the description: the request has no Accept header, which it requires on every operation. Add "Accept: ${PAY_MEDIA_TYPE}"; ${DEFAULT_DIALECT}. The signature does not depend on it.`
        : `The capture does not show the Accept header: make sure the request sends "Accept: ${PAY_MEDIA_TYPE}" (the description requires it).`,
    });
  } else if (accept.trim().toLowerCase() !== PAY_MEDIA_TYPE) {
    add({
      id: 'accept-wrong',
      severity: 'warning',
      subject: 'Accept',
      rule: 'desc-accept-required',
      message: `Against the description: Accept is "${accept}", not "${PAY_MEDIA_TYPE}", the one value it allows${accept.trim() === '*/*' ? " (curl and libcurl send */* unless told otherwise: add -H 'Accept: application/vnd.pay+json')" : ''}${
        accept.split(',').some((range) => range.split(';')[0]!.trim().toLowerCase() === PAY_MEDIA_TYPE)
          ? ''
          : `; ${DEFAULT_DIALECT}`
      }. The signature does not depend on it.`,
    });
  }
  const contentType = capture.headers['content-type'];
  if (contentType !== undefined && !contentType.toLowerCase().startsWith(FORM_MEDIA_TYPE)) {
    add({
      id: 'content-type-wrong',
      severity: 'warning',
      subject: 'Content-Type',
      message: `Content-Type is "${contentType}": the body must be ${FORM_MEDIA_TYPE}.`,
    });
  }
  let url: URL | undefined;
  try {
    url = new URL(capture.url);
  } catch {
    url = undefined;
  }
  if (url && url.search !== '') {
    add({
      id: 'query-string',
      severity: 'warning',
      message: `The URL has a query string (${url.search.slice(0, 60)}): parameters belong in the form body, and the query is not part of what is signed.`,
    });
  }
  const rawPort = /^[a-z]+:\/\/[^/?#]*?:(\d+)(?:[/?#]|$)/i.exec(capture.url)?.[1];
  if (
    rawPort &&
    ((url?.protocol === 'https:' && rawPort === '443') || (url?.protocol === 'http:' && rawPort === '80'))
  ) {
    add({
      id: 'default-port-in-url',
      severity: scheme === 'control' ? 'info' : 'warning',
      mistakeId: scheme === 'control' ? undefined : 'default-port',
      message: `The URL carries its default port :${rawPort}${scheme === 'control' ? '' : ': the base string must drop it (https://host/…, not https://host:443/…)'}.`,
    });
  }
  if (url?.protocol === 'http:' && scheme !== 'control' && !/^(localhost|127\.|\[::1\])/.test(url.hostname)) {
    add({
      id: 'plain-http',
      severity: 'info',
      mistakeId: 'http-vs-https',
      message: `The request went to http://${url.host}: the gateway is reached over https, and the base string must carry the scheme the request really used.`,
    });
  }
  if (input.endpoint.kind === 'group') {
    add({
      id: 'group-path',
      severity: 'info',
      mistakeId: 'endpoint-vs-group-id',
      message:
        scheme === 'control' && (operation.formula ?? []).some((t) => t.kind === 'endpointId')
          ? `The path names endpoint group ${input.endpoint.id}: the group id replaces endpointId in the formula.`
          : `The path names endpoint group ${input.endpoint.id} (…/group/${input.endpoint.id}): the signed URL must carry /group/ too.`,
    });
  }

  // Body ----------------------------------------------------------------------------------------
  const raw = capture.body;
  if (/\+/.test(raw)) {
    add({
      id: 'plus-in-body',
      severity: 'warning',
      mistakeId: 'plus-for-space',
      message:
        'The body holds a bare +, which form decoding reads as a space: send a plus as %2B, and a space as %20.',
    });
  }
  if (/%25[0-9A-Fa-f]{2}/.test(raw)) {
    add({
      id: 'double-encoded-body',
      severity: 'warning',
      mistakeId: 'double-encoding',
      message:
        'The body holds %25 followed by hex digits (e.g. %2520): a value was percent-encoded twice, so the gateway reads it still encoded.',
    });
  }
  if (/%(?:[0-9][a-f]|[a-f][0-9a-f])/.test(raw)) {
    add({
      id: 'lowercase-escapes-in-body',
      severity: 'info',
      mistakeId: scheme === 'control' ? undefined : 'lowercase-percent-encoding',
      message:
        'The body writes some percent-escapes in lowercase (%2f): harmless on the wire, but the base string must use uppercase (%2F).',
    });
  }
  const seen = new Map<string, number>();
  for (const p of body) seen.set(p.name, (seen.get(p.name) ?? 0) + 1);
  for (const [name, count] of seen) {
    if (count > 1)
      add({
        id: 'duplicate-parameter',
        severity: 'warning',
        subject: name,
        message: `${name} is sent ${count} times: send each parameter once.`,
      });
  }
  const fields = operation.fields;
  const formula = scheme === 'control' ? formulaFields(operation.formula) : [];
  if (fields) {
    const known = new Set(fields.map((f) => f.name));
    const unknown: string[] = [];
    const missing: string[] = [];
    for (const p of body) {
      if (
        known.has(p.name) ||
        p.name === 'control' ||
        p.name.startsWith('oauth_') ||
        formula.includes(p.name)
      )
        continue;
      const twin = [...known, ...formula].find((k) => lookalike(k) === lookalike(p.name));
      if (twin) {
        add({
          id: 'lookalike-name',
          severity: 'warning',
          subject: p.name,
          mistakeId: 'hyphen-vs-underscore',
          message: `${p.name} is not a field of ${operation.path}: this operation spells it ${twin}.`,
        });
      } else if (!unknown.includes(p.name)) unknown.push(p.name);
    }
    for (const f of fields) {
      if (!f.required || seen.has(f.name)) continue;
      if (scheme !== 'control' && f.name === 'login') continue;
      if (body.some((p) => lookalike(p.name) === lookalike(f.name))) continue; // reported as a look-alike
      missing.push(f.name);
    }
    if (unknown.length > 0)
      add({
        id: 'unknown-parameter',
        severity: 'info',
        subject: unknown.join(', '),
        message: `${list(unknown)} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} ${operation.path} is known to take.`,
      });
    if (missing.length > 0)
      add({
        id: 'required-missing',
        severity: 'warning',
        subject: missing.join(', '),
        message: `Required ${missing.length === 1 ? 'field' : 'fields'} not sent: ${list(missing)}.`,
      });
  }
  if (scheme === 'control') {
    for (const name of formula) {
      if (seen.has(name)) continue;
      const twin = body.find((p) => lookalike(p.name) === lookalike(name));
      if (twin) {
        add({
          id: 'formula-term-lookalike',
          severity: 'warning',
          subject: name,
          mistakeId: 'hyphen-vs-underscore',
          message: `The formula signs ${name}, but the body sends ${twin.name}: the gateway looks for ${name}, finds nothing and signs the empty string.`,
        });
      } else if (name === 'orderid' && operation.path === 'v2/status') {
        add({
          id: 'formula-term-absent',
          severity: 'info',
          subject: name,
          message: 'orderid is not sent: the status formula signs it as the empty string (allowed).',
        });
      } else {
        add({
          id: 'formula-term-absent',
          severity: 'warning',
          subject: name,
          mistakeId: 'field-missing-from-formula',
          message: `The formula signs ${name}, but the body does not send it: the gateway signs the empty string in its place.`,
        });
      }
    }
  }
  const amount = body.find((p) => p.name === 'amount');
  if (amount) {
    try {
      const minor = toMinorUnits(amount.value);
      if (scheme === 'control' && (operation.formula ?? []).some((t) => t.kind === 'field' && t.minorUnits))
        add({
          id: 'amount-minor-units',
          severity: 'info',
          subject: 'amount',
          message: `amount ${amount.value} signs as ${minor} (minor units) in the control formula.`,
        });
    } catch (e) {
      add({
        id: 'amount-format',
        severity: 'error',
        subject: 'amount',
        message: e instanceof PayError ? e.message : `amount "${amount.value}" is not a decimal amount.`,
      });
    }
  }

  // Scheme-specific ----------------------------------------------------------------------------
  if (scheme === 'control') controlChecks(input, add);
  else oauthChecks(input, scheme, add);
  return out;
}

function controlChecks(input: StructuralInput, add: (f: Finding) => void): void {
  const { body, operation } = input;
  const control = body.find((p) => p.name === 'control')?.value;
  if (control === undefined) {
    add({
      id: 'control-missing',
      severity: 'error',
      subject: 'control',
      message: 'The body has no control parameter: control-signed operations carry it in the form body.',
    });
  } else if (!/^[0-9a-fA-F]{40}$/.test(control)) {
    add({
      id: 'control-format',
      severity: 'error',
      subject: 'control',
      mistakeId: 'malformed-signature',
      message: `control is ${control === '' ? 'empty' : `"${control.slice(0, 50)}"`}: it must be a SHA-1 digest, 40 hexadecimal characters.`,
    });
  } else if (/[A-F]/.test(control)) {
    add({
      id: 'control-uppercase',
      severity: 'warning',
      subject: 'control',
      mistakeId: 'uppercase-hex',
      message:
        'control is written in uppercase hex; the gateway publishes lowercase (the local sandbox accepts either).',
    });
  }
  if ((operation.formula ?? []).some((t) => t.kind === 'login') && !input.login) {
    add({
      id: 'login-unknown',
      severity: 'warning',
      subject: 'login',
      message: 'The formula signs the merchant login, but the request has no login field and none was given.',
    });
  }
  if (input.capture.headers.authorization && /^\s*OAuth\s/i.test(input.capture.headers.authorization)) {
    add({
      id: 'oauth-on-control',
      severity: 'info',
      message: `The request carries an OAuth header, but ${operation.path} is signed with control: the header is ignored.`,
    });
  }
}

function oauthChecks(
  input: StructuralInput,
  scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256',
  add: (f: Finding) => void,
): void {
  const auth = input.capture.headers.authorization;
  if (!auth) {
    add({
      id: 'authorization-missing',
      severity: 'error',
      subject: 'Authorization',
      message:
        'The request has no Authorization header: the oauth_* parameters travel there ("Authorization: OAuth oauth_consumer_key=…").',
    });
    return;
  }
  let header: Array<{ name: string; value: string }>;
  try {
    header = parseAuthorizationHeader(auth);
  } catch (e) {
    add({
      id: 'authorization-unreadable',
      severity: 'error',
      subject: 'Authorization',
      message: errorText(e),
    });
    return;
  }
  const oauth = new Map<string, string>();
  for (const p of header) {
    if (oauth.has(p.name))
      add({
        id: 'oauth-duplicate',
        severity: 'error',
        subject: p.name,
        message: `${p.name} appears twice in the Authorization header.`,
      });
    else oauth.set(p.name, p.value);
  }
  for (const name of OAUTH_REQUIRED) {
    if (!oauth.get(name))
      add({
        id: 'oauth-parameter-missing',
        severity: 'error',
        subject: name,
        message: `The Authorization header has no ${name}${oauth.has(name) ? ' value' : ''}.`,
      });
  }
  const version = oauth.get('oauth_version');
  if (version && version !== '1.0')
    add({
      id: 'oauth-version',
      severity: 'error',
      subject: 'oauth_version',
      message: `oauth_version is "${version}": it must be 1.0.`,
    });
  const method = oauth.get('oauth_signature_method');
  const expected = EXPECTED_METHOD[scheme];
  if (method && method !== expected) {
    add({
      id: 'signature-method',
      severity: 'error',
      subject: 'oauth_signature_method',
      mistakeId: 'wrong-signature-method',
      message: `${input.operation.path} is signed with ${expected}, but oauth_signature_method is "${method}".`,
    });
  }
  const consumer = oauth.get('oauth_consumer_key');
  if (consumer !== undefined && input.controlKey && constantTimeEqual(consumer, input.controlKey)) {
    add({
      id: 'consumer-key-is-control-key',
      severity: 'error',
      subject: 'oauth_consumer_key',
      mistakeId: 'key-swapped-with-login',
      message:
        'oauth_consumer_key is the merchant control key itself: it must be the login. The key has travelled in clear in the header: have it replaced.',
    });
  } else if (
    consumer !== undefined &&
    input.login !== undefined &&
    input.login !== '' &&
    consumer !== input.login
  ) {
    add({
      id: 'consumer-key-not-login',
      severity: 'warning',
      subject: 'oauth_consumer_key',
      message: `oauth_consumer_key is "${consumer}", not the merchant login "${input.login}": the gateway looks the merchant up by it.`,
    });
  }
  const ts = oauth.get('oauth_timestamp');
  if (ts !== undefined && ts !== '') {
    if (!/^\d+$/.test(ts)) {
      add({
        id: 'timestamp-format',
        severity: 'error',
        subject: 'oauth_timestamp',
        message: `oauth_timestamp "${ts}" is not whole seconds since 1970.`,
      });
    } else if (ts.length >= 13) {
      add({
        id: 'timestamp-milliseconds',
        severity: 'error',
        subject: 'oauth_timestamp',
        mistakeId: 'stale-timestamp',
        message: `oauth_timestamp ${ts} has ${ts.length} digits: it is in milliseconds; the gateway wants seconds (${ts.slice(0, -3)}).`,
      });
    } else if (input.now !== undefined) {
      const skew = Number(ts) - Math.floor(input.now / 1000);
      if (Math.abs(skew) > input.maxSkewSeconds) {
        add({
          id: 'timestamp-stale',
          severity: 'error',
          subject: 'oauth_timestamp',
          mistakeId: 'stale-timestamp',
          message: `oauth_timestamp ${ts} is ${describeSeconds(Math.abs(skew))} ${skew < 0 ? 'in the past' : 'in the future'} of the time given (${Math.floor(input.now / 1000)}); ±${input.maxSkewSeconds} s is accepted (the local sandbox's window; the gateway's is not published).`,
        });
      }
    }
  }
  const nonce = oauth.get('oauth_nonce');
  if (nonce !== undefined && nonce.length > 255)
    add({
      id: 'nonce-long',
      severity: 'warning',
      subject: 'oauth_nonce',
      message: 'oauth_nonce is longer than 255 characters.',
    });
  const signature = oauth.get('oauth_signature');
  if (signature !== undefined && signature !== '') {
    const bytes = fromBase64(signature);
    if (!bytes) {
      add({
        id: 'signature-not-base64',
        severity: 'error',
        subject: 'oauth_signature',
        mistakeId: 'malformed-signature',
        message:
          'oauth_signature is not Base64 once percent-decoded (was it encoded twice, or sent with + turned into spaces?).',
      });
    } else if ((method ?? EXPECTED_METHOD[scheme]) === 'HMAC-SHA1' && bytes.length !== 20) {
      add({
        id: 'signature-length',
        severity: 'error',
        subject: 'oauth_signature',
        mistakeId: 'malformed-signature',
        message: `oauth_signature holds ${bytes.length} bytes; an HMAC-SHA1 signature has 20.`,
      });
    } else if (
      (method ?? EXPECTED_METHOD[scheme]) === 'RSA-SHA256' &&
      input.rsaModulusBits !== undefined &&
      bytes.length !== Math.ceil(input.rsaModulusBits / 8)
    ) {
      add({
        id: 'signature-length',
        severity: 'error',
        subject: 'oauth_signature',
        mistakeId: 'wrong-key',
        message: `oauth_signature holds ${bytes.length} bytes, which an RSA-${bytes.length * 8} key makes; the key it is checked with has ${input.rsaModulusBits} bits, so it was signed with another key.`,
      });
    }
  }
  const bodyOAuth = input.body.filter((p) => p.name.startsWith('oauth_'));
  if (bodyOAuth.length > 0) {
    add({
      id: 'oauth-in-body',
      severity: 'warning',
      message: `The body carries ${bodyOAuth.map((p) => p.name).join(', ')}: oauth_* parameters belong in the Authorization header; in the body they are signed a second time.`,
    });
  }
  const names = input.body.map((p) => p.name);
  const sorted = [...names].sort();
  if (names.some((n, i) => n !== sorted[i])) {
    add({
      id: 'body-not-sorted',
      severity: 'info',
      mistakeId: 'unsorted-parameters',
      message:
        'The body parameters are not in sorted order: fine on the wire, but the base string must sort them (with the oauth_* parameters) by name.',
    });
  }
}

function describeSeconds(s: number): string {
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min (${s} s)`;
  if (s < 172800) return `${Math.round(s / 3600)} h (${s} s)`;
  return `${Math.round(s / 86400)} days (${s} s)`;
}

function list(names: readonly string[]): string {
  return names.length <= 6
    ? names.join(', ')
    : `${names.slice(0, 6).join(', ')} and ${names.length - 6} more`;
}
