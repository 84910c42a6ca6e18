import { fromBase64Url, toBase64Url } from '../model/base64url.ts';

/**
 * A capsule carried by a link: `/capsule#capsule=<base64url of the deflate-raw of its JSON>`. In
 * the fragment, so it never reaches a server or its logs; a capsule holds no key and its card
 * numbers are masked by construction, so nothing secret is in the link either.
 */
export const CAPSULE_FRAGMENT_KEY = 'capsule';
/** Longest link token made or read (characters): what chat tools and mail clients carry whole. */
export const MAX_CAPSULE_LINK_CHARS = 32_000;
/** Most bytes a link's capsule may inflate to (a link that inflates to more is refused, not read). */
export const MAX_CAPSULE_LINK_BYTES = 4_000_000;

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number) {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The link's path and fragment for a capsule's JSON text, or why it cannot be a link (too large). */
export async function capsuleLinkHref(
  json: string,
): Promise<{ href: string; chars: number } | { error: string }> {
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream('deflate-raw'), Infinity);
  const token = toBase64Url(packed!);
  if (token.length > MAX_CAPSULE_LINK_CHARS)
    return {
      error: `This capsule is ${Math.ceil(token.length / 1000)} KB as a link, over the ${MAX_CAPSULE_LINK_CHARS / 1000} KB a link carries: export the file and send it instead.`,
    };
  return { href: `/capsule#${CAPSULE_FRAGMENT_KEY}=${token}`, chars: token.length };
}

/**
 * The capsule JSON text of a `#capsule=…` fragment, an error that says what to do, or null when the
 * fragment carries none.
 */
export async function readCapsuleFragment(
  hash: string,
): Promise<{ text: string } | { error: string } | null> {
  const m = new RegExp(`^#?(?:.*&)?${CAPSULE_FRAGMENT_KEY}=([^&]*)`).exec(hash);
  if (!m) return null;
  if (m[1]!.length > MAX_CAPSULE_LINK_CHARS)
    return {
      error: `This link's capsule is over the ${MAX_CAPSULE_LINK_CHARS / 1000} KB a link carries: ask for the capsule file instead.`,
    };
  const damaged = {
    error: 'The capsule in this link is damaged: copy the whole link again, or ask for the capsule file.',
  };
  const bytes = fromBase64Url(m[1]!);
  if (!bytes) return damaged;
  let inflated: Uint8Array | undefined;
  try {
    inflated = await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_CAPSULE_LINK_BYTES);
  } catch {
    return damaged;
  }
  if (!inflated)
    return { error: 'The capsule in this link inflates to more than a capsule can be: ask for the file.' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(inflated) };
  } catch {
    return damaged;
  }
}
