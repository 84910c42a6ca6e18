/** This tab's callback inbox and its URL: small, read by the first page's runtime. */
import { INBOX_NAME, inboxPaths } from '../contracts/inbox-paths.ts';

/** A fresh inbox name: `prefix` and random letters and digits (`s-…`, `flow-…`). */
export function newInboxName(prefix: string, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = prefix;
  for (const b of crypto.getRandomValues(new Uint8Array(length))) out += alphabet[b % alphabet.length];
  return out;
}

/**
 * One inbox's stream. Each event is delivered once (by id) to `deliver`, whether it came on the
 * stream or from the list read when the stream opens; `subscribe` / `getSnapshot` report the stream.
 */
const SESSION_KEY = 'pay-console.callback-inbox';
let session: string | null = null;

/** This browser session's callback inbox (kept for the tab's life, like the session's secrets). */
export function sessionInbox(): string {
  if (session) return session;
  const saved = sessionStorage.getItem(SESSION_KEY);
  session = saved && INBOX_NAME.test(saved) ? saved : newInboxName('s-', 16);
  sessionStorage.setItem(SESSION_KEY, session);
  return session;
}

/** The absolute URL of this session's inbox: what a request's callback or return URL points to. */
export function callbackUrl(): string {
  return `${location.origin}${inboxPaths(sessionInbox()).inbox}`;
}
