import type { BaseString } from '../core/brands.ts';
import { constantTimeEqual, fromBase64, utf8Bytes } from '../core/bytes.ts';
import type { TermSource } from '../core/control/control-terms.ts';
import { CONTROL_KEY_MASK } from '../core/control/sign-control.ts';
import type { CryptoPort } from '../core/crypto-port.ts';
import type { OAuthSignatureMethod } from '../core/oauth/oauth-parameters.ts';
import { percentEncode } from '../core/percent-encode.ts';
import type { ControlTrace } from '../core/control/sign-control.ts';
import type { OAuthTrace } from '../core/request/build-request.ts';

/**
 * A signing recipe: every choice a signer makes, written out so that one choice at a time can be
 * changed to the mistaken one. The correct recipe, signed, gives exactly what the core's
 * `buildRequest`/`verifySignature` give (the tests hold it to that); a mistake is a function from a
 * recipe to the recipes a signer who makes it would follow. Recipes hold no secret: keys are named
 * by {@link KeyChoice} and looked up in {@link RecipeSecrets} only when signing.
 */
export type SigningRecipe = ControlRecipe | OAuthRecipe;

/** Which key a recipe signs with. */
export interface KeyChoice {
  /**
   * `merchant`: the merchant's own key (control key; for RSA the merchant key pair);
   * `login`: the merchant login used as the key; `alternative`: one of the other keys given
   * (test vs production, another merchant); `wrong`: the teaching mode's wrong key.
   */
  source: 'merchant' | 'login' | 'alternative' | 'wrong';
  /** Index into the alternatives, for `alternative`. */
  index?: number;
  /** HMAC-SHA1 only: the `&` (and empty token secret) after the key. Default true. */
  ampersand?: boolean;
  /** HMAC-SHA1 only: the key is percent-encoded before the `&` (RFC 5849 §3.4.2). Default true. */
  encoded?: boolean;
  /** A slip in the key text: read with its line end, trimmed, or with its letters' case changed. */
  tweak?: KeyTweak;
}

/** A slip in the key text between the issued key and the signing call. */
export type KeyTweak =
  | 'trailing-newline'
  | 'trailing-crlf'
  | 'trailing-space'
  | 'leading-space'
  | 'trimmed'
  | 'lowercase'
  | 'uppercase';

export interface RecipeTerm {
  label: string;
  value: string;
  source?: TermSource;
  /** The text before conversion (an amount in major units). */
  original?: string;
  /** The term's value is a key (a signer that swapped key and login): looked up when signing. */
  secret?: KeyChoice;
}

export interface ControlRecipe {
  scheme: 'control';
  terms: RecipeTerm[];
  key: KeyChoice;
  hexCase: 'lower' | 'upper';
}

/** How each name and value is encoded inside the parameter string. */
export type ValueEncoding = 'rfc3986' | 'form-plus' | 'double' | 'lowercase-hex';
/** How the pairs are ordered: sorted by encoded name then value, as given, or by locale collation. */
export type ParameterOrder = 'sorted' | 'as-given' | 'locale';

export interface OAuthRecipe {
  scheme: 'oauth-hmac-sha1' | 'oauth-rsa-sha256';
  httpMethod: string;
  /** The URL exactly as it goes into the base string (before percent-encoding). */
  url: string;
  /** The signed parameters, decoded, in the order given (body first, then the oauth parameters). */
  params: Array<{ name: string; value: string; source: 'body' | 'oauth' }>;
  encoding: ValueEncoding;
  order: ParameterOrder;
  /** The algorithm actually used; differs from the scheme's when the signer used the other one. */
  algorithm: OAuthSignatureMethod;
  key: KeyChoice;
  /** Sign once, add that signature as `oauth_signature`, and sign again. */
  resign?: boolean;
  /** RSA only: the digest the signer used when it is not SHA-256 (a library's RSA-SHA1 default). */
  rsaHash?: 'SHA-1';
}

