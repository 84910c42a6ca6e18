import { CodedError } from '../../core/errors.ts';
import type { RequestDraft } from '../../model/index.ts';
import { maskDraft } from '../../model/mask-draft.ts';
import { readDraftData, type DraftDataProblem } from '../../model/share-link.ts';
import {
  COLLECTIONS_FORMAT,
  COLLECTIONS_VERSION,
  CollectionsFileSchema,
  type CollectionsFile,
} from '../../exports/collections-file.ts';
import type { StepChecks } from '../../model/step-checks.ts';
import type { Collection, SavedRequest } from './saved-schema.ts';

export { COLLECTIONS_FORMAT, COLLECTIONS_VERSION };
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
  /** The defaults of the collection's variables (issue 33). */
  variables?: Record<string, string>;
  requests: Array<{ name: string; draft: RequestDraft; checks?: StepChecks }>;
}

/**
 * The exported file: every collection with its requests by name, each draft masked again (no card
 * number, CVV, secret or signature, whatever was stored), no ids, no keys.
 */
export function buildCollectionsFile(
  collections: readonly Collection[],
  requests: readonly SavedRequest[],
  exportedAt: string,
): CollectionsFile {
  return {
    format: COLLECTIONS_FORMAT,
    version: COLLECTIONS_VERSION,
    exportedAt,
    collections: collections.map((c) => ({
      name: c.name,
      ...(c.variables ? { variables: c.variables } : {}),
      requests: requests
        .filter((r) => r.collectionId === c.id)
        .map((r) => ({ name: r.name, draft: maskDraft(r.draft), ...(r.checks ? { checks: r.checks } : {}) })),
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
  const parsed = CollectionsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CollectionsFileError(
      'COLLECTIONS_FILE_FORMAT',
      `This collections file is damaged at ${issue.path.join('.') || 'its top level'}: ${issue.message}. Export the collections again.`,
    );
  }
  return parsed.data.collections.map((c) => ({
    name: c.name,
    ...(c.variables ? { variables: c.variables } : {}),
    requests: c.requests.map((r) => {
      const read = readDraftData(r.draft);
      if ('problem' in read) {
        throw new CollectionsFileError(
          'COLLECTIONS_FILE_REQUEST',
          `The request "${r.name.slice(0, 80)}" in the collection "${c.name.slice(0, 80)}" cannot be imported: ${problemText(read.problem)}. Nothing was imported; fix or remove that request, or export again.`,
        );
      }
      return { name: r.name, draft: maskDraft(read.draft), ...(r.checks ? { checks: r.checks } : {}) };
    }),
  }));
}

/** A name not yet used among `taken`: the name itself, else "name (2)", "name (3)", … */
/**
 * The name of a duplicate: "Sale (copy)", then "Sale (copy 2)", "Sale (copy 3)"; a copy's copy
 * counts on from its original's name rather than stacking suffixes ("Sale (copy) (copy) (2)").
 */
export function copyName(name: string, taken: ReadonlySet<string>): string {
  const base = name.replace(/ \(copy(?: \d+)?\)$/, '');
  if (!taken.has(`${base} (copy)`)) return `${base} (copy)`;
  for (let i = 2; ; i++) {
    const candidate = `${base} (copy ${i})`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name} (${i})`;
    if (!taken.has(candidate)) return candidate;
  }
}
