import { isPayError, type CryptoPort, type GeneratedKeyPair, type KeyInspection } from '../../core/index.ts';
import { generateKeyPair, inspectKey } from '../../core/keys/key-containers.ts';
import { CONVERSIONS, type Conversion } from './key-conversions.ts';
import {
  registerPublicKey,
  restoreDemoKey,
  type RegisterResult,
  type RestoreResult,
  type SandboxFetch,
} from './register-key.ts';
import { errorText } from '../../core/errors.ts';
import { Store } from '../../core/store.ts';

/** How the private half of the generated pair was kept outside this page, if it was. */
export type SavedAs = 'downloaded' | 'copied' | 'remembered';

/** A generated pair, how long it took and whether its private half was kept somewhere. */
export interface KeptPair {
  keys: GeneratedKeyPair;
  ms: number;
  saved: SavedAs | null;
}

export interface KeysSnapshot {
  bits: number;
  pair: KeptPair | null;
  generating: boolean;
  /** Time since the generation started, updated while it runs. */
  elapsedMs: number;
  generateError: string | null;
  /** "Save the private key before registering" is open. */
  askSave: boolean;
  saveError: string | null;
  useResult: { kind: 'ok' | 'error'; text: string } | null;
  registering: boolean;
  registered: RegisterResult | null;
  registerError: string | null;
  restoring: boolean;
  restored: (RestoreResult & { used: boolean }) | null;
  restoreError: string | null;
  /** The key pasted or opened to inspect, its inspection (of this text only), a conversion of it. */
  keyText: string;
  inspection: KeyInspection | null;
  converted: { id: Conversion; pem: string } | null;
  inspectError: string | null;
}

/** The active profile as the Keys page meets it (the shell's props). */
export interface ProfileKeys {
  activeLogin: string | null;
  onUseKey: (pkcs8Pem: string) => Promise<void>;
  /** Uses the key in the active profile and keeps it in the encrypted vault; false when cancelled. */
  onRememberKey: (pkcs8Pem: string) => Promise<boolean>;
}

export interface KeysPorts {
  crypto: CryptoPort;
  /** Milliseconds on a monotonic clock (`performance.now` in the browser). */
  now: () => number;
  /** Calls `tick` every `ms` until the returned stop is called (`setInterval` in the browser). */
  every: (ms: number, tick: () => void) => () => void;
  /** The core's generator unless a caller passes its own. */
  generate?: (bits: number, crypto: CryptoPort) => Promise<GeneratedKeyPair>;
  /** The local sandbox's own routes (the browser's `fetch` unless given). */
  fetch?: SandboxFetch;
  /** In the classroom a merchant's private key lives with its classroom credentials: keep a registered one there. */
  keepClassroomKey?: (login: string, privatePem: string) => Promise<unknown>;
  /** Where the last pair outlives the page (module memory in the browser). */
  memory?: { read(): KeptPair | null; write(pair: KeptPair): void };
}

const TICK_MS = 100;

function message(e: unknown): string {
  return errorText(e);
}

/**
 * The Keys page, headless: generating a pair (size, progress time, the pair and where its private
 * half was kept), registering its public half with the local sandbox (asking to save the private
 * half first), restoring the demo key, and inspecting and converting a pasted key.
 */
