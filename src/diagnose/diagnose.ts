import { constantTimeEqual } from '../core/bytes.ts';
import { describeFormula, type ResolvedTerm } from '../core/control/control-terms.ts';
import { CONTROL_KEY_MASK } from '../core/control/sign-control.ts';
import type { CryptoPort } from '../core/crypto-port.ts';
import { PayError } from '../core/errors.ts';
import { importSigningKey, importVerifyingKey } from '../core/keys/key-containers.ts';
import { parseAuthorizationHeader } from '../core/oauth/authorization-header.ts';
import { decodeFormBody, percentDecode } from '../core/percent-encode.ts';
import type { EndpointRef, Scheme } from '../core/request/operation-spec.ts';
import { matchOperationPath, type CapturedRequest } from '../core/verify/parse-raw-http.ts';
import { verifySignature, type Verification } from '../core/verify/verify-signature.ts';
import { findOperation, OPERATION_PATHS } from '../catalog/index.ts';
import { inspectKeyText, type KeyConsumer, type KeyTextInspection } from './inspect-key-text.ts';
import {
  MISTAKES,
  mistakeById,
  type Mistake,
  type MistakeContext,
  type MistakeId,
  type MistakenVariant,
} from './mistakes.ts';
import type { RuleReference } from './rulebook.ts';
import {
  controlRecipeOf,
  controlSigningInput,
  describeKeyChoice,
  oauthBaseString,
  oauthRecipeOf,
  recipeReproduces,
  signRecipe,
  type AlternativeKey,
  type ControlRecipe,
  type OAuthRecipe,
  type RecipeSecrets,
  type SigningRecipe,
} from './recipe.ts';
import { structuralChecks, type DiagnoseOperation, type Finding } from './structural-checks.ts';
import { diffText, firstDifferenceOffset, type DiffSegment } from './text-diff.ts';

export interface DiagnoseInput {
  capture: CapturedRequest;
  /** The operation; without it, it is found in the catalog from the capture's path. */
  operation?: DiagnoseOperation;
  /** The endpoint; without it, it is read from the capture's path. */
  endpoint?: EndpointRef;
  /** Merchant login (default: the body's `login`, then the header's oauth_consumer_key). */
  login?: string;
  /** The merchant control key (control and HMAC-SHA1). */
  controlKey?: string;
  /** The merchant's RSA public key (RSA-SHA256), as imported by `importVerifyingKey`. */
  publicKey?: CryptoKey;
  /**
   * A pasted private key text: inspected for container confusion (never shown), compared with
   * the public key, and used to verify when no public key is given.
   */
  privateKeyText?: string;
  /**
   * The merchant's RSA private key, already imported (a console profile's key is not extractable):
   * without a public key, RSA-SHA256 is checked by signing again (PKCS#1 v1.5 is deterministic).
   */
  privateKey?: CryptoKey;
  /** The tool the pasted private key is meant for, when known. */
  keyConsumer?: KeyConsumer;
  /** Other keys the request may have been signed with (test vs production, another merchant). */
  alternativeKeys?: readonly AlternativeKey[];
  /** The merchant's endpoint id and group id, to try the one the path does not carry. */
  knownIds?: { endpointId?: string; endpointGroupId?: string };
  /** The gateway's own expected base string (OAuth) or concatenation (control), pasted. */
  expectedBaseString?: string;
  /** The time to judge oauth_timestamp against, epoch milliseconds. */
  now?: number;
  /** Accepted clock skew for oauth_timestamp (default 600 s, the local sandbox's window). */
  maxSkewSeconds?: number;
  /** False when the capture does not say http or https: both are tried and either is accepted. */
  urlSchemeKnown?: boolean;
  /** False when the capture shows only some headers (a log line). */
  headersComplete?: boolean;
  crypto: CryptoPort;
}

export type Confidence = 'confirmed' | 'possible';

export interface LikelyCause {
  mistakeId: MistakeId;
  title: string;
  /**
   * `confirmed`: re-signing the capture's own values the mistaken way reproduces the received
   * signature exactly (or, for mistakes that live outside the signature — a stale timestamp, the
   * wrong signature method, a key container — the capture or the key shows it beyond doubt).
   * `possible`: structural evidence, or what is left when everything else checks out.
   */
  confidence: Confidence;
  evidence: string;
  advice: string;
  rules: readonly RuleReference[];
  /** The signing input the mistaken signer used (control key masked), for confirmed variants. */
  mistakenSigningInput?: string;
  /** When two mistakes together reproduce the signature, the other one. */
  together?: MistakeId;
}

