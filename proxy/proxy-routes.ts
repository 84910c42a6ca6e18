import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { fetch as undiciFetch } from 'undici';
import type { ConfiguredTarget } from './config.ts';
import type { ProxyEnvelope } from '../src/contracts/proxy.ts';
import { upstreamUrl } from './forward-path.ts';
import { takeTlsObservation, type Route, type UpstreamRoutes } from './upstream-network.ts';
import { classifyUpstreamError, errorBody, ProxyError } from './upstream-errors.ts';

/** The request headers the proxy forwards, unchanged; nothing else from the browser goes upstream. */
export const FORWARDED_HEADERS = ['accept', 'content-type', 'authorization'] as const;

/**
 * Response headers never handed to the console: cookies, and the hop-by-hop headers (RFC 9110
 * §7.6.1), which describe the proxy's own connection to the upstream, not the gateway's answer.
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  'set-cookie',
  'set-cookie2',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** One upstream answer, read whole. */
export interface UpstreamAnswer {
  status: number;
  statusText: string;
  /** Lowercase names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * Serves the built-in `local` target in this process (no HTTP hop): gets the upstream URL (its
 * host is the `Host` the sandbox sees, as over HTTP), the forwarded headers and the body.
 */
export type LocalTransport = (request: {
  url: URL;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** The console's own cookie (classroom mode scopes the sandbox by it); never sent to a remote target. */
  cookie?: string;
  /** The console client's address: the sandbox's budget of held answers counts per client. */
  client?: string;
}) => Promise<UpstreamAnswer>;

const UTF8 = new TextDecoder('utf-8');

/** Largest upstream answer the proxy reads (a gateway reply is a few kilobytes). */
export const RESPONSE_LIMIT = 16 * 1024 * 1024;

export interface ProxyRoutesOptions {
  /** The configured targets, `local` first (computed per request: the port may be picked at listen). */
  targets: () => ConfiguredTarget[];
  bodyLimit: number;
  timeoutMs: number;
  /** When given, the built-in `local` target is served by it instead of over HTTP. */
  local?: LocalTransport;
  /** Dispatchers per target: corporate proxy, CA bundle, client certificate. */
  routes: UpstreamRoutes;
  /**
   * Checked before anything is forwarded (classroom mode: who may send where, rate limits);
   * throws a {@link ProxyError} to refuse.
   */
  authorize?: (request: FastifyRequest, target: ConfiguredTarget, url: URL) => void;
}

function tooLarge(limit: number): ProxyError {
  return new ProxyError(
    502,
    'UPSTREAM_TOO_LARGE',
    `The upstream answer is larger than ${limit} bytes; the proxy stopped reading it. Check the target's base URL.`,
  );
}

async function readLimited(
  response: Awaited<ReturnType<typeof undiciFetch>>,
  limit: number,
): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > limit) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function answerInProcess(
  local: LocalTransport,
  url: URL,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs: number,
  cookie: string | undefined,
  client: string,
): Promise<UpstreamAnswer> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          classifyUpstreamError(new DOMException('timeout', 'TimeoutError'), {
            host: url.host,
            timeoutMs,
            target: 'local',
          }),
        ),
      timeoutMs,
    );
  });
  try {
    const answer = await Promise.race([
      local({ url, headers, body, client, ...(cookie !== undefined ? { cookie } : {}) }),
      timeout,
    ]);
    if (answer.body.byteLength > RESPONSE_LIMIT) throw tooLarge(RESPONSE_LIMIT);
    return answer;
  } finally {
    clearTimeout(timer);
  }
}

async function answerOverHttp(
  url: URL,
  route: Route,
  target: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  timeoutMs: number,
  client: ServerResponse,
): Promise<UpstreamAnswer> {
  const clientGone = new AbortController();
  const onClose = () => {
    if (!client.writableEnded) clientGone.abort();
  };
  client.on('close', onClose);
  try {
    const response = await undiciFetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      dispatcher: route.dispatcher,
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), clientGone.signal]),
    });
    const bytes = await readLimited(response, RESPONSE_LIMIT);
    const out: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    return { status: response.status, statusText: response.statusText, headers: out, body: bytes };
  } catch (err) {
    if (err instanceof ProxyError) throw err;
    if (clientGone.signal.aborted) {
      throw new ProxyError(
        499,
        'CLIENT_CLOSED',
        'The console closed the request before the upstream answered.',
      );
    }
    throw classifyUpstreamError(err, {
      host: url.host,
      timeoutMs,
      target,
      ...(route.proxy
        ? { proxy: route.proxy, proxyVariable: url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY' }
        : {}),
      clientCertificate: route.tls?.cert !== undefined,
      customCa: route.tls?.ca !== undefined,
      ...(url.protocol === 'https:' ? { tls: takeTlsObservation(url.origin) } : {}),
    });
  } finally {
    client.off('close', onClose);
  }
}

