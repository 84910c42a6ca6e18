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
export * from './draft-from-values.ts';
export * from './missing-values.ts';
// Imported by path, not re-exported here: share-link.ts (share links, the draft reader of links and
// collection files), mask-draft.ts and import-draft.ts (a capture into a draft), capture-link.ts (a
// capture carried to the debugger); the exchange after the build (exchange.ts, read-answer.ts,
// poll-policy.ts, resign-draft.ts), which the workbench loads with its first Send. The first page loads this index, and only lazy pages use those
// (a re-export would put them on the first page).
export type { CredentialGaps } from './credential-gaps.ts';
