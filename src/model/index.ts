/**
 * The request model: one serializable draft of a request under every surface (form, send,
 * history, share links, imports, snippets, teaching, flows, CLI), the one converter to signed
 * parameters and the one build. Framework-free and pure: imports the core and the catalog only.
 */
export * from './request-draft.ts';
export * from './errors.ts';
export * from './place.ts';
export * from './draft-params.ts';
export * from './build-draft.ts';
export * from './form-draft.ts';
export * from './share-link.ts';
export * from './import-draft.ts';
