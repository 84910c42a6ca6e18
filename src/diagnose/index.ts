/** The signature debugger and the teaching mode: capture parsers, the catalogue of known mistakes, diagnose() and teach(). */
export * from './capture/shell-words.ts';
export * from './capture/parse-curl.ts';
export * from './capture/parse-har.ts';
export * from './capture/parse-log-line.ts';
export * from './capture/parse-capture.ts';
export * from './recipe.ts';
export * from './rulebook.ts';
export * from './mistakes.ts';
export * from './inspect-key-text.ts';
export * from './structural-checks.ts';
export * from './text-diff.ts';
export * from './diagnose.ts';
export * from './teach.ts';
export * from './walkthrough.ts';
