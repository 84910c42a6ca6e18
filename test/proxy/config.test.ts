import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, localTarget } from '../../proxy/config.ts';

const ROOT = resolve(import.meta.dirname, '../..');

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env, '/tmp');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has loopback defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toEqual({
      host: '127.0.0.1',
      port: 4173,
      targets: [],
      bodyLimit: 1024 * 1024,
      timeoutMs: 30_000,
      allowedHosts: [],
      allowedOrigins: [],
      distDir: '/srv/app/dist',
      keepAliveMs: 15_000,
      limits: {
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 10_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 256,
      },
      network: { noProxy: '' },
    });
    expect(localTarget(c.host, c.port)).toEqual({
      name: 'local',
      baseUrl: 'http://127.0.0.1:4173/sandbox/paynet',
      kind: 'local',
    });
  });

  it('builds the local target from HOST and PORT (wildcards and IPv6 made usable)', () => {
    expect(localTarget('localhost', 8080).baseUrl).toBe('http://localhost:8080/sandbox/paynet');
    expect(localTarget('0.0.0.0', 8080).baseUrl).toBe('http://127.0.0.1:8080/sandbox/paynet');
    expect(localTarget('::1', 8080).baseUrl).toBe('http://[::1]:8080/sandbox/paynet');
  });

  it('reads targets from a file and inline, in that order, without trailing slashes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pay-console-cfg-'));
    const file = join(dir, 'targets.json');
    writeFileSync(
      file,
      JSON.stringify([{ name: 'sandbox', baseUrl: 'https://sandbox.example.com/paynet/', kind: 'sandbox' }]),
    );
    const c = loadConfig(
      {
        PROXY_TARGETS_FILE: file,
        PROXY_TARGETS: '[{"name":"prod","baseUrl":"https://gate.example.com/paynet","kind":"production"}]',
        PORT: '5000',
        PROXY_BODY_LIMIT: '2048',
        PROXY_TIMEOUT_MS: '1500',
        ALLOWED_HOSTS: 'Console.Example.test:5000, other.test:5000',
        ALLOWED_ORIGINS: 'https://console.example.test:5000',
        DIST_DIR: 'build/web',
      },
      '/srv/app',
    );
    expect(c.targets).toEqual([
      { name: 'sandbox', baseUrl: 'https://sandbox.example.com/paynet', kind: 'sandbox' },
      { name: 'prod', baseUrl: 'https://gate.example.com/paynet', kind: 'production' },
    ]);
    expect(c.port).toBe(5000);
    expect(c.bodyLimit).toBe(2048);
    expect(c.timeoutMs).toBe(1500);
    expect(c.allowedHosts).toEqual(['console.example.test:5000', 'other.test:5000']);
    expect(c.allowedOrigins).toEqual(['https://console.example.test:5000']);
    expect(c.distDir).toBe('/srv/app/build/web');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be a whole number'],
    [{ PROXY_TIMEOUT_MS: '-5' }, 'PROXY_TIMEOUT_MS must be a whole number'],
    [{ PROXY_BODY_LIMIT: '1.5' }, 'PROXY_BODY_LIMIT must be a whole number'],
    [{ HOST: 'bad host' }, 'HOST must be a host name'],
    [{ ALLOWED_ORIGINS: 'console.test' }, 'ALLOWED_ORIGINS entry "console.test" is not an origin'],
    [{ ALLOWED_ORIGINS: 'http://console.test/path' }, 'is not an origin'],
    [{ PROXY_TARGETS: '{not json' }, 'PROXY_TARGETS is not valid JSON'],
    [{ PROXY_TARGETS: '{"name":"x"}' }, 'PROXY_TARGETS : expected a JSON list'],
    [
      { PROXY_TARGETS: '[{"name":"x","baseUrl":"ftp://h/p","kind":"sandbox"}]' },
      'must start with http:// or https://',
    ],
    [
      { PROXY_TARGETS: '[{"name":"x","baseUrl":"https://h/p?x=1","kind":"sandbox"}]' },
      'must not have a query string',
    ],
    [
      { PROXY_TARGETS: '[{"name":"x","baseUrl":"https://u:p@h/p","kind":"sandbox"}]' },
      'must not carry a user name or password',
    ],
    [{ PROXY_TARGETS: '[{"name":"x","baseUrl":"nope","kind":"sandbox"}]' }, 'is not an absolute URL'],
    [
      { PROXY_TARGETS: '[{"name":"x","baseUrl":"https://h","kind":"staging"}]' },
      'kind must be "sandbox", "production" or "local"',
    ],
    [
      { PROXY_TARGETS: '[{"name":"a b","baseUrl":"https://h","kind":"sandbox"}]' },
      'a target name is 1-32 letters',
    ],
    [{ PROXY_TARGETS: '[{"name":"local","baseUrl":"https://h","kind":"sandbox"}]' }, '"local" is reserved'],
    [
      {
        PROXY_TARGETS:
          '[{"name":"a","baseUrl":"https://h","kind":"sandbox"},{"name":"a","baseUrl":"https://i","kind":"sandbox"}]',
      },
      'proxy target "a" is defined twice',
    ],
    [
      { PROXY_TARGETS_FILE: '/nonexistent/targets.json' },
      'PROXY_TARGETS_FILE: cannot read /nonexistent/targets.json (ENOENT)',
    ],
  ])('refuses %j with one clear line', (env, expected) => {
    expect(configError(env)).toContain(expected);
  });
});

describe('npm start with a bad setting', () => {
  it('prints one line and exits 1', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'proxy/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('nodedir'));
    expect(lines).toEqual(['pay-console: PORT must be a whole number from 0 to 65535 (got "not-a-port")']);
  });
});
