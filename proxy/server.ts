import { STATUS_CODES, type Server } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { ViteDevServer } from 'vite';
import { sandboxOptionsFromEnv, type SandboxOptions } from '../sandbox/options.ts';
import type { SandboxHandle } from '../sandbox/hooks.ts';
import { sandboxPlugin } from '../sandbox/plugin.ts';
import { applyConnectionCap, serverLimitOptions } from '../sandbox/server-limits.ts';
import { callbackInbox, CallbackStore } from './callback-inbox.ts';
import { localTarget, type ConfiguredTarget, type ServerConfig } from './config.ts';
import { consolePolicy, installHostGuard, listeningPort } from './guards.ts';
import { installRouteAccess, type AccessPolicy } from '../sandbox/route-access.ts';
import { proxyRoutes, type LocalTransport, type ProxyRoutesOptions } from './proxy-routes.ts';
import {
  CONSOLE_CSP,
  DEV_CSP,
  installSecurityHeaders,
  SANDBOX_PROTECTIVE_HEADERS,
} from './security-headers.ts';
import { registerStaticConsole, registerViteConsole } from './static-console.ts';
import { classifyUpstreamError, errorBody, ProxyError } from './upstream-errors.ts';
import { UpstreamRoutes } from './upstream-network.ts';

export interface BuildServerOptions {
  /** Environment the sandbox reads its settings from (SANDBOX_DB, SANDBOX_MERCHANTS...). */
  env?: NodeJS.ProcessEnv;
  /** Sandbox settings that win over the environment (tests). */
  sandbox?: Partial<SandboxOptions>;
  /**
   * `npm run dev`: makes Vite's dev server (given this server's HTTP server for the hot-reload
   * WebSocket); it then answers the console pages instead of the built files.
   */
  vite?: (httpServer: Server) => Promise<ViteDevServer>;
  /**
   * How the proxy reaches the built-in `local` target: `in-process` (default) hands the request to
   * this server's own router without a socket; `http` goes over loopback HTTP like any other target
   * (kept for the bench's before/after figures and the equivalence tests).
   */
  localTransport?: 'in-process' | 'http';
  /** Checked before the proxy forwards anything (classroom mode); throws a ProxyError to refuse. */
  proxyAuthorize?: ProxyRoutesOptions['authorize'];
  /** The access rules of this mode, from `npm start`'s (classroom mode adds its own). */
  access?: (base: AccessPolicy, app: FastifyInstance) => AccessPolicy;
  /** How index.html is served: classroom mode marks the page and drops the demo merchant's preload. */
  pageMode?: 'console' | 'classroom';
  /** Registers more routes and hooks (classroom mode) before the console's pages. */
  extend?: (app: FastifyInstance) => Promise<void>;
}

export type ConsoleServer = FastifyInstance & {
  /** Proxy targets with the built-in `local` one first (its port is the listening one). */
  proxyTargets(): ConfiguredTarget[];
  /** The local sandbox's base URL, like http://127.0.0.1:4173/sandbox/paynet. */
  sandboxBaseUrl(): string;
  callbackStore: CallbackStore;
};

function bodyLimitMessage(toProxy: boolean, limit: number): string {
  return toProxy
    ? `The request body is larger than the proxy's limit of ${limit} bytes. Send a smaller body, or raise PROXY_BODY_LIMIT.`
    : `The request body is larger than this address accepts (${limit} bytes). Send a smaller body.`;
}

/**
 * The one Node server behind `npm start`: the console's pages, the proxy under /proxy, the callback
 * inbox under /callbacks and the local sandbox under /sandbox. Returned ready but not listening.
 */