export interface FirstDifference {
  /** What ours is compared with: the mistaken signing that reproduces the signature, or the pasted expected text. */
  against: 'mistaken-signing' | 'pasted-expected';
  mistakeId?: MistakeId;
  location:
    | 'term'
    | 'key'
    | 'hex-case'
    | 'method'
    | 'url'
    | 'parameter'
    | 'parameter-order'
    | 'signing-key'
    | 'algorithm'
    | 'length';
  /** 0-based index of the term or of the pair in the sorted parameter string. */
  index?: number;
  /** The term or parameter name. */
  name?: string;
  /** Ours (what the description wants). */
  expected: string;
  /** Theirs. */
  actual: string;
  /** Character offset in the signing input (control: the concatenation without the key; OAuth: the base string). */
  offset?: number;
  description: string;
}

export interface ExpectedValues {
  control?: {
    value: string | null;
    /** The concatenation with the key masked. */
    signingInput: string;
    /** The concatenation without the key. */
    concatenation: string;
    formula: string;
    terms: ResolvedTerm[];
  };
  oauth?: {
    normalizedUrl: string;
    parameterString: string;
    baseString: string;
    /** HMAC-SHA1 only (an RSA signature can only be checked without the private key). */
    signature: string | null;
    signingKey?: string;
  };
}

export interface ExpectedDiff {
  ours: string;
  theirs: string;
  equal: boolean;
  segments: DiffSegment[];
}

export interface UrlAttempt {
  url: string;
  matches: boolean | null;
  /** The expected signature over this URL (control, HMAC-SHA1). */
  expectedSignature: string | null;
}

export interface Diagnosis {
  verdict: 'ok' | 'mismatch' | 'cannot-check';
  scheme: Scheme;
  operationPath: string;
  endpoint: EndpointRef;
  /** Whether the received signature is the correct one; null when it could not be checked. */
  signatureMatches: boolean | null;
  received: string | null;
  /** The URL the signature matched over (OAuth), else null. */
  signedUrl: string | null;
  /** The URLs checked (two when the capture does not say http or https). */
  triedUrls: UrlAttempt[];
  firstDifference: FirstDifference | null;
  /** Why there is no first difference, when there is none on a mismatch. */
  firstDifferenceNote?: string;
  likelyCauses: LikelyCause[];
  structuralFindings: Finding[];
  expected: ExpectedValues;
  expectedDiff?: ExpectedDiff;
  /** The core's verification of the URL shown (trace or base string, never a key). */
  verification: Verification;
  /** How many mistaken signings were tried. */
  variantsTried: number;
  keyInspection?: KeyTextInspection;
  notes: string[];
}

const DEFAULT_MAX_SKEW_SECONDS = 600;
const MAX_VARIANTS = 4000;
const PAIR_PROBE = 'pay-console key pair check';

function pickScheme(
  op: DiagnoseOperation,
  capture: CapturedRequest,
  body: ReadonlyArray<{ name: string }>,
): Scheme {
  const allowed: Scheme[] = [op.scheme, ...(op.schemeAlternatives ?? [])];
  if (allowed.length === 1) return op.scheme;
  const auth = capture.headers.authorization;
  if (auth && /^\s*OAuth\s/i.test(auth)) {
    const method = /oauth_signature_method\s*=\s*"?([A-Za-z0-9-]+)/.exec(auth)?.[1]?.toUpperCase();
    if (method === 'HMAC-SHA1' && allowed.includes('oauth-hmac-sha1')) return 'oauth-hmac-sha1';
    if (method === 'RSA-SHA256' && allowed.includes('oauth-rsa-sha256')) return 'oauth-rsa-sha256';
    return op.scheme;
  }
  if (body.some((p) => p.name === 'control') && allowed.includes('control')) return 'control';
  return op.scheme;
}

function withScheme(url: string, scheme: 'http' | 'https'): string {
  return url.replace(/^https?:/i, `${scheme}:`);
}

function consumerKeyOf(capture: CapturedRequest): string | undefined {
  const auth = capture.headers.authorization;
  if (!auth) return undefined;
  try {
    return parseAuthorizationHeader(auth).find((p) => p.name === 'oauth_consumer_key')?.value;
  } catch {
    return undefined;
  }
}

