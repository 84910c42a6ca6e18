import { z } from 'zod/mini';
import '../../catalog/zod-english.ts';
import { CodedError } from '../../core/errors.ts';
import type { RequestDraft } from '../../model/index.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import { readDraftData, type DraftDataProblem } from '../../model/share-link.ts';
import type { Collection, SavedRequest } from './saved-schema.ts';

/** The `format` field of an exported collections file. */
export const COLLECTIONS_FORMAT = 'pay-console-collections';
/** The file format this console writes; files of older formats are read, newer ones refused. */
export const COLLECTIONS_VERSION = 1;
/** Largest file accepted on import (characters). */
export const MAX_COLLECTIONS_FILE = 5_000_000;

export type CollectionsFileErrorCode =
  | 'COLLECTIONS_FILE_UNREADABLE'
  | 'COLLECTIONS_FILE_FORMAT'
  | 'COLLECTIONS_FILE_VERSION'
  | 'COLLECTIONS_FILE_REQUEST';

/** A collections file that cannot be imported; the message says what is wrong and what to do. */
export class CollectionsFileError extends CodedError<CollectionsFileErrorCode> {
  override readonly name = 'CollectionsFileError';
}

export interface FileCollection {
  name: string;
  requests: Array<{ name: string; draft: RequestDraft }>;
}

const NAME = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** Version 1 of the file: collections by name, each request a name and a request draft. */
const FileSchemaV1 = z.object({
  format: z.literal(COLLECTIONS_FORMAT),
  version: z.literal(1),
  exportedAt: z.optional(z.string().check(z.maxLength(64))),
  collections: z
    .array(
      z.object({
        name: NAME,
        // Drafts are read by the model's one draft reader (versions, migration, masking).
        requests: z.array(z.object({ name: NAME, draft: z.unknown() })).check(z.maxLength(10_000)),
      }),
    )
    .check(z.maxLength(1_000)),
});

/**
 * The exported file: every collection with its requests by name, each draft masked again (no card
 * number, CVV, secret or signature, whatever was stored), no ids, no keys.
 */
export function buildCollectionsFile(
  collections: readonly Collection[],
  requests: readonly SavedRequest[],
  exportedAt: string,
): z.infer<typeof FileSchemaV1> {
  return {
    format: COLLECTIONS_FORMAT,
    version: COLLECTIONS_VERSION,
    exportedAt,
    collections: collections.map((c) => ({
      name: c.name,
      requests: requests
        .filter((r) => r.collectionId === c.id)
        .map((r) => ({ name: r.name, draft: maskDraft(r.draft) })),
    })),
  };
}

function problemText(p: DraftDataProblem): string {
  if (p.kind === 'version') return `it was saved by a newer console (request format ${p.version})`;
  if (p.kind === 'operation') return `its operation "${p.operation.slice(0, 80)}" is unknown to this console`;
  return `it is damaged (${p.detail})`;
}

/**
 * Reads an exported collections file, checked with zod; each request's draft goes through the
 * model's draft reader and is masked again, whoever wrote the file.
 * @throws CollectionsFileError with a message that names the problem and what to do.
 */
export function readCollectionsFile(text: string): FileCollection[] {
  if (text.length > MAX_COLLECTIONS_FILE) {
    throw new CollectionsFileError(
      'COLLECTIONS_FILE_UNREADABLE',
      `This file is larger than ${MAX_COLLECTIONS_FILE / 1_000_000} MB: it is not a collections file exported by the console.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new CollectionsFileError(
      'COLLECTIONS_FILE_UNREADABLE',
      'This file is not JSON: choose a file made by "Export collections".',
      { cause },
    );
  }
  const head = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  if (head.format !== COLLECTIONS_FORMAT) {
    throw new CollectionsFileError(
      'COLLECTIONS_FILE_FORMAT',
      `This JSON file is not a collections file (its "format" is not "${COLLECTIONS_FORMAT}"), a Postman collection (v2.1) or an Insomnia export: choose a file made by "Export collections", Postman or Insomnia. A HAR file is imported from the workbench's Import panel instead.`,
    );
  }
  if (typeof head.version === 'number' && head.version > COLLECTIONS_VERSION) {
    throw new CollectionsFileError(
      'COLLECTIONS_FILE_VERSION',
      `This collections file was made by a newer console (format version ${head.version}; this console reads ${COLLECTIONS_VERSION}): update the console to import it.`,
    );
  }
  const parsed = FileSchemaV1.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CollectionsFileError(
      'COLLECTIONS_FILE_FORMAT',
      `This collections file is damaged at ${issue.path.join('.') || 'its top level'}: ${issue.message}. Export the collections again.`,
    );
  }
  return parsed.data.collections.map((c) => ({
    name: c.name,
    requests: c.requests.map((r) => {
      const read = readDraftData(r.draft);
      if ('problem' in read) {
        throw new CollectionsFileError(
          'COLLECTIONS_FILE_REQUEST',
          `The request "${r.name.slice(0, 80)}" in the collection "${c.name.slice(0, 80)}" cannot be imported: ${problemText(read.problem)}. Nothing was imported; fix or remove that request, or export again.`,
        );
      }
      return { name: r.name, draft: maskDraft(read.draft) };
    }),
  }));
}

/** A name not yet used among `taken`: the name itself, else "name (2)", "name (3)", … */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name} (${i})`;
    if (!taken.has(candidate)) return candidate;
  }
}
