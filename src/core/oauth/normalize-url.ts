import { PayError } from '../errors.ts';

/**
 * Step 3 of schemes O1/O2: the base string URI: lowercase scheme and host, the default port
 * (80 for http, 443 for https) dropped, no query and no fragment; the path kept as sent.
 * @see api-description.md, Authentication, Scheme O1 step 2 ("The URL has no default port"); RFC 5849 §3.4.1.2.
 */
export function normalizeUrl(url: string): string {
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