function fingerprint(recipe: SigningRecipe): string {
  return JSON.stringify(recipe);
}

interface Tried {
  mistakes: Mistake[];
  variants: MistakenVariant[];
}

/**
 * The signature debugger: takes every value, nonce and timestamp from a captured request,
 * recomputes its signature, and when it differs finds which known mistake reproduces the received
 * one. Runs every structural check that needs no secret; without the secret the verdict is
 * `cannot-check` and the findings still come back. Pure: the clock is `now`, crypto is the port.
 * @see api-description.md, Authentication (schemes C, O1, O2).
 * @throws PayError OPERATION_UNKNOWN when the operation can be neither given nor found from the path.
 */
export async function diagnose(input: DiagnoseInput): Promise<Diagnosis> {
  const { capture, crypto } = input;
  const notes: string[] = [];

  // The operation and the endpoint --------------------------------------------------------------
  let op = input.operation;
  let endpoint = input.endpoint;
  if (!op || !endpoint) {
    let pathname: string;
    try {
      pathname = new URL(capture.url).pathname;
    } catch {
      throw new PayError(
        'HTTP_PARSE',
        `The captured URL "${capture.url.slice(0, 80)}" is not an absolute address.`,
      );
    }
    const match = matchOperationPath(pathname, OPERATION_PATHS);
    op ??= match ? findOperation(match.path) : undefined;
    endpoint ??= match?.endpoint;
    if (!op || !endpoint) {
      throw new PayError(
        'OPERATION_UNKNOWN',
        `The path "${pathname}" names no known operation: expected …/api/<operation>/<endpoint id>, e.g. /paynet/api/v2/sale/1111.`,
      );
    }
  }
  const body = decodeFormBody(capture.body);
  const scheme = pickScheme(op, capture, body);
  const operation: DiagnoseOperation = { ...op, scheme };
  const consumerKey = scheme === 'control' ? undefined : consumerKeyOf(capture);
  const login = input.login ?? body.find((p) => p.name === 'login')?.value ?? consumerKey;

  // Keys -----------------------------------------------------------------------------------------
  const alternatives: AlternativeKey[] = [...(input.alternativeKeys ?? [])];
  let publicKey = input.publicKey;
  let privateKey: CryptoKey | undefined = input.privateKey;
  let keyInspection: KeyTextInspection | undefined;
  const keyFindings: Finding[] = [];
  if (input.privateKeyText !== undefined) {
    keyInspection = inspectKeyText(input.privateKeyText, input.keyConsumer);
    let pastedPrivate: CryptoKey | undefined;
    let pastedPublic: CryptoKey | undefined;
    try {
      pastedPrivate = (await importSigningKey(input.privateKeyText, crypto)).key;
    } catch {
      pastedPrivate = undefined;
    }
    try {
      pastedPublic = (await importVerifyingKey(input.privateKeyText, crypto)).key;
    } catch {
      pastedPublic = undefined;
    }
    if (pastedPrivate && publicKey) {
      const probe = await crypto.rsaSha256SignBase64(pastedPrivate, PAIR_PROBE);
      if (await crypto.rsaSha256Verify(publicKey, probe, PAIR_PROBE)) privateKey = pastedPrivate;
      else {
        keyFindings.push({
          id: 'key-pair-mismatch',
          severity: 'error',
          mistakeId: 'wrong-key',
          message:
            'The private key pasted is not the pair of the public key given: requests it signs cannot be verified with that public key.',
        });
        alternatives.push({ label: 'the private key pasted', privateKey: pastedPrivate });
      }
    } else if (!publicKey && pastedPublic) {
      publicKey = pastedPublic;
      privateKey = pastedPrivate;
      if (scheme === 'oauth-rsa-sha256')
        notes.push('The signature is checked with the public half of the pasted key.');
    }
  }
  const secrets: RecipeSecrets = {
    login: login ?? '',
    ...(input.controlKey !== undefined ? { controlKey: input.controlKey } : {}),
    ...(publicKey ? { publicKey } : {}),
    ...(privateKey ? { privateKey } : {}),
    alternatives,
  };

  // The correct signature, over each URL the capture may have used -----------------------------------
  const urlUnknown = input.urlSchemeKnown === false && scheme !== 'control';
  const urls = urlUnknown
    ? [withScheme(capture.url, 'https'), withScheme(capture.url, 'http')]
    : [capture.url];
  const triedUrls: UrlAttempt[] = [];
  const verifications: Verification[] = [];
  for (const url of urls) {
    const v = await verifySignature({
      request: { ...capture, url },
      operation,
      endpoint,
      ...(login !== undefined ? { login } : {}),
      ...(input.controlKey !== undefined ? { controlKey: input.controlKey } : {}),
      ...(publicKey ? { publicKey } : {}),
      crypto,
    });
    verifications.push(v);
    triedUrls.push({ url, matches: await matchesOf(v, secrets, crypto), expectedSignature: v.expected });
    if (triedUrls[triedUrls.length - 1]!.matches === true) break;
  }
  const hit = triedUrls.findIndex((t) => t.matches === true);
  const shown = hit === -1 ? 0 : hit;
  const verification = verifications[shown]!;
  const signatureMatches = triedUrls[shown]!.matches;
  const received = verification.received;
  if (urlUnknown && hit === 1)
    notes.push(`The signature matches when the URL is signed as ${triedUrls[1]!.url}.`);

  // Structural checks ----------------------------------------------------------------------------
  const rsaBits = publicKey ? (publicKey.algorithm as RsaHashedKeyAlgorithm).modulusLength : undefined;
  const findings = [
    ...structuralChecks({
      capture: { ...capture, url: triedUrls[shown]!.url },
      operation,
      scheme,
      endpoint,
      body,
      ...(login !== undefined ? { login } : {}),
      ...(input.controlKey !== undefined ? { controlKey: input.controlKey } : {}),
      ...(input.now !== undefined ? { now: input.now } : {}),
      maxSkewSeconds: input.maxSkewSeconds ?? DEFAULT_MAX_SKEW_SECONDS,
      headersComplete: input.headersComplete ?? true,
      ...(rsaBits !== undefined ? { rsaModulusBits: rsaBits } : {}),
    }),
    ...keyFindings,
    ...(keyInspection?.problems ?? []).map((p): Finding => ({
      id: p.id,
      severity: p.severity,
      message: p.message,
      ...(p.containerConfusion ? { mistakeId: 'pkcs1-pkcs8-confusion' as const } : {}),
      subject: 'private key',
    })),
  ];

  // The correct recipe and the mistaken ones ----------------------------------------------------------
  const recipe: SigningRecipe =
    verification.scheme === 'control'
      ? controlRecipeOf(verification.trace)
      : oauthRecipeOf(
          { parameters: verification.parameters, normalizedUrl: verification.normalizedUrl },
          verification.scheme,
          capture.method,
        );
  const ctx: MistakeContext = {
    mode: 'diagnose',
    body: body.filter((p) => p.name !== 'control'),
    endpoint,
    ...(input.knownIds ? { knownIds: input.knownIds } : {}),
    alternatives: alternatives.map((a) => a.label),
    login: login ?? '',
  };
  const confirmed: Tried[] = [];
  let variantsTried = 0;
  if (signatureMatches === false && received !== null && received !== '') {
    const correctSignature = verification.expected;
    const excluded = new Set<MistakeId>(urlUnknown ? ['http-vs-https'] : []);
    const applicable = MISTAKES.filter(
      (m) => m.transform && m.schemes.includes(scheme) && !excluded.has(m.id),
    );
    const singles: Tried[] = [];
    const seen = new Set<string>([fingerprint(recipe)]);
    for (const m of applicable) {
      const r = m.transform!(recipe, ctx);
      if (typeof r === 'string') continue;
      for (const v of r) {
        const fp = fingerprint(v.recipe);
        if (seen.has(fp)) continue;
        seen.add(fp);
        singles.push({ mistakes: [m], variants: [v] });
      }
    }
    const reproduces = async (v: MistakenVariant): Promise<boolean> => {
      variantsTried++;
      if (v.recipe.scheme === 'control' || v.recipe.algorithm === 'HMAC-SHA1') {
        const s = await signRecipe(v.recipe, secrets, crypto);
        // A variant that signs to the correct signature is no variant (e.g. lowercasing a lowercase key).
        if (s === null || s === correctSignature) return false;
        return constantTimeEqual(s, received);
      }
      return (await recipeReproduces(v.recipe, received, secrets, crypto)) === true;
    };
    for (const s of singles) if (await reproduces(s.variants[0]!)) confirmed.push(s);
    if (confirmed.length === 0) {
      outer: for (const s of singles) {
        for (const m of applicable) {
          if (m === s.mistakes[0]) continue;
          const r = m.transform!(s.variants[0]!.recipe, ctx);
          if (typeof r === 'string') continue;
          for (const v of r) {
            if (variantsTried >= MAX_VARIANTS) break outer;
            const fp = fingerprint(v.recipe);
            if (seen.has(fp)) continue;
            seen.add(fp);
            if (await reproduces(v))
              confirmed.push({ mistakes: [s.mistakes[0]!, m], variants: [s.variants[0]!, v] });
          }
        }
      }
    }
  }

  // Likely causes ---------------------------------------------------------------------------------
  const causes: LikelyCause[] = [];
  const listed = new Set<MistakeId>();
  const addCause = (c: LikelyCause) => {
    if (listed.has(c.mistakeId)) return;
    listed.add(c.mistakeId);
    causes.push(c);
  };
  const causeOf = (
    id: MistakeId,
    confidence: Confidence,
    evidence: string,
    extra: Partial<LikelyCause> = {},
  ): LikelyCause => {
    const m = mistakeById(id);
    // Only the rules of the capture's own scheme: an HMAC-SHA1 capture is not told about RSA keys.
    const rules = m.rules.filter((r) => r.schemes.includes(scheme));
    return { mistakeId: id, title: m.title, confidence, evidence, advice: m.advice, rules, ...extra };
  };
  const signatureWord = scheme === 'control' ? 'control' : 'oauth_signature';
  for (const c of confirmed) {
    const last = c.variants[c.variants.length - 1]!;
    const mistakenInput = signingInputOf(last.recipe, secrets);
    if (c.mistakes.length === 1) {
      addCause(
        causeOf(
          c.mistakes[0]!.id,
          'confirmed',
          `Re-signing the capture's own values this way reproduces the received ${signatureWord} exactly: ${last.detail}.`,
          {
            mistakenSigningInput: mistakenInput,
          },
        ),
      );
    } else {
      const [a, b] = c.mistakes as [Mistake, Mistake];
      const both = `Re-signing the capture's own values with two mistakes together reproduces the received ${signatureWord} exactly: ${c.variants[0]!.detail}; and ${last.detail}.`;
      addCause(causeOf(a.id, 'confirmed', both, { mistakenSigningInput: mistakenInput, together: b.id }));
      addCause(causeOf(b.id, 'confirmed', both, { mistakenSigningInput: mistakenInput, together: a.id }));
    }
  }
  // Mistakes that live outside the signature: the capture or the key shows them beyond doubt.
  const signatureBad = signatureMatches !== true;
  const byInspection: Array<[string, MistakeId, boolean]> = [
    ['timestamp-stale', 'stale-timestamp', true],
    ['timestamp-milliseconds', 'stale-timestamp', true],
    ['signature-method', 'wrong-signature-method', true],
    ['consumer-key-is-control-key', 'key-swapped-with-login', true],
    ['key-relabelled', 'pkcs1-pkcs8-confusion', signatureBad],
    ['key-is-public', 'pkcs1-pkcs8-confusion', signatureBad],
    ['key-container-mismatch', 'pkcs1-pkcs8-confusion', signatureBad],
    ['key-without-armor', 'pkcs1-pkcs8-confusion', signatureBad],
  ];
  for (const [findingId, mistakeId, applies] of byInspection) {
    const f = findings.find((x) => x.id === findingId);
    if (f && applies) addCause(causeOf(mistakeId, 'confirmed', f.message));
  }
  if (signatureBad) {
    const possible = findings.filter((f) => f.mistakeId !== undefined);
    for (const sev of ['error', 'warning'] as const)
      for (const f of possible)
        if (f.severity === sev) addCause(causeOf(f.mistakeId!, 'possible', f.message));
    if (signatureMatches === false && received !== null && received !== '' && confirmed.length === 0) {
      addCause(
        causeOf(
          'wrong-key',
          'possible',
          `No known mistake reproduces the received ${signatureWord} (${variantsTried} mistaken signings tried)${
            alternatives.length > 0 ? ', nor does any of the other keys given' : ''
          }. Either it was signed with another key (another merchant's, the other environment's, an old one), or a value was changed after signing (an edit, a proxy re-encoding the body).`,
        ),
      );
    }
    // Weak hints only when nothing stronger explains the mismatch.
    if (!causes.some((c) => c.confidence === 'confirmed'))
      for (const f of possible)
        if (f.severity === 'info') addCause(causeOf(f.mistakeId!, 'possible', f.message));
  }

  // Verdict ------------------------------------------------------------------------------------------
  const blocking = findings.some((f) => f.severity === 'error');
  const verdict: Diagnosis['verdict'] =
    signatureMatches === null
      ? 'cannot-check'
      : signatureMatches && !blocking && causes.length === 0
        ? 'ok'
        : 'mismatch';
  if (signatureMatches === null) {
    notes.push(
      scheme === 'control'
        ? 'No control key given: the signature cannot be recomputed; the structural checks ran.'
        : scheme === 'oauth-hmac-sha1'
          ? 'No control key given: the HMAC-SHA1 signature cannot be recomputed; the structural checks ran.'
          : 'No public key given: the RSA-SHA256 signature cannot be checked; the structural checks ran.',
    );
  }

  // Expected values, the first difference, the pasted base string -----------------------------------------
  const expected = expectedValues(verification, operation);
  const ours = expected.control ? expected.control.concatenation : expected.oauth!.baseString;
  let expectedDiff: ExpectedDiff | undefined;
  let theirs: string | undefined;
  if (input.expectedBaseString !== undefined) {
    theirs = input.expectedBaseString.replace(/\r?\n$/, '').trim();
    if (scheme === 'control' && theirs.endsWith(CONTROL_KEY_MASK))
      theirs = theirs.slice(0, -CONTROL_KEY_MASK.length);
    expectedDiff = { ours, theirs, equal: ours === theirs, segments: diffText(ours, theirs) };
    if (ours !== theirs)
      notes.push(
        `The pasted expected ${scheme === 'control' ? 'concatenation' : 'base string'} differs from ours at character ${firstDifferenceOffset(ours, theirs)}.`,
      );
  }
  let firstDifference: FirstDifference | null = null;
  let firstDifferenceNote: string | undefined;
  const best = confirmed.find((c) => c.mistakes.length === 1) ?? confirmed[0];
  if (best) {
    firstDifference = differenceFromRecipes(
      recipe,
      best.variants[best.variants.length - 1]!.recipe,
      secrets,
      best.mistakes[0]!.id,
    );
  } else if (theirs !== undefined && theirs !== ours) {
    firstDifference = differenceFromTexts(recipe, ours, theirs);
  } else if (signatureMatches === false && (received === null || received === '')) {
    firstDifferenceNote = `The request carries no ${signatureWord} value: there is nothing to compare with.`;
  } else if (signatureMatches === false) {
    firstDifferenceNote =
      scheme === 'control'
        ? 'A control hash cannot be inverted: no known mistake reproduces it, so the term where the signer went astray cannot be pointed at. Paste the gateway’s expected concatenation (the local sandbox shows it) to compare term by term.'
        : 'No known mistake reproduces the signature, so there is no mistaken base string to compare with. Paste the gateway’s expected base string (the local sandbox shows it) to compare pair by pair.';
  }

  return {
    verdict,
    scheme,
    operationPath: operation.path,
    endpoint,
    signatureMatches,
    received,
    signedUrl: scheme !== 'control' && hit !== -1 ? triedUrls[hit]!.url : null,
    triedUrls,
    firstDifference,
    ...(firstDifferenceNote ? { firstDifferenceNote } : {}),
    likelyCauses: causes,
    structuralFindings: findings,
    expected,
    ...(expectedDiff ? { expectedDiff } : {}),
    verification,
    variantsTried,
    ...(keyInspection ? { keyInspection } : {}),
    notes,
  };
}