export async function buildServer(
  config: ServerConfig,
  options: BuildServerOptions = {},
): Promise<ConsoleServer> {
  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimit,
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    trustProxy: false,
    // A local tool: closing ends open event streams and idle keep-alive sockets at once.
    forceCloseConnections: true,
    ...serverLimitOptions(config.limits, (_status, code, message) => ({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(errorBody(code, message)),
    })),
    frameworkErrors: (err, _request, reply) => {
      void (reply as FastifyReply)
        .code(400)
        .send(
          errorBody(
            'PATH_INVALID',
            err.code === 'FST_ERR_BAD_URL'
              ? 'The URL has a malformed percent-escape; encode "%" as %25.'
              : 'The request could not be routed; check the URL.',
          ),
        );
    },
  });

  applyConnectionCap(app, config.limits);

  // Made again only when the port changes (it is known once the server listens).
  let targets: { port: number; list: ConfiguredTarget[] } | undefined;
  const proxyTargets = (): ConfiguredTarget[] => {
    const port = listeningPort(app, config);
    if (targets?.port !== port) targets = { port, list: [localTarget(config.host, port), ...config.targets] };
    return targets.list;
  };
  const callbackStore = new CallbackStore();

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ProxyError) return reply.code(err.statusCode).send(errorBody(err.code, err.message));
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const toProxy = request.routeOptions.config.access === 'proxy';
      const limit = toProxy ? config.bodyLimit : (request.routeOptions.bodyLimit ?? config.bodyLimit);
      return reply.code(413).send(errorBody('BODY_TOO_LARGE', bodyLimitMessage(toProxy, limit)));
    }
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 600
        ? err.statusCode
        : 500;
    if (status < 500) {
      return reply.code(status).send(errorBody(err.code ?? 'BAD_REQUEST', err.message));
    }
    // Only the stack: never the request, its headers or its body.
    console.error(
      `pay-console: internal error on ${request.method} ${request.url.split('?')[0]}: ${err.stack ?? err.message}`,
    );
    return reply
      .code(500)
      .send(
        errorBody(
          'INTERNAL',
          'The server failed on this request. See the server console for the cause, and retry.',
        ),
      );
  });

  installHostGuard(app, config);
  const policy = consolePolicy(app, config);
  installRouteAccess(app, options.access ? options.access(policy, app) : policy);
  installSecurityHeaders(app, options.vite ? DEV_CSP : CONSOLE_CSP);
  // Before the routes: its hooks (classroom scoping) must run for every route below.
  if (options.extend) await options.extend(app);

  // An operation call goes straight to the sandbox (this server's guards would pass it: its Host is
  // this server's and it carries no Origin), unless an extension added hooks that must see it (the
  // classroom scopes the sandbox per trainee); anything else goes through this server's own hooks
  // and routes. Either way with the Host an HTTP client would send, so signatures over the URL verify.
  let sandbox: SandboxHandle | undefined;
  const local: LocalTransport = async ({ url, headers, body, cookie, client }) => {
    if (sandbox && !options.extend && url.pathname.startsWith(sandbox.apiPath)) {
      const answer = await sandbox.answer({
        method: 'POST',
        path: url.pathname,
        headers: { ...headers, host: url.host },
        body,
        // The console's client holds its connection to the proxy while a scenario holds the answer.
        client,
      });
      // The scenario lab's processed-timeout: the sandbox committed the order and reset the connection.
      if (answer.reset)
        throw classifyUpstreamError(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }), {
          host: url.host,
          timeoutMs: 0,
          target: 'local',
        });
      return {
        status: answer.status,
        statusText: STATUS_CODES[answer.status] ?? '',
        headers: {
          ...SANDBOX_PROTECTIVE_HEADERS,
          ...answer.headers,
          'content-length': String(answer.body.byteLength),
          date: new Date().toUTCString(),
        },
        body: answer.body,
      };
    }
    const res = await app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { ...headers, host: url.host, ...(cookie !== undefined ? { cookie } : {}) },
      ...(body ? { payload: body } : {}),
      remoteAddress: '127.0.0.1',
    });
    const headersOut: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headersOut[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: headersOut,
      body: res.rawPayload,
    };
  };
  const routes = new UpstreamRoutes(config.network);
  app.addHook('onClose', async () => routes.close());
  await app.register(proxyRoutes, {
    prefix: '/proxy',
    routes,
    targets: proxyTargets,
    bodyLimit: config.bodyLimit,
    timeoutMs: config.timeoutMs,
    ...(options.localTransport === 'http' ? {} : { local }),
    ...(options.proxyAuthorize ? { authorize: options.proxyAuthorize } : {}),
  });
  await app.register(callbackInbox, {
    prefix: '/callbacks',
    store: callbackStore,
    keepAliveMs: config.keepAliveMs,
  });
  await app.register(sandboxPlugin, {
    prefix: '/sandbox',
    ...sandboxOptionsFromEnv(options.env ?? process.env),
    // Held answers never take more than half the connections (sandbox/held-budget.ts).
    heldTotal: Math.max(1, Math.floor(config.limits.maxConnections / 2)),
    ...options.sandbox,
    onReady: (handle) => {
      sandbox = handle;
      options.sandbox?.onReady?.(handle);
    },
  });

  if (options.vite) {
    const vite = await options.vite(app.server);
    app.addHook('onClose', async () => vite.close());
    registerViteConsole(app, vite);
  } else await registerStaticConsole(app, config.distDir, options.pageMode ?? 'console');

  await app.ready();
  // Typed without fastify's PromiseLike side: once ready, the instance is no longer a thenable.
  const server: ConsoleServer = Object.assign(app, {
    proxyTargets,
    sandboxBaseUrl: () => localTarget(config.host, listeningPort(app, config)).baseUrl,
    callbackStore,
  });
  return server;
}