/**
 * The proxy, registered under `/proxy`: `GET /targets` lists the targets; `POST /<target>/<path>`
 * forwards the raw body and the `Accept`, `Content-Type` and `Authorization` headers to
 * `<baseUrl>/<path>` and answers a {@link ProxyEnvelope}. Redirects are not followed. Nothing
 * of the request or the answer is logged.
 */
export const proxyRoutes: FastifyPluginAsync<ProxyRoutesOptions> = async (app, opts) => {
  // Bodies are forwarded as raw bytes whatever their type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: opts.bodyLimit }, (_req, body, done) => {
    done(null, body);
  });

  const access = { config: { access: 'proxy' } } as const;
  app.get('/targets', access, async () =>
    opts.targets().map(({ name, baseUrl, kind }) => ({ name, baseUrl, kind })),
  );

  app.post<{ Params: { target: string } }>('/:target/*', access, async (request, reply) => {
    // The path after the target as sent (its bytes are signed); the target's name as routed.
    const raw = request.raw.url ?? '';
    const match = /^\/proxy\/([^/?#]*)(?:\/([^#]*))?$/.exec(raw);
    const name = request.params.target;
    const targets = opts.targets();
    const target = targets.find((t) => t.name === name);
    if (!target) {
      const known = targets.map((t) => t.name).join(', ');
      throw new ProxyError(
        404,
        'TARGET_UNKNOWN',
        `No proxy target is named ${JSON.stringify(name.slice(0, 64))}. Known targets: ${known}. Add yours in PROXY_TARGETS or PROXY_TARGETS_FILE.`,
      );
    }
    const url = upstreamUrl(target.baseUrl, match?.[2] ?? '');
    opts.authorize?.(request, target, url);

    const headers: Record<string, string> = {};
    for (const h of FORWARDED_HEADERS) {
      const v = request.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const body: Buffer | undefined = Buffer.isBuffer(request.body) ? request.body : undefined;

    const started = performance.now();
    const answer =
      target.name === 'local' && target.kind === 'local' && opts.local
        ? await answerInProcess(
            opts.local,
            url,
            headers,
            body,
            opts.timeoutMs,
            request.headers.cookie,
            request.ip,
          )
        : await answerOverHttp(
            url,
            opts.routes.route(target, url),
            target.name,
            headers,
            body,
            opts.timeoutMs,
            reply.raw,
          );
    const elapsedMs = Math.round((performance.now() - started) * 100) / 100;
    const outHeaders: Record<string, string> = {};
    for (const key of Object.keys(answer.headers).sort()) {
      if (!DROPPED_RESPONSE_HEADERS.has(key)) outHeaders[key] = answer.headers[key]!;
    }
    const envelope: ProxyEnvelope = {
      status: answer.status,
      statusText: answer.statusText,
      headers: outHeaders,
      body: UTF8.decode(answer.body),
      elapsedMs,
      url: url.href,
    };
    return envelope;
  });

  // Everything else under /proxy: a route of its own, so the console's pages never answer here.
  app.all<{ Params: { '*': string } }>('/*', access, async (request, reply) => {
    const known = /^[^/]+\/./.test(request.params['*']);
    if (known && request.method !== 'POST') {
      return reply
        .code(405)
        .header('allow', 'POST')
        .send(
          errorBody(
            'METHOD_NOT_ALLOWED',
            'The proxy forwards POST requests only (every gateway operation is a POST).',
          ),
        );
    }
    return reply
      .code(404)
      .send(
        errorBody(
          'NOT_FOUND',
          'Unknown proxy address. Use GET /proxy/targets, or POST /proxy/<target>/<path> with the operation path.',
        ),
      );
  });
};
