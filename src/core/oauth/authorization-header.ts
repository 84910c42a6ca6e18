import { PayError } from '../errors.ts';
import { OAUTH_PROTOCOL_PARAMETERS } from './oauth-parameters.ts';
import { percentDecode, percentEncode } from '../percent-encode.ts';

/**
 * Step 7 of schemes O1/O2: `Authorization: OAuth name="value", …` with every value percent-encoded
 * (the Base64 signature's `+`, `/` and `=` included), in the order the description lists them.
 * @see api-description.md, Authentication, Scheme O1 step 5; RFC 5849 §3.5.1.
 */
export function buildAuthorizationHeader(
  params: ReadonlyArray<{ name: string; value: string }>,
  realm?: string,
): string {
  const order: readonly string[] = OAUTH_PROTOCOL_PARAMETERS;
  const sorted = [...params].sort((a, b) => rank(a.name) - rank(b.name));
  function rank(name: string): number {
    const i = order.indexOf(name);
    return i === -1 ? order.length : i;
  }
  const pairs = sorted.map((p) => `${percentEncode(p.name)}="${percentEncode(p.value)}"`);
  if (realm !== undefined) pairs.unshift(`realm="${realm.replace(/"/g, '')}"`);
  return `OAuth ${pairs.join(', ')}`;
}

/**
 * Parses an `Authorization: OAuth …` header value into decoded name/value pairs, in order.
 * Accepts `, ` or `,` separators and quoted or bare values.
 */
export function parseAuthorizationHeader(header: string): Array<{ name: string; value: string }> {
  const m = /^\s*OAuth\s+(.*)$/is.exec(header);
  if (!m) {
    throw new PayError(
      'AUTHORIZATION_PARSE',
      'The Authorization header does not start with "OAuth ": it is not an OAuth 1.0a header.',
    );
  }
  const out: Array<{ name: string; value: string }> = [];
  const re = /\s*([^=\s,]+)\s*=\s*(?:"([^"]*)"|([^,]*))\s*(?:,|$)/y;
  const rest = m[1]!;
  let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const p = re.exec(rest);
    if (!p) {
      throw new PayError(
        'AUTHORIZATION_PARSE',
        `Cannot read the Authorization header near "${rest.slice(pos, pos + 20)}": expected name="value" pairs separated by commas.`,
      );
    }
    out.push({ name: percentDecode(p[1]!, false), value: percentDecode(p[2] ?? p[3]?.trim() ?? '', false) });
    pos = re.lastIndex;
  }
  return out;
}
