import type { CryptoPort } from '../src/core/index.ts';
import { answerWithoutHttp, type OperationContext } from './answer-operation.ts';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from './checkpointer.ts';
import { Engine } from './engine/index.ts';
import { HeldBudget } from './held-budget.ts';
import type { SandboxHandle, SandboxHooks } from './hooks.ts';
import { createMerchant, loadMerchants, type MerchantRegistry } from './merchants.ts';
import type { ResolvedSandboxOptions } from './options.ts';
import { ScenarioStore } from './scenarios/scenario-store.ts';
import { Scheduler } from './scheduler.ts';
import { secureDataDir } from './secure-files.ts';
import { SandboxStore } from './store.ts';

/** The sandbox's parts, built in order, each given what it needs by its constructor. */
export interface SandboxParts {
  store: SandboxStore;
  merchants: MerchantRegistry;
  lab: ScenarioStore;
  engine: Engine;
  scheduler: Scheduler;
  /** Stops the scheduler and the checkpointer, then closes the file. */
  close(): Promise<void>;
}

/**
 * The composition root: store → merchants → scenario lab → engine → scheduler, nothing assigned
 * after construction. The scheduler is not started (the plugin starts it once its routes are set).
 */
export async function composeSandbox(
  options: ResolvedSandboxOptions,
  crypto: CryptoPort,
  onError: (message: string) => void,
): Promise<SandboxParts> {
  // State files are the owner's alone, made so or fixed (docs/security.md).
  if (options.dbPath !== ':memory:') secureDataDir(options.dataDir);
  const store = new SandboxStore(options.dbPath);
  const checkpointer = options.dbPath === ':memory:' ? undefined : new Checkpointer(options.dbPath, onError);
  if (checkpointer) store.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  let merchants: MerchantRegistry;
  try {
    merchants = await loadMerchants(options, crypto, store);
  } catch (e) {
    await checkpointer?.stop();
    store.close();
    throw e;
  }
  const lab = new ScenarioStore(store.db);
  const engine = new Engine(store, options, lab);
  const scheduler = new Scheduler(engine, merchants, crypto, onError);
  return {
    store,
    merchants,
    lab,
    engine,
    scheduler,
    close: async () => {
      await scheduler.stop();
      await checkpointer?.stop();
      store.close();
    },
  };
}

/**
 * What an operation call is answered with (answer-operation.ts): the parts, the settings, a cache
 * of the catalog's request schemas and the budget of held answers. `basePath` is
 * `<plugin prefix>/paynet`, where the plugin's pages live.
 */
export function composeOperationContext(
  parts: SandboxParts,
  options: ResolvedSandboxOptions,
  crypto: CryptoPort,
  hooks: Pick<SandboxHooks, 'onAttempt' | 'scenarioSleep'>,
  basePath: string,
): OperationContext {
  return {
    options,
    engine: parts.engine,
    merchants: parts.merchants,
    crypto,
    schemas: new Map(),
    now: () => new Date(options.clock()),
    basePath,
    basePaths: new Set([basePath, ...options.aliasBasePaths]),
    lab: parts.lab,
    held: new HeldBudget(options.heldPerClient, options.heldTotal),
    hooks,
  };
}

/** What an embedder (the classroom, the console's proxy) gets of a running sandbox: see `onReady`. */
export function composeHandle(
  parts: SandboxParts,
  ctx: OperationContext,
  logError: (code: string | undefined, message: string) => void,
): SandboxHandle {
  const { store, merchants, lab, scheduler } = parts;
  const { options, crypto } = ctx;
  return {
    store,
    merchants,
    crypto,
    createMerchant: (input) => createMerchant(store, merchants, crypto, { ...input, now: options.clock() }),
    finalizeDue: () => scheduler.finalizeDue(),
    clock: options.clock,
    answer: (call) => answerWithoutHttp(ctx, call, logError),
    apiPath: `${ctx.basePath}/api/`,
    setMerchantScenario: (login, choice) => lab.setMerchantChoice(login, choice, options.clock()),
    merchantScenario: (login) => lab.merchantChoice(login),
  };
}
