import { z } from 'zod/mini';
import {
  containsCardNumber,
  containsPrivateKey,
  dropCvvFromText,
  findOperation,
  isCvvName,
  isPanName,
  isSecretName,
} from '../catalog/index.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { DraftError } from './errors.ts';
import { isVariableOnly } from './variables.ts';
import { DRAFT_VERSION, RequestDraftSchema, type DraftValue, type RequestDraft } from './request-draft.ts';

/** The fragment key: `#share=…` never reaches a server, so the values stay out of access logs. */
export const SHARE_FRAGMENT_KEY = 'share';
/** Longest link accepted on decode (characters of the token). */
export const MAX_SHARE_TOKEN = 32_768;

export type DropReason = 'cvv' | 'card-number' | 'secret' | 'signature';

export interface ShareableDraft {
  draft: RequestDraft;
  /** Names whose values were taken out and why, for the UI to say so. */
  dropped: Array<{ name: string; reason: DropReason }>;
}

function dropReason(name: string, value: DraftValue, operation: string): DropReason | undefined {
  if (name === 'control' || name === 'oauth_signature') return 'signature';
  // A placeholder, a value already withheld or an empty one holds nothing to take out.
  if (typeof value !== 'string' || value === '') return undefined;
  // `{{card_number}}` names a variable, it holds no card number: a saved request keeps it.
  if (isVariableOnly(value)) return undefined;
  if (isCvvName(name) || dropCvvFromText(value) !== value) return 'cvv';
  if (isSecretName(name) || containsPrivateKey(value)) return 'secret';
  if (isPanName(name, operation) || containsCardNumber(value)) return 'card-number';
  return undefined;
}

/**
 * The draft as it may be shared: the control key and private key are never in a draft; the CVV,
 * card numbers (by field and by content) and anything secret-looking are withheld here (the name
 * stays, in its place, marked `{ withheld }`: it must be typed again before a send, see
 * {@link missingValues}); `control` and `oauth_signature` are left out (signing computes them).
 * Placeholders (login, return page, callback inbox) stay placeholders, so the link opens with the
 * recipient's own.
 */
export function prepareShareDraft(draft: RequestDraft): ShareableDraft {
  const dropped: ShareableDraft['dropped'] = [];
  const kept = (name: string, value: DraftValue): DraftValue | undefined => {
    const reason = dropReason(name, value, draft.operation);
    if (reason === undefined) return value;
    dropped.push({ name, reason });
    return reason === 'signature' ? undefined : { withheld: reason };
  };
  const values: Record<string, DraftValue> = {};
  for (const [name, value] of Object.entries(draft.values)) {
    const v = kept(name, value);
    if (v !== undefined) values[name] = v;
  }
  const extras = draft.extras.flatMap((e) => {
    const v = kept(e.name, e.value);
    return v === undefined ? [] : [{ name: e.name, value: v }];
  });
  return { draft: { ...draft, values, extras }, dropped };
}

/** A share link fragment for a draft: `#share=<base64url of the UTF-8 JSON of the shareable draft>`. */
export function encodeShareLink(draft: RequestDraft): string {
  const { draft: clean } = prepareShareDraft(draft);
  return `#${SHARE_FRAGMENT_KEY}=${toBase64Url(new TextEncoder().encode(JSON.stringify(clean)))}`;
}

const damaged = (why: string) =>
  new DraftError(
    'SHARE_LINK_DAMAGED',
    `This share link is damaged (${why}): ask for the link again and copy it whole.`,
  );

/** The token of a link: from a full URL, a `#share=…` fragment, `share=…`, or the bare token. */
function tokenOf(input: string): string {
  const text = input.trim();
  const hashAt = text.indexOf('#');
  const fragment = hashAt === -1 ? text : text.slice(hashAt + 1);
  const m = new RegExp(`(?:^|[#&?])${SHARE_FRAGMENT_KEY}=([^&#]*)`).exec(fragment);
  if (m) return m[1]!;
  if (hashAt !== -1 || fragment.includes('=')) throw damaged(`no "${SHARE_FRAGMENT_KEY}=" part after #`);
  return fragment;
}

/** Version 1 (before the request model): short keys, values only, the sender's inbox frozen in. */
const V1_PAIR = z.tuple([
  z.string().check(z.minLength(1), z.maxLength(200)),
  z.string().check(z.maxLength(65_536)),
]);
const V1Schema = z.object({
  v: z.literal(1),
  o: z.string().check(z.minLength(1), z.maxLength(200)),
  p: z.array(V1_PAIR).check(z.maxLength(500)),
  x: z.optional(z.array(V1_PAIR).check(z.maxLength(500))),
  e: z.optional(z.string().check(z.regex(/^(?:g)?\d{1,19}$/))),
});