export interface AlternativeKey {
  /** How the user names it: `production`, `merchant B`… */
  label: string;
  controlKey?: string;
  publicKey?: CryptoKey;
  privateKey?: CryptoKey;
}

export interface RecipeSecrets {
  login: string;
  controlKey?: string;
  /** RSA: verifies the merchant's signatures. */
  publicKey?: CryptoKey;
  /** RSA: signs as the merchant (teaching, or a private key pasted into the debugger). */
  privateKey?: CryptoKey;
  alternatives?: readonly AlternativeKey[];
  /** Teaching: the key "sign with the wrong key" uses. */
  wrong?: { controlKey?: string; privateKey?: CryptoKey; publicKey?: CryptoKey };
}

export const MERCHANT_KEY: KeyChoice = { source: 'merchant' };

function tweakKey(key: string, tweak: KeyChoice['tweak']): string {
  switch (tweak) {
    case 'trailing-newline':
      return `${key}\n`;
    case 'trailing-crlf':
      return `${key}\r\n`;
    case 'trailing-space':
      return `${key} `;
    case 'leading-space':
      return ` ${key}`;
    case 'trimmed':
      return key.trim();
    case 'lowercase':
      return key.toLowerCase();
    case 'uppercase':
      return key.toUpperCase();
    default:
      return key;
  }
}

/** The text of a control/HMAC key choice, or undefined when that key was not given. */
export function resolveTextKey(choice: KeyChoice, secrets: RecipeSecrets): string | undefined {
  let key: string | undefined;
  switch (choice.source) {
    case 'merchant':
      key = secrets.controlKey;
      break;
    case 'login':
      key = secrets.login === '' ? undefined : secrets.login;
      break;
    case 'alternative':
      key = secrets.alternatives?.[choice.index ?? 0]?.controlKey;
      break;
    case 'wrong':
      key = secrets.wrong?.controlKey;
      break;
  }
  return key === undefined ? undefined : tweakKey(key, choice.tweak);
}

const TWEAK_WORDS: Record<KeyTweak, string> = {
  'trailing-newline': ' followed by a line end',
  'trailing-crlf': ' followed by a Windows line end (\\r\\n)',
  'trailing-space': ' followed by a space',
  'leading-space': ' after a space',
  trimmed: ' trimmed',
  lowercase: ' in lowercase',
  uppercase: ' in uppercase',
};

