/**
 * Exports and imports: code snippets that sign at run time, an OpenAPI 3.1 document and a Postman
 * collection of the catalog, history as HAR, share links, and capture import. Pure functions over
 * the core and the catalog; no UI.
 */
export * from './errors.ts';
export * from './snippets/snippet-plan.ts';
export * from './snippets/render-snippet.ts';
export * from './openapi/build-openapi.ts';
export * from './postman/build-postman-collection.ts';
export * from './har/exchanges-to-har.ts';
export * from './share-link.ts';
export * from './import-capture.ts';
