import { PayError } from '../errors.ts';

/**
 * Step 3 of schemes O1/O2: the base string URI: lowercase scheme and host, the default port
 * (80 for http, 443 for https) dropped, no query and no fragment; the path kept as sent.
 * @see api-description.md, Authentication, Scheme O1 step 2 ("The URL has no default port"); RFC 5849 §3.4.1.2.
 */
export function normalizeUrl(url: string): string {
  // A server checks many requests to the same few URLs: parsing one costs more than the rest of
  // the base string. Only results are kept (a URL that throws is parsed again, and throws again).
  const known = normalized.get(url);
  if (known !== undefined) return known;
  const result = normalizeUncached(url);
  if (normalized.size >= NORMALIZED_MAX) normalized.clear();
  normalized.set(url, result);
  return result;
}

const NORMALIZED_MAX = 256;
const normalized = new Map<string, string>();

function normalizeUncached(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch (cause) {
    throw new PayError(
      'BASE_URL_INVALID',
      `"${url}" is not an absolute URL: start it with http:// or https://.`,
      {
        field: 'baseUrl',
        cause,
      },
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new PayError('BASE_URL_INVALID', `"${url}" must use http or https.`, { field: 'baseUrl' });
  }
  // WHATWG URL already lowercases scheme and host and drops the default port.
  const port = u.port === '' ? '' : `:${u.port}`;
  return `${u.protocol}//${u.hostname}${port}${u.pathname}`;
}
