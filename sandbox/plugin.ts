import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { composeHandle, composeOperationContext, composeSandbox } from './compose.ts';
import { installErrorHandler } from './error-handler.ts';
import { readBodiesAsBytes } from './http-input.ts';
import { registerMerchantKeyRoutes } from './merchant-key-routes.ts';
import { registerOperationRoutes } from './operation-routes.ts';
import { resolveSandboxOptions, type SandboxOptions } from './options.ts';
import { registerPages } from './pages.ts';
import { registerRelayRoutes } from './relay/relay-routes.ts';
import { hasRouteAccess } from './route-access.ts';
import { registerClockRoutes } from './scenarios/clock-routes.ts';
import { registerScenarioRoutes } from './scenarios/scenario-routes.ts';
import { registerThrowawayMerchantRoute } from './throwaway-merchant-route.ts';

export type { SandboxOptions } from './options.ts';

/**
 * The local gateway sandbox as a fastify plugin. Register it under a prefix (the console uses
 * `/sandbox`); its base URL is then `http://<host><prefix>/paynet`. It registers routes only: the
 * parts are built by `compose.ts`, errors answered by `error-handler.ts`, and each route module
 * declares its routes' access (`route-access.ts`, enforced by one hook of the server).
 */
export const sandboxPlugin: FastifyPluginAsync<SandboxOptions> = async (
  app: FastifyInstance,
  opts: SandboxOptions,
) => {
  if (!hasRouteAccess(app))
    throw new Error('The sandbox needs its server to enforce route access: call installRouteAccess first.');
  const options = resolveSandboxOptions(opts);
  // node:crypto: synchronous hashing, no thread-pool hop per request (Web Crypto costs 10× more here).
  const crypto = nodeCryptoPort();
  const parts = await composeSandbox(options, crypto, (message) => app.log.error(message));
  const { store, merchants, lab, engine, scheduler } = parts;
  scheduler.start();
  app.addHook('onClose', parts.close);
  const ctx = composeOperationContext(parts, options, crypto, opts, `${app.prefix}/paynet`);

  // Every body arrives as raw bytes: the signature is checked over the exact text that was sent.
  readBodiesAsBytes(app, options.bodyLimit);
  installErrorHandler(app, {
    apiPrefix: `${ctx.basePath}/api/`,
    accept: options.accept,
    bodyLimit: options.bodyLimit,
  });

  registerOperationRoutes(app, ctx, opts);
  registerPages(app, { engine, scheduler, merchants, crypto });
  // The admin routes, one module per room: the scenario lab's, the test clock's, the relay's.
  registerScenarioRoutes(app, { engine, merchants, lab });
  registerClockRoutes(app, { engine, scheduler, merchants, lab });
  registerRelayRoutes(app, { engine, scheduler, merchants, crypto });
  registerThrowawayMerchantRoute(app, { store, merchants, crypto, clock: options.clock });
  registerMerchantKeyRoutes(app, { store, merchants, crypto, clock: options.clock });

  opts.onReady?.(composeHandle(parts, ctx, (code, message) => app.log.error({ code }, message)));
};
