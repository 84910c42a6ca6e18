/**
 * Exports and imports: code snippets that sign at run time, an OpenAPI 3.1 document and a Postman
 * collection of the catalog, history as HAR, and capture import (share links are the request model's: src/model). Pure functions over
 * the core and the catalog; no UI.
 */
export * from './errors.ts';
export * from './snippets/snippet-plan.ts';
export * from './snippets/render-snippet.ts';
export * from './openapi/build-openapi.ts';
export * from './postman/build-postman-collection.ts';
export * from './har/exchanges-to-har.ts';
export * from './import-capture.ts';
