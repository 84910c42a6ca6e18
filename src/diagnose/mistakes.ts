import { percentDecode, percentEncode } from '../core/percent-encode.ts';
import type { EndpointRef, Scheme } from '../core/request/operation-spec.ts';
import {
  oauthBaseString,
  type ControlRecipe,
  type KeyChoice,
  type KeyTweak,
  type OAuthRecipe,
  type SigningRecipe,
} from './recipe.ts';
import { rulesOf, type RuleReference } from './rulebook.ts';

/** Stable ids of the known mistakes (the corpus, the UI and the CLI use them): the table's ids. */
export type MistakeId = (typeof MISTAKES)[number]['id'];

/** What the mistake does to a request, beyond the signature, when the teaching mode injects it. */
export interface WireChange {
  /** The request goes to this URL (e.g. with the default port written out). */
  url?: string;
  /** The body writes spaces as `+`. */
  plusForSpace?: boolean;
}

export interface MistakenVariant {
  recipe: SigningRecipe;
  /** What the mistaken signer did, in plain words (no secret). */
  detail: string;
  wire?: WireChange;
}

export interface MistakeContext {
  mode: 'diagnose' | 'teach';
  /** The body parameters as sent (decoded, in order, `control` excluded). */
  body: ReadonlyArray<{ name: string; value: string }>;
  endpoint: EndpointRef;
  /**
   * The merchant's endpoint id and endpoint group id, when known (to try the other one), and the
   * `client_orderid` of its other orders (to try one signed in place of this one).
   */
  knownIds?: { endpointId?: string; endpointGroupId?: string; clientOrderIds?: readonly string[] };
  /** Labels of the other keys given (test vs production, another merchant). */
  alternatives: readonly string[];
  login: string;
  /** Teaching: a wrong key is at hand. */
  hasWrongKey?: boolean;
}

/** A mistake's transformation: the recipes a signer making it follows, or why it does not apply. */
export type MistakeTransform = (recipe: SigningRecipe, ctx: MistakeContext) => MistakenVariant[] | string;

export interface Mistake<Id extends string = MistakeId> {
  id: Id;
  title: string;
  /** The rule of the description (or notes, or RFC) the mistake breaks. */
  rules: readonly RuleReference[];
  advice: string;
  schemes: readonly Scheme[];
  /**
   * How the debugger finds it: `variant` (re-signing the capture's values the mistaken way
   * reproduces the received signature), `inspection` (the capture or the key shows it without a
   * secret), `conclusion` (what is left when everything else checks out), `search` (the formula
   * search hashes the terms' orders itself, `steps/search-formula.ts`).
   */
  detection: ReadonlyArray<'variant' | 'inspection' | 'conclusion' | 'search'>;
  /** The label of the teaching mode's switch, for the mistakes the teaching mode injects. */
  teachingSwitch?: string;
  transform?: MistakeTransform;
}

const ALL: readonly Scheme[] = ['control', 'oauth-hmac-sha1', 'oauth-rsa-sha256'];
const OAUTH: readonly Scheme[] = ['oauth-hmac-sha1', 'oauth-rsa-sha256'];

function isOAuth(r: SigningRecipe): r is OAuthRecipe {
  return r.scheme !== 'control';
}

const ONLY_OAUTH = 'applies to OAuth signatures only';
const ONLY_CONTROL = 'applies to `control` signatures only';

function withTerms(
  r: ControlRecipe,
  change: (t: ControlRecipe['terms'][number]) => string | undefined,
): ControlRecipe | undefined {
  let changed = false;
  const terms = r.terms.map((t) => {
    if (t.secret) return t;
    const v = change(t);
    if (v === undefined || v === t.value) return t;
    changed = true;
    return { ...t, value: v };
  });
  return changed ? { ...r, terms } : undefined;
}

function withParams(r: OAuthRecipe, change: (v: string) => string): OAuthRecipe | undefined {
  let changed = false;
  const params = r.params.map((p) => {
    const v = change(p.value);
    if (v === p.value) return p;
    changed = true;
    return { ...p, value: v };
  });
  return changed ? { ...r, params } : undefined;
}

