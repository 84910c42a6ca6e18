import {
  CONTROL_KEY_MASK,
  describeFormula,
  OAUTH_PROTOCOL_PARAMETERS,
  parseAuthorizationHeader,
  type CryptoPort,
  type EndpointRef,
  type Scheme,
} from '../src/core/index.ts';
import { verifySignature, type OAuthVerification } from '../src/core/verify/verify-signature.ts';
import type { Operation } from '../src/catalog/index.ts';
import { fullAmountOptional } from '../src/catalog/order-states.ts';
import type { Merchant } from './merchants.ts';
import { forbidden, validationError, type ApiReply } from './replies.ts';

export interface AuthContext {
  crypto: CryptoPort;
  now: number;
  timestampWindowSec: number;
  debug: boolean;
  /**
   * The amount and currency of the order a full capture or return names (`orderid`), when the
   * sandbox accepts such a request signed over them (options.ts, `fullCaptureControl`).
   */
  orderAmount?: (orderid: string) => { amount: string; currency: string } | undefined;
}

export interface AuthRequest {
  op: Operation;
  merchant: Merchant;
  endpoint: EndpointRef;
  /** `http://<Host><path>`: the URL the signature is checked against (no query). */
  url: string;
  bodyText: string;
  /** The body's pairs in order, decoded (readFormBody): the signature is checked over these. */
  pairs: ReadonlyArray<{ name: string; value: string }>;
  params: ReadonlyMap<string, string>;
  authorization: string | undefined;
  /** The scheme the request is checked with: the catalog's `identifyCapture` of what it carries. */
  scheme: Scheme;
}

const OAUTH_METHOD: Record<'oauth-hmac-sha1' | 'oauth-rsa-sha256', string> = {
  'oauth-hmac-sha1': 'HMAC-SHA1',
  'oauth-rsa-sha256': 'RSA-SHA256',
};

/**
 * A verified OAuth request's nonce. The engine records it in the operation's own write transaction
 * (one commit per request), and answers `reused` when the nonce is live already.
 */
export interface NonceClaim {
  consumer: string;
  nonce: string;
  expiresAt: number;
  reused: ApiReply;
}

/** A request whose signature holds; an OAuth one still has its nonce to claim. */
export interface Verified {
  verified: true;
  nonce?: NonceClaim;
}

/** The verdict on a request's signature: the answer to send, or {@link Verified}. */
export type AuthResult = ApiReply | Verified;

export function isVerified(r: AuthResult): r is Verified {
  return 'verified' in r;
}

const GOOD: Verified = { verified: true };

/** Checks the request's signature; a refusal to send, or what the operation must claim. */
export async function authenticate(req: AuthRequest, ctx: AuthContext): Promise<AuthResult> {
  if (req.scheme === 'control') return checkControl(req, ctx);
  return checkOAuth(req, ctx, req.scheme);
}

async function checkControl(req: AuthRequest, ctx: AuthContext): Promise<AuthResult> {
  const formula = req.op.formula ?? [];
  const verify = (pairs: AuthRequest['pairs']) =>
    verifySignature({
      request: { method: 'POST', url: req.url, headers: {}, body: req.bodyText },
      operation: { path: req.op.path, scheme: 'control', formula },
      endpoint: req.endpoint,
      login: req.merchant.login,
      controlKey: req.merchant.controlKey,
      crypto: ctx.crypto,
      bodyPairs: pairs,
    });
  const v = await verify(req.pairs);
  if (v.scheme !== 'control' || v.ok) return GOOD;
  // A full capture or return as the vendor's SDK signs it: over the order's amount and currency,
  // which it does not send. Checked as a second reading of the same request, never instead of it.
  const orderid = req.params.get('orderid');
  if (
    ctx.orderAmount &&
    fullAmountOptional(req.op.path) &&
    !req.params.has('amount') &&
    !req.params.has('currency') &&
    orderid
  ) {
    const order = ctx.orderAmount(orderid);
    if (order) {
      const withOrder = [
        ...req.pairs,
        { name: 'amount', value: order.amount },
        { name: 'currency', value: order.currency },
      ];
      const again = await verify(withOrder);
      if (again.scheme === 'control' && again.ok) return GOOD;
    }
  }
  const spelled = describeFormula(formula);
  let why: string;
  if (v.received === null) why = 'the body has no control parameter';
  else if (!/^[0-9a-fA-F]{40}$/.test(v.received))
    why = 'control must be 40 hexadecimal characters (a SHA-1 digest)';
  else why = 'control does not match';
  const message = `INVALID_CONTROL_CODE: ${why}. control is the SHA-1 (hex) of ${spelled}, concatenated without separators${
    ctx.debug ? '; compare your concatenation with debug.signing-input' : ''
  }.`;
  const debug = ctx.debug
    ? {
        debug: {
          scheme: 'control',
          formula: spelled,
          terms: v.trace.terms.map((t) => ({
            term: t.label,
            value: t.value,
            source: t.source,
            ...(t.note ? { note: t.note } : {}),
          })),
          'signing-input': v.trace.maskedInput,
          'received-control': v.received,
          hint: `SHA-1 over the signing input with ${CONTROL_KEY_MASK} replaced by your control key, as hex.`,
        },
      }
    : {};
  return validationError(message, 'INVALID_CONTROL_CODE', debug);
}

