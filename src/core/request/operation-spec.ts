import type { ControlTerm } from '../control/control-terms.ts';

/** The three authentication schemes (api-description.md, Authentication). */
export type Scheme = 'control' | 'oauth-hmac-sha1' | 'oauth-rsa-sha256';

/**
 * What the core needs to know of an operation to build and sign its request. The catalog's
 * entries satisfy it; the core does not import the catalog.
 */
export interface OperationSigningSpec {
  /** The path after `/api/`, without the endpoint id: `v2/sale`, `3ds/v1/upload-cres-result`. */
  path: string;
  scheme: Scheme;
  /** The `control` formula, for scheme C. */
  formula?: readonly ControlTerm[];
}

/** The endpoint the request goes to: an endpoint id, or an endpoint group id (`…/group/{id}`). */
export interface EndpointRef {
  kind: 'endpoint' | 'group';
  id: string;
}

/** The largest endpoint id: the path parameter is an int64 (api-description.md, Resources). */
export const INT64_MAX = '9223372036854775807';

/** What is wrong with an endpoint id, or null: empty, not a whole number, or above int64. */
export function checkEndpointId(
  endpoint: EndpointRef,
): { code: 'ENDPOINT_MISSING' | 'ENDPOINT_INVALID' | 'ENDPOINT_OUT_OF_RANGE'; message: string } | null {
  const name = endpoint.kind === 'group' ? 'endpoint group id' : 'endpoint id';
  const id = endpoint.id;
  if (id === '')
    return { code: 'ENDPOINT_MISSING', message: `No ${name}: enter it in the profile, e.g. 1111.` };
  if (!/^\d+$/.test(id)) {
    const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
    return {
      code: 'ENDPOINT_INVALID',
      message: `The ${name} "${shown}" must be a whole number (digits only), e.g. 1111.`,
    };
  }
  const digits = id.replace(/^0+(?=\d)/, '');
  // Same length: digit strings compare like numbers.
  if (digits.length > INT64_MAX.length || (digits.length === INT64_MAX.length && digits > INT64_MAX)) {
    return {
      code: 'ENDPOINT_OUT_OF_RANGE',
      message: `The ${name} ${id.length > 40 ? `${id.slice(0, 40)}…` : id} is larger than the largest int64 (${INT64_MAX}): check it against the gateway's merchant settings.`,
    };
  }
  return null;
}

/** `{base_url}/api/<path>/{endpointId}` or `{base_url}/api/<path>/group/{endpointGroupId}`. */
export function operationUrl(baseUrl: string, path: string, endpoint: EndpointRef): string {
  const base = baseUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(endpoint.id);
  return `${base}/api/${path}/${endpoint.kind === 'group' ? `group/${id}` : id}`;
}
