/**
 * One request signed by the console's own core, as the browser would send it, for the benches:
 * the catalog's example values, the caller's overrides, a fresh nonce and the wall clock.
 */
import { exampleValues, findOperation } from '../../src/catalog/index.ts';
import { buildRequest, secureNonceSource, webCryptoPort, type InputParam } from '../../src/core/index.ts';
import type { PreparedRequest } from './load.ts';

const crypto = webCryptoPort();
const nonce = secureNonceSource();

/** What signing a request for a sandbox needs (the private key only for RSA operations). */
export interface SigningTarget {
  /** http://127.0.0.1:<port>/sandbox/paynet */
  baseUrl: string;
  login: string;
  controlKey: string;
  endpointId: string;
  privateKey?: CryptoKey;
}

/** A fresh random string (order ids in the benches). */
export const benchNonce = nonce;

/** Signs `opPath` for `s`; the answer's `path` is relative to `s.baseUrl`, its headers lower-cased. */
export async function signRequest(
  s: SigningTarget,
  opPath: string,
  overrides: Record<string, string | undefined>,
): Promise<PreparedRequest> {
  const op = findOperation(opPath);
  if (!op) throw new Error(`unknown operation ${opPath}`);
  const values: Record<string, string | undefined> = { ...exampleValues(op), login: s.login, ...overrides };
  // No callbacks out of a bench run.
  delete values.server_callback_url;
  if (!op.fields.some((f) => f.name === 'login') && overrides.login === undefined) delete values.login;
  const params: InputParam[] = Object.entries(values)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([name, value]) => ({ name, value, source: 'form' }));
  const built = await buildRequest({
    operation: op,
    baseUrl: s.baseUrl,
    endpoint: { kind: 'endpoint', id: s.endpointId },
    params,
    credentials: { login: s.login, controlKey: s.controlKey, privateKey: s.privateKey },
    crypto,
    clock: Date.now,
    nonce,
  });
  if (built.problems.length > 0)
    throw new Error(`${opPath}: ${built.problems.map((p) => p.message).join(' ')}`);
  const headers: Record<string, string> = {};
  for (const h of built.headers) headers[h.name.toLowerCase()] = h.value;
  return { path: built.url.slice(s.baseUrl.length + 1), headers, body: built.bodyText };
}
