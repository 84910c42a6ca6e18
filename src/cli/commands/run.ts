/**
 * `paysign run <collection.json> --env <name>`: a collection run from the command line, for CI.
 * The environment is the local sandbox (`--env local`, started in this process) or one of an
 * `--env-file`; secrets come from environment variables or files, never from the command line,
 * and are never printed. Exit 0 when every step passed, 1 when an assertion failed or a step could
 * not run, 2 for a usage error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  secureNonceSource,
  type BuiltRequest,
  type Credentials,
  type EndpointRef,
} from '../../core/index.ts';
import { importSigningKey } from '../../core/keys/key-containers.ts';
import { nodeCryptoPort } from '../../node/node-crypto-port.ts';
import { readRunCollection } from '../../exports/run-collection-file.ts';
import { CollectionRun, type CallbackInbox, type RunSnapshot } from '../../model/collection-run.ts';
import {
  EnvironmentsFileSchema,
  environmentSource,
  LOCAL_SANDBOX_ENVIRONMENT,
  type Environment,
} from '../../model/environment.ts';
import type { Transport, WireAnswer } from '../../model/exchange.ts';
import type { Place, SigningEnv } from '../../model/index.ts';
import { CliError, flag, parseCommandArgs, readTextFile, str } from '../args.ts';
import { RUN_HELP } from '../help.ts';
import { json, type Io } from '../output.ts';
import { renderJUnit } from '../junit.ts';
import { errorText } from '../../core/errors.ts';

const OPTIONS = {
  env: { type: 'string' },
  'env-file': { type: 'string' },
  collection: { type: 'string' },
  only: { type: 'string' },
  var: { type: 'string', multiple: true },
  'secret-file': { type: 'string', multiple: true },
  junit: { type: 'string' },
  json: { type: 'boolean' },
  'confirm-production': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Environment variables the command reads its secrets from. */
export const RUN_ENV = {
  controlKey: 'PAYSIGN_CONTROL_KEY',
  privateKeyFile: 'PAYSIGN_PRIVATE_KEY_FILE',
} as const;

const SECRET_NAMES = ['control_key', 'private_key'] as const;

interface Target {
  baseUrl: string;
  login: string;
  endpoint: EndpointRef;
  credentials: Credentials;
  close(): Promise<void>;
}

export async function runRun(args: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', args, OPTIONS);
  if (values.help) {
    io.out(`${RUN_HELP}\n`);
    return 0;
  }
  const [file, ...extra] = positionals;
  if (file === undefined)
    throw new CliError('no collection file given: "paysign run <collection.json> --env <name>".');
  if (extra.length > 0)
    throw new CliError(
      `unexpected argument "${extra[0]!.slice(0, 40)}": give one collection file (secrets go in files or environment variables, never on the command line).`,
    );
  const envName = str(values, 'env');
  if (envName === undefined)
    throw new CliError(
      'no environment given: add --env local (the local sandbox) or --env <name> with --env-file.',
    );
  const environment = await findEnvironment(envName, str(values, 'env-file'));
  if (environment.kind === 'production' && !flag(values, 'confirm-production'))
    throw new CliError(
      `"${environment.name}" is a production environment: real money moves. Add --confirm-production to run against it.`,
    );
  const collection = readRunCollection(await readTextFile(file, 'the collection file'), {
    ...(str(values, 'collection') !== undefined ? { name: str(values, 'collection')! } : {}),
  });
  const selection = parseOnly(str(values, 'only'), collection.steps.length);
  const extraVars = parseVars(values.var);
  const secretFiles = parseSecretFiles(values['secret-file']);

  const inbox = await startInbox();
  let target: Target | undefined;
  try {
    target =
      environment.kind === 'local-sandbox'
        ? await startLocalSandbox()
        : await remoteTarget(environment, secretFiles, io.env);
    const place: Place = { origin: inbox.origin, inboxUrl: inbox.url, login: target.login };
    const clock = () => Date.now();
    const env: SigningEnv = {
      place,
      baseUrl: target.baseUrl,
      endpoint: target.endpoint,
      credentials: target.credentials,
      runtime: { crypto: nodeCryptoPort(), nonce: secureNonceSource(), clock },
    };
    const source = environmentSource(environment, {
      baseUrl: target.baseUrl,
      login: target.login,
      year: new Date(clock()).getUTCFullYear(),
    });
    const run = new CollectionRun(collection, {
      env,
      transport: fetchTransport,
      sleep,
      environment: { ...source, values: { ...source.values, ...extraVars } },
      callbacks: inbox,
      callbackWaitMs: 10_000,
    });
    const started = clock();
    const snapshot = await run.run(selection);
    const elapsed = clock() - started;
    if (str(values, 'junit') !== undefined) {
      const out = str(values, 'junit')!;
      await writeFile(out, renderJUnit(snapshot, elapsed)).catch((e: unknown) => {
        throw new CliError(`--junit "${out}" cannot be written: ${errorText(e)}.`);
      });
    }
    io.out(
      flag(values, 'json')
        ? json(jsonReport(snapshot, environment, elapsed))
        : textReport(snapshot, environment, elapsed),
    );
    const ran = selection ? snapshot.steps.filter((s) => selection.includes(s.index)) : snapshot.steps;
    return ran.every((s) => s.state === 'passed') ? 0 : 1;
  } finally {
    await target?.close();
    await inbox.close();
  }
}