function withParamsNamed(r: OAuthRecipe, name: string, value: string): OAuthRecipe | undefined {
  if (!r.params.some((p) => p.name === name && p.value !== value)) return undefined;
  return { ...r, params: r.params.map((p) => (p.name === name ? { ...p, value } : p)) };
}

function differentParameterString(a: OAuthRecipe, b: OAuthRecipe): boolean {
  return oauthBaseString(a).baseString !== oauthBaseString(b).baseString;
}

function defaultPortOf(protocol: string): string {
  return protocol === 'http:' ? '80' : '443';
}

/** Splits `…/api/op/group/7` or `…/api/op/7` into the prefix, whether it is a group, and the id. */
function splitEndpointUrl(url: string): { head: string; group: boolean; id: string } | undefined {
  const m = /^(.*?\/)(group\/)?([^/]+)$/.exec(url);
  return m ? { head: m[1]!, group: m[2] !== undefined, id: m[3]! } : undefined;
}

function lookalike(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

function keyWith(key: KeyChoice, change: Partial<KeyChoice>): KeyChoice {
  return { ...key, ...change };
}

/**
 * The catalogue of known mistakes, in the order the debugger ranks equally strong causes. Each
 * names the rule it breaks and, where a signer's slip can be replayed, the transformation that
 * produces the mistaken signing from a correct recipe: the debugger applies it to a capture's values
 * and compares with the received signature; the teaching mode applies it to the user's values.
 */
/** The table's ids are inferred as literals: a new entry names a new MistakeId. */
function mistakeTable<const Id extends string>(list: ReadonlyArray<Mistake<Id>>): ReadonlyArray<Mistake<Id>> {
  return list;
}

export const MISTAKES = mistakeTable([
  {
    id: 'amount-major-units',
    title: 'Amount not in minor units',
    rules: rulesOf(['c-amount-cents', 'notes-amount-minor-units']),
    advice:
      'Sign the amount in minor units, converted with exact decimal arithmetic: 10.42 → 1042, 0.29 → 29 (never float × 100). The body still sends the amount as written (10.42).',
    schemes: ['control'],
    detection: ['variant'],
    teachingSwitch: 'Amount in major units',
    transform(r, ctx) {
      if (isOAuth(r))
        return 'OAuth signs the amount exactly as sent; only `control` formulas convert it to minor units';
      const amounts = r.terms.filter((t) => !t.secret && t.original !== undefined);
      if (amounts.length === 0) return 'the formula has no amount term, or the request sends no amount';
      const out: MistakenVariant[] = [];
      const seen = new Set<string>();
      for (const t of amounts) {
        const o = t.original!.trim();
        const n = Number(o);
        const candidates: Array<[string, string]> = [
          [o, `${t.label} signed as written, ${o} (major units), instead of ${t.value}`],
          [
            String(n * 100),
            `${t.label} signed as floating-point ${o} × 100 = ${String(n * 100)} instead of ${t.value}`,
          ],
          [
            String(Math.trunc(n * 100)),
            `${t.label} signed as floating-point ${o} × 100 truncated to ${String(Math.trunc(n * 100))} instead of ${t.value}`,
          ],
          [
            o.replace('.', ''),
            `${t.label} signed with the decimal point removed, ${o.replace('.', '')}, instead of ${t.value}`,
          ],
          [n.toFixed(2), `${t.label} signed as ${n.toFixed(2)} instead of ${t.value}`],
          [String(n), `${t.label} signed as ${String(n)} instead of ${t.value}`],
        ];
        for (const [value, detail] of ctx.mode === 'teach' ? candidates.slice(0, 1) : candidates) {
          if (value === t.value || value === 'NaN' || seen.has(`${t.label}=${value}`)) continue;
          seen.add(`${t.label}=${value}`);
          const recipe = withTerms(r, (x) => (x === t ? value : undefined));
          if (recipe) out.push({ recipe, detail });
        }
      }
      return out.length > 0 ? out : 'the amount reads the same in major and minor units';
    },
  },
  {
    id: 'plus-for-space',
    title: '`+` for a space',
    rules: rulesOf(['o1-percent-encode', 'o2-space-never-plus', 'c-concatenation']),
    advice:
      'Encode a space as %20, never +, in the base string (RFC 3986, not HTML form encoding). In the body, a literal + must be sent as %2B: a bare + is read as a space.',
    schemes: ALL,
    detection: ['variant', 'inspection'],
    teachingSwitch: 'Space as +',
    transform(r, ctx) {
      if (!isOAuth(r)) {
        const recipe = withTerms(r, (t) => (t.value.includes(' ') ? t.value.replace(/ /g, '+') : undefined));
        return recipe
          ? [
              {
                recipe,
                detail:
                  'a value with a space signed with + in its place (the body’s + read as a plus by the signer, as a space by the gateway)',
              },
            ]
          : 'no signed value holds a space';
      }
      if (!r.params.some((p) => p.value.includes(' ') || p.name.includes(' ')))
        return 'no signed value holds a space';
      const out: MistakenVariant[] = [];
      if (r.encoding === 'rfc3986')
        out.push({
          recipe: { ...r, encoding: 'form-plus' },
          detail: 'spaces encoded as + (HTML form encoding) in the parameter string instead of %20',
          wire: { plusForSpace: true },
        });
      if (ctx.mode === 'diagnose') {
        const literal = withParams(r, (v) => v.replace(/ /g, '+'));
        if (literal)
          out.push({
            recipe: literal,
            detail:
              'a + in the body read as a plus by the signer (signed as %2B) but as a space by the gateway',
          });
      }
      return out;
    },
  },
  {
    id: 'double-encoding',
    title: 'Double percent-encoding',
    rules: rulesOf(['o1-percent-encode', 'o1-three-parts', 'c-concatenation']),
    advice:
      'Percent-encode each name and value exactly once before sorting, then encode the joined parameter string once as the third part. Hand raw (decoded) values to the OAuth library, and send the body encoded once.',
    schemes: ALL,
    detection: ['variant', 'inspection'],
    teachingSwitch: 'Encode twice',
    transform(r, ctx) {
      const out: MistakenVariant[] = [];
      if (!isOAuth(r)) {
        const encoded = withTerms(r, (t) => percentEncode(t.value));
        if (encoded)
          out.push({
            recipe: encoded,
            detail: 'formula values signed percent-encoded (the control formula signs them raw)',
          });
        if (ctx.mode === 'diagnose') {
          const decoded = withTerms(r, (t) => percentDecode(t.value, false));
          if (decoded)
            out.push({
              recipe: decoded,
              detail:
                'the body was encoded twice on the wire: the gateway read a value still %-encoded, the signer signed it decoded',
            });
        }
        return out.length > 0 ? out : 'no signed value changes when percent-encoded';
      }
      if (
        r.encoding === 'rfc3986' &&
        r.params.some((p) => percentEncode(p.value) !== p.value || percentEncode(p.name) !== p.name)
      )
        out.push({
          recipe: { ...r, encoding: 'double' },
          detail: 'values percent-encoded twice in the parameter string (e.g. %20 became %2520)',
        });
      if (ctx.mode === 'diagnose') {
        const decoded = withParams(r, (v) => percentDecode(v, false));
        if (decoded)
          out.push({
            recipe: decoded,
            detail:
              'the body was encoded twice on the wire: the gateway read a value still %-encoded, the signer signed it decoded',
          });
      }
      return out.length > 0 ? out : 'no signed value changes when percent-encoded';
    },
  },
  {
    id: 'unsorted-parameters',
    title: 'Parameters not sorted',
    rules: rulesOf(['o1-sort-and-join', 'notes-sorting']),
    advice:
      'Sort the encoded pairs by name, then by value, comparing bytes (ASCII: uppercase before lowercase, `-` before `_`), body and oauth_* parameters together, before joining them with &.',
    schemes: OAUTH,
    detection: ['variant'],
    teachingSwitch: 'Skip sorting',
    transform(r, ctx) {
      if (!isOAuth(r)) return 'the control formula has its own fixed order';
      const out: MistakenVariant[] = [];
      const asGiven: OAuthRecipe = { ...r, order: 'as-given' };
      if (differentParameterString(asGiven, r))
        out.push({
          recipe: asGiven,
          detail: 'parameters joined in the order they were added (body first, then oauth_*), not sorted',
        });
      if (ctx.mode === 'diagnose') {
        const oauthFirst: OAuthRecipe = {
          ...asGiven,
          params: [
            ...r.params.filter((p) => p.source === 'oauth'),
            ...r.params.filter((p) => p.source === 'body'),
          ],
        };
        if (differentParameterString(oauthFirst, r) && differentParameterString(oauthFirst, asGiven))
          out.push({
            recipe: oauthFirst,
            detail:
              'parameters joined in the order they were added (oauth_* first, then the body), not sorted',
          });
        const locale: OAuthRecipe = { ...r, order: 'locale' };
        if (differentParameterString(locale, r))
          out.push({
            recipe: locale,
            detail: 'parameters sorted by locale collation (localeCompare) instead of byte order',
          });
      }
      return out.length > 0 ? out : 'the parameters are already in sorted order as they were added';
    },
  },
  {
    id: 'default-port',
    title: 'Default port kept in the URL',
    rules: rulesOf(['o1-no-default-port']),
    advice:
      'Drop :443 from https:// and :80 from http:// URLs before building the base string (keep any other port).',
    schemes: OAUTH,
    detection: ['variant', 'inspection'],
    teachingSwitch: 'Keep the default port',
    transform(r) {
      if (!isOAuth(r)) return 'the control formula does not sign the URL';
      const u = new URL(r.url);
      if (u.port !== '')
        return `the URL has a port of its own (:${u.port}), which stays: this mistake bites only on an address with the default port, such as a gateway's https://…:443 or http://…:80`;
      const url = `${u.protocol}//${u.hostname}:${defaultPortOf(u.protocol)}${u.pathname}`;
      return [
        { recipe: { ...r, url }, detail: `the URL signed as ${url}, with its default port`, wire: { url } },
      ];
    },
  },
  {
    id: 'http-vs-https',
    title: '`http` versus `https`',
    rules: rulesOf(['o1-three-parts']),
    advice:
      'Sign the URL exactly as the request is sent, https:// included. Behind a TLS-terminating proxy, sign the public https:// address, not the internal http:// one.',
    schemes: OAUTH,
    detection: ['variant'],
    teachingSwitch: 'Sign over the other scheme',
    transform(r) {
      if (!isOAuth(r)) return 'the control formula does not sign the URL';
      const u = new URL(r.url);
      const other = u.protocol === 'https:' ? 'http:' : 'https:';
      const url = `${other}//${u.host}${u.pathname}`;
      return [{ recipe: { ...r, url }, detail: `the URL signed as ${url} instead of ${r.url}` }];
    },
  },
  {
    id: 'hmac-key-without-ampersand',
    title: 'HMAC key without the trailing `&`',
    rules: rulesOf(['o1-signing-key']),
    advice:
      'The HMAC-SHA1 key is the control key followed by & (the token secret is empty, but the & stays).',
    schemes: ['oauth-hmac-sha1'],
    detection: ['variant'],
    teachingSwitch: 'Drop the & from the HMAC key',
    transform(r) {
      if (!isOAuth(r) || r.algorithm !== 'HMAC-SHA1') return 'applies to HMAC-SHA1 only';
      if (r.key.ampersand === false) return 'the key already has no &';
      return [
        {
          recipe: { ...r, key: keyWith(r.key, { ampersand: false }) },
          detail: 'HMAC key = the control key alone, without the trailing &',
        },
      ];
    },
  },
  {
    id: 'key-swapped-with-login',
    title: 'Key swapped with the login',
    rules: rulesOf(['c-login', 'o1-consumer-key', 'c-concatenation']),
    advice:
      'The merchant login goes into the login term / oauth_consumer_key; the control key is the secret that signs. Check the order of the arguments of your signing call and which setting feeds which.',
    schemes: ['control', 'oauth-hmac-sha1'],
    detection: ['variant', 'inspection'],
    transform(r, ctx) {
      if (ctx.login === '') return 'the merchant login is not known';
      if (!isOAuth(r)) {
        const out: MistakenVariant[] = [];
        const hasLogin = r.terms.some((t) => t.label === 'login');
        if (hasLogin)
          out.push({
            recipe: {
              ...r,
              key: { source: 'login' },
              terms: r.terms.map((t) => (t.label === 'login' ? { ...t, secret: { source: 'merchant' } } : t)),
            },
            detail: 'login and control key swapped: the key in the login term, the login in place of the key',
          });
        out.push({ recipe: { ...r, key: { source: 'login' } }, detail: 'the login used as the control key' });
        return out;
      }
      if (r.algorithm !== 'HMAC-SHA1') return 'applies to control and HMAC-SHA1';
      return [
        {
          recipe: { ...r, key: keyWith(r.key, { source: 'login' }) },
          detail: 'HMAC key = the login followed by &, instead of the control key',
        },
      ];
    },
  },
  {
    id: 'wrong-key',
    title: 'Wrong key',
    rules: rulesOf(['c-concatenation', 'o1-signing-key', 'o2-rsa-key']),
    advice:
      "Sign with this merchant's own key of this environment (test and production keys differ; so do the keys of two merchants or two endpoints). Read the key file without its line end and keep the key's letters as issued.",
    schemes: ALL,
    detection: ['variant', 'conclusion'],
    teachingSwitch: 'Sign with the wrong key',
    transform(r, ctx) {
      if (ctx.mode === 'teach') {
        if (!ctx.hasWrongKey)
          return r.scheme === 'oauth-rsa-sha256'
            ? 'give a second private key to sign with'
            : 'no wrong key at hand';
        return [
          {
            recipe: { ...r, key: keyWith(r.key, { source: 'wrong' }) },
            detail: "signed with another merchant's key",
          },
        ];
      }
      const out: MistakenVariant[] = ctx.alternatives.map((label, index) => ({
        recipe: { ...r, key: keyWith(r.key, { source: 'alternative', index }) },
        detail: `signed with the key "${label}"`,
      }));
      if (isOAuth(r) && r.algorithm === 'HMAC-SHA1')
        out.push({
          recipe: { ...r, key: keyWith(r.key, { encoded: false }) },
          detail: 'the control key put into the HMAC key without percent-encoding it',
        });
      return out.length > 0 ? out : 'no other key to try';
    },
  },
  {
    id: 'key-text-slip',
    title: 'Key text changed: whitespace, line end or letter case',
    rules: rulesOf(['c-concatenation', 'o1-signing-key']),
    advice:
      'Sign with the control key exactly as issued: read the key file or setting without its line end (trim once when loading it), never add a space, and keep its letters in the case they were issued in.',
    schemes: ['control', 'oauth-hmac-sha1'],
    detection: ['variant'],
    transform(r, ctx) {
      if (isOAuth(r) && r.algorithm !== 'HMAC-SHA1') return 'an RSA key is not text';
      if (ctx.mode === 'teach') return 'the teaching mode has no switch for it';
      const tweaks: Array<[KeyTweak, string]> = [
        ['trailing-newline', 'the control key read with its line end (\\n) still attached'],
        ['trailing-crlf', 'the control key read with a Windows line end (\\r\\n) still attached'],
        ['trailing-space', 'the control key followed by a space'],
        ['leading-space', 'the control key after a space'],
        ['trimmed', 'the control key without its surrounding spaces'],
        ['uppercase', 'the control key in uppercase'],
        ['lowercase', 'the control key in lowercase'],
      ];
      return tweaks.map(([tweak, detail]) => ({ recipe: { ...r, key: keyWith(r.key, { tweak }) }, detail }));
    },
  },
  {
    id: 'other-order-id',
    title: "Another order's client_orderid signed",
    rules: rulesOf(['c-formula-terms', 'c-concatenation', 'o1-gather-and-encode']),
    advice:
      'Sign the values of the request you send: build the signature from the same order object as the body, after its client_orderid is set (not from a previous or cached order).',
    schemes: ALL,
    detection: ['variant'],
    transform(r, ctx) {
      const others = (ctx.knownIds?.clientOrderIds ?? []).filter((x) => x !== '');
      if (others.length === 0) return "give the client_orderid of the merchant's other orders to try them";
      const out: MistakenVariant[] = [];
      for (const id of others) {
        const recipe = isOAuth(r)
          ? withParamsNamed(r, 'client_orderid', id)
          : withTerms(r, (t) => (t.label === 'client_orderid' ? id : undefined));
        if (recipe)
          out.push({
            recipe,
            detail: `client_orderid signed as ${id}, another order's, instead of the one sent`,
          });
      }
      return out.length > 0 ? out : 'the signature does not cover client_orderid, or the ids are the same';
    },
  },
  {
    id: 'formula-terms',
    title: 'Formula terms out of order, left out or doubled',
    rules: rulesOf(['c-formula-terms', 'c-concatenation', 'c-formula-column']),
    advice:
      "Concatenate exactly the operation's formula, in its order, each term once, then the control key: build it from the catalog's formula rather than by hand (the console's signature pane shows each term).",
    schemes: ['control'],
    detection: ['search'],
  },
  {
    id: 'rsa-sha1',
    title: 'RSA signed with SHA-1 instead of SHA-256',
    rules: rulesOf(['o2-rsa-signature', 'o2-signature-method']),
    advice:
      "Sign the base string with RSA and SHA-256 (openssl dgst -sha256 -sign, Java's SHA256withRSA, PHP's OPENSSL_ALGO_SHA256): openssl_sign's default and some libraries' RSA-SHA1 use SHA-1, which the gateway does not verify.",
    schemes: ['oauth-rsa-sha256'],
    detection: ['variant'],
    transform(r, ctx) {
      if (!isOAuth(r) || r.algorithm !== 'RSA-SHA256') return 'applies to RSA-SHA256 only';
      if (ctx.mode === 'teach') return 'the teaching mode has no switch for it';
      return [
        {
          recipe: { ...r, rsaHash: 'SHA-1' },
          detail: 'the base string signed with RSA and SHA-1 instead of SHA-256',
        },
      ];
    },
  },
  {
    id: 'pkcs1-pkcs8-confusion',
    title: 'PKCS#1 versus PKCS#8 key confusion',
    rules: rulesOf(['o2-key-containers']),
    advice:
      'Give each tool the container it takes: PKCS#8 (BEGIN PRIVATE KEY) for signing libraries, Web Crypto and Java; PKCS#1 (BEGIN RSA PRIVATE KEY) for the in-page builders; the public key (BEGIN PUBLIC KEY) only to the gateway. Convert with `openssl pkcs8 -topk8 -nocrypt -in private_pkcs1.pem -out private.pem` or `openssl rsa -traditional -in private.pem -out private_pkcs1.pem`; never by editing the BEGIN/END lines.',
    schemes: ['oauth-rsa-sha256'],
    detection: ['inspection'],
  },
  {
    id: 'endpoint-vs-group-id',
    title: 'Endpoint id versus endpoint group id',
    rules: rulesOf(['c-endpoint-id', 'notes-endpoint-group']),
    advice:
      'Sign with the id the path carries: the endpoint id for …/{endpointId}, the group id for …/group/{endpointGroupId}; and for OAuth sign the URL with or without /group/ exactly as it is sent.',
    schemes: ALL,
    detection: ['variant', 'inspection'],
    teachingSwitch: 'Sign with the other id',
    transform(r, ctx) {
      const known = [ctx.knownIds?.endpointId, ctx.knownIds?.endpointGroupId].filter(
        (x): x is string => !!x && x !== ctx.endpoint.id,
      );
      if (!isOAuth(r)) {
        if (!r.terms.some((t) => t.label === 'endpointId'))
          return 'the formula does not sign the endpoint id';
        if (known.length === 0)
          return "give the merchant's other id (endpoint id or endpoint group id) to try it";
        return known.map((id) => ({
          recipe: withTerms(r, (t) => (t.label === 'endpointId' ? id : undefined))!,
          detail: `endpointId term signed as ${id} instead of ${ctx.endpoint.id}, the ${ctx.endpoint.kind === 'group' ? 'group' : 'endpoint'} id of the path`,
        }));
      }
      const parts = splitEndpointUrl(r.url);
      if (!parts) return 'the URL does not end with an id';
      const out: MistakenVariant[] = [];
      const toggled = `${parts.head}${parts.group ? '' : 'group/'}${parts.id}`;
      out.push({
        recipe: { ...r, url: toggled },
        detail: `the URL signed ${parts.group ? 'without' : 'with'} /group/: ${toggled}`,
      });
      if (ctx.mode === 'diagnose') {
        for (const id of known) {
          const url = `${parts.head}${parts.group ? '' : 'group/'}${id}`;
          out.push({ recipe: { ...r, url }, detail: `the URL signed with the merchant's other id: ${url}` });
        }
      }
      return out;
    },
  },
  {
    id: 'hyphen-vs-underscore',
    title: 'Hyphen versus underscore in a name',
    rules: rulesOf(['resources-client-order-id', 'notes-field-spelling']),
    advice:
      'Send each field under the exact name the operation spells (client-order-id in the 3DS uploads, client_orderid elsewhere): a look-alike name is a different field, and the formula then signs the missing one as the empty string.',
    schemes: ALL,
    detection: ['variant', 'inspection'],
    transform(r, ctx) {
      if (isOAuth(r))
        return 'OAuth signs every name as sent; a look-alike name shows as an unknown field, not in the signature';
      const out: MistakenVariant[] = [];
      for (const t of r.terms) {
        if (t.source !== 'absent') continue;
        const twin = ctx.body.find((p) => p.name !== t.label && lookalike(p.name) === lookalike(t.label));
        if (!twin) continue;
        const recipe = withTerms(r, (x) => (x === t ? twin.value : undefined));
        if (recipe)
          out.push({
            recipe,
            detail: `the formula term ${t.label} signed with the value of ${twin.name}, which the body sends under that spelling`,
          });
      }
      return out.length > 0 ? out : 'no formula term is missing from the body under a look-alike name';
    },
  },
  {
    id: 'field-missing-from-formula',
    title: 'A formula field missing',
    rules: rulesOf(['c-formula-terms']),
    advice:
      'Send every field the formula names, and sign exactly the values you send: a field you do not send signs as the empty string (never as null, undefined or None), and a field you send must not be left out of the concatenation.',
    schemes: ['control'],
    detection: ['variant', 'inspection'],
    transform(r, ctx) {
      if (isOAuth(r)) return ONLY_CONTROL;
      if (ctx.mode === 'teach') return 'the teaching mode has no switch for it';
      const out: MistakenVariant[] = [];
      for (const t of r.terms) {
        if (t.secret) continue;
        if (t.source === 'absent') {
          for (const word of ['null', 'undefined', 'None']) {
            const recipe = withTerms(r, (x) => (x === t ? word : undefined));
            if (recipe)
              out.push({
                recipe,
                detail: `${t.label}, not sent, signed as "${word}" instead of the empty string`,
              });
          }
        } else if (t.source === 'body' && t.value !== '') {
          const recipe = withTerms(r, (x) => (x === t ? '' : undefined));
          if (recipe)
            out.push({
              recipe,
              detail: `${t.label}, which the body sends, left out of the signed concatenation`,
            });
        }
      }
      return out.length > 0 ? out : 'every formula term is sent and signed';
    },
  },
  {
    id: 'uppercase-hex',
    title: 'Uppercase hex',
    rules: rulesOf(['notes-lowercase-hex']),
    advice:
      "Send control as the lowercase hex digest (hexdigest() / digest('hex')); the local sandbox accepts either case, the gateway publishes lowercase.",
    schemes: ['control'],
    detection: ['variant', 'inspection'],
    teachingSwitch: 'Uppercase hex',
    transform(r) {
      if (isOAuth(r)) return 'OAuth signatures are Base64, not hex';
      if (r.hexCase === 'upper') return 'already uppercase';
      return [{ recipe: { ...r, hexCase: 'upper' }, detail: 'the SHA-1 digest written in uppercase hex' }];
    },
  },
  {
    id: 'lowercase-percent-encoding',
    title: 'Lowercase percent-escapes',
    rules: rulesOf(['rfc3986-uppercase-escapes']),
    advice: 'Write percent-escapes with uppercase hex digits (%2F, not %2f) in the base string.',
    schemes: OAUTH,
    detection: ['variant', 'inspection'],
    teachingSwitch: 'Lowercase %-escapes',
    transform(r) {
      if (!isOAuth(r)) return ONLY_OAUTH;
      const lower: OAuthRecipe = { ...r, encoding: 'lowercase-hex' };
      return r.encoding === 'rfc3986' && differentParameterString(lower, r)
        ? [
            {
              recipe: lower,
              detail: 'percent-escapes written with lowercase hex digits (%3a instead of %3A)',
            },
          ]
        : 'no escape in the base string has a letter';
    },
  },
  {
    id: 'include-oauth-signature',
    title: '`oauth_signature` included in the base string',
    rules: rulesOf(['o1-exclude-signature']),
    advice:
      'Leave oauth_signature (and realm) out of the signed parameters; sign once, then add the signature to the header.',
    schemes: OAUTH,
    detection: ['variant'],
    teachingSwitch: 'Include oauth_signature',
    transform(r, ctx) {
      if (!isOAuth(r)) return ONLY_OAUTH;
      if (r.params.some((p) => p.name === 'oauth_signature')) return 'oauth_signature is already signed';
      const out: MistakenVariant[] = [
        {
          recipe: { ...r, params: [...r.params, { name: 'oauth_signature', value: '', source: 'oauth' }] },
          detail: 'an empty oauth_signature included among the signed parameters',
        },
      ];
      if (ctx.mode === 'diagnose')
        out.push({
          recipe: { ...r, resign: true },
          detail: 'signed twice: the first signature included as oauth_signature in the second base string',
        });
      return out;
    },
  },
  {
    id: 'wrong-signature-method',
    title: 'Wrong signature method',
    rules: rulesOf(['o1-signature-method', 'o2-signature-method']),
    advice:
      'Sign v2 OAuth operations with HMAC-SHA1 and the v4 operations with RSA-SHA256, and say so in oauth_signature_method.',
    schemes: OAUTH,
    detection: ['variant', 'inspection'],
    transform(r, ctx) {
      if (!isOAuth(r)) return ONLY_OAUTH;
      if (ctx.mode === 'teach') return 'the teaching mode has no switch for it';
      return r.algorithm === 'RSA-SHA256'
        ? [
            {
              recipe: { ...r, algorithm: 'HMAC-SHA1', key: { source: 'merchant' } },
              detail: 'signed with HMAC-SHA1 and the control key instead of RSA-SHA256',
            },
          ]
        : [
            {
              recipe: { ...r, algorithm: 'RSA-SHA256', key: { source: 'merchant' } },
              detail: 'signed with RSA-SHA256 instead of HMAC-SHA1',
            },
          ];
    },
  },
  {
    id: 'stale-timestamp',
    title: 'Stale timestamp',
    rules: rulesOf(['o1-timestamp']),
    advice:
      "Put the current time in whole seconds (not milliseconds) into oauth_timestamp when signing, and keep the machine's clock synchronised (NTP); never reuse a signed request later.",
    schemes: OAUTH,
    detection: ['inspection'],
  },
  {
    id: 'malformed-signature',
    title: 'Malformed signature',
    rules: rulesOf(['notes-lowercase-hex', 'o1-hmac-signature', 'o2-rsa-signature-encoding']),
    advice:
      'Send the signature exactly as computed: control as the 40 hexadecimal characters of the SHA-1 digest, oauth_signature as the Base64 of the signature, percent-encoded once in the header. A value of another shape was never a signature, so no key can be to blame.',
    schemes: ALL,
    detection: ['inspection'],
  },
]);

const BY_ID = new Map(MISTAKES.map((m) => [m.id, m]));

/** A mistake of the catalogue by id. */
export function mistakeById(id: MistakeId): Mistake {
  const m = BY_ID.get(id);
  if (!m) throw new Error(`unknown mistake id ${id}`);
  return m;
}

/** The mistakes the teaching mode offers as switches, in catalogue order. */
export const TEACHING_SWITCHES: readonly Mistake[] = MISTAKES.filter((m) => m.teachingSwitch !== undefined);
