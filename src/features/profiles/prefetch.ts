import { consoleMode } from '../../browser/console-mode.ts';
import { ProxyTargetsSchema, type ProxyTarget } from '../../contracts/proxy.ts';
import { fetchJson } from './fetch-json.ts';
import { initialProfilesState, type SettledPrefetch } from './initial-state.ts';
import { keyImporter } from './key-import.ts';
import { loadStoredProfiles } from './profile-storage.ts';
import { DemoMerchantSchema, type DemoMerchant } from './profile-schema.ts';
import { readVault, vaultHintSaysNone, type StoredVault } from './vault-store.ts';

/** What the profiles need from the server and the device, asked for before React mounts. */
export interface ProfilesPrefetch {
  targets?: Promise<ProxyTarget[]>;
  demo?: Promise<DemoMerchant>;
  vault?: Promise<StoredVault>;
  /** The answers that were already in when React mounted: the first render uses them as they are. */
  settled?: SettledPrefetch;
}

// index.html preloads both (rel=preload as=fetch), so their answers are usually in before this runs;
// in classroom mode the server leaves the demo merchant's preload out, and nothing asks for it.
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
 * Starts the targets list, the demo merchant and the vault read at once, so the profile bar and
 * the signature do not wait for the first render to ask. The demo merchant is asked for even when
 * the stored profiles need none: index.html has preloaded it, and an unused preload is a warning.
 * In classroom mode there is no demo merchant (the server refuses it): the trainee's own classroom
 * profile signs.
 */
export function startProfilesPrefetch(mode = consoleMode()): ProfilesPrefetch {
  return {
    targets: quiet(fetchTargets()),
    ...(mode === 'classroom' ? {} : { demo: quiet(fetchDemoMerchant()) }),
    vault: quiet(readVault()),
  };
}

/**
 * Waits up to `capMs` for the prefetched answers and records those that arrived, so the first
 * render can show the profile (and so the signature) instead of a "waiting" state and a second
 * render. What is late or failed is left to the promises: the provider reports it as before.
 */
export async function settleProfilesPrefetch(
  prefetch: ProfilesPrefetch,
  capMs: number,
): Promise<ProfilesPrefetch> {
  const settled: SettledPrefetch = {};
  // With the hint saying "nothing remembered", the first render does not wait for IndexedDB.
  const hinted = vaultHintSaysNone();
  const record = <K extends keyof SettledPrefetch>(name: K, p: Promise<SettledPrefetch[K]> | undefined) =>
    p?.then(
      (v) => {
        settled[name] = v;
      },
      () => undefined,
    );
  // The demo key only where the first render signs with it: the provider's first state, read from
  // the same rule (a demo profile active, its secrets filled because the vault is known and open).
  const importDemoKey = async () => {
    const vault = settled.vault ?? (hinted ? ({ state: 'none' } as const) : undefined);
    const first = initialProfilesState(loadStoredProfiles(), { ...settled, ...(vault ? { vault } : {}) });
    // Only demo profiles have secrets in the first state.
    const pem = first.activeId === null ? undefined : first.secretsById[first.activeId]?.privateKeyPem;
    if (!pem) return;
    const result = await keyImporter.get(pem);
    settled.demoKey = { pem, result };
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all([
      record('targets', prefetch.targets),
      record('demo', prefetch.demo),
      hinted ? undefined : record('vault', prefetch.vault),
    ]).then(importDemoKey),
    new Promise<void>((done) => (timer = setTimeout(done, capMs))),
  ]);
  clearTimeout(timer);
  if (hinted && !settled.vault) {
    settled.vault = { state: 'none' };
    settled.vaultFromHint = true;
  }
  // A copy: answers that arrive after the cap must not change what the first render was given.
  return { ...prefetch, settled: { ...settled } };
}

/** Hands each prefetched promise out once; later calls (retries, refetches) ask again. */
export function takeOnce(prefetch: ProfilesPrefetch | undefined) {
  const left: Omit<ProfilesPrefetch, 'settled'> = { ...prefetch };
  return <K extends keyof typeof left>(name: K): ProfilesPrefetch[K] => {
    const p = left[name];
    delete left[name];
    return p;
  };
}
