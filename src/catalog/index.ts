/** The API as data: every surface (forms, sandbox, CLI, exports) reads these entries. */
export * from './fields.ts';
export * from './operations.ts';
export * from './lookup.ts';
export * from './validators.ts';
export * from './card-data.ts';
export * from './test-cards.ts';
export * from './error-code-label.ts';
// Imported by their own paths, not from here: the console's first page loads this index, and a
// module re-exported here lands in its chunks even when only a lazy page uses it
// (test/app/first-load-budget.test.ts): error-codes.ts (the table's text), request-schema.ts
// (the form's checks load after the first render), responses.ts and sandbox-debug.ts (read after
// an answer).
