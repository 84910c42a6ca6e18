import { errorText } from '../../core/errors.ts';
import type { CryptoPort } from '../../core/index.ts';
import type { SigningRuntime } from '../../model/build-draft.ts';
// Loaded when used: their chunks stay out of the list the first page preloads with this page.
import type { ReplayMerchant, ReplayPorts, ReplayStepResult } from '../../exports/replay-capsule.ts';
import {
  buildCapsule,
  splitIncident,
  verifyCapsule,
  type Capsule,
  type CapsuleCheck,
} from '../../diagnose/capsule/index.ts';
import { Store } from '../../core/store.ts';

export interface CapsuleSnapshot {
  /** What was pasted: log lines, HAR files, curl commands, access-log lines. */
  text: string;
  /** Kept in memory for the page's life, never in the capsule. */
  controlKey: string;
  busy: boolean;
  capsule: Capsule | null;
  /** An opened capsule is shown read-only, with its chain checked. */
  readOnly: boolean;
  check: CapsuleCheck | null;
  error: string | null;
  /** The replay into a fresh sandbox merchant: its progress and each step's comparison. */
  replay: ReplayState | null;
  /** A link that opens this capsule (read-only), or why it cannot be one. */
  link: { href: string } | { error: string } | null;
}

export interface ReplayState {
  running: boolean;
  done: number;
  total: number;
  login: string | null;
  steps: ReplayStepResult[];
  divergent: boolean | null;
  error: string | null;
}

/** What a replay needs from the page: the sandbox, its throwaway merchant and the signing runtime. */
export interface CapsuleReplayHost {
  runtime: SigningRuntime;
  /** The console's origin; its sandbox is at `<origin>/sandbox`. */
  origin: string;
  makeMerchant(): Promise<ReplayMerchant & { login: string }>;
  send: ReplayPorts['send'];
  wait: ReplayPorts['wait'];
}

const EMPTY: CapsuleSnapshot = {
  text: '',
  controlKey: '',
  busy: false,
  capsule: null,
  readOnly: false,
  check: null,
  error: null,
  replay: null,
  link: null,
};

/**
 * The incident capsule page's state, headless: paste → timeline (split, diagnose, rules, chain),
 * export, and a capsule opened read-only with its chain verified. Only the latest build answers.
 */
export class CapsuleSession extends Store<CapsuleSnapshot> {
  protected snap: CapsuleSnapshot = EMPTY;
  private runId = 0;

  constructor(
    private readonly crypto: CryptoPort,
    private readonly host?: CapsuleReplayHost,
  ) {
    super();
  }

  private update(change: Partial<CapsuleSnapshot>): void {
    this.snap = { ...this.snap, ...change };
    this.notify();
  }

  set(field: 'text' | 'controlKey', value: string): void {
    this.update({ [field]: value });
  }

  async build(): Promise<void> {
    const id = ++this.runId;
    const { items, skipped } = splitIncident([{ name: 'paste', text: this.snap.text }]);
    if (items.length === 0) {
      this.update({
        error:
          'No request, callback or return found: paste the log lines, HAR file, curl commands or access-log lines of the incident.',
        capsule: null,
      });
      return;
    }
    this.update({ busy: true, error: null });
    const key = this.snap.controlKey;
    const capsule = await buildCapsule(items, key !== '' ? { controlKey: key } : {}, this.crypto, skipped);
    if (id !== this.runId) return;
    this.update({ busy: false, capsule, readOnly: false, check: null, replay: null, link: null });
  }

  /** A capsule file as it is shared: the JSON text. */
  exportText(): string | null {
    return this.snap.capsule ? `${JSON.stringify(this.snap.capsule, null, 2)}\n` : null;
  }

  /** Opens a capsule someone shared: read-only, its chain checked before anything is shown as intact. */
  async open(text: string): Promise<void> {
    const id = ++this.runId;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      this.update({
        error: 'This file is not JSON: open a capsule exported by this page or by paysign capsule build.',
      });
      return;
    }
    const check = await verifyCapsule(doc, this.crypto);
    if (id !== this.runId) return;
    if (check.brokenAt === -1 && check.problems[0]?.startsWith('not a capsule')) {
      this.update({ error: `This is not a capsule (${check.problems[0]}).` });
      return;
    }
    this.update({
      capsule: doc as Capsule,
      readOnly: true,
      check,
      error: null,
      text: '',
      controlKey: '',
      replay: null,
      link: null,
    });
  }

  /** Opens the capsule a `#capsule=…` link carries; false when the fragment carries none. */
  async openLink(hash: string): Promise<boolean> {
    if (!hash.includes('capsule=')) return false;
    const { readCapsuleFragment } = await import('../../exports/capsule-link.ts');
    const read = await readCapsuleFragment(hash);
    if (read === null) return false;
    if ('error' in read) this.update({ error: read.error });
    else await this.open(read.text);
    return true;
  }

  /** A link to this capsule (the page's origin is put in front by the page). */
  async makeLink(): Promise<void> {
    const text = this.exportText();
    if (text === null) return;
    const { capsuleLinkHref } = await import('../../exports/capsule-link.ts');
    const made = await capsuleLinkHref(JSON.stringify(this.snap.capsule));
    this.update({ link: 'error' in made ? { error: made.error } : { href: made.href } });
  }

  /**
   * Replays the capsule into a fresh sandbox merchant (never the incident's), step by step; a
   * broken chain is not replayed. Only the latest build, open or replay answers.
   */
  async replay(): Promise<void> {
    const { capsule, check } = this.snap;
    if (!capsule || !this.host || this.snap.replay?.running) return;
    const blank: ReplayState = {
      running: true,
      done: 0,
      total: capsule.steps.length,
      login: null,
      steps: [],
      divergent: null,
      error: null,
    };
    if (check && !check.ok) {
      this.update({
        replay: { ...blank, running: false, error: 'A capsule whose chain is broken is not replayed.' },
      });
      return;
    }
    const id = ++this.runId;
    this.update({ replay: blank });
    const host = this.host;
    try {
      const merchant = await host.makeMerchant();
      if (id !== this.runId) return;
      this.update({ replay: { ...this.snap.replay!, login: merchant.login } });
      const { replayCapsule } = await import('../../exports/replay-capsule.ts');
      const report = await replayCapsule(
        capsule,
        merchant,
        { runtime: host.runtime, send: host.send, wait: host.wait },
        {
          baseUrl: `${host.origin}/sandbox/paynet`,
          origin: host.origin,
          onStep: (step, done) => {
            if (id !== this.runId) return;
            const r = this.snap.replay!;
            this.update({ replay: { ...r, done, steps: [...r.steps, step] } });
          },
        },
      );
      if (id !== this.runId) return;
      this.update({ replay: { ...this.snap.replay!, running: false, divergent: report.divergent } });
    } catch (e) {
      if (id !== this.runId) return;
      this.update({
        replay: { ...this.snap.replay!, running: false, error: errorText(e) },
      });
    }
  }
}
