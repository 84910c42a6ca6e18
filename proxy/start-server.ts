import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, urlHost, type ConfiguredTarget, type ServerConfig } from './config.ts';
import { buildServer, type BuildServerOptions, type ConsoleServer } from './server.ts';
import { proxyFor, shownProxy } from './upstream-network.ts';
import { errorText } from '../src/core/errors.ts';

function describeListenError(err: unknown, config: ServerConfig): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return `port ${config.port} on ${config.host} is already in use: stop the other server, or start with PORT=<another port>`;
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return `cannot listen on HOST=${config.host}: it is not an address of this machine; use 127.0.0.1 or one of its own addresses`;
  }
  if (code === 'EACCES') return `no permission to listen on port ${config.port}: use a port above 1023`;
  return `cannot start the server (${code ?? errorText(err)})`;
}

/** How a target is reached, for the start-up lines: in process, through a proxy, with which TLS files. */
function targetNotes(target: ConfiguredTarget, config: ServerConfig): string {
  if (target.name === 'local' && target.kind === 'local') return '  (in process)';
  const notes: string[] = [];
  const proxy = proxyFor(new URL(target.baseUrl), config.network);
  if (proxy) notes.push(`via proxy ${shownProxy(proxy)}`);
  if (target.tls?.caFile) notes.push(`CA ${target.tls.caFile}`);
  if (target.tls?.certFile) notes.push(`client certificate ${target.tls.certFile}`);
  return notes.length > 0 ? `  (${notes.join('; ')})` : '';
}

/** Listens where the configuration says; a failure is one line that names the fix, then exit 1. Answers the port. */
export async function listenOrExit(
  app: FastifyInstance,
  config: ServerConfig,
  name: string,
): Promise<number> {
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    console.error(`${name}: ${describeListenError(err, config)}`);
    process.exit(1);
  }
  const addr = app.server.address();
  return addr && typeof addr === 'object' ? addr.port : config.port;
}

/** Ctrl-C or SIGTERM closes the server (ending its streams and the sandbox's database); a second one exits at once. */
export function closeOnSignals(app: FastifyInstance, name: string): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`${name}: ${signal}, closing`);
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** Loads the configuration, builds the server and listens; prints where everything is. */
export async function startServer(
  label: string,
  options: (config: ServerConfig) => Promise<BuildServerOptions> | BuildServerOptions = () => ({}),
): Promise<ConsoleServer> {
  let config: ServerConfig;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`pay-console: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  let app: ConsoleServer;
  try {
    app = await buildServer(config, await options(config));
  } catch (err) {
    // The sandbox's settings (SANDBOX_*, its merchants file) are checked here; their message names the fix.
    console.error(`pay-console: ${errorText(err).split('\n')[0]}`);
    process.exit(1);
  }
  const port = await listenOrExit(app, config, 'pay-console');
  const targets = app.proxyTargets();
  const width = Math.max(...targets.map((t) => t.name.length));
  console.log(
    [
      `pay-console ${label}`,
      `  console:  http://${urlHost(config.host)}:${port}/`,
      `  sandbox:  ${app.sandboxBaseUrl()}   (e.g. POST ${app.sandboxBaseUrl()}/api/v2/sale/<endpointId>)`,
      `  inbox:    http://${urlHost(config.host)}:${port}/callbacks/<inbox>`,
      '  proxy targets:',
      ...targets.map(
        (t) => `    ${t.name.padEnd(width)}  ${t.kind.padEnd(10)}  ${t.baseUrl}${targetNotes(t, config)}`,
      ),
      '',
    ].join('\n'),
  );
  closeOnSignals(app, 'pay-console');
  return app;
}
