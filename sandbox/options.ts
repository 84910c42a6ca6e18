import path from 'node:path';
import { z } from 'zod';
import type { SandboxHooks } from './hooks.ts';
import type { MerchantConfig } from './merchants.ts';
import type { AcceptMode } from './replies.ts';
import { HELD_PER_CLIENT_DEFAULT } from './held-budget.ts';
import {
  FAST_RETRY_DEFAULTS,
  GATEWAY_RETRY,
  type CallbackRetryOptions,
  type CallbackSchedule,
} from './relay/retry-schedule.ts';

export type { CallbackRetryOptions, CallbackSchedule };

/**
 * Options of the sandbox plugin. Every field has a default; {@link sandboxOptionsFromEnv} fills
 * them from the environment.
 */
export interface SandboxOptions extends SandboxHooks {
  /** Directory for the demo merchant file and the default database (env `DATA_DIR`, default `.data`). */
  dataDir?: string;
  /** SQLite file (env `SANDBOX_DB`; `:memory:` for tests; default `<dataDir>/sandbox.sqlite`). */
  dbPath?: string;
  /** JSON list of merchants (env `SANDBOX_MERCHANTS`); without it a demo merchant is created. */
  merchantsFile?: string;
  /** Merchants given directly (tests, embedding); takes precedence over `merchantsFile`. */
  merchants?: MerchantConfig[];
  /** Delay between the acknowledgement and the final status (env `SANDBOX_FINALIZE_DELAY_MS`, default 2000). */
  finalizeDelayMs?: number;
  /** Signature failures carry a `debug` part with the sandbox's own signing input (env `SANDBOX_DEBUG`, default on). */
  debug?: boolean;
  /** Accepted OAuth clock skew, seconds either way (env `SANDBOX_TIMESTAMP_WINDOW_SEC`, default 600). */
  timestampWindowSec?: number;
  /** Callbacks to any host, not only loopback (env `SANDBOX_CALLBACKS_ANY_HOST`, default false). */
  callbackAllowAnyHost?: boolean;
  /** Hosts besides this machine that callbacks (and the relay) may reach (env `SANDBOX_CALLBACK_HOSTS`, comma-separated). */
  callbackHosts?: readonly string[];
  /**
   * When an unanswered callback is sent again (env `SANDBOX_CALLBACK_SCHEDULE`): `gateway` (the
   * default), 30 attempts over 14 days (relay/retry-schedule.ts, one table); `fast`, `attempts`
   * (env `SANDBOX_CALLBACK_ATTEMPTS`, default 8) with waits doubling from `baseDelayMs` (env
   * `SANDBOX_CALLBACK_BASE_DELAY_MS`, default 1000), which only the fast schedule takes.
   */
  callbackRetry?: Partial<CallbackRetryOptions>;
  /** Timeout of one callback delivery (env `SANDBOX_CALLBACK_TIMEOUT_MS`, default 5000). */
  callbackTimeoutMs?: number;
  /** The relay's records kept per merchant, the newest (env `SANDBOX_RELAY_KEEP`, default 10000). */
  relayKeep?: number;
  /** Largest accepted request body in bytes (default 256 KiB). */
  bodyLimit?: number;
  /**
   * A request without `Accept: application/vnd.pay+json`: `gateway` answers it in the gateway's
   * default form-encoded format, `strict` refuses it with the description's 400 `ACCEPT_REQUIRED`
   * (env `SANDBOX_ACCEPT`, default `gateway`).
   */
  accept?: AcceptMode;
  /**
   * A full capture or return (no `amount`, no `currency`) whose `control` does not verify over the
   * sent values: `order` also accepts it signed over the order's own amount and currency, as the
   * vendor's v2 PHP SDK signs it; `sent` holds to the description's formula over the sent values
   * only. gateway-notes.md does not say which the real gateway does, hence the option
   * (env `SANDBOX_FULL_CAPTURE_CONTROL`, default `order`).
   */
  fullCaptureControl?: FullCaptureControl;
  /**
   * Other base paths (`/paynet`) whose operation calls the embedder routes to the handle's
   * `answer`: the standalone server answers at `/paynet/api/...` too, where clients hard-code it.
   * The signature is checked over the URL the client used.
   */
  aliasBasePaths?: readonly string[];
  /**
   * Answers a client may hold open at once under a delaying scenario (latency, processed-timeout);
   * more are refused at once with 429 and `Retry-After` (env `SANDBOX_HELD_PER_CLIENT`, default 16).
   * A client is its remote address, or what `heldClientOf` names (the classroom: the trainee).
   */
  heldPerClient?: number;
  /** Held answers of all clients together (default 128; the servers pass half their connection cap). */
  heldTotal?: number;
  /**
   * `refuse`: a call carrying `X-Sandbox-Scenario` is refused (403 `SCENARIO_TRAINER_ONLY`), its
   * merchant's choice applies (classroom mode: the trainer chooses). Default `honour`.
   */
  scenarioHeader?: 'honour' | 'refuse';
  /** Milliseconds since the epoch; injectable for tests. */
  clock?: () => number;
}

