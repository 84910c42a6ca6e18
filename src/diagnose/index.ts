/** The signature debugger and the teaching mode: the catalogue of known mistakes, diagnose() and teach(). */
export * from './recipe.ts';
export * from './rulebook.ts';
export * from './mistakes.ts';
export * from './inspect-key-text.ts';
export * from './structural-checks.ts';
export * from './text-diff.ts';
export * from './diagnose.ts';
export * from './teach.ts';
export * from './walkthrough.ts';
export { asCallbackCapture, CALLBACK_OPERATION } from './steps/callback-capture.ts';
