import { nodeCryptoPort } from '../src/node/node-crypto-port.ts';
import { loadMerchants } from './merchants.ts';
import type { ResolvedSandboxOptions } from './options.ts';
import { SandboxStore } from './store.ts';

export interface RestoredKey {
  login: string;
  keyFingerprint: string;
  keyBits: number;
  /** false when no key had been registered: the configured key was already in use. */
  hadRegistered: boolean;
  dbPath: string;
}

/**
 * `npm run sandbox -- --restore-demo-key`: forgets the public key registered at run time for the
 * first merchant (the demo merchant unless SANDBOX_MERCHANTS names others), in the database itself,
 * so the shipped key pair works again after the next start. A server running on the same database
 * keeps its key in memory: its Keys page (or `DELETE /sandbox/merchants/<login>/public-key`) does it live.
 */
export async function restoreDemoKey(options: ResolvedSandboxOptions): Promise<RestoredKey> {
  if (options.dbPath === ':memory:') {
    throw new Error(
      'SANDBOX_DB is :memory:: nothing is kept between starts, so there is no registered key to forget.',
    );
  }
  const store = new SandboxStore(options.dbPath);
  try {
    const merchants = await loadMerchants(options, nodeCryptoPort(), store);
    const login = merchants.first().login;
    const hadRegistered = store.merchantKeys.delete(login);
    const restored = merchants.restoreConfigured(login);
    return {
      login,
      keyFingerprint: restored.keyFingerprint,
      keyBits: restored.keyBits,
      hadRegistered,
      dbPath: options.dbPath,
    };
  } finally {
    store.close();
  }
}
