import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { sandboxPlugin } from './plugin.ts';
import { resolveSandboxOptions, type SandboxOptions } from './options.ts';
import { PAY_JSON } from './replies.ts';
import { installRouteAccess, SANDBOX_POLICY } from './route-access.ts';
import {
  applyConnectionCap,
  SERVER_LIMIT_DEFAULTS,
  serverLimitOptions,
  type ServerLimits,
} from './server-limits.ts';

export const SANDBOX_PREFIX = '/sandbox';

function sendPayJson(reply: FastifyReply, code: number, body: Record<string, unknown>): FastifyReply {
  return reply
    .code(code)
    .headers({ 'content-type': PAY_JSON, 'cache-control': 'no-store' })
    .send(Buffer.from(JSON.stringify(body)));
}

/**
 * A stand-alone fastify server with only the sandbox, under `/sandbox` (as in the console's server),
 * so its base URL is `http://<host>:<port>/sandbox/paynet`. Used by `npm run sandbox` and the tests.
 */
export async function createSandboxApp(
  options: SandboxOptions = {},
  server: { logger?: boolean; limits?: ServerLimits } = {},
): Promise<FastifyInstance> {
  const resolved = resolveSandboxOptions(options);
  const limits = server.limits ?? SERVER_LIMIT_DEFAULTS;
  const app = Fastify({
    // Never log requests: bodies and headers carry card data and signatures.
    logger: server.logger ? { level: 'warn' } : false,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: resolved.bodyLimit,
    routerOptions: { maxParamLength: 256, ignoreTrailingSlash: true },
    ...serverLimitOptions(limits, (status, code, message) => ({
      contentType: PAY_JSON,
      body: JSON.stringify({
        type: status === 408 ? 'error' : 'validation-error',
        'error-message': message,
        'error-code': code,
      }),
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
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    const status =
      err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
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
  await app.register(sandboxPlugin, { ...options, prefix: SANDBOX_PREFIX });
  return app;
}
