import type { Place, RequestDraft, SigningRuntime } from '../../../model/index.ts';
import type { SigningContext } from '../../../model/signing-context.ts';
import type { ExchangeRecord, Transport } from '../../../model/exchange.ts';
import type { StoredVariables } from '../../../browser/variables-store.ts';
import type { ReadableStore } from '../../../core/store.ts';
import type { SendSessionPorts } from '../send/send-session.ts';

/** The page, the browser and the model's exchange, as the session reaches them. */
export interface WorkbenchPorts {
  /** The crypto port, nonce source and clock the app made once: the live build and the send sign with it. */
  runtime: SigningRuntime;
  /** The variables kept per profile (`{{name}}` in the form resolves from them). */
  variables: ReadableStore<StoredVariables>;
  /** The model's `prepareExchange` (loaded with the first Send in the browser). */
  prepare: SendSessionPorts['prepare'];
  /** A send's cancel and timeout (send-lifecycle.ts in the browser). */
  lifecycle: SendSessionPorts['lifecycle'];
  /** Where a send goes for this profile (the proxy in the browser). */
  transport: (context: SigningContext) => Transport;
  /** Every exchange, answered or failed, for history. */
  recorded: (record: ExchangeRecord) => void;
  /** The form's request, whenever it changes (export, share and teaching tools). */
  draftChanged?: (draft: RequestDraft) => void;
  /** The timeout kept between visits (send-timeout.ts and localStorage in the browser). */
  timeouts: { load(): number; save(seconds: number): void };
  /** Runs the form's checks: the names of the fields that fail them, none when it may be sent. */
  check: () => Promise<string[]>;
  focusField: (name: string) => void;
  focusTimeout: () => void;
  /** A new order id for the test data (random in the browser). */
  orderId?: (now: number) => string;
}

/** Where the session signs: the active profile (none yet: null) and this console's place. */
export interface WorkbenchWhere {
  context: SigningContext | null;
  place: Place;
}
