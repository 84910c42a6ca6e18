import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { serverLimitsFromEnv, type ServerLimits } from '../sandbox/server-limits.ts';

/** Where a proxy target points: the embedded sandbox, a real gateway sandbox, or production. */
export const TARGET_KINDS = ['sandbox', 'production', 'local'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export interface ProxyTarget {
  name: string;
  /** Absolute http(s) URL without a trailing slash, query or fragment. */
  baseUrl: string;
  kind: TargetKind;
}

export interface ServerConfig {
  host: string;
  /** 0 picks a free port (tests); the real one is read from the listening socket. */
  port: number;
  /** User targets; the built-in `local` target is added by {@link localTarget}. */
  targets: ProxyTarget[];
  bodyLimit: number;
  timeoutMs: number;
  /** Extra `Host` values accepted besides 127.0.0.1, localhost and [::1] on the port. */
  allowedHosts: string[];
  /** Extra `Origin` values accepted besides the console's own. */
  allowedOrigins: string[];
  distDir: string;
  /** Interval of the keep-alive comment on callback event streams. */
  keepAliveMs: number;
  /** Request and header timeouts, connection cap (SERVER_* variables). */
  limits: ServerLimits;
}

/** A bad setting: the message is one line that names the variable and says what to do. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const TARGET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

const baseUrlSchema = z.string().transform((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `"${raw}" is not an absolute URL (write it like https://sandbox.example.com/paynet)`,
    });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `"${raw}" must start with http:// or https://` });
    return z.NEVER;
  }
  if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: `"${url.host}…" must not carry a user name or password` });
    return z.NEVER;
  }
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    ctx.addIssue({ code: 'custom', message: `"${raw}" must not have a query string or fragment` });
    return z.NEVER;
  }
  return url.href.replace(/\/+$/, '');
});

const targetSchema = z.object({
  name: z
    .string()
    .regex(TARGET_NAME, 'a target name is 1-32 letters, digits, "_" or "-", starting with a letter or digit'),
  baseUrl: baseUrlSchema,
  kind: z.enum(TARGET_KINDS, { error: 'kind must be "sandbox", "production" or "local"' }),
});
const targetListSchema = z.array(targetSchema, { error: 'expected a JSON list of {name, baseUrl, kind}' });

const intFrom = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return fallback;
      const n = Number(raw);
      if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a whole number from ${min} to ${max} (got "${raw}")`,
        });
        return z.NEVER;
      }
      return n;
    });

const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

const envSchema = z.object({
  HOST: z
    .string()
    .optional()
    .transform((h) => (h && h.trim() !== '' ? h.trim() : '127.0.0.1'))
    .refine(
      (h) => /^[A-Za-z0-9.:[\]-]+$/.test(h),
      'HOST must be a host name or an IP address, like 127.0.0.1',
    ),
  PORT: intFrom('PORT', 0, 65535, 4173),
  PROXY_BODY_LIMIT: intFrom('PROXY_BODY_LIMIT', 1, 100 * 1024 * 1024, 1024 * 1024),
  PROXY_TIMEOUT_MS: intFrom('PROXY_TIMEOUT_MS', 1, 600_000, 30_000),
  CALLBACK_KEEPALIVE_MS: intFrom('CALLBACK_KEEPALIVE_MS', 10, 3_600_000, 15_000),
  ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform(list)
    .refine(
      (hs) => hs.every((h) => /^[A-Za-z0-9.:[\]-]+$/.test(h)),
      'ALLOWED_HOSTS is a comma-separated list of host[:port] values, like console.example.test:4173',
    ),
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((raw, ctx) =>
      list(raw).map((o) => {
        try {
          const u = new URL(o);
          if (u.origin === 'null' || u.origin !== o.replace(/\/$/, '')) throw new Error('not an origin');
          return u.origin;
        } catch {
          ctx.addIssue({
            code: 'custom',
            message: `ALLOWED_ORIGINS entry "${o}" is not an origin (write scheme://host[:port], like http://console.example.test:4173)`,
          });
          return '';
        }
      }),
    ),
  DIST_DIR: z
    .string()
    .optional()
    .transform((d) => (d && d.trim() !== '' ? d : 'dist')),
  PROXY_TARGETS_FILE: z.string().optional(),
  PROXY_TARGETS: z.string().optional(),
});

function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const path = issue.path.join('.');
  const named = path !== '' && issue.message.startsWith(path);
  const where = path !== '' && !named ? `${prefix}${path}: ` : prefix ? `${prefix}: ` : '';
  return `${where}${issue.message}`;
}

function parseTargets(json: string, source: string): ProxyTarget[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    throw new ConfigError(
      `${source} is not valid JSON (${(e as Error).message}); expected a list of {name, baseUrl, kind}`,
    );
  }
  const parsed = targetListSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(issue ? describeIssue(issue, `${source} `) : `${source} is invalid`);
  }
  return parsed.data;
}

/**
 * Reads the server's settings from the environment, checked with zod. Throws {@link ConfigError}
 * with one line naming the variable and the fix.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(issue ? describeIssue(issue, '') : 'invalid configuration');
  }
  const e = parsed.data;
  let limits: ServerLimits;
  try {
    limits = serverLimitsFromEnv(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const targets: ProxyTarget[] = [];
  if (e.PROXY_TARGETS_FILE && e.PROXY_TARGETS_FILE.trim() !== '') {
    const file = resolve(cwd, e.PROXY_TARGETS_FILE);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `PROXY_TARGETS_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the path`,
      );
    }
    targets.push(...parseTargets(text, `PROXY_TARGETS_FILE (${file})`));
  }
  if (e.PROXY_TARGETS && e.PROXY_TARGETS.trim() !== '')
    targets.push(...parseTargets(e.PROXY_TARGETS, 'PROXY_TARGETS'));
  const seen = new Set<string>();
  for (const t of targets) {
    if (t.name === 'local') {
      throw new ConfigError(
        'proxy target name "local" is reserved for the built-in sandbox; give your target another name',
      );
    }
    if (seen.has(t.name)) throw new ConfigError(`proxy target "${t.name}" is defined twice; keep one`);
    seen.add(t.name);
  }
  return {
    host: e.HOST,
    port: e.PORT,
    targets,
    bodyLimit: e.PROXY_BODY_LIMIT,
    timeoutMs: e.PROXY_TIMEOUT_MS,
    allowedHosts: e.ALLOWED_HOSTS.map((h) => h.toLowerCase()),
    allowedOrigins: e.ALLOWED_ORIGINS,
    distDir: resolve(cwd, e.DIST_DIR),
    keepAliveMs: e.CALLBACK_KEEPALIVE_MS,
    limits,
  };
}

/** The host part of a loopback URL for the listening address (wildcards become 127.0.0.1). */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]' || host === '') return '127.0.0.1';
  if (host.includes(':') && !host.startsWith('[')) return `[${host}]`;
  return host;
}

/** The built-in `local` target: the embedded sandbox on this very server. */
export function localTarget(host: string, port: number): ProxyTarget {
  return { name: 'local', baseUrl: `http://${urlHost(host)}:${port}/sandbox/paynet`, kind: 'local' };
}