/** A key choice as it may be displayed: never the key itself. */
export function describeKeyChoice(
  choice: KeyChoice,
  secrets: Pick<RecipeSecrets, 'alternatives'>,
  hmac = false,
): string {
  const base =
    choice.source === 'merchant'
      ? CONTROL_KEY_MASK
      : choice.source === 'login'
        ? '<merchant_login>'
        : choice.source === 'alternative'
          ? `<key "${secrets.alternatives?.[choice.index ?? 0]?.label ?? 'other'}">`
          : '<wrong_key>';
  const tweak = choice.tweak ? TWEAK_WORDS[choice.tweak] : '';
  const encoded = choice.encoded === false ? ' (not percent-encoded)' : '';
  return `${base}${tweak}${encoded}${hmac && choice.ampersand !== false ? '&' : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Scheme C

/** The concatenation the recipe signs, with any key shown masked. */
export function controlSigningInput(
  recipe: ControlRecipe,
  secrets: Pick<RecipeSecrets, 'alternatives'> = {},
): string {
  return recipe.terms.map((t) => (t.secret ? describeKeyChoice(t.secret, secrets) : t.value)).join('');
}

async function signControlRecipe(
  recipe: ControlRecipe,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<string | null> {
  const key = resolveTextKey(recipe.key, secrets);
  if (key === undefined) return null;
  let joined = '';
  for (const t of recipe.terms) {
    if (!t.secret) joined += t.value;
    else {
      const v = resolveTextKey(t.secret, secrets);
      if (v === undefined) return null;
      joined += v;
    }
  }
  const hex = await crypto.sha1Hex(joined + key);
  return recipe.hexCase === 'upper' ? hex.toUpperCase() : hex;
}

// ---------------------------------------------------------------------------------------------
// Schemes O1 / O2

export function encoderFor(encoding: ValueEncoding): (s: string) => string {
  switch (encoding) {
    case 'rfc3986':
      return percentEncode;
    case 'form-plus':
      return (s) => percentEncode(s).replace(/%20/g, '+');
    case 'double':
      return (s) => percentEncode(percentEncode(s));
    case 'lowercase-hex':
      return (s) => percentEncode(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  }
}

function compareAscii(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface OAuthRecipeText {
  /** The encoded pairs in the order they are joined. */
  pairs: string[];
  parameterString: string;
  baseString: BaseString;
}

/** The parameter string and base string a recipe produces. */
export function oauthBaseString(
  recipe: OAuthRecipe,
  extra: ReadonlyArray<{ name: string; value: string }> = [],
): OAuthRecipeText {
  const enc = encoderFor(recipe.encoding);
  const outer = recipe.encoding === 'lowercase-hex' ? enc : percentEncode;
  const encoded = [...recipe.params, ...extra].map((p) => ({ n: enc(p.name), v: enc(p.value) }));
  if (recipe.order === 'sorted') encoded.sort((a, b) => compareAscii(a.n, b.n) || compareAscii(a.v, b.v));
  else if (recipe.order === 'locale')
    encoded.sort((a, b) => a.n.localeCompare(b.n) || a.v.localeCompare(b.v));
  const pairs = encoded.map((p) => `${p.n}=${p.v}`);
  const parameterString = pairs.join('&');
  const baseString =
    `${recipe.httpMethod.toUpperCase()}&${outer(recipe.url)}&${outer(parameterString)}` as BaseString;
  return { pairs, parameterString, baseString };
}

function hmacKey(choice: KeyChoice, secrets: RecipeSecrets): string | undefined {
  const key = resolveTextKey(choice, secrets);
  if (key === undefined) return undefined;
  const text = choice.encoded === false ? key : percentEncode(key);
  return choice.ampersand === false ? text : `${text}&`;
}

function rsaSigningKey(choice: KeyChoice, secrets: RecipeSecrets): CryptoKey | undefined {
  if (choice.source === 'merchant') return secrets.privateKey;
  if (choice.source === 'alternative') return secrets.alternatives?.[choice.index ?? 0]?.privateKey;
  if (choice.source === 'wrong') return secrets.wrong?.privateKey;
  return undefined;
}

function rsaVerifyingKey(choice: KeyChoice, secrets: RecipeSecrets): CryptoKey | undefined {
  if (choice.source === 'merchant') return secrets.publicKey;
  if (choice.source === 'alternative') return secrets.alternatives?.[choice.index ?? 0]?.publicKey;
  if (choice.source === 'wrong') return secrets.wrong?.publicKey;
  return undefined;
}

async function signOAuthText(
  recipe: OAuthRecipe,
  text: string,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<string | null> {
  if (recipe.algorithm === 'HMAC-SHA1') {
    const key = hmacKey(recipe.key, secrets);
    return key === undefined ? null : crypto.hmacSha1Base64(key, text);
  }
  if (recipe.rsaHash === 'SHA-1') return null; // a SHA-1 signature can only be verified (public key)
  const key = rsaSigningKey(recipe.key, secrets);
  return key ? crypto.rsaSha256SignBase64(key, text) : null;
}

const sha1Keys = new WeakMap<CryptoKey, Promise<CryptoKey | null>>();

/** The same public key, imported for RSASSA-PKCS1-v1_5 with SHA-1; null when it cannot be exported. */
function sha1VerifyingKey(key: CryptoKey, crypto: CryptoPort): Promise<CryptoKey | null> {
  let p = sha1Keys.get(key);
  if (!p) {
    p = crypto.subtle
      .exportKey('spki', key)
      .then((spki) =>
        crypto.subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' }, false, [
          'verify',
        ]),
      )
      .catch(() => null);
    sha1Keys.set(key, p);
  }
  return p;
}

/** The base string a recipe ends up signing (for `resign`, the second one, which needs the first signature). */
async function finalOAuthText(
  recipe: OAuthRecipe,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<string | null> {
  if (!recipe.resign) return oauthBaseString(recipe).baseString;
  const first = await signOAuthText(
    { ...recipe, resign: false },
    oauthBaseString(recipe).baseString,
    secrets,
    crypto,
  );
  if (first === null) return null;
  return oauthBaseString(recipe, [{ name: 'oauth_signature', value: first }]).baseString;
}

// ---------------------------------------------------------------------------------------------

/** The signing input of a recipe as it may be displayed (control key masked; a base string as it is). */
export function recipeSigningInput(
  recipe: SigningRecipe,
  secrets: Pick<RecipeSecrets, 'alternatives'> = {},
): string {
  return recipe.scheme === 'control'
    ? controlSigningInput(recipe, secrets) + describeKeyChoice(recipe.key, secrets)
    : oauthBaseString(recipe).baseString;
}

/** Signs a recipe; null when the key it needs was not given. */
export async function signRecipe(
  recipe: SigningRecipe,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<string | null> {
  if (recipe.scheme === 'control') return signControlRecipe(recipe, secrets, crypto);
  const text = await finalOAuthText(recipe, secrets, crypto);
  return text === null ? null : signOAuthText(recipe, text, secrets, crypto);
}

/**
 * Does the recipe reproduce the received signature? Control and HMAC are recomputed and compared in
 * constant time; RSA-SHA256 is verified with the public key (or, without it, re-signed with the
 * private key: PKCS#1 v1.5 is deterministic). Null when the key it needs was not given.
 */
export async function recipeReproduces(
  recipe: SigningRecipe,
  received: string,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<boolean | null> {
  if (recipe.scheme === 'oauth-hmac-sha1' || recipe.scheme === 'oauth-rsa-sha256') {
    if (recipe.algorithm === 'RSA-SHA256') {
      const pub = rsaVerifyingKey(recipe.key, secrets);
      if (pub) {
        const text = await finalOAuthText(recipe, secrets, crypto);
        if (text === null) return null;
        if (recipe.rsaHash === 'SHA-1') {
          const sha1 = await sha1VerifyingKey(pub, crypto);
          const sig = fromBase64(received);
          if (!sha1 || !sig) return sha1 ? false : null;
          return crypto.subtle.verify('RSASSA-PKCS1-v1_5', sha1, sig, utf8Bytes(text));
        }
        return crypto.rsaSha256Verify(pub, received, text);
      }
    }
  }
  const signature = await signRecipe(recipe, secrets, crypto);
  if (signature === null) return null;
  return constantTimeEqual(signature, received);
}

// ---------------------------------------------------------------------------------------------
// Recipes from what the core built

/** The correct control recipe of a core trace. */
export function controlRecipeOf(trace: ControlTrace): ControlRecipe {
  return {
    scheme: 'control',
    terms: trace.terms.map((t) => ({
      label: t.label,
      value: t.value,
      ...(t.source ? { source: t.source } : {}),
      ...(t.original !== undefined ? { original: t.original } : {}),
    })),
    key: MERCHANT_KEY,
    hexCase: 'lower',
  };
}

/** The correct OAuth recipe of a core trace (its signed parameters in the order it gathered them). */
export function oauthRecipeOf(
  trace: Pick<OAuthTrace, 'parameters' | 'normalizedUrl'>,
  scheme: OAuthRecipe['scheme'],
  httpMethod = 'POST',
): OAuthRecipe {
  return {
    scheme,
    httpMethod,
    url: trace.normalizedUrl,
    params: trace.parameters
      .filter((p) => p.included)
      .map((p) => ({ name: p.name, value: p.value, source: p.source })),
    encoding: 'rfc3986',
    order: 'sorted',
    algorithm: scheme === 'oauth-hmac-sha1' ? 'HMAC-SHA1' : 'RSA-SHA256',
    key: MERCHANT_KEY,
  };
}
