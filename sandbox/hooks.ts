import type { FastifyRequest } from 'fastify';
import type { CryptoPort, EndpointRef, Scheme } from '../src/core/index.ts';
import type { Merchant, MerchantRegistry } from './merchants.ts';
import type { ApiReply } from './replies.ts';
import type { ScenarioChoice } from '../src/catalog/scenarios.ts';
import type { SandboxStore } from './store.ts';

/**
 * One operation call as the sandbox saw it, handed to an embedder (the classroom) after the answer
 * is made. `bodyText` and `authorization` are the exact bytes that were signed: an embedder may
 * diagnose them in memory but must not keep them (they can carry card data).
 */
export interface SandboxAttempt {
  at: number;
  /** The merchant owning the endpoint in the path; undefined when the path named none. */
  merchant: Merchant | undefined;
  opPath: string | undefined;
  /** The scheme the request was checked with; undefined when it was refused before that. */
  scheme: Scheme | undefined;
  endpoint: EndpointRef | undefined;
  /** `http(s)://<Host><path>`, the URL the signature covers. */
  url: string;
  bodyText: string;
  authorization: string | undefined;
  /** True when the signature was checked and good (the answer may still be a business refusal). */
  authenticated: boolean;
  reply: ApiReply;
}

/** An HTTP request to an operation, as the sandbox answers it: what it reads of it (the engine works on `OperationCall`, made from this after authentication). */
export interface HttpCall {
  method: string;
  /** How the client connected: the signed URL is rebuilt with it (default `http`). */
  scheme?: 'http' | 'https';
  /** The path as sent (percent-escapes kept), without the query. */
  path: string;
  headers: {
    accept?: string | undefined;
    'content-type'?: string | undefined;
    host?: string | undefined;
    authorization?: string | undefined;
    /** Chooses scenarios for this call (sandbox/scenarios/, src/catalog/scenarios.ts). */
    'x-sandbox-scenario'?: string | undefined;
  };
  /** The raw body bytes; undefined when there was none. */
  body: unknown;
  /**
   * Who sent it, for the budget of held answers (held-budget.ts): the remote address, or the
   * embedder's name for the client (`heldClientOf`). Undefined: one budget for such calls.
   */
  client?: string | undefined;
}

/** A sandbox answer as bytes, with the headers the sandbox's own route would send. */
export interface OperationAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The scenario lab's `processed-timeout`: reset the connection instead of answering. */
  reset?: true;
}

/** What an embedder may use of a running sandbox plugin. */
export interface SandboxHandle {
  store: SandboxStore;
  merchants: MerchantRegistry;
  crypto: CryptoPort;
  /** Creates a merchant (persisted) with the given public key; see `createMerchant`. */
  createMerchant(input: { loginPrefix: string; publicKeyPem: string }): Promise<Merchant>;
  /** Applies every request whose delay has passed. */
  finalizeDue(): void;
  clock(): number;
  /**
   * Answers an operation call as `POST <prefix>/paynet/api/*` would, without HTTP: the same body
   * limit, checks, engine and `onAttempt`. The console's proxy serves its `local` target with it.
   */
  answer(call: HttpCall): Promise<OperationAnswer>;
  /** `<plugin prefix>/paynet/api/`: the paths {@link answer} serves. */
  apiPath: string;
  /** A merchant's scenario choice, as `PUT /sandbox/scenarios/merchants/:login` sets it (the classroom's trainer). */
  setMerchantScenario(login: string, choice: ScenarioChoice): void;
  merchantScenario(login: string): ScenarioChoice;
}

export interface SandboxHooks {
  /** Called after every operation call under `/paynet/api/*`, accepted or refused. */
  onAttempt?: (attempt: SandboxAttempt) => void;
  /** Called once the plugin is set up, with what an embedder may use. */
  onReady?: (handle: SandboxHandle) => void;
  /**
   * How the scenario lab waits (added latency, a held answer): a timer on the event loop by
   * default; tests pass one they release themselves.
   */
  scenarioSleep?: (ms: number) => Promise<void>;
  /**
   * The client a call counts against in the budget of held answers; undefined: its remote address.
   * The classroom names the trainee, whose requests may come from one shared address.
   */
  heldClientOf?: (request: FastifyRequest) => string | undefined;
  /**
   * Where one merchant's callbacks may go, on top of the sandbox's host rule: a sentence saying why
   * not (and what to use instead), or undefined to allow. Checked when `server_callback_url` is
   * given (the request is refused) and again before each send (the attempt is recorded as refused).
   * The classroom confines a trainee's callbacks to their own inbox.
   */
  callbackRule?: (merchant: string, url: URL) => string | undefined;
}
