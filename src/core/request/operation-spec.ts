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

/** `{base_url}/api/<path>/{endpointId}` or `{base_url}/api/<path>/group/{endpointGroupId}`. */
export function operationUrl(baseUrl: string, path: string, endpoint: EndpointRef): string {
  const base = baseUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(endpoint.id);
  return `${base}/api/${path}/${endpoint.kind === 'group' ? `group/${id}` : id}`;
}
