import type { VaultStatus } from './initial-state.ts';
import {
  deriveVaultKey,
  openVault,
  sealVault,
  VaultError,
  type ProfileSecrets,
  type VaultKey,
  type VaultRecord,
} from './vault-crypto.ts';
import type { StoredVault } from './vault-store.ts';
import { errorText } from '../../core/errors.ts';

export interface VaultPorts {
  read(): Promise<StoredVault>;
  write(record: VaultRecord): Promise<void>;
  remove(): Promise<void>;
  subtle: SubtleCrypto;
}

/** The vault's state as the owner shows it; the session changes it and then calls `changed`. */
export interface VaultState {
  status: VaultStatus;
  writeError: string | null;
  changed(): void;
}

/**
 * The vault's crypto side of its state machine: off → (remember) unlocked ⇄ (lock / unlock) locked,
 * the key derived from the passphrase held in memory only while unlocked, and one chain of writes
 * so a lock or a forget waits for the seal under way. It loads with the vault's crypto, when
 * someone remembers or unlocks: what needs no key (reading the record, forgetting) is the owner's.
 */
export class VaultSession {
  private key: VaultKey | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly ports: VaultPorts,
    private readonly state: VaultState,
    private readonly now: () => number,
  ) {}

  /** Seals the secrets and writes them, after any write under way; a failure lands in `writeError`. */
  persist(secrets: Record<string, ProfileSecrets>): Promise<void> {
    const { key, ports, state } = this;
    if (!key) return this.chain;
    this.chain = this.chain
      .then(async () => {
        const record = await sealVault(
          ports.subtle,
          key,
          { version: 1, profiles: secrets },
          new Date(this.now()),
        );
        await ports.write(record);
        state.writeError = null;
        if (state.status.kind === 'unlocked')
          state.status = { kind: 'unlocked', updatedAt: record.updatedAt };
      })
      .catch((e: unknown) => {
        state.writeError = `The secrets could not be saved on this device: ${errorText(e)}`;
      })
      .then(() => state.changed());
    return this.chain;
  }

  async remember(passphrase: string, secrets: () => Record<string, ProfileSecrets>): Promise<void> {
    this.key = await deriveVaultKey(this.ports.subtle, passphrase);
    this.state.status = { kind: 'unlocked', updatedAt: new Date(this.now()).toISOString() };
    this.state.changed();
    await this.persist(secrets());
  }

  // unlock and lock leave the telling to the owner, which changes the secrets with them.

  /** Opens the stored record with the passphrase and gives back its secrets by profile id. */
  async unlock(passphrase: string): Promise<Record<string, ProfileSecrets>> {
    const stored = await this.ports.read();
    if (stored.state === 'none') {
      this.state.status = { kind: 'off' };
      this.state.changed();
      throw new VaultError(
        'RECORD_DAMAGED',
        'Nothing is remembered on this device any more (it was forgotten in another tab?).',
      );
    }
    if (stored.state === 'damaged') throw new VaultError('RECORD_DAMAGED', stored.message);
    const opened = await openVault(this.ports.subtle, stored.record, passphrase);
    this.key = opened.vaultKey;
    this.state.status = { kind: 'unlocked', updatedAt: stored.record.updatedAt };
    return opened.plaintext.profiles;
  }

  /** Writes the secrets a last time and drops the key; the owner drops the secrets. */
  async lock(secrets: Record<string, ProfileSecrets>): Promise<void> {
    await this.persist(secrets);
    this.key = null;
    this.state.status = { kind: 'locked' };
  }

  /** Before a forget: waits for the write under way, then drops the key. */
  async drop(): Promise<void> {
    await this.chain;
    this.key = null;
  }
}
