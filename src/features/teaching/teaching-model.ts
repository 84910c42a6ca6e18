import { clientOrderIdField } from '../../catalog/index.ts';
import {
  type BuiltRequest,
  type Clock,
  type Credentials,
  type CryptoPort,
  type EndpointRef,
  type Scheme,
} from '../../core/index.ts';
import {
  OTHER_MERCHANT_CONTROL_KEY,
  TEACHING_SWITCHES,
  teach,
  walkthrough,
  type Mistake,
  type MistakeId,
  type TeachResult,
  type Walkthrough,
} from '../../diagnose/index.ts';
import type { Operation } from '../../catalog/index.ts';
import {
  buildDraft,
  draftFromValues,
  exampleDraft,
  formFromDraft,
  requireAllValues,
  resolveDraft,
  schemesOf,
  signingSpecOf,
  type FormState,
  type Place,
  type RequestDraft,
  type SigningEnv,
} from '../../model/index.ts';

export { OTHER_MERCHANT_CONTROL_KEY, schemesOf };

/** What the teaching mode signs with: the active profile, resolved. */
export interface TeachingProfile {
  baseUrl: string;
  endpoint: EndpointRef;
  credentials: Credentials;
}

/** The teaching switches that act on a scheme, in the catalogue's order. */
export function switchesFor(scheme: Scheme): Mistake[] {
  return TEACHING_SWITCHES.filter((m) => m.schemes.includes(scheme));
}

const YEAR_FIELDS = new Set(['expire_year', 'expire-year']);

/** A fresh merchant order id from the secure random generator. */
export function freshOrderId(
  now: number,
  random: (n: number) => Uint8Array = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n)),
): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let tail = '';
  for (const b of random(6)) tail += alphabet[b % alphabet.length];
  return `teach-${now.toString(36)}-${tail}`;
}

/**
 * The catalog's example request with a fresh order id and an expiry in the future; the login,
 * return page and callback inbox stay placeholders for the place it is used in.
 */
export function testDraft(op: Operation, now: number): RequestDraft {
  const overrides: Record<string, string> = {};
  for (const f of op.fields) {
    if (f.role === 'client-order-id') overrides[f.name] = freshOrderId(now);
    else if (YEAR_FIELDS.has(f.name)) overrides[f.name] = String(new Date(now).getUTCFullYear() + 3);
  }
  return exampleDraft(op, overrides);
}

/** A draft's values as the teaching page edits them: one text per name, fields and extras alike. */
export function flatValues(draft: RequestDraft, place: Place): Record<string, string> {
  const r = resolveDraft(draft, place);
  const out = { ...r.values };
  for (const e of r.extras) if (e.name !== '' && !(e.name in out)) out[e.name] = e.value;
  return out;
}

/** {@link testDraft}'s values at this place (this console's origin and inbox, the profile's login). */
export function testValues(op: Operation, now: number, place: Place): Record<string, string> {
  return flatValues(testDraft(op, now), place);
}

/**
 * The draft the page opens with: the one it was given (the workbench's, with its scheme, edited
 * formula, endpoint and pinned values) when it holds values of its own, else the test request in
 * that draft's scheme, formula and endpoint.
 */
