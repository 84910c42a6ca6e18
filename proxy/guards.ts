import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { urlHost, type ServerConfig } from './config.ts';
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

/**
 * DNS-rebinding and cross-site guards, run on every request before routing:
 * a `Host` that is not this server's gets 421; on state-changing requests, on `/proxy/*` and on
 * `/callbacks/*` (any method), an `Origin` that is not the console's gets 403. Requests without `Origin` (curl, the gateway's
 * callbacks, server-to-server calls) pass.
 */
export function installGuards(app: FastifyInstance, config: ServerConfig): void {
  // The allowed sets depend only on the port: made once per port, not per request.
  let sets: { port: number; hosts: Set<string>; origins: Set<string> } | undefined;
  const setsFor = (port: number) =>
    sets?.port === port
      ? sets
      : (sets = { port, hosts: allowedHosts(config, port), origins: allowedOrigins(config, port) });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const port = listeningPort(app, config);
    const host = (request.headers.host ?? '').toLowerCase();
    const { hosts, origins } = setsFor(port);
    if (!hosts.has(host)) {
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
    }
    const origin = request.headers.origin;
    const path = request.url;
    // Gateways send callbacks without Origin: one that carries a foreign Origin comes from a web page.
    const checked =
      !SAFE_METHODS.has(request.method) ||
      path === '/proxy' ||
      path.startsWith('/proxy/') ||
      path === '/callbacks' ||
      path.startsWith('/callbacks/') ||
      path.startsWith('/callbacks?');
    if (checked && origin !== undefined && !origins.has(origin)) {
      return reply
        .code(403)
        .type('application/json; charset=utf-8')
        .send(
          errorBody(
            'ORIGIN_NOT_ALLOWED',
            `Requests from the web page at ${JSON.stringify(origin.slice(0, 100))} are refused: only the console itself ` +
              `(http://127.0.0.1:${port}) may use this server. Add the origin to ALLOWED_ORIGINS if it is yours.`,
          ),
        );
    }
    return undefined;
  });
}
