import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import { intFrom, serverLimitsFromEnv, type ServerLimits } from '../sandbox/server-limits.ts';
import { shownProxy, type NetworkSettings, type TargetTls } from './upstream-network.ts';
import { TARGET_KINDS, type ProxyTarget } from '../src/contracts/proxy.ts';
import { errorText } from '../src/core/errors.ts';

/** A configured target: what `GET /proxy/targets` lists, plus what only the server may know. */
export interface ConfiguredTarget extends ProxyTarget {
  /** CA bundle and client certificate (mutual TLS) from the targets file, read at start. */
  tls?: TargetTls;
}

export interface ServerConfig {
  host: string;
  /** 0 picks a free port (tests); the real one is read from the listening socket. */
  port: number;
  /** User targets; the built-in `local` target is added by {@link localTarget}. */
  targets: ConfiguredTarget[];
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
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY. */
  network: NetworkSettings;
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

const pemPath = z.string().trim().min(1, 'a file path must not be empty');

const targetSchema = z
  .object({
    name: z
      .string()
      .regex(
        TARGET_NAME,
        'a target name is 1-32 letters, digits, "_" or "-", starting with a letter or digit',
      ),
    baseUrl: baseUrlSchema,
    kind: z.enum(TARGET_KINDS, { error: 'kind must be "sandbox", "production" or "local"' }),
    /** PEM file of CAs to trust for this target, besides the built-in roots (a company CA). */
    caFile: pemPath.optional(),
    /** PEM client certificate (and chain) and its private key, for mutual TLS. */
    certFile: pemPath.optional(),
    keyFile: pemPath.optional(),
  })
  .strict()
  .refine((t) => (t.certFile === undefined) === (t.keyFile === undefined), {
    message: 'certFile and keyFile go together (the client certificate and its private key)',
  })
  .refine((t) => !(t.caFile || t.certFile) || t.baseUrl.startsWith('https:'), {
    message: 'caFile, certFile and keyFile need an https:// baseUrl',
  });
type TargetEntry = z.infer<typeof targetSchema>;
const targetListSchema = z.array(targetSchema, {
  error: 'expected a JSON list of {name, baseUrl, kind, caFile?, certFile?, keyFile?}',
});

const proxyUrl = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      let url: URL;
      try {
        url = new URL(raw.trim());
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a proxy URL like http://proxy.example.com:3128 (it is not a URL)`,
        });
        return z.NEVER;
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an http:// or https:// proxy URL like http://proxy.example.com:3128 (got ${shownProxy(url.href)})`,
        });
        return z.NEVER;
      }
      return url.href;
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
  HTTPS_PROXY: proxyUrl('HTTPS_PROXY'),
  https_proxy: proxyUrl('https_proxy'),
  HTTP_PROXY: proxyUrl('HTTP_PROXY'),
  http_proxy: proxyUrl('http_proxy'),
  NO_PROXY: z.string().optional(),
  no_proxy: z.string().optional(),
});

function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const path = issue.path.join('.');
  const named = path !== '' && issue.message.startsWith(path);
  const where = path !== '' && !named ? `${prefix}${path}: ` : prefix ? `${prefix}: ` : '';
  return `${where}${issue.message}`;
}

function readPem(
  file: string,
  baseDir: string,
  where: string,
  field: string,
  expect: RegExp,
  what: string,
): { text: string; path: string } {
  const path = resolve(baseDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `${where}: ${field} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); check the path and its permissions`,
    );
  }
  if (!expect.test(text))
    throw new ConfigError(
      `${where}: ${field} ${path} is not a PEM ${what} (no "-----BEGIN ..." block of that kind)`,
    );
  return { text, path };
}

/** Reads and checks a target's CA bundle and client certificate files. */
function targetTls(entry: TargetEntry, baseDir: string, source: string): TargetTls | undefined {
  if (!entry.caFile && !entry.certFile) return undefined;
  const where = `${source} target "${entry.name}"`;
  const tls: TargetTls = {};
  if (entry.caFile) {
    const ca = readPem(
      entry.caFile,
      baseDir,
      where,
      'caFile',
      /-----BEGIN CERTIFICATE-----/,
      'certificate bundle',
    );
    tls.ca = ca.text;
    tls.caFile = ca.path;
    try {
      createSecureContext({ ca: ca.text });
    } catch (err) {
      throw new ConfigError(`${where}: caFile ${ca.path} cannot be used (${errorText(err)})`);
    }
  }
  if (entry.certFile && entry.keyFile) {
    const cert = readPem(
      entry.certFile,
      baseDir,
      where,
      'certFile',
      /-----BEGIN CERTIFICATE-----/,
      'certificate',
    );
    const key = readPem(
      entry.keyFile,
      baseDir,
      where,
      'keyFile',
      /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
      'private key',
    );
    if (/ENCRYPTED/.test(key.text))
      throw new ConfigError(
        `${where}: keyFile ${key.path} is encrypted; write an unencrypted copy (openssl pkey -in key.pem -out plain.pem) and keep it readable only by you`,
      );
    try {
      createSecureContext({ cert: cert.text, key: key.text });
    } catch (err) {
      throw new ConfigError(
        `${where}: certFile ${cert.path} and keyFile ${key.path} cannot be used together (${errorText(err)}); check that the key belongs to the certificate`,
      );
    }
    Object.assign(tls, { cert: cert.text, certFile: cert.path, key: key.text, keyFile: key.path });
  }
  return tls;
}

function parseTargets(json: string, source: string, baseDir: string): ConfiguredTarget[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    throw new ConfigError(
      `${source} is not valid JSON (${errorText(e)}); expected a list of {name, baseUrl, kind}`,
    );
  }
  const parsed = targetListSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(issue ? describeIssue(issue, `${source} `) : `${source} is invalid`);
  }
  return parsed.data.map((entry) => {
    const target: ConfiguredTarget = { name: entry.name, baseUrl: entry.baseUrl, kind: entry.kind };
    const tls = targetTls(entry, baseDir, source);
    if (tls) target.tls = tls;
    return target;
  });
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
    throw new ConfigError(errorText(err));
  }
  const targets: ConfiguredTarget[] = [];
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
    // Certificate files named in it are found relative to the targets file.
    targets.push(...parseTargets(text, `PROXY_TARGETS_FILE (${file})`, dirname(file)));
  }
  if (e.PROXY_TARGETS && e.PROXY_TARGETS.trim() !== '')
    targets.push(...parseTargets(e.PROXY_TARGETS, 'PROXY_TARGETS', cwd));
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
    network: {
      ...((e.https_proxy ?? e.HTTPS_PROXY) ? { httpsProxy: e.https_proxy ?? e.HTTPS_PROXY } : {}),
      ...((e.http_proxy ?? e.HTTP_PROXY) ? { httpProxy: e.http_proxy ?? e.HTTP_PROXY } : {}),
      noProxy: e.no_proxy ?? e.NO_PROXY ?? '',
    },
  };
}

/** The host part of a loopback URL for the listening address (wildcards become 127.0.0.1). */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]' || host === '') return '127.0.0.1';
  if (host.includes(':') && !host.startsWith('[')) return `[${host}]`;
  return host;
}

/** The built-in `local` target: the embedded sandbox on this very server. */
export function localTarget(host: string, port: number): ConfiguredTarget {
  return { name: 'local', baseUrl: `http://${urlHost(host)}:${port}/sandbox/paynet`, kind: 'local' };
}
