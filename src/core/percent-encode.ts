/**
 * RFC 3986 §2.3 percent-encoding of the UTF-8 bytes of a string: only the unreserved characters
 * `A-Z a-z 0-9 - . _ ~` stay as they are; a space becomes `%20`, never `+`; hex digits are uppercase.
 * @see api-description.md, Authentication, Scheme O1 step 2; RFC 5849 §3.6.
 */
export function percentEncode(value: string): string {
  // Most names and values need no escape: one test instead of encoding and scanning again (a
  // signature check encodes every parameter, so this is on every OAuth request's path).
  if (UNRESERVED_ONLY.test(value)) return value;
  // encodeURIComponent leaves !'()* alone, which RFC 3986 reserves. Lone surrogates cannot be UTF-8
  // encoded; they are replaced by U+FFFD rather than throwing in the middle of a keystroke.
  return encodeURIComponent(value.toWellFormed()).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;

/** Inverse of {@link percentEncode}; also accepts `+` as a space, as form bodies may carry it. */
export function percentDecode(value: string, plusIsSpace = true): string {
  const v = plusIsSpace && value.includes('+') ? value.replace(/\+/g, ' ') : value;
  if (!v.includes('%')) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    // A stray `%` in a captured request: keep the text as it is rather than fail the whole parse.
    return v;
  }
}

/** Encodes a list of name/value pairs as an `application/x-www-form-urlencoded` body (RFC 3986 style). */
export function encodeFormBody(pairs: ReadonlyArray<{ name: string; value: string }>): string {
  return pairs.map((p) => `${percentEncode(p.name)}=${percentEncode(p.value)}`).join('&');
}

/** Splits a form body into its pairs in order, decoding each name and value. */
export function decodeFormBody(body: string): Array<{ name: string; value: string }> {
  if (body.trim() === '') return [];
  return body
    .replace(/\r?\n$/, '')
    .split('&')
    .filter((s) => s !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const rawName = eq === -1 ? part : part.slice(0, eq);
      const rawValue = eq === -1 ? '' : part.slice(eq + 1);
      return { name: percentDecode(rawName), value: percentDecode(rawValue) };
    });
}
