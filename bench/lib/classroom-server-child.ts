/**
 * `npm run classroom`'s server in a bench child process, its state in a temporary directory. Says
 * its port and trainer token over IPC, and answers memory questions (rss, heap) besides CPU.
 * argv[2], when given, is another checkout whose classroom server to run (the bench's "before").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorText } from '../../src/core/errors.ts';
import type * as ServerModule from '../../classroom/server.ts';
import type * as ConfigModule from '../../proxy/config.ts';

type Server = typeof ServerModule;
type Config = typeof ConfigModule;

try {
  const root = resolve(process.argv[2] ?? '.');
  const { buildClassroomServer } = (await import(
    pathToFileURL(join(root, 'classroom/server.ts')).href
  )) as Server;
  const { loadConfig } = (await import(pathToFileURL(join(root, 'proxy/config.ts')).href)) as Config;
  const dir = mkdtempSync(join(tmpdir(), 'pay-console-classroom-bench-'));
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: join(dir, 'no-dist'),
    DATA_DIR: dir,
    SANDBOX_FINALIZE_DELAY_MS: '200',
  };
  const maxTrainees = Number(process.env.BENCH_CLASSROOM_MAX ?? 200);
  const app = await buildClassroomServer(
    loadConfig(env),
    { dataDir: dir, exercisesDir: join(root, 'classroom/exercises'), limits: { maxTrainees } },
    { env },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (m: { type?: string }) => {
    if (m.type === 'mem') {
      const u = process.memoryUsage();
      const cpu = process.cpuUsage();
      process.send?.({
        type: 'mem',
        rss: u.rss,
        heapUsed: u.heapUsed,
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
    }
  });
  process.once('SIGTERM', () => {
    app.close().then(
      () => {
        rmSync(dir, { recursive: true, force: true });
        process.exit(0);
      },
      () => process.exit(1),
    );
  });
  process.send?.({
    type: 'ready',
    port: (app.server.address() as AddressInfo).port,
    token: app.classroom.trainerToken(),
  });
} catch (err) {
  process.send?.({ type: 'failed', message: errorText(err) });
  process.exit(1);
}