/** Whether a verification's received signature is the correct one (strict: control hex in lowercase). */
async function matchesOf(
  v: Verification,
  secrets: RecipeSecrets,
  crypto: CryptoPort,
): Promise<boolean | null> {
  if (v.scheme === 'control') {
    if (v.expected === null) return null;
    return v.received !== null && constantTimeEqual(v.received, v.expected);
  }
  if (v.scheme === 'oauth-hmac-sha1') return v.expected === null ? null : v.ok;
  if (secrets.publicKey) return v.ok;
  if (secrets.privateKey && v.received !== null) {
    const s = await crypto.rsaSha256SignBase64(secrets.privateKey, v.base.baseString);
    return constantTimeEqual(s, v.received);
  }
  return null;
}

function signingInputOf(recipe: SigningRecipe, secrets: RecipeSecrets): string {
  return recipe.scheme === 'control'
    ? `${controlSigningInput(recipe, secrets)}${describeKeyChoice(recipe.key, secrets)}${recipe.hexCase === 'upper' ? ' (digest in uppercase hex)' : ''}`
    : oauthBaseString(recipe).baseString;
}

function expectedValues(v: Verification, op: DiagnoseOperation): ExpectedValues {
  if (v.scheme === 'control') {
    return {
      control: {
        value: v.expected,
        signingInput: v.trace.maskedInput,
        concatenation: v.trace.joined,
        formula: describeFormula(op.formula ?? []),
        terms: v.trace.terms,
      },
    };
  }
  return {
    oauth: {
      normalizedUrl: v.normalizedUrl,
      parameterString: v.sorted.map((p) => `${p.encodedName}=${p.encodedValue}`).join('&'),
      baseString: v.base.baseString,
      signature: v.expected,
      ...(v.scheme === 'oauth-hmac-sha1' ? { signingKey: `${CONTROL_KEY_MASK}&` } : {}),
    },
  };
}

