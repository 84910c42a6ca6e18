/**
 * Saved requests and collections (IndexedDB). Nothing here is imported statically by the first
 * page: the app loads saved-page.tsx, save-dialog.tsx and saved-db.ts with the page or action
 * that needs them.
 */
export type { Collection, SavedRequest } from './saved-schema.ts';
