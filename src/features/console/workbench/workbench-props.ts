import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import type { Exchange } from '../../../model/exchange.ts';
import type { SigningContext } from '../../../model/signing-context.ts';

export interface WorkbenchNavigation {
  operationPath: string;
  draft?: RequestDraft;
}

export interface WorkbenchProps {
  operationPath: string;
  context: SigningContext | null;
  /** Where the console runs: its origin, this session's inbox and the profile's login. */
  place: Place;
  /** The crypto port, nonce source and clock, made once by the app. */
  runtime: SigningRuntime;
  /** The request to open (from history, a share link, an import, a follow-up). */
  draft?: RequestDraft | null;
  onExchange: (ex: Exchange) => void | Promise<void>;
  onNavigate: (to: WorkbenchNavigation) => void;
  /** Called with the form's request whenever it changes (for export, share and teaching tools). */
  onDraftChange?: (current: RequestDraft) => void;
  /** Send the opened draft once, as soon as a profile is active ("re-send in one click"). */
  sendOnOpen?: boolean;
}