async function findEnvironment(name: string, envFile: string | undefined): Promise<Environment> {
  if (envFile !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readTextFile(envFile, '--env-file'));
    } catch (e) {
      if (e instanceof CliError) throw e;
      throw new CliError(
        `--env-file "${envFile}" is not JSON: write {"environments": [{"name": …, "kind": …}]}.`,
      );
    }
    const r = EnvironmentsFileSchema.safeParse(parsed);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new CliError(
        `--env-file "${envFile}" is damaged at ${issue.path.join('.') || 'its top level'}: ${issue.message}. Secrets never go in it.`,
      );
    }
    const found = r.data.environments.find((e) => e.name === name);
    if (found) return found;
    if (name !== 'local')
      throw new CliError(
        `no environment "${name}" in ${envFile} (it has ${r.data.environments.map((e) => `"${e.name}"`).join(', ') || 'none'}).`,
      );
  }
  if (name === 'local') return LOCAL_SANDBOX_ENVIRONMENT;
  throw new CliError(
    `unknown environment "${name}": use --env local (the local sandbox), or give --env-file with it.`,
  );
}

function parseOnly(only: string | undefined, count: number): number[] | undefined {
  if (only === undefined) return undefined;
  const picked = new Set<number>();
  for (const part of only.split(',')) {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(part);
    if (!m) throw new CliError(`--only "${only}": give step numbers, e.g. --only 1,3-5.`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let i = from; i <= to; i++) {
      if (i < 1 || i > count) throw new CliError(`--only: the collection has steps 1 to ${count}, not ${i}.`);
      picked.add(i - 1);
    }
  }
  return [...picked].sort((a, b) => a - b);
}

function parseVars(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of Array.isArray(raw) ? (raw as string[]) : []) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new CliError(`--var "${arg.slice(0, 40)}": write it as name=value.`);
    const name = arg.slice(0, eq);
    if (/key|secret|password|token/i.test(name))
      throw new CliError(
        `--var ${name}: a secret never goes on the command line (shell history, process lists); use --secret-file or an environment variable.`,
      );
    out[name] = arg.slice(eq + 1);
  }
  return out;
}

function parseSecretFiles(raw: unknown): Partial<Record<(typeof SECRET_NAMES)[number], string>> {
  const out: Partial<Record<(typeof SECRET_NAMES)[number], string>> = {};
  for (const arg of Array.isArray(raw) ? (raw as string[]) : []) {
    const eq = arg.indexOf('=');
    const name = arg.slice(0, eq) as (typeof SECRET_NAMES)[number];
    if (eq <= 0 || !SECRET_NAMES.includes(name))
      throw new CliError(
        `--secret-file "${arg.slice(0, 40)}": write control_key=<file> or private_key=<file>.`,
      );
    out[name] = arg.slice(eq + 1);
  }
  return out;
}

async function remoteTarget(
  environment: Environment,
  files: Partial<Record<(typeof SECRET_NAMES)[number], string>>,
  processEnv: NodeJS.ProcessEnv,
): Promise<Target> {
  if (!environment.baseUrl)
    throw new CliError(`the environment "${environment.name}" has no baseUrl: add it to the --env-file.`);
  if (!environment.login)
    throw new CliError(`the environment "${environment.name}" has no login: add it to the --env-file.`);
  const id = environment.endpointId ?? environment.groupId;
  if (!id) throw new CliError(`the environment "${environment.name}" has no endpointId or groupId.`);
  let controlKey: string | undefined;
  if (files.control_key !== undefined) {
    controlKey = (await readTextFile(files.control_key, '--secret-file control_key')).trim();
    if (controlKey === '' || /[\r\n]/.test(controlKey))
      throw new CliError(`the control key file "${files.control_key}" must hold the key on one line.`);
  } else controlKey = processEnv[RUN_ENV.controlKey]?.trim() || undefined;
  const keyFile = files.private_key ?? (processEnv[RUN_ENV.privateKeyFile]?.trim() || undefined);
  let privateKey: CryptoKey | undefined;
  if (keyFile !== undefined)
    privateKey = (
      await importSigningKey(await readTextFile(keyFile, 'the private key file'), nodeCryptoPort())
    ).key;
  return {
    baseUrl: environment.baseUrl.replace(/\/+$/, ''),
    login: environment.login,
    endpoint: { kind: environment.endpointId ? 'endpoint' : 'group', id },
    credentials: {
      login: environment.login,
      ...(controlKey ? { controlKey } : {}),
      ...(privateKey ? { privateKey } : {}),
    },
    close: async () => undefined,
  };
}