function termText(t: ControlRecipe['terms'][number], secrets: RecipeSecrets): string {
  return t.secret ? describeKeyChoice(t.secret, secrets) : t.value;
}

/** Where the mistaken signing first departs from the correct one. */
function differenceFromRecipes(
  ours: SigningRecipe,
  theirs: SigningRecipe,
  secrets: RecipeSecrets,
  mistakeId: MistakeId,
): FirstDifference {
  const base = { against: 'mistaken-signing' as const, mistakeId };
  if (ours.scheme === 'control' && theirs.scheme === 'control') {
    let offset = 0;
    for (let i = 0; i < Math.max(ours.terms.length, theirs.terms.length); i++) {
      const a = ours.terms[i];
      const b = theirs.terms[i];
      const at = a ? termText(a, secrets) : '';
      const bt = b ? termText(b, secrets) : '';
      if (at !== bt || !!a?.secret !== !!b?.secret) {
        return {
          ...base,
          location: 'term',
          index: i,
          name: a?.label ?? b?.label ?? '',
          expected: at,
          actual: bt,
          offset: offset + (firstDifferenceOffset(at, bt) ?? 0),
          description: `term ${i + 1} (${a?.label ?? b?.label}): the description signs "${at}", the signer used "${bt}"`,
        };
      }
      offset += at.length;
    }
    const ka = describeKeyChoice(ours.key, secrets);
    const kb = describeKeyChoice(theirs.key, secrets);
    if (ka !== kb) {
      return {
        ...base,
        location: 'key',
        expected: ka,
        actual: kb,
        description: `the key appended: ${ka} expected, the signer appended ${kb}`,
      };
    }
    return {
      ...base,
      location: 'hex-case',
      expected: 'lowercase hex',
      actual: theirs.hexCase === 'upper' ? 'uppercase hex' : 'lowercase hex',
      description: 'the same digest, written in uppercase hex digits',
    };
  }
  const a = ours as OAuthRecipe;
  const b = theirs as OAuthRecipe;
  const ta = oauthBaseString(a);
  const tb = oauthBaseString(b, b.resign ? [{ name: 'oauth_signature', value: '<first signature>' }] : []);
  if (ta.baseString === tb.baseString) {
    if (a.algorithm !== b.algorithm) {
      return {
        ...base,
        location: 'algorithm',
        expected: a.algorithm,
        actual: b.algorithm,
        description: `signed with ${b.algorithm} instead of ${a.algorithm}`,
      };
    }
    const ka = describeKeyChoice(a.key, secrets, a.algorithm === 'HMAC-SHA1');
    const kb = describeKeyChoice(b.key, secrets, b.algorithm === 'HMAC-SHA1');
    return {
      ...base,
      location: 'signing-key',
      expected: ka,
      actual: kb,
      description: `the same base string, signed with ${kb} instead of ${ka}`,
    };
  }
  return differenceInBaseStrings(
    base,
    a.httpMethod,
    a.url,
    b.httpMethod,
    b.url,
    ta.pairs,
    tb.pairs,
    ta.baseString,
    tb.baseString,
  );
}

