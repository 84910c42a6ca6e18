/**
 * The console server (`npm start`'s: proxy, sandbox, inbox) in a bench child process, with its
 * sandbox on a SQLite file in a temporary directory. argv[2]: how the proxy reaches the `local`
 * target, `in-process` (the default) or `http` (the loopback hop it used before); argv[3]: the
 * built console to serve (none by default: the proxy bench needs no pages).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../proxy/config.ts';
import { buildServer } from '../../proxy/server.ts';
import { reportStartFailure, serveBenchParent } from './child-process.ts';
import { benchServerEnv } from './server-env.ts';

try {
  const localTransport = process.argv[2] === 'http' ? 'http' : 'in-process';
  const dir = mkdtempSync(join(tmpdir(), 'pay-console-bench-'));
  const env = { ...benchServerEnv(dir), ...(process.argv[3] ? { DIST_DIR: process.argv[3] } : {}) };
  const app = await buildServer(loadConfig(env), { env, localTransport });
  await app.listen({ host: '127.0.0.1', port: 0 });
  serveBenchParent((app.server.address() as AddressInfo).port, async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
} catch (err) {
  reportStartFailure(err);
}
