import type { BuiltRequest } from '../../../core/index.ts';
import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import { signingEnvFor, type SigningContext } from '../../../model/signing-context.ts';
import { tryBuild, type BuildResult } from '../panes/build.ts';

/**
 * The live build of the form's request, for the workbench's session: one build per change of what
 * it signs (the draft's key, the profile, the place), only the latest landing, and the request on
 * screen kept so that Send sends it byte for byte.
 */
export class LiveBuild {
  /** What the last build was for: a change that leaves them alone builds nothing. */
  private deps: readonly unknown[] = [];
  private seq = 0;
  private shown: { key: string; context: SigningContext; built: BuiltRequest } | null = null;
  /** The nonce the preview shows while typing (an unpinned send draws its own, and shows it). */
  private readonly nonce: string;

  constructor(
    private readonly runtime: SigningRuntime,
    private readonly landed: (result: BuildResult) => void,
  ) {
    this.nonce = runtime.nonce();
  }

  /** Builds the resolved draft with this key, unless the last build was for the same. */
  build(draft: RequestDraft, key: string, context: SigningContext, place: Place): void {
    const deps = [key, context, place];
    if (deps.every((d, i) => d === this.deps[i])) return;
    this.deps = deps;
    const mine = ++this.seq;
    this.shown = null;
    void tryBuild(draft, signingEnvFor(context, place, this.runtime), {
      nonce: this.nonce,
      keepInvalidEndpoint: true,
    }).then((result) => {
      if (mine !== this.seq) return;
      this.shown = result.ok ? { key, context, built: result.built } : null;
      this.landed(result);
    });
  }

  /** Puts a request built for sending on screen (it replaces the preview, and a build under way). */
  show(key: string, context: SigningContext, built: BuiltRequest): void {
    this.seq += 1;
    this.shown = { key, context, built };
    this.landed({ ok: true, built });
  }

  /** The request on screen, when it was built from this key for this profile. */
  shownFor(key: string, context: SigningContext): BuiltRequest | undefined {
    const s = this.shown;
    return s && s.key === key && s.context === context ? s.built : undefined;
  }
}