const INBOX_URL = /^https?:\/\/[^/]+\/callbacks\/[A-Za-z0-9_-]{1,64}$/;
const RETURN_URL = /^https?:\/\/[^/]+\/return$/;

/**
 * v1 → v2. A v1 link froze the sender's login, return page and inbox into the values; they become
 * placeholders so that the recipient's own are used.
 */
export function migrateV1(v1: z.infer<typeof V1Schema>): RequestDraft {
  const op = findOperation(v1.o);
  const known = new Set(op?.fields.map((f) => f.name) ?? []);
  const values: Record<string, DraftValue> = {};
  const extras: RequestDraft['extras'] = [];
  const place = (name: string, value: string): DraftValue => {
    if (op?.fields.some((f) => f.name === name && f.fromProfile === 'login')) return { place: 'login' };
    if (INBOX_URL.test(value)) return { place: 'callback-url' };
    if (RETURN_URL.test(value)) return { place: 'return-url' };
    return value;
  };
  for (const [name, value] of v1.p) {
    if (known.has(name)) {
      if (!Object.hasOwn(values, name)) values[name] = place(name, value);
    } else extras.push({ name, value: place(name, value) });
  }
  for (const [name, value] of v1.x ?? []) extras.push({ name, value: place(name, value) });
  return {
    v: DRAFT_VERSION,
    operation: v1.o,
    values,
    extras,
    ...(v1.e
      ? {
          endpoint: v1.e.startsWith('g')
            ? { kind: 'group', id: v1.e.slice(1) }
            : { kind: 'endpoint', id: v1.e },
        }
      : {}),
  };
}

/** Why draft data could not be read: damaged, made by a newer console, or for an unknown operation. */
export type DraftDataProblem =
  | { kind: 'damaged'; detail: string }
  | { kind: 'version'; version: number }
  | { kind: 'operation'; operation: string };

/**
 * The one reader of a draft from untrusted JSON (a share link, a collections file): the version is
 * checked, version 1 is migrated, the schema is checked with zod, the operation must be known, and
 * what must not be shared is taken out again, whoever wrote the data.
 */
export function readDraftData(json: unknown): { draft: RequestDraft } | { problem: DraftDataProblem } {
  const version = json && typeof json === 'object' && 'v' in json ? (json as { v: unknown }).v : undefined;
  if (typeof version === 'number' && version > DRAFT_VERSION)
    return { problem: { kind: 'version', version } };
  let draft: RequestDraft;
  if (version === 1) {
    const v1 = V1Schema.safeParse(json);
    if (!v1.success) return { problem: { kind: 'damaged', detail: issueText(v1.error) } };
    draft = migrateV1(v1.data);
  } else {
    const v2 = RequestDraftSchema.safeParse(json);
    if (!v2.success) return { problem: { kind: 'damaged', detail: issueText(v2.error) } };
    draft = v2.data;
  }
  if (!findOperation(draft.operation)) return { problem: { kind: 'operation', operation: draft.operation } };
  return { draft: prepareShareDraft(draft).draft };
}

/**
 * Reads a share link back into a draft with {@link readDraftData}.
 * @throws DraftError SHARE_LINK_DAMAGED for a cut or altered link, SHARE_LINK_VERSION for a link of a
 *   newer console, SHARE_LINK_OPERATION for an operation this console does not know.
 */
export function decodeShareLink(link: string): RequestDraft {
  const token = tokenOf(link);
  if (token === '') throw damaged('it is empty');
  if (token.length > MAX_SHARE_TOKEN) throw damaged(`longer than ${MAX_SHARE_TOKEN} characters`);
  const bytes = fromBase64Url(token);
  if (!bytes) throw damaged('it is not base64url text');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new DraftError(
      'SHARE_LINK_DAMAGED',
      'This share link is damaged (its content is not readable): ask for the link again and copy it whole.',
      { cause },
    );
  }
  const read = readDraftData(json);
  if ('draft' in read) return read.draft;
  const p = read.problem;
  if (p.kind === 'version') {
    throw new DraftError(
      'SHARE_LINK_VERSION',
      `This share link was made by a newer version of the console (format ${p.version}): update the console to open it.`,
    );
  }
  if (p.kind === 'operation') {
    throw new DraftError(
      'SHARE_LINK_OPERATION',
      `This share link is for the operation "${p.operation.slice(0, 80)}", which this console does not know: check that both consoles are the same version.`,
    );
  }
  throw damaged(p.detail);
}

function issueText(error: z.core.$ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'content'}: ${issue.message}`;
}