export interface ResolvedSandboxOptions {
  dataDir: string;
  dbPath: string;
  merchantsFile: string | undefined;
  merchants: MerchantConfig[] | undefined;
  finalizeDelayMs: number;
  debug: boolean;
  timestampWindowSec: number;
  callbackAllowAnyHost: boolean;
  callbackHosts: readonly string[];
  callbackRetry: CallbackRetryOptions;
  callbackTimeoutMs: number;
  relayKeep: number;
  bodyLimit: number;
  accept: AcceptMode;
  fullCaptureControl: FullCaptureControl;
  aliasBasePaths: readonly string[];
  heldPerClient: number;
  heldTotal: number;
  scenarioHeader: 'honour' | 'refuse';
  /** Where a merchant's callbacks may go besides the host rule (SandboxHooks.callbackRule). */
  callbackRule: SandboxHooks['callbackRule'];
  clock: () => number;
}

export const DEFAULTS = {
  dataDir: '.data',
  finalizeDelayMs: 2000,
  debug: true,
  timestampWindowSec: 600,
  callbackAllowAnyHost: false,
  callbackRetry: GATEWAY_RETRY,
  callbackTimeoutMs: 5000,
  relayKeep: 10_000,
  bodyLimit: 256 * 1024,
  accept: 'gateway',
  fullCaptureControl: 'order',
  heldPerClient: HELD_PER_CLIENT_DEFAULT,
  heldTotal: 128,
} as const;

/** See {@link SandboxOptions.fullCaptureControl}. */
export type FullCaptureControl = 'order' | 'sent';

/** Applies the defaults to partial options. */
export function resolveSandboxOptions(opts: SandboxOptions = {}): ResolvedSandboxOptions {
  const dataDir = opts.dataDir ?? DEFAULTS.dataDir;
  const int = (name: string, v: number | undefined, def: number, min: number, max: number): number => {
    const n = v ?? def;
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(
        `Sandbox option ${name} must be a whole number from ${min} to ${max} (got ${String(v)}).`,
      );
    }
    return n;
  };
  return {
    dataDir,
    dbPath: opts.dbPath ?? path.join(dataDir, 'sandbox.sqlite'),
    merchantsFile: opts.merchantsFile,
    merchants: opts.merchants,
    finalizeDelayMs: int('finalizeDelayMs', opts.finalizeDelayMs, DEFAULTS.finalizeDelayMs, 0, 86_400_000),
    debug: opts.debug ?? DEFAULTS.debug,
    timestampWindowSec: int(
      'timestampWindowSec',
      opts.timestampWindowSec,
      DEFAULTS.timestampWindowSec,
      1,
      86_400,
    ),
    callbackAllowAnyHost: opts.callbackAllowAnyHost ?? DEFAULTS.callbackAllowAnyHost,
    callbackHosts: (opts.callbackHosts ?? []).map((h) => h.trim().toLowerCase()).filter((h) => h !== ''),
    callbackRetry: callbackRetry(opts.callbackRetry, int),
    callbackTimeoutMs: int(
      'callbackTimeoutMs',
      opts.callbackTimeoutMs,
      DEFAULTS.callbackTimeoutMs,
      1,
      600_000,
    ),
    relayKeep: int('relayKeep', opts.relayKeep, DEFAULTS.relayKeep, 1, 10_000_000),
    bodyLimit: int('bodyLimit', opts.bodyLimit, DEFAULTS.bodyLimit, 1024, 64 * 1024 * 1024),
    accept: acceptMode(opts.accept),
    fullCaptureControl: fullCaptureControl(opts.fullCaptureControl),
    aliasBasePaths: opts.aliasBasePaths ?? [],
    heldPerClient: int('heldPerClient', opts.heldPerClient, DEFAULTS.heldPerClient, 1, 100_000),
    heldTotal: int('heldTotal', opts.heldTotal, DEFAULTS.heldTotal, 1, 100_000),
    scenarioHeader: opts.scenarioHeader === 'refuse' ? 'refuse' : 'honour',
    callbackRule: opts.callbackRule,
    clock: opts.clock ?? Date.now,
  };
}

