import type { ForeignFormat } from '../../exports/foreign-collections/foreign-format.ts';

/** What the page asks of the import worker: read this file and save it as collection `collectionId`. */
export interface ImportJob {
  text: string;
  /** A Bruno collection's `.bru` files (and `bruno.json`), read together instead of `text`. */
  files?: Array<{ name: string; text: string }>;
  collectionId: string;
  /** The import's time, as `savedAt` and `updatedAt`. */
  at: string;
}

/**
 * What the import worker tells the page, in this order: reading progress, saving progress, then
 * done or failed. The requests themselves never cross to the page: the worker saves them (issue
 * 27 §5: 100,000 `put`s on the page's thread were seconds of its time, in tasks of up to 170 ms).
 */
export type ImportMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'saving'; done: number; total: number }
  | {
      type: 'done';
      format: ForeignFormat;
      /** The collection's name as saved (made free among the collections kept). */
      name: string;
      /** Requests saved. */
      requests: number;
      skipped: Array<{ name: string; reason: string }>;
    }
  | { type: 'failed'; message: string };
