import { createSandboxApp, GATEWAY_BASE_PATH, SANDBOX_PREFIX } from './app.ts';
import { resolveSandboxOptions, sandboxOptionsFromEnv } from './options.ts';
import { restoreDemoKey } from './restore-key.ts';
import { serverLimitsFromEnv } from './server-limits.ts';
import { ensureSandboxCertificate } from './tls-certificate.ts';
import { errorText } from '../src/core/errors.ts';

/** `SANDBOX_HTTPS=1` (or `--https`): serve HTTPS with the sandbox's own certificate. */
function httpsWanted(env: NodeJS.ProcessEnv, args: readonly string[]): boolean {
  if (args.includes('--https')) return true;
  const v = env.SANDBOX_HTTPS?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  throw new Error(`SANDBOX_HTTPS "${env.SANDBOX_HTTPS}" must be 1 or 0.`);
}

/** `npm run sandbox`: the local gateway sandbox alone, for a merchant's own back end and test suite. */
async function main(): Promise<void> {
  const options = sandboxOptionsFromEnv(process.env);
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--restore-demo-key' && a !== '--https');
  if (unknown.length > 0) {
    throw new Error(
      `Unknown argument ${unknown[0]}: run without arguments to start the sandbox, with --https to serve HTTPS, or with --restore-demo-key.`,
    );
  }
  if (args.includes('--restore-demo-key')) {
    const r = await restoreDemoKey(resolveSandboxOptions(options));
    console.log(
      [
        r.hadRegistered
          ? `Restored: merchant ${r.login} is verified with its configured key again (RSA-${r.keyBits}, fingerprint ${r.keyFingerprint}) in ${r.dbPath}.`
          : `Nothing to restore: merchant ${r.login} already uses its configured key (RSA-${r.keyBits}, fingerprint ${r.keyFingerprint}) in ${r.dbPath}.`,
        '  A console or sandbox already running on this database keeps the old key in memory until it restarts;',
        `  to restore it live: Keys → "Restore the demo key", or curl -X DELETE http://127.0.0.1:<port>/sandbox/merchants/${r.login}/public-key`,
        `  with <port> the console's (npm start: ${process.env.PORT?.trim() || '4173'}) or the sandbox's (npm run sandbox: ${process.env.SANDBOX_PORT?.trim() || '4174'}).`,
      ].join('\n'),
    );
    return;
  }
  const host = process.env.HOST?.trim() || '127.0.0.1';
  const portText = process.env.SANDBOX_PORT?.trim() || '4174';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new Error(`SANDBOX_PORT "${portText}" is not a port number (1-65535).`);
  }
  const limits = serverLimitsFromEnv(process.env);
  const tls = httpsWanted(process.env, args)
    ? ensureSandboxCertificate(resolveSandboxOptions(options).dataDir)
    : undefined;
  const app = await createSandboxApp(options, {
    logger: true,
    limits,
    ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}),
  });
  try {
    await app.listen({ host, port: Number(portText) });
  } catch (e) {
    // Close the database and the scheduler first: nothing of this process may touch the file.
    await app.close().catch(() => undefined);
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `port ${portText} on ${host} is in use, perhaps by a sandbox still running: stop it (its banner names its process id) or choose another port with SANDBOX_PORT.`,
        { cause: e },
      );
    }
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : Number(portText);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const scheme = tls ? 'https' : 'http';
  const base = `${scheme}://${shownHost}:${port}${SANDBOX_PREFIX}/paynet`;
  const demo = await app.inject({
    method: 'GET',
    url: `${SANDBOX_PREFIX}/demo-merchant`,
    headers: { host: `127.0.0.1:${port}` },
  });
  const merchant = JSON.parse(demo.body) as {
    login?: string;
    endpointIds?: string[];
    endpointGroupIds?: string[];
  };
  const lines = [
    `Local gateway sandbox listening: ${base}`,
    `  e.g. POST ${base}/api/v2/sale/${merchant.endpointIds?.[0] ?? '{endpointId}'}  (Accept: application/vnd.pay+json for JSON)`,
    `  also at the gateway's own path: ${scheme}://${tls ? 'localhost' : shownHost}:${port}${GATEWAY_BASE_PATH}/api/...`,
    ...(tls
      ? [
          `  HTTPS certificate for localhost, 127.0.0.1 and ::1, signed by the sandbox's own CA${tls.created ? ' (made now)' : ''}:`,
          `    trust this CA in your client: ${tls.caPath}`,
          `    its SHA-256 fingerprint: ${tls.caFingerprint256}`,
          `    curl --cacert <it>; Node NODE_EXTRA_CA_CERTS=<it>; PHP CURLOPT_CAINFO; Python requests verify=<it>; Java keytool -importcert (docs/integrations.md)`,
        ]
      : []),
    options.accept === 'strict'
      ? '  SANDBOX_ACCEPT=strict: a request without the JSON Accept is refused (400 ACCEPT_REQUIRED)'
      : "  without the JSON Accept: the gateway's default form-encoded answers (SANDBOX_ACCEPT=strict refuses them)",
    `  merchant login: ${merchant.login ?? '?'}; endpoint ids: ${(merchant.endpointIds ?? []).join(', ')}; group ids: ${(merchant.endpointGroupIds ?? []).join(', ') || 'none'}`,
    `  control key and key pair: GET ${scheme}://${tls ? 'localhost' : '127.0.0.1'}:${port}${SANDBOX_PREFIX}/demo-merchant (this machine only)`,
    `  transactions: ${options.dbPath}; final status after ${options.finalizeDelayMs} ms`,
    // npm and tsx each run the sandbox in a child: killing theirs (kill -9) leaves this one running.
    `  process id ${process.pid}: to stop this sandbox, stop this process (kill ${process.pid}), not npm's or tsx's`,
  ];
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    lines.push(`  warning: HOST=${host} exposes the sandbox beyond this machine.`);
  }
  console.log(lines.join('\n'));
  const stop = () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`The sandbox could not start: ${errorText(e)}`);
  process.exit(1);
});
