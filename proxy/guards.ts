import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { urlHost, type ServerConfig } from './config.ts';
import {
  allOf,
  open,
  SANDBOX_POLICY,
  type Access,
  type AccessPolicy,
  type AccessRule,
  type Refusal,
} from '../sandbox/route-access.ts';
import { errorBody } from './upstream-errors.ts';

const ports = new WeakMap<FastifyInstance, number>();

/**
 * The port the server really listens on (config.port until it listens; they differ when that is
 * 0). Read from the socket once: `server.address()` is a system call, and the guards and the
 * proxy's targets ask on every request.
 */
export function listeningPort(app: FastifyInstance, config: ServerConfig): number {
  const known = ports.get(app);
  if (known !== undefined) return known;
  const addr = app.server.address();
  if (!addr || typeof addr !== 'object') return config.port;
  ports.set(app, addr.port);
  app.server.once('close', () => ports.delete(app));
  return addr.port;
}

function loopbackNames(config: ServerConfig): string[] {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  const own = urlHost(config.host).toLowerCase();
  if (!names.includes(own)) names.push(own);
  return names;
}

/** `Host` values this server answers to: its loopback names on its port, and ALLOWED_HOSTS. */
export function allowedHosts(config: ServerConfig, port: number): Set<string> {
  const hosts = new Set<string>();
  for (const name of loopbackNames(config)) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  for (const h of config.allowedHosts) hosts.add(h);
  return hosts;
}

/** Origins of the console itself, and ALLOWED_ORIGINS. */
export function allowedOrigins(config: ServerConfig, port: number): Set<string> {
  const origins = new Set<string>();
  for (const name of loopbackNames(config))
    origins.add(port === 80 ? `http://${name}` : `http://${name}:${port}`);
  for (const o of config.allowedOrigins) origins.add(o);
  return origins;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The allowed `Host` and `Origin` sets of a server: made again only when its port changes. */
function allowedSets(app: FastifyInstance, config: ServerConfig) {
  let sets: { port: number; hosts: Set<string>; origins: Set<string> } | undefined;
  return () => {
    const port = listeningPort(app, config);
    if (sets?.port !== port)
      sets = { port, hosts: allowedHosts(config, port), origins: allowedOrigins(config, port) };
    return sets;
  };
}

/**
 * The DNS-rebinding guard, run on every request before routing: a `Host` that is not this server's
 * gets 421. It reads no path.
 */
export function installHostGuard(app: FastifyInstance, config: ServerConfig): void {
  const setsFor = allowedSets(app, config);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const host = (request.headers.host ?? '').toLowerCase();
    const { port, hosts } = setsFor();
    if (hosts.has(host)) return undefined;
    return reply
      .code(421)
      .type('application/json; charset=utf-8')
      .send(
        errorBody(
          'HOST_NOT_ALLOWED',
          `This server answers only to ${[...hosts].join(', ')}; the request named ${host ? `"${host.slice(0, 100)}"` : 'no host'}. ` +
            'Open the console at http://127.0.0.1:' +
            port +
            '/, or add the name to ALLOWED_HOSTS.',
        ),
      );
  });
}

/**
 * `npm start`'s access rules (see route-access.ts): the sandbox's, plus the cross-site guard: an
 * `Origin` that is not the console's is refused on state-changing requests to any route, and on
 * every request to the proxy and the callback inboxes. Requests without `Origin` (curl, a
 * gateway's callbacks, server-to-server calls) pass.
 */
export function consolePolicy(app: FastifyInstance, config: ServerConfig): AccessPolicy {
  const setsFor = allowedSets(app, config);
  const foreignOrigin = (request: FastifyRequest): Refusal | undefined => {
    const origin = request.headers.origin;
    if (origin === undefined) return undefined;
    const { port, origins } = setsFor();
    if (origins.has(origin)) return undefined;
    return {
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
      message:
        `Requests from the web page at ${JSON.stringify(origin.slice(0, 100))} are refused: only the console itself ` +
        `(http://127.0.0.1:${port}) may use this server. Add the origin to ALLOWED_ORIGINS if it is yours.`,
    };
  };
  const foreignOriginOnWrites: AccessRule = (request) =>
    SAFE_METHODS.has(request.method) ? undefined : foreignOrigin(request);
  const policy: AccessPolicy = {
    page: open,
    proxy: open,
    'callback-receiver': open,
    'callback-reader': open,
  };
  for (const [kind, rule] of Object.entries({ ...SANDBOX_POLICY, ...policy }) as Array<
    [Access, AccessRule]
  >) {
    // Gateways send callbacks without Origin: one that carries a foreign Origin comes from a web page.
    const anyMethod = kind === 'proxy' || kind === 'callback-receiver' || kind === 'callback-reader';
    policy[kind] = allOf(anyMethod ? foreignOrigin : foreignOriginOnWrites, rule);
  }
  // The gateway's page posts the customer back from its own site: a foreign Origin is the normal
  // case here. The route renders the return page and nothing else (proxy/posted-return.ts).
  policy['customer-return'] = open;
  return policy;
}
