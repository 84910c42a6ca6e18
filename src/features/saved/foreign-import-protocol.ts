import type { ForeignFormat } from '../../exports/foreign-collections/foreign-format.ts';
import type { SavedRequest } from './saved-schema.ts';

/** Saved requests per message from the import worker (a message is one task of the page's thread). */
export const IMPORT_CHUNK = 1_000;

/** What the page asks of the import worker: read this file into saved requests of `collectionId`. */
export interface ImportJob {
  text: string;
  /** A Bruno collection's `.bru` files (and `bruno.json`), read together instead of `text`. */
  files?: Array<{ name: string; text: string }>;
  collectionId: string;
  /** The import's time, as `savedAt` and `updatedAt`. */
  at: string;
}

/** What the import worker tells the page, in this order: progress and chunks, then done or failed. */
export type ImportMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'chunk'; requests: SavedRequest[] }
  | {
      type: 'done';
      format: ForeignFormat;
      name: string;
      total: number;
      skipped: Array<{ name: string; reason: string }>;
      /** The file's own variables, the collection's defaults (never a secret). */
      variables: Record<string, string>;
    }
  | { type: 'failed'; message: string };
