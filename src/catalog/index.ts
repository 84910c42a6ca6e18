/** The API as data: every surface (forms, sandbox, CLI, exports) reads these entries. */
export * from './fields.ts';
export * from './operations.ts';
export * from './lookup.ts';
export * from './responses.ts';
export * from './validators.ts';
export * from './request-schema.ts';
export * from './card-data.ts';
export * from './test-cards.ts';
export * from './sandbox-debug.ts';
export * from './error-code-label.ts';
// error-codes.ts is imported by its own path, not from here: the console's first page loads this
// index, and the table's text would cost its first-load budget (test/app/first-load-budget.test.ts).