/**
 * The retry schedule. `attempts` and `baseDelayMs` shape the fast schedule only: given with the
 * gateway schedule they are refused, so that a caller who relied on the fast retries (a test, an
 * e2e run) opts into them by name instead of silently waiting minutes for a retry.
 */
function callbackRetry(
  given: Partial<CallbackRetryOptions> | undefined,
  int: (name: string, v: number | undefined, def: number, min: number, max: number) => number,
): CallbackRetryOptions {
  const schedule = given?.schedule ?? DEFAULTS.callbackRetry.schedule;
  if (schedule !== 'gateway' && schedule !== 'fast')
    throw new Error(
      `Sandbox option callbackRetry.schedule must be "gateway" or "fast" (got ${String(schedule)}).`,
    );
  if (schedule === 'gateway') {
    if (given?.attempts !== undefined || given?.baseDelayMs !== undefined)
      throw new Error(
        'Sandbox options callbackRetry.attempts and baseDelayMs shape the fast schedule only: set callbackRetry.schedule to "fast" (env SANDBOX_CALLBACK_SCHEDULE=fast), or leave them out for the gateway schedule (30 attempts over 14 days).',
      );
    return GATEWAY_RETRY;
  }
  return {
    schedule,
    attempts: int('callbackRetry.attempts', given?.attempts, FAST_RETRY_DEFAULTS.attempts, 1, 100),
    baseDelayMs: int(
      'callbackRetry.baseDelayMs',
      given?.baseDelayMs,
      FAST_RETRY_DEFAULTS.baseDelayMs,
      0,
      86_400_000,
    ),
  };
}

function acceptMode(v: AcceptMode | undefined): AcceptMode {
  if (v === undefined) return DEFAULTS.accept;
  if (v !== 'gateway' && v !== 'strict')
    throw new Error(`Sandbox option accept must be "gateway" or "strict" (got ${String(v)}).`);
  return v;
}

function fullCaptureControl(v: FullCaptureControl | undefined): FullCaptureControl {
  if (v === undefined) return DEFAULTS.fullCaptureControl;
  if (v !== 'order' && v !== 'sent')
    throw new Error(`Sandbox option fullCaptureControl must be "order" or "sent" (got ${String(v)}).`);
  return v;
}

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine(
    (v) => ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''].includes(v),
    'use 1 or 0 (true/false)',
  )
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const whole = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `from ${min} to ${max}`);