export function teachingStart(
  op: Operation,
  given: RequestDraft | null | undefined,
  now: number,
): RequestDraft {
  if (given && hasOwnValues(op, given)) return given;
  const test = testDraft(op, now);
  if (!given) return test;
  const { scheme, formula, endpoint, pinned } = given;
  return {
    ...test,
    ...(scheme ? { scheme } : {}),
    ...(formula ? { formula } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(pinned ? { pinned } : {}),
  };
}

/**
 * A draft worth teaching on: a value typed in a field other than the profile's login, or a login
 * typed over the profile's (a literal: the profile's own is a placeholder). An operation whose
 * only field is the login (the hosted-fields ticket) would otherwise lose what was typed.
 */
function hasOwnValues(op: Operation, draft: RequestDraft): boolean {
  const fromProfile = new Set(op.fields.filter((f) => f.fromProfile).map((f) => f.name));
  return Object.entries(draft.values).some(
    ([k, v]) => v !== '' && (!fromProfile.has(k) || typeof v === 'string'),
  );
}

/**
 * The draft with a change made as a form makes it (a value typed, the scheme picked), read back
 * through the model's one `draftFromValues`: placeholders, withheld values, the edited formula,
 * the endpoint and the pinned values are kept.
 */
export function editDraft(
  op: Operation,
  draft: RequestDraft,
  place: Place,
  change: (form: FormState) => FormState,
): RequestDraft {
  return draftFromValues(op, change(formFromDraft(op, draft, place)), place);
}

/** The draft with one value (a field, or an extra parameter by name) set to `value`. */
export function withValue(
  op: Operation,
  draft: RequestDraft,
  place: Place,
  name: string,
  value: string,
): RequestDraft {
  const isField = op.fields.some((f) => f.name === name);
  return editDraft(op, draft, place, (form) =>
    isField
      ? { ...form, values: { ...form.values, [name]: value } }
      : { ...form, extras: form.extras.map((e) => (e.name === name ? { ...e, value } : e)) },
  );
}

/** The test request's values in the draft's scheme, formula, endpoint and pinned values. */
export function withTestValues(op: Operation, draft: RequestDraft, now: number): RequestDraft {
  const test = testDraft(op, now);
  return { ...draft, values: test.values, extras: test.extras };
}

/** The order id field of an operation, when it has one. */
export function orderIdField(op: Operation): string | undefined {
  return clientOrderIdField(op.fields)?.name;
}

export interface TeachingArgs {
  op: Operation;
  /** The request taught on, as the model holds it. */
  draft: RequestDraft;
  place: Place;
  profile: TeachingProfile;
  /** The nonce and timestamp an OAuth request is signed with (the page's, or the draft's own). */
  pinned: { nonce: string; timestamp: string };
  mistake: MistakeId | null;
  crypto: CryptoPort;
  clock: Clock;
  /** The key "sign with the wrong key" uses for RSA-SHA256 (a throwaway key nobody registered). */
  wrongPrivateKey?: CryptoKey;
  /** The merchant's other id (endpoint group id or endpoint id), for "sign with the other id". */
  otherId?: string;
}

/** Where the draft is signed: the profile's target and secrets, the page's place with the profile's login. */
function teachingEnv(a: TeachingArgs): SigningEnv {
  return {
    place: { ...a.place, login: a.profile.credentials.login },
    baseUrl: a.profile.baseUrl,
    endpoint: a.profile.endpoint,
    credentials: a.profile.credentials,
    runtime: { crypto: a.crypto, clock: a.clock, nonce: () => a.pinned.nonce },
  };
}

/**
 * Runs the engine's teaching mode on the draft: built once by the request model's `buildDraft`
 * (so what is taught is what the workbench signs), then one mistake at most injected.
 * @throws DraftError DRAFT_MISSING_VALUES naming the values the draft came without.
 */
export async function runTeaching(a: TeachingArgs): Promise<TeachResult> {
  requireAllValues(a.draft, 'sign this request');
  const correct = await buildDraft({ ...a.draft, pinned: a.pinned }, teachingEnv(a));
  const endpoint = a.draft.endpoint ?? a.profile.endpoint;
  const other = a.otherId?.trim() ?? '';
  const ids =
    other === ''
      ? undefined
      : endpoint.kind === 'group'
        ? { endpointId: other, endpointGroupId: endpoint.id }
        : { endpointId: endpoint.id, endpointGroupId: other };
  return teach({
    correct,
    endpoint,
    credentials: a.profile.credentials,
    crypto: a.crypto,
    mistakes: a.mistake ? [a.mistake] : [],
    wrongKey: a.wrongPrivateKey ? { privateKey: a.wrongPrivateKey } : {},
    ...(ids ? { knownIds: ids } : {}),
  });
}

/** The walkthrough of the request teaching built: read from its signing trace, not signed again. */
export function teachingWalkthrough(
  a: Pick<TeachingArgs, 'op' | 'draft' | 'profile'>,
  built: BuiltRequest,
): Walkthrough {
  const key = a.profile.credentials.privateKey?.algorithm as RsaHashedKeyAlgorithm | undefined;
  return walkthrough(built, signingSpecOf(a.op, a.draft), {
    login: a.profile.credentials.login,
    endpoint: a.draft.endpoint ?? a.profile.endpoint,
    ...(key?.modulusLength ? { rsaKeyBits: key.modulusLength } : {}),
  });
}
