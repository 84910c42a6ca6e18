/**
 * The browser's side of the same-origin proxy: list the targets, and send one built request through
 * `POST /proxy/<target>/<path>`. Every answer is parsed with the proxy's own contract
 * (`src/contracts/proxy.ts`) before the UI sees it.
 */
import type { BuiltRequest } from '../core/index.ts';
import type { Transport } from '../model/exchange.ts';
import {
  ProxyEnvelopeSchema,
  ProxyErrorBodySchema,
  ProxyTargetsSchema,
  type ProxyEnvelope,
  type ProxyTarget,
} from '../contracts/proxy.ts';

export { ProxyEnvelopeSchema, type ProxyEnvelope };

/** A failure of the proxy itself (unknown target, upstream unreachable, timeout), not of the gateway. */
export class ProxyClientError extends Error {
  override readonly name = 'ProxyClientError';
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

async function readProxyError(res: Response): Promise<ProxyClientError> {
  const text = await res.text().catch(() => '');
  try {
    const parsed = ProxyErrorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success)
      return new ProxyClientError(parsed.data.error.code, parsed.data.error.message, res.status);
  } catch {
    // not JSON: fall through
  }
  return new ProxyClientError(
    'PROXY_HTTP',
    `The console's server answered HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}. Check that \`npx tsx proxy/main.ts\` is running.`,
    res.status,
  );
}

async function proxyFetch(input: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (cause) {
    // A cancel or timeout of the caller's is not a dead server: the caller names it.
    if (init?.signal?.aborted || (cause instanceof DOMException && cause.name === 'AbortError')) throw cause;
    throw new ProxyClientError(
      'PROXY_UNREACHABLE',
      "The console's own server does not answer. Start it with `npm start` (or `npx tsx proxy/main.ts`) and retry.",
    );
  }
}

/** `GET /proxy/targets`: the targets the server forwards to. */
export async function fetchTargets(signal?: AbortSignal): Promise<ProxyTarget[]> {
  const res = await proxyFetch('/proxy/targets', { signal, headers: { Accept: 'application/json' } });
  if (!res.ok) throw await readProxyError(res);
  const parsed = ProxyTargetsSchema.safeParse(await res.json());
  if (!parsed.success) {
    throw new ProxyClientError(
      'PROXY_SHAPE',
      'The list of proxy targets has an unexpected shape; update the server.',
    );
  }
  return parsed.data;
}

/** The proxy address of a request URL: the part after the target's base URL, under `/proxy/<name>/`. */
export function proxyPathFor(target: ProxyTarget, url: string): string {
  const base = target.baseUrl.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/`)) {
    throw new ProxyClientError(
      'URL_OUTSIDE_TARGET',
      `The request URL ${url} does not start with the target's base URL ${base}; pick the target again.`,
    );
  }
  return `/proxy/${encodeURIComponent(target.name)}/${url.slice(base.length + 1)}`;
}

/** Sends exactly the built request (its headers and body text) through the proxy to the target. */
export async function sendThroughProxy(
  target: ProxyTarget,
  req: BuiltRequest,
  signal?: AbortSignal,
): Promise<ProxyEnvelope> {
  const headers: Record<string, string> = {};
  for (const h of req.headers) headers[h.name] = h.value;
  const res = await proxyFetch(proxyPathFor(target, req.url), {
    method: 'POST',
    headers,
    body: req.bodyText,
    signal,
    credentials: 'same-origin',
    cache: 'no-store',
  });
  if (!res.ok) throw await readProxyError(res);
  let data: unknown;
  try {
    data = await res.json();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ProxyClientError(
      'PROXY_SHAPE',
      'The proxy answered something that is not JSON; update the server.',
    );
  }
  const parsed = ProxyEnvelopeSchema.safeParse(data);
  if (!parsed.success) {
    throw new ProxyClientError('PROXY_SHAPE', 'The proxy answer has an unexpected shape; update the server.');
  }
  return parsed.data;
}

/** The browser's transport for the model's exchange (`prepareExchange(…).send`): the proxy to this target. */
export function browserTransport(target: ProxyTarget): Transport {
  return (request, signal) => sendThroughProxy(target, request, signal);
}
