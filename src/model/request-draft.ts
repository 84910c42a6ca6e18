// zod/mini: drafts are read on the first page, and mini is a third of zod's size.
import { z } from 'zod/mini';
import type { ControlTerm, EndpointRef, Scheme } from '../core/index.ts';

/** The version of the draft format; older formats are migrated when read (see share-link.ts). */
export const DRAFT_VERSION = 2;

/**
 * Values that belong to the place a draft is opened, not to the draft: the merchant login of the
 * active profile, this console's return page and this session's callback inbox. A draft holds the
 * placeholder; {@link resolveDraft} puts in the values of wherever it is used.
 */
export const PLACE_REFS = ['login', 'return-url', 'callback-url'] as const;
export type PlaceRef = (typeof PLACE_REFS)[number];

const NAME = z.string().check(z.minLength(1), z.maxLength(200));
const TEXT = z.string().check(z.maxLength(65_536));

/**
 * Why a value is not in a draft the console kept (history, saved requests, a file, a share link):
 * a card number, a CVV or a secret is never kept; {@link missingValues} names it before a send.
 */
export const WITHHELD_REASONS = ['card-number', 'cvv', 'secret'] as const;
export type WithheldReason = (typeof WITHHELD_REASONS)[number];

/**
 * A value as a draft holds it: literal text, a placeholder resolved where the draft is used, or a
 * value that was sent but not kept (it must be typed again before the draft is sent).
 */
export const DraftValueSchema = z.union([
  TEXT,
  z.strictObject({ place: z.enum(PLACE_REFS) }),
  z.strictObject({ withheld: z.enum(WITHHELD_REASONS) }),
]);
export type DraftValue = z.infer<typeof DraftValueSchema>;
export type WithheldValue = { withheld: WithheldReason };

export function isWithheld(v: DraftValue): v is WithheldValue {
  return typeof v === 'object' && 'withheld' in v;
}

export const SchemeSchema = z.enum(['control', 'oauth-hmac-sha1', 'oauth-rsa-sha256']);

const ControlTermSchema = z.union([
  z.strictObject({ kind: z.literal('login') }),
  z.strictObject({ kind: z.literal('endpointId') }),
  z.strictObject({ kind: z.literal('field'), name: NAME, minorUnits: z.optional(z.boolean()) }),
]);

export const EndpointRefSchema = z.strictObject({
  kind: z.enum(['endpoint', 'group']),
  id: z.string().check(z.regex(/^\d{1,19}$/, 'an endpoint id is a whole number, e.g. 1111')),
});

/** OAuth nonce and timestamp to reproduce a captured request; absent: fresh ones on every send. */
export const PinnedSchema = z.strictObject({
  nonce: z.string().check(z.maxLength(512)),
  timestamp: z.string().check(z.maxLength(32)),
});

/**
 * One request as every surface holds it: the form, send, history, share links, imports, snippets,
 * teaching, flows and the CLI all produce and consume this. Serializable (plain JSON), no secrets.
 */
export const RequestDraftSchema = z.strictObject({
  v: z.literal(DRAFT_VERSION),
  /** The operation's path after `/api/`, e.g. `v2/sale`. */
  operation: NAME,
  /** The scheme chosen where the operation allows several; absent: the operation's own. */
  scheme: z.optional(SchemeSchema),
  /** An edited `control` formula (only where the description gives none); absent: the catalog's. */
  formula: z.optional(z.array(ControlTermSchema).check(z.maxLength(100))),
  /** The operation's own fields by name (the catalog gives their order). */
  values: z.record(NAME, DraftValueSchema),
  /** Parameters that are not fields of the operation, in the order they are sent. */
  extras: z
    .array(z.strictObject({ name: z.string().check(z.maxLength(200)), value: DraftValueSchema }))
    .check(z.maxLength(500)),
  /** The endpoint or endpoint group; absent: the active profile's. */
  endpoint: z.optional(EndpointRefSchema),
  pinned: z.optional(PinnedSchema),
  /** The proxy target by name, as a note; a draft never chooses where it is sent by itself. */
  target: z.optional(z.string().check(z.maxLength(200))),
});
export type RequestDraft = z.infer<typeof RequestDraftSchema>;

/** A draft with every placeholder replaced by the values of the place it is used in. */
export interface ResolvedDraft {
  operation: string;
  scheme?: Scheme;
  formula?: ControlTerm[];
  values: Record<string, string>;
  extras: Array<{ name: string; value: string }>;
  endpoint?: EndpointRef;
  pinned?: { nonce: string; timestamp: string };
  target?: string;
  /** Names whose value came from the profile (a `login` placeholder). */
  fromProfile: Set<string>;
}

/** An empty draft of an operation: no values, the operation's own scheme and formula. */
export function emptyDraft(operation: string): RequestDraft {
  return { v: DRAFT_VERSION, operation, values: {}, extras: [] };
}

/** Checks untrusted data (storage, a link, a file) against the schema; undefined when it is none. */
export function parseDraft(data: unknown): RequestDraft | undefined {
  const r = RequestDraftSchema.safeParse(data);
  return r.success ? r.data : undefined;
}

/** A stable text key of a draft: equal drafts give equal keys (object keys sorted). */
export function draftKey(draft: RequestDraft): string {
  return JSON.stringify(draft, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
