export type ConsoleMode = 'classroom' | 'console';

/**
 * Which server this page came from: `npm run classroom` inserts
 * `<meta name="pay-console-mode" content="classroom">` into index.html; anything else (or no page
 * at all) is the ordinary console. Read on each call: it is one DOM lookup.
 */
export const consoleMode = (): ConsoleMode =>
  globalThis.document?.querySelector<HTMLMetaElement>('meta[name="pay-console-mode"]')?.content ===
  'classroom'
    ? 'classroom'
    : 'console';
