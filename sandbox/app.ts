import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { callOf } from './answer-operation.ts';
import { sandboxPlugin } from './plugin.ts';
import { resolveSandboxOptions, type SandboxOptions } from './options.ts';
import type { SandboxHandle } from './hooks.ts';
import { dialectOf } from './http-input.ts';
import { encodeJsonBody, encodeReply, errorReply, PAY_JSON } from './replies.ts';
import { installRouteAccess, SANDBOX_POLICY } from './route-access.ts';
import {
  applyConnectionCap,
  SERVER_LIMIT_DEFAULTS,
  serverLimitOptions,
  type ServerLimits,
} from './server-limits.ts';

export const SANDBOX_PREFIX = '/sandbox';

/**
 * The gateway's own base path: clients hard-code `https://<host>/paynet/api/...`, so the
 * standalone sandbox answers there too (issue 20), besides `${SANDBOX_PREFIX}/paynet`.
 */
export const GATEWAY_BASE_PATH = '/paynet';

function sendPayJson(reply: FastifyReply, code: number, body: Record<string, unknown>): FastifyReply {
  return reply
    .code(code)
    .headers({ 'content-type': PAY_JSON, 'cache-control': 'no-store' })
    .send(encodeJsonBody(body));
}

/**
 * A stand-alone fastify server with only the sandbox, under `/sandbox` (as in the console's server),
 * so its base URL is `http://<host>:<port>/sandbox/paynet`. Used by `npm run sandbox` and the tests.
 */
export async function createSandboxApp(
  options: SandboxOptions = {},
  server: {
    logger?: boolean;
    limits?: ServerLimits;
    /** Serve HTTPS with this key and certificate chain (sandbox/tls-certificate.ts). */
    https?: { key: string; cert: string };
  } = {},
): Promise<FastifyInstance> {
  const resolved = resolveSandboxOptions(options);
  const limits = server.limits ?? SERVER_LIMIT_DEFAULTS;
  // An HTTPS server is the same fastify instance to everything here; only its listener differs.
  const app = (Fastify as (opts: object) => FastifyInstance)({
    ...(server.https ? { https: server.https } : {}),
    // Never log requests: bodies and headers carry card data and signatures.
    logger: server.logger ? { level: 'warn' } : false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: resolved.bodyLimit,
    routerOptions: { maxParamLength: 256, ignoreTrailingSlash: true },
    ...serverLimitOptions(limits, (status, code, message) => ({
      contentType: PAY_JSON,
      body: encodeJsonBody({
        type: status === 408 ? 'error' : 'validation-error',
        'error-message': message,
        'error-code': code,
      }).toString(),
    })),
    frameworkErrors: (err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      void sendPayJson(reply, 400, {
        type: 'validation-error',
        'error-message': `The request line cannot be read: ${err.message}`,
        'error-code': 'BODY_INVALID',
      });
    },
  });
  applyConnectionCap(app, limits);
  // Outside the sandbox's own routes too, every body is read as bytes and every error answered as JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const status =
      err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if ((request.raw.url ?? request.url).startsWith(`${GATEWAY_BASE_PATH}/api/`)) {
      // A call at the gateway's path speaks the dialect its Accept asks for, as under /sandbox.
      const r =
        status === 413
          ? errorReply(
              413,
              `The body is larger than ${resolved.bodyLimit} bytes: send less data.`,
              'BODY_TOO_LARGE',
            )
          : errorReply(
              status,
              status === 500
                ? 'The sandbox server failed on this request.'
                : `The request could not be read: ${err.message}`,
              status === 500 ? 'INTERNAL' : 'BODY_INVALID',
            );
      const encoded = encodeReply(r, dialectOf(request.headers.accept, resolved.accept));
      return reply
        .code(encoded.status)
        .headers({ 'content-type': encoded.contentType, 'cache-control': 'no-store' })
        .send(encoded.body);
    }
    return sendPayJson(reply, status, {
      type: status === 400 ? 'validation-error' : 'error',
      'error-message':
        status === 500
          ? 'The sandbox server failed on this request.'
          : `The request could not be read: ${err.message}`,
      'error-code': status === 413 ? 'BODY_TOO_LARGE' : status === 500 ? 'INTERNAL' : 'BODY_INVALID',
    });
  });
  app.setNotFoundHandler((_request, reply) =>
    sendPayJson(reply, 404, {
      type: 'error',
      'error-message': `Nothing here: the sandbox's base URL is ${SANDBOX_PREFIX}/paynet, e.g. POST ${SANDBOX_PREFIX}/paynet/api/v2/sale/1111.`,
      'error-code': 'NOT_FOUND',
    }),
  );
  installRouteAccess(app, SANDBOX_POLICY);
  // The issuer and hosted-form pages have no icon: browsers ask for this one, and a 404 is a console error.
  app.get('/favicon.ico', { config: { access: 'sandbox-page' } }, (_request, reply) =>
    reply.code(204).header('cache-control', 'max-age=86400').send(),
  );
  let handle: SandboxHandle | undefined;
  // The same sandbox at the gateway's own path: one store, one engine; the signature is checked
  // over the URL the client used (`http://<Host>/paynet/api/...`).
  app.all(`${GATEWAY_BASE_PATH}/api/*`, { config: { access: 'gateway-api' } }, async (request, reply) => {
    const answer = await handle!.answer(callOf(request));
    if (answer.reset) {
      // The scenario lab's processed-timeout: the order is committed, the connection is reset.
      reply.hijack();
      request.raw.socket.resetAndDestroy();
      return reply;
    }
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  await app.register(sandboxPlugin, {
    // Held answers never take more than half the connections (held-budget.ts).
    heldTotal: Math.max(1, Math.floor(limits.maxConnections / 2)),
    ...options,
    aliasBasePaths: [...(options.aliasBasePaths ?? []), GATEWAY_BASE_PATH],
    prefix: SANDBOX_PREFIX,
    onReady: (h) => {
      handle = h;
      options.onReady?.(h);
    },
  });
  return app;
}