function oauthDebug(v: OAuthVerification, req: AuthRequest): Record<string, unknown> {
  return {
    scheme: v.scheme,
    'normalized-url': v.normalizedUrl,
    parameters: v.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`),
    excluded: v.parameters.filter((p) => !p.included).map((p) => `${p.name}: ${p.excludedBecause ?? ''}`),
    'parameter-string': v.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('&'),
    'base-string': v.base.baseString,
    'signing-key':
      v.scheme === 'oauth-hmac-sha1'
        ? `${CONTROL_KEY_MASK}&`
        : `the public key registered for ${req.merchant.login} (RSA-${req.merchant.keyBits}, SHA-256 fingerprint ${req.merchant.keyFingerprint})`,
    'received-signature': v.received,
  };
}

async function checkOAuth(
  req: AuthRequest,
  ctx: AuthContext,
  scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256',
): Promise<AuthResult> {
  const method = OAUTH_METHOD[scheme];
  const endpointText = `${req.endpoint.kind === 'group' ? 'endpoint group' : 'endpoint'} ${req.endpoint.id}`;
  if (!req.authorization) {
    return forbidden(
      `This operation is signed with OAuth 1.0a ${method}: send an Authorization: OAuth header with oauth_consumer_key, oauth_nonce, oauth_signature, oauth_signature_method, oauth_timestamp and oauth_version.`,
      'OAUTH_HEADER',
    );
  }
  let header: Array<{ name: string; value: string }>;
  try {
    header = parseAuthorizationHeader(req.authorization);
  } catch (e) {
    return forbidden(`The Authorization header cannot be read: ${(e as Error).message}`, 'OAUTH_HEADER');
  }
  const oauth = new Map<string, string>();
  for (const p of header) {
    if (oauth.has(p.name))
      return forbidden(`${p.name} appears twice in the Authorization header: send it once.`, 'OAUTH_HEADER');
    oauth.set(p.name, p.value);
  }
  for (const name of OAUTH_PROTOCOL_PARAMETERS) {
    if (!oauth.get(name))
      return forbidden(`The Authorization header has no ${name}: add it.`, 'OAUTH_HEADER');
  }
  if (oauth.get('oauth_version') !== '1.0') {
    return forbidden(`oauth_version is "${oauth.get('oauth_version')}": it must be 1.0.`, 'OAUTH_HEADER');
  }
  const sent = oauth.get('oauth_signature_method')!;
  if (sent !== method) {
    return forbidden(
      `This operation is signed with ${method}, but oauth_signature_method is "${sent}": sign it with ${method}.`,
      'OAUTH_SIGNATURE_METHOD',
    );
  }
  const consumer = oauth.get('oauth_consumer_key')!;
  if (consumer !== req.merchant.login) {
    return forbidden(
      `oauth_consumer_key "${consumer}" is not the login of the merchant that owns ${endpointText}: sign with that merchant's login, or send the request to one of your own endpoints.`,
      'OAUTH_CONSUMER_KEY',
    );
  }
  const ts = oauth.get('oauth_timestamp')!;
  const nowSec = Math.floor(ctx.now / 1000);
  if (!/^\d{1,12}$/.test(ts)) {
    return forbidden(
      `oauth_timestamp "${ts}" is not whole seconds since 1970: send e.g. ${nowSec}.`,
      'OAUTH_TIMESTAMP',
    );
  }
  const skew = Number(ts) - nowSec;
  if (Math.abs(skew) > ctx.timestampWindowSec) {
    return forbidden(
      `oauth_timestamp ${ts} is ${Math.abs(skew)} s ${skew < 0 ? 'in the past' : 'in the future'}; the sandbox accepts ±${ctx.timestampWindowSec} s around its clock (now ${nowSec}): sign with the current time (check the machine's clock).`,
      'OAUTH_TIMESTAMP',
      { 'sandbox-time': String(nowSec) },
    );
  }
  const nonce = oauth.get('oauth_nonce')!;
  if (nonce.length > 255) return forbidden('oauth_nonce is longer than 255 characters.', 'OAUTH_HEADER');

  let v: Awaited<ReturnType<typeof verifySignature>> | undefined;
  try {
    v = await verifySignature({
      request: {
        method: 'POST',
        url: req.url,
        headers: { authorization: req.authorization },
        body: req.bodyText,
      },
      bodyPairs: req.pairs,
      authorizationPairs: header,
      operation: { path: req.op.path, scheme },
      endpoint: req.endpoint,
      login: req.merchant.login,
      controlKey: req.merchant.controlKey,
      publicKey: req.merchant.verifyKey,
      crypto: ctx.crypto,
    });
  } catch {
    v = undefined;
  }
  if (v?.scheme === 'control') return GOOD;
  if (!v || !v.ok) {
    const advice =
      scheme === 'oauth-hmac-sha1'
        ? 'HMAC-SHA1 with the key "<merchant_control_key>&"'
        : `RSA-SHA256 with the private key whose public key is registered for ${req.merchant.login}`;
    return forbidden(
      `Invalid OAuth signature: oauth_signature is not ${advice} over the signature base string${
        ctx.debug ? ' (debug.base-string shows the one the sandbox built)' : ''
      }. Check the URL (scheme, host, port, path), the percent-encoding (RFC 3986, space as %20) and the parameter order.`,
      'INVALID_SIGNATURE',
      ctx.debug && v ? { debug: oauthDebug(v, req) } : {},
    );
  }
  return {
    verified: true,
    nonce: {
      consumer,
      nonce,
      expiresAt: ctx.now + 2 * ctx.timestampWindowSec * 1000,
      reused: forbidden(
        `oauth_nonce "${nonce.length > 40 ? nonce.slice(0, 40) + '…' : nonce}" was already used within the last ${2 * ctx.timestampWindowSec} s: draw a fresh random nonce for every request (a retry too).`,
        'OAUTH_NONCE_REUSED',
      ),
    },
  };
}