const envSchema = z.object({
  DATA_DIR: z.string().trim().min(1).optional(),
  SANDBOX_DB: z.string().trim().min(1).optional(),
  SANDBOX_MERCHANTS: z.string().trim().min(1).optional(),
  SANDBOX_FINALIZE_DELAY_MS: whole(0, 86_400_000).optional(),
  SANDBOX_DEBUG: flag.optional(),
  SANDBOX_TIMESTAMP_WINDOW_SEC: whole(1, 86_400).optional(),
  SANDBOX_CALLBACKS_ANY_HOST: flag.optional(),
  SANDBOX_CALLBACK_HOSTS: z
    .string()
    .trim()
    .regex(/^[a-zA-Z0-9.-]+(\s*,\s*[a-zA-Z0-9.-]+)*$/, 'host names separated by commas')
    .transform((v) => v.split(',').map((h) => h.trim()))
    .optional(),
  SANDBOX_CALLBACK_SCHEDULE: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['gateway', 'fast'], { error: 'use gateway or fast' }))
    .optional(),
  SANDBOX_CALLBACK_ATTEMPTS: whole(1, 100).optional(),
  SANDBOX_CALLBACK_BASE_DELAY_MS: whole(0, 86_400_000).optional(),
  SANDBOX_CALLBACK_TIMEOUT_MS: whole(1, 600_000).optional(),
  SANDBOX_RELAY_KEEP: whole(1, 10_000_000).optional(),
  SANDBOX_HELD_PER_CLIENT: whole(1, 100_000).optional(),
  SANDBOX_ACCEPT: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['gateway', 'strict'], { error: 'use gateway or strict' }))
    .optional(),
  SANDBOX_FULL_CAPTURE_CONTROL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['order', 'sent'], { error: 'use order or sent' }))
    .optional(),
});

/**
 * Reads the sandbox's options from the environment (zod-checked).
 * @throws Error naming the variable and what it expects.
 */
export function sandboxOptionsFromEnv(env: Record<string, string | undefined> = process.env): SandboxOptions {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = envSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid sandbox environment: ${lines.join('; ')}.`);
  }
  const e = parsed.data;
  const dataDir = e.DATA_DIR ?? DEFAULTS.dataDir;
  return {
    dataDir,
    dbPath: e.SANDBOX_DB ?? path.join(dataDir, 'sandbox.sqlite'),
    ...(e.SANDBOX_MERCHANTS ? { merchantsFile: e.SANDBOX_MERCHANTS } : {}),
    finalizeDelayMs: e.SANDBOX_FINALIZE_DELAY_MS ?? DEFAULTS.finalizeDelayMs,
    debug: e.SANDBOX_DEBUG ?? DEFAULTS.debug,
    timestampWindowSec: e.SANDBOX_TIMESTAMP_WINDOW_SEC ?? DEFAULTS.timestampWindowSec,
    callbackAllowAnyHost: e.SANDBOX_CALLBACKS_ANY_HOST ?? DEFAULTS.callbackAllowAnyHost,
    ...(e.SANDBOX_CALLBACK_HOSTS ? { callbackHosts: e.SANDBOX_CALLBACK_HOSTS } : {}),
    // Attempts and base delay pass through as given: resolveSandboxOptions refuses them without the fast schedule.
    callbackRetry: {
      ...(e.SANDBOX_CALLBACK_SCHEDULE ? { schedule: e.SANDBOX_CALLBACK_SCHEDULE } : {}),
      ...(e.SANDBOX_CALLBACK_ATTEMPTS !== undefined ? { attempts: e.SANDBOX_CALLBACK_ATTEMPTS } : {}),
      ...(e.SANDBOX_CALLBACK_BASE_DELAY_MS !== undefined
        ? { baseDelayMs: e.SANDBOX_CALLBACK_BASE_DELAY_MS }
        : {}),
    },
    callbackTimeoutMs: e.SANDBOX_CALLBACK_TIMEOUT_MS ?? DEFAULTS.callbackTimeoutMs,
    relayKeep: e.SANDBOX_RELAY_KEEP ?? DEFAULTS.relayKeep,
    heldPerClient: e.SANDBOX_HELD_PER_CLIENT ?? DEFAULTS.heldPerClient,
    accept: e.SANDBOX_ACCEPT ?? DEFAULTS.accept,
    fullCaptureControl: e.SANDBOX_FULL_CAPTURE_CONTROL ?? DEFAULTS.fullCaptureControl,
  };
}
