/**
 * A file to run (`paysign run`, the runner view's import): the console's collections file, or a
 * Postman v2.1 / Insomnia v4 collection (its variables kept as `{{name}}`, the file's own as the
 * collection's defaults). Read whole, checked with zod; drafts through the model's one draft reader.
 * Drafts are read as any file's are (a card number or CVV written in the file is withheld and the
 * step refused, naming it): a collection says `{{card_number}}` and `{{cvv}}`, and the environment
 * gives them (the local sandbox's environment has its test card).
 */
import { readDraftData } from '../model/share-link.ts';
import { RunCollectionSchema, type RunCollection } from '../model/collection-run.ts';
import type { Place } from '../model/index.ts';
import { COLLECTIONS_FORMAT, CollectionsFileSchema } from './collections-file.ts';
import { ExportError } from './errors.ts';
import {
  foreignCollectionFormat,
  importForeignCollection,
} from './foreign-collections/import-foreign-collection.ts';

const MAX_FILE = 5_000_000;

function unreadable(message: string): ExportError {
  return new ExportError('IMPORT_UNREADABLE', message);
}

/**
 * The collection to run from a file's text; `name` picks one collection of a console file (the
 * first by default).
 * @throws ExportError IMPORT_UNREADABLE, saying what is wrong with the file and what to do.
 */
export function readRunCollection(
  text: string,
  options: { name?: string; place?: Place } = {},
): RunCollection {
  if (text.length > MAX_FILE) throw unreadable('This file is larger than 5 MB: split the collection.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw unreadable(
      'This file is not JSON: give a collections file exported by the console, a Postman collection (v2.1) or an Insomnia export.',
    );
  }
  if (foreignCollectionFormat(json) !== null) {
    const c = importForeignCollection(text, options.place ? { place: options.place } : {});
    return RunCollectionSchema.parse({
      name: c.name,
      variables: c.variables,
      steps: c.requests.map((r) => ({
        name: r.name.slice(0, 200),
        draft: r.draft,
        ...(r.set ? { checks: { set: r.set } } : {}),
      })),
    });
  }
  const head = json && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  if (head.format !== COLLECTIONS_FORMAT)
    throw unreadable(
      `This JSON file is not a collections file (its "format" is not "${COLLECTIONS_FORMAT}"), a Postman collection (v2.1) or an Insomnia export.`,
    );
  const parsed = CollectionsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw unreadable(
      `This collections file is damaged at ${issue.path.join('.') || 'its top level'}: ${issue.message}.`,
    );
  }
  const all = parsed.data.collections;
  const chosen = options.name === undefined ? all[0] : all.find((c) => c.name === options.name);
  if (!chosen)
    throw unreadable(
      options.name === undefined
        ? 'This collections file holds no collection.'
        : `No collection is named "${options.name.slice(0, 80)}" in this file (it holds ${all.map((c) => `"${c.name}"`).join(', ')}).`,
    );
  return {
    name: chosen.name,
    variables: chosen.variables ?? {},
    steps: chosen.requests.map((r) => {
      const read = readDraftData(r.draft);
      if ('problem' in read)
        throw unreadable(
          `The request "${r.name.slice(0, 80)}" cannot be run: ${read.problem.kind === 'operation' ? `its operation "${read.problem.operation.slice(0, 80)}" is unknown` : read.problem.kind === 'version' ? 'it was saved by a newer console' : `it is damaged (${read.problem.detail})`}.`,
        );
      return { name: r.name, draft: read.draft, ...(r.checks ? { checks: r.checks } : {}) };
    }),
  };
}