function differenceInBaseStrings(
  base: Pick<FirstDifference, 'against' | 'mistakeId'>,
  methodA: string,
  urlA: string,
  methodB: string,
  urlB: string,
  pairsA: readonly string[],
  pairsB: readonly string[],
  baseA: string,
  baseB: string,
): FirstDifference {
  const offset = firstDifferenceOffset(baseA, baseB) ?? 0;
  if (methodA.toUpperCase() !== methodB.toUpperCase()) {
    return {
      ...base,
      location: 'method',
      expected: methodA.toUpperCase(),
      actual: methodB.toUpperCase(),
      offset,
      description: `the method part: ${methodA} expected, ${methodB} used`,
    };
  }
  if (urlA !== urlB) {
    return {
      ...base,
      location: 'url',
      expected: urlA,
      actual: urlB,
      offset,
      description: `the URL part: ${urlA} expected, ${urlB} signed`,
    };
  }
  const sameSet =
    pairsA.length === pairsB.length && [...pairsA].sort().join('&') === [...pairsB].sort().join('&');
  // One pair more or less, the rest in place: name the inserted or missing pair.
  if (Math.abs(pairsA.length - pairsB.length) === 1) {
    const [longer, shorter] = pairsA.length > pairsB.length ? [pairsA, pairsB] : [pairsB, pairsA];
    for (let i = 0; i < longer.length; i++) {
      if (
        longer
          .slice(0, i)
          .concat(longer.slice(i + 1))
          .join('&') !== shorter.join('&')
      )
        continue;
      const pair = longer[i]!;
      const extra = longer === pairsB;
      return {
        ...base,
        location: 'parameter',
        index: i,
        name: percentDecode(pair.split('=')[0] ?? '', false),
        expected: extra ? '' : pair,
        actual: extra ? pair : '',
        offset,
        description: extra
          ? `pair ${i + 1}: an extra pair ${pair} was signed`
          : `pair ${i + 1}: ${pair} was not signed`,
      };
    }
  }
  for (let i = 0; i < Math.max(pairsA.length, pairsB.length); i++) {
    const pa = pairsA[i] ?? '';
    const pb = pairsB[i] ?? '';
    if (pa === pb) continue;
    const name = (pa || pb).split('=')[0] ?? '';
    if (sameSet) {
      return {
        ...base,
        location: 'parameter-order',
        index: i,
        name,
        expected: pa,
        actual: pb,
        offset,
        description: `pair ${i + 1}: ${pa} belongs here in sorted order; the signer put ${pb}`,
      };
    }
    return {
      ...base,
      location: 'parameter',
      index: i,
      name: percentDecode(name, false),
      expected: pa,
      actual: pb,
      offset,
      description:
        pa === ''
          ? `pair ${i + 1}: an extra pair ${pb} was signed`
          : pb === ''
            ? `pair ${i + 1}: ${pa} was not signed`
            : `pair ${i + 1}: ${pa} expected, ${pb} signed`,
    };
  }
  return {
    ...base,
    location: 'length',
    expected: baseA,
    actual: baseB,
    offset,
    description: `the base strings differ at character ${offset}`,
  };
}

