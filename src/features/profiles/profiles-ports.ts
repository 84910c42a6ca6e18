import type { ClassroomCredentials } from '../../browser/classroom-credentials.ts';
import type { ProxyTarget } from '../../contracts/proxy.ts';
import type { Timers } from '../../ui/remote-value.ts';
import type { SettledPrefetch } from './initial-state.ts';
import type { KeyImport } from './key-import.ts';
import type { DemoMerchant, StoredProfiles } from './profile-schema.ts';
import type { VaultPorts, VaultSession } from './vault-session.ts';
import type { StoredVault } from './vault-store.ts';

export type EditableField =
  'name' | 'targetName' | 'endpointKind' | 'endpointId' | 'endpointGroupId' | 'login';

export interface ClassroomFeed {
  loadClassroomCredentials(): Promise<ClassroomCredentials | null>;
  subscribeClassroomCredentials(listener: () => void): () => void;
}

export interface ClassroomFeed {
  loadClassroomCredentials(): Promise<ClassroomCredentials | null>;
  subscribeClassroomCredentials(listener: () => void): () => void;
}

/** What the profiles model is given: the page's storage, server, vault, key importer and clock. */
export interface ProfilesPorts {
  storage: { load(): StoredProfiles | null; save(value: StoredProfiles): void };
  /** The answers the prefetch already had when the app mounted (prefetch.ts): the first snapshot has them. */
  settled?: SettledPrefetch | undefined;
  /** The vault read the prefetch started: the first read, instead of a new one. */
  prefetchedVault?: Promise<StoredVault> | undefined;
  fetchTargets(): Promise<ProxyTarget[]>;
  fetchDemoMerchant(): Promise<DemoMerchant>;
  /**
   * Classroom mode only: loads the merchant this browser joined with and its change feed
   * (classroom-credentials.ts). Null elsewhere: the ordinary console's first page needs none of it.
   */
  classroom: (() => Promise<ClassroomFeed>) | null;
  /** `session` loads the vault's crypto side (vault-session.ts) when someone remembers, unlocks or locks. */
  vault: VaultPorts & { session(): Promise<{ VaultSession: typeof VaultSession }> };
  /** The page's one key importer (key-import.ts): a key met before is not imported again. */
  keys: { get(pem: string): Promise<KeyImport>; clear(): void };
  timers: Timers;
}
