/**
 * Which tool a file comes from, told without its reader: the Saved page sniffs a file with this
 * small module and loads the import (zod schemas, readers) in the worker only for such a file.
 */
export type ForeignFormat = 'postman' | 'insomnia' | 'bruno';

/** The words a message names a file of this format with. */
export const FORMAT_WORDS: Record<ForeignFormat, string> = {
  postman: 'Postman collection',
  insomnia: 'Insomnia export',
  bruno: 'Bruno collection',
};

/** Whether parsed JSON is a Bruno collection export (its `brunoConfig`, or items typed as Bruno's). */
export function isBrunoExport(json: unknown): boolean {
  if (!json || typeof json !== 'object') return false;
  const o = json as Record<string, unknown>;
  if (!Array.isArray(o.items) || typeof o.name !== 'string') return false;
  return (
    'brunoConfig' in o ||
    o.items.some(
      (i) =>
        typeof i === 'object' &&
        i !== null &&
        ['http-request', 'graphql-request', 'folder'].includes(String((i as { type?: unknown }).type)),
    )
  );
}