/** Where a pasted expected text departs from ours. */
function differenceFromTexts(recipe: SigningRecipe, ours: string, theirs: string): FirstDifference {
  const base = { against: 'pasted-expected' as const };
  const offset = firstDifferenceOffset(ours, theirs) ?? 0;
  if (recipe.scheme === 'control') {
    let at = 0;
    for (let i = 0; i < recipe.terms.length; i++) {
      const t = recipe.terms[i]!;
      if (offset < at + t.value.length || i === recipe.terms.length - 1) {
        return {
          ...base,
          location: 'term',
          index: i,
          name: t.label,
          expected: t.value,
          actual: theirs.slice(at, at + Math.max(t.value.length, offset - at + 1)),
          offset,
          description: `at character ${offset}, in term ${i + 1} (${t.label}): ours reads "${t.value}", the gateway's text "${theirs.slice(at, at + t.value.length + 8)}…"`,
        };
      }
      at += t.value.length;
    }
  }
  const parts = (s: string) => {
    const [m = '', u = '', ...rest] = s.split('&');
    const params = percentDecode(rest.join('&'), false);
    return { m, u: percentDecode(u, false), pairs: params === '' ? [] : params.split('&') };
  };
  const a = parts(ours);
  const b = parts(theirs);
  return differenceInBaseStrings(base, a.m, a.u, b.m, b.u, a.pairs, b.pairs, ours, theirs);
}