/** The local sandbox in this process, on a loopback port, with its demo merchant. */
async function startLocalSandbox(): Promise<Target> {
  const { createSandboxApp } = await import('../../../sandbox/app.ts');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'paysign-run-'));
  const app = await createSandboxApp({
    dataDir,
    dbPath: ':memory:',
    finalizeDelayMs: 0,
    callbackRetry: { schedule: 'fast', attempts: 1 },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const demo = (await app.inject({ method: 'GET', url: '/sandbox/demo-merchant' })).json<{
    login: string;
    controlKey: string;
    endpointIds: string[];
    privateKeyPkcs8Pem: string | null;
  }>();
  const privateKey = demo.privateKeyPkcs8Pem
    ? (await importSigningKey(demo.privateKeyPkcs8Pem, nodeCryptoPort())).key
    : undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/sandbox/paynet`,
    login: demo.login,
    endpoint: { kind: 'endpoint', id: demo.endpointIds[0] ?? '1111' },
    credentials: { login: demo.login, controlKey: demo.controlKey, ...(privateKey ? { privateKey } : {}) },
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small callback inbox on a loopback port: the sandbox posts each callback here. */
async function startInbox(): Promise<
  CallbackInbox & { url: string; origin: string; close(): Promise<void> }
> {
  const received = new Map<string, Record<string, string>>();
  const waiting = new Map<string, Array<(q: Record<string, string>) => void>>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      if (body.length < 65_536) body += d;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const q: Record<string, string> = Object.fromEntries(url.searchParams);
      for (const [k, v] of new URLSearchParams(body)) q[k] = v;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      const orderid = q.orderid;
      if (!orderid) return;
      received.set(orderid, q);
      for (const w of waiting.get(orderid) ?? []) w(q);
      waiting.delete(orderid);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/callbacks/paysign-run`,
    waitFor(orderid, signal) {
      const got = received.get(orderid);
      if (got) return Promise.resolve(got);
      return new Promise((done) => {
        if (signal.aborted) return done(undefined);
        const list = waiting.get(orderid) ?? [];
        list.push(done);
        waiting.set(orderid, list);
        signal.addEventListener('abort', () => done(undefined), { once: true });
      });
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const fetchTransport: Transport = async (
  request: BuiltRequest,
  signal?: AbortSignal,
): Promise<WireAnswer> => {
  const started = performance.now();
  const res = await fetch(request.url, {
    method: request.method,
    headers: request.headers.map((h) => [h.name, h.value] as [string, string]),
    body: request.bodyText,
    ...(signal ? { signal } : {}),
  });
  const body = await res.text();
  return {
    status: res.status,
    statusText: res.statusText,
    headers: Object.fromEntries(res.headers),
    body,
    elapsedMs: Math.round(performance.now() - started),
  };
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) return done();
    const t = setTimeout(done, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        done();
      },
      { once: true },
    );
  });
}

const MARK: Record<string, string> = {
  passed: 'ok  ',
  failed: 'FAIL',
  error: 'ERR ',
  stopped: 'STOP',
  pending: 'skip',
  running: '... ',
  waiting: '... ',
};

function textReport(run: RunSnapshot, environment: Environment, elapsedMs: number): string {
  const lines = [`${run.name} on ${environment.name}`];
  for (const s of run.steps) {
    const status = s.status
      ? `  ${s.status}${s.statusChecks ? ` (${s.statusChecks} status check${s.statusChecks === 1 ? '' : 's'})` : ''}`
      : '';
    lines.push(
      `${MARK[s.state]} ${s.index + 1}. ${s.name}  ${s.operation}${s.httpStatus ? `  HTTP ${s.httpStatus}` : ''}${status}`,
    );
    if (s.error) lines.push(`       ${s.error}`);
    for (const a of s.assertions)
      lines.push(
        `       ${a.ok ? 'ok' : 'FAILED'} ${a.name}: expected ${a.expected}${a.ok ? '' : `, got ${a.actual}`}`,
      );
    for (const [k, v] of Object.entries(s.saved)) lines.push(`       saved {{${k}}} = ${v}`);
  }
  const ran = run.steps.filter((s) => s.state !== 'pending').length;
  lines.push(
    `${run.passed} of ${ran} step${ran === 1 ? '' : 's'} passed, ${run.failed} failed, in ${(elapsedMs / 1000).toFixed(1)} s`,
  );
  return `${lines.join('\n')}\n`;
}

function jsonReport(run: RunSnapshot, environment: Environment, elapsedMs: number) {
  return {
    collection: run.name,
    environment: environment.name,
    elapsedMs,
    passed: run.passed,
    failed: run.failed,
    steps: run.steps.map((s) => ({
      index: s.index + 1,
      name: s.name,
      operation: s.operation,
      state: s.state,
      ...(s.request ? { request: s.request } : {}),
      ...(s.httpStatus !== undefined ? { httpStatus: s.httpStatus } : {}),
      ...(s.status !== undefined ? { status: s.status } : {}),
      statusChecks: s.statusChecks,
      assertions: s.assertions,
      saved: s.saved,
      variables: s.uses,
      ...(s.error ? { error: s.error } : {}),
      durationMs: s.durationMs,
    })),
  };
}
