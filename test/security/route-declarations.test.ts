import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../proxy/config.ts';
import { buildServer } from '../../proxy/server.ts';
import { sandboxPlugin } from '../../sandbox/plugin.ts';
import { makeDist } from '../proxy/helpers.ts';

function config() {
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DIST_DIR: makeDist(),
    SANDBOX_DB: ':memory:',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'route-declarations-')),
  };
  return { env, config: loadConfig(env) };
}

describe('a route cannot be forgotten', () => {
  it('fails the server’s start on a route that declares no access', async () => {
    const { env, config: c } = config();
    await expect(
      buildServer(c, {
        env,
        extend: async (app) => {
          app.get('/admin/secrets', async () => ({ secret: 1 }));
        },
      }),
    ).rejects.toThrow(/GET \/admin\/secrets declares no access/);
  });

  it('fails the start on an access the server’s mode does not define (a trainer route in npm start)', async () => {
    const { env, config: c } = config();
    await expect(
      buildServer(c, {
        env,
        extend: async (app) => {
          app.get('/trainer/state', { config: { access: 'trainer' } }, async () => ({}));
        },
      }),
    ).rejects.toThrow(/declares access 'trainer', which this server's policy does not define/);
  });

  it('refuses to register the sandbox on a server that enforces no route access', async () => {
    const app = Fastify({ logger: false });
    await expect(
      app.register(sandboxPlugin, { prefix: '/sandbox', dbPath: ':memory:' }).ready(),
    ).rejects.toThrow(/installRouteAccess/);
    await app.close();
  });
});