export class KeysSession extends Store<KeysSnapshot> {
  protected snap: KeysSnapshot;
  private inspectRun = 0;
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly ports: KeysPorts) {
    super();
    const pair = ports.memory?.read() ?? null;
    this.snap = {
      bits: pair?.keys.bits ?? 4096,
      pair,
      generating: false,
      elapsedMs: 0,
      generateError: null,
      askSave: false,
      saveError: null,
      useResult: null,
      registering: false,
      registered: null,
      registerError: null,
      restoring: false,
      restored: null,
      restoreError: null,
      keyText: '',
      inspection: null,
      converted: null,
      inspectError: null,
    };
  }

  /** Resolves once everything started so far has landed. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  pickBits(bits: number): void {
    if (!this.snap.generating) this.set({ bits });
  }

  generate(): Promise<void> {
    if (this.snap.generating) return Promise.resolve();
    const { bits } = this.snap;
    const started = this.ports.now();
    this.set({ generating: true, elapsedMs: 0, generateError: null });
    const stop = this.ports.every(TICK_MS, () => this.set({ elapsedMs: this.ports.now() - started }));
    const make = this.ports.generate ?? generateKeyPair;
    return this.track(
      make(bits, this.ports.crypto)
        .then(
          (keys) => {
            const pair: KeptPair = { keys, ms: this.ports.now() - started, saved: null };
            this.ports.memory?.write(pair);
            this.set({ pair, useResult: null, registered: null, registerError: null });
          },
          (e: unknown) => this.set({ generateError: message(e) }),
        )
        .finally(() => {
          stop();
          this.set({ generating: false });
        }),
    );
  }

  /** The private half was copied, downloaded or remembered: registering no longer asks first. */
  markSaved(how: SavedAs): void {
    const p = this.snap.pair;
    if (!p) return;
    const pair = { ...p, saved: p.saved ?? how };
    this.ports.memory?.write(pair);
    this.set({ pair });
  }

  /** "Register with the local sandbox": at once when the private half is kept, else asks to save it first. */
  startRegister(login: string): Promise<void> {
    this.set({ saveError: null });
    if (this.snap.pair?.saved) return this.register(login);
    this.set({ askSave: true });
    return Promise.resolve();
  }

  closeSaveFirst(): void {
    this.set({ askSave: false });
  }

  /** Registering replaces the key the sandbox verifies with (no questions asked here). */
  register(login: string): Promise<void> {
    const pair = this.snap.pair;
    if (!pair || this.snap.registering) return Promise.resolve();
    this.set({ askSave: false, registering: true, registered: null, registerError: null });
    const run = async () => {
      const result = await registerPublicKey(login, pair.keys.spkiPem, this.ports.fetch);
      if (result.ok && this.ports.keepClassroomKey)
        await this.ports.keepClassroomKey(login, pair.keys.pkcs8Pem);
      return result;
    };
    return this.track(
      run().then(
        (registered) => this.set({ registering: false, registered }),
        (e: unknown) => this.set({ registering: false, registerError: message(e) }),
      ),
    );
  }

  /** Remembers the private key in the vault (through the profile), then registers; nothing when cancelled. */
  rememberThenRegister(login: string, remember: (pkcs8Pem: string) => Promise<boolean>): Promise<void> {
    const pair = this.snap.pair;
    if (!pair) return Promise.resolve();
    this.set({ askSave: false, saveError: null });
    const run = async () => {
      try {
        if (!(await remember(pair.keys.pkcs8Pem))) return;
      } catch (e) {
        this.set({ saveError: message(e) });
        return;
      }
      this.markSaved('remembered');
      this.set({
        useResult: {
          kind: 'ok',
          text: `The active profile now signs with this key (fingerprint ${pair.keys.fingerprint}), remembered on this device, encrypted.`,
        },
      });
      await this.register(login);
    };
    return this.track(run());
  }

  /** "Use this key in the active profile". */
  useInProfile(applyKey: (pkcs8Pem: string) => Promise<void>): Promise<void> {
    const pair = this.snap.pair;
    if (!pair) return Promise.resolve();
    this.set({ useResult: null });
    return this.track(
      applyKey(pair.keys.pkcs8Pem).then(
        () =>
          this.set({
            useResult: {
              kind: 'ok',
              text: `The active profile now signs with this key (fingerprint ${pair.keys.fingerprint}).`,
            },
          }),
        (e: unknown) => this.set({ useResult: { kind: 'error', text: message(e) } }),
      ),
    );
  }

  /** The sandbox verifies the demo merchant with its shipped pair again; the profile gets its private key when it signs as it. */
  restore(activeLogin: string | null, applyKey: (pkcs8Pem: string) => Promise<void>): Promise<void> {
    if (this.snap.restoring) return Promise.resolve();
    this.set({ restoring: true, restored: null, restoreError: null });
    const run = async () => {
      const result = await restoreDemoKey(this.ports.fetch);
      const used =
        result.privateKeyPkcs8Pem !== null && activeLogin === result.restored.login
          ? await applyKey(result.privateKeyPkcs8Pem).then(() => true)
          : false;
      return { ...result, used };
    };
    return this.track(
      run().then(
        (restored) => this.set({ restoring: false, restored }),
        (e: unknown) => this.set({ restoring: false, restoreError: message(e) }),
      ),
    );
  }

  /** The key to inspect, typed or pasted: inspected again, an earlier conversion dropped. */
  setKeyText(keyText: string): void {
    this.set({ keyText, converted: null, inspectError: null });
    this.inspect();
  }

  /** A key file read by the page: its text, or why it could not be read. */
  openedFile(read: { text: string } | { error: string }): void {
    if ('error' in read) this.set({ inspectError: read.error });
    else this.setKeyText(read.text);
  }

  convert(id: Conversion): Promise<void> {
    const c = CONVERSIONS.find((x) => x.id === id);
    if (!c) return Promise.resolve();
    const text = this.snap.keyText;
    this.set({ inspectError: null });
    return this.track(
      c.run(text, this.ports.crypto).then(
        (pem) => this.set({ converted: { id, pem } }),
        (e: unknown) =>
          this.set({
            converted: null,
            inspectError: isPayError(e) ? e.message : `The conversion failed: ${message(e)}`,
          }),
      ),
    );
  }

  private inspect(): void {
    const text = this.snap.keyText;
    const run = ++this.inspectRun;
    if (text.trim() === '') {
      this.set({ inspection: null });
      return;
    }
    // Until this text's inspection lands, none is shown: an earlier one describes another key.
    this.set({ inspection: null });
    void this.track(
      inspectKey(text, this.ports.crypto).then((inspection) => {
        if (run === this.inspectRun) this.set({ inspection });
      }),
    );
  }

  private set(next: Partial<KeysSnapshot>): void {
    this.snap = { ...this.snap, ...next };
    this.notify();
  }

  private track(run: Promise<unknown>): Promise<void> {
    this.running.add(run);
    return run.then(
      () => {
        this.running.delete(run);
      },
      () => {
        this.running.delete(run);
      },
    );
  }
}
