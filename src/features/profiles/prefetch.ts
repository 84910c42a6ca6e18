import { ProxyTargetsSchema, type ProxyTarget } from '../../shared/contracts/contracts.ts';
import { fetchJson } from './fetch-json.ts';
import { DemoMerchantSchema, type DemoMerchant } from './profile-schema.ts';
import { loadStoredProfiles } from './profile-storage.ts';
import { readVault, type StoredVault } from './vault-store.ts';

/** What the profiles need from the server and the device, asked for before React mounts. */
export interface ProfilesPrefetch {
  targets?: Promise<ProxyTarget[]>;
  demo?: Promise<DemoMerchant>;
  vault?: Promise<StoredVault>;
}

export const TARGETS_URL = '/proxy/targets';
export const DEMO_MERCHANT_URL = '/sandbox/demo-merchant';

export const fetchTargets = () => fetchJson(TARGETS_URL, ProxyTargetsSchema, 'the list of targets');
export const fetchDemoMerchant = () =>
  fetchJson(DEMO_MERCHANT_URL, DemoMerchantSchema, 'the local sandbox demo merchant');

/** The consumer reports a failure; this only keeps an unconsumed one from being an unhandled rejection. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * Starts the targets list, the demo merchant (when a demo profile may need it) and the vault read
 * at once, so the profile bar and the signature do not wait for the first render to ask.
 */
export function startProfilesPrefetch(): ProfilesPrefetch {
  const stored = loadStoredProfiles();
  const mayNeedDemo = !stored || stored.profiles.some((p) => p.origin === 'sandbox-demo');
  return {
    targets: quiet(fetchTargets()),
    ...(mayNeedDemo ? { demo: quiet(fetchDemoMerchant()) } : {}),
    vault: quiet(readVault()),
  };
}

/** Hands each prefetched promise out once; later calls (retries, refetches) ask again. */
export function takeOnce(prefetch: ProfilesPrefetch | undefined) {
  const left: ProfilesPrefetch = { ...prefetch };
  return <K extends keyof ProfilesPrefetch>(name: K): ProfilesPrefetch[K] => {
    const p = left[name];
    delete left[name];
    return p;
  };
}
