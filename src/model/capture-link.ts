import { fromBase64Url, toBase64Url } from './base64url.ts';

/**
 * A captured request carried to the signature debugger: `/debugger#capture=<base64url of its UTF-8
 * text>`. In the fragment, like a share link's draft, so it never reaches a server or its logs.
 */
export const CAPTURE_FRAGMENT_KEY = 'capture';
/** Longest capture text a link carries (the debugger's own limit is far above a real request). */
export const MAX_CAPTURE_LINK_CHARS = 65_536;

/** The debugger's address with the capture in its fragment. */
export function captureLinkHref(capture: string): string {
  return `/debugger#${CAPTURE_FRAGMENT_KEY}=${toBase64Url(new TextEncoder().encode(capture))}`;
}

/**
 * The capture of a `#capture=…` fragment, an error that says what to do, or null when the
 * fragment carries none.
 */
export function readCaptureFragment(hash: string): { capture: string } | { error: string } | null {
  const m = new RegExp(`^#?(?:.*&)?${CAPTURE_FRAGMENT_KEY}=([^&]*)`).exec(hash);
  if (!m) return null;
  const damaged = {
    error:
      'The capture in this link is damaged: open the link again from where you found it, or paste the request.',
  };
  if (m[1]!.length > (MAX_CAPTURE_LINK_CHARS * 4) / 3 + 4) return damaged;
  const bytes = fromBase64Url(m[1]!);
  if (!bytes) return damaged;
  try {
    return { capture: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return damaged;
  }
}
