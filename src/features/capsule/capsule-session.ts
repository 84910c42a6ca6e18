import type { CryptoPort } from '../../core/index.ts';
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
}

const EMPTY: CapsuleSnapshot = {
  text: '',
  controlKey: '',
  busy: false,
  capsule: null,
  readOnly: false,
  check: null,
  error: null,
};

/**
 * The incident capsule page's state, headless: paste → timeline (split, diagnose, rules, chain),
 * export, and a capsule opened read-only with its chain verified. Only the latest build answers.
 */
export class CapsuleSession extends Store<CapsuleSnapshot> {
  protected snap: CapsuleSnapshot = EMPTY;
  private runId = 0;

  constructor(private readonly crypto: CryptoPort) {
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
    this.update({ busy: false, capsule, readOnly: false, check: null });
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
    this.update({ capsule: doc as Capsule, readOnly: true, check, error: null, text: '', controlKey: '' });
  }
}
