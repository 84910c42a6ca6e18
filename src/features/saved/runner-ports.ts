/**
 * The browser's ports for a collection run (`CollectionRun`): the active profile signs, the proxy
 * carries, the profile and its variables are the environment, and callbacks come to this tab's
 * session inbox (the `server_callback_url` a saved request resolves to).
 */
import { browserTransport } from '../../browser/proxy-client.ts';
import { callbackUrl, InboxClient, sessionInbox } from '../../browser/callback-inbox.ts';
import { variablesStore } from '../../browser/variables-store.ts';
import { Signal } from '../../core/store.ts';
import type { CallbackEvent } from '../../contracts/callback-inbox.ts';
import type { CallbackInbox, RunPorts } from '../../model/collection-run.ts';
import type { Place, SigningRuntime } from '../../model/index.ts';
import { signingEnvFor, type SigningContext } from '../../model/signing-context.ts';
import { environmentSource } from '../../model/environment.ts';
import type { VariableSource } from '../../model/variables.ts';

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The profile as the run's environment, as `paysign run` makes one: its own ids and URL, the local
 * sandbox's test card when it targets the local sandbox, then the variables kept for it.
 */
function environmentOf(ctx: SigningContext, year: number): VariableSource {
  const ids: Record<string, string> = {};
  for (const ref of [ctx.endpoint, ctx.otherEndpoint])
    if (ref) ids[ref.kind === 'group' ? 'group_id' : 'endpoint_id'] = ref.id;
  return environmentSource(
    {
      name: ctx.profileName,
      kind: ctx.target.kind === 'local' ? 'local-sandbox' : 'custom',
      variables: { ...ids, ...variablesStore.getSnapshot()[ctx.profileId] },
    },
    { baseUrl: ctx.target.baseUrl, login: ctx.credentials.login, year },
  );
}

/** The session inbox, streamed while the run view is open; a wait is answered by any event for the order. */
class SessionCallbacks implements CallbackInbox {
  private readonly events: CallbackEvent[] = [];
  /** Told on every event: each wait checks whether its order's callback came. */
  private readonly arrived = new Signal();
  private readonly client = new InboxClient(sessionInbox(), (e) => {
    this.events.push(e);
    this.arrived.fire();
  });

  constructor() {
    this.client.open();
  }

  waitFor(orderid: string, signal: AbortSignal): Promise<Record<string, string> | undefined> {
    const find = () => this.events.find((e) => e.query.orderid === orderid && 'control' in e.query);
    return new Promise((resolve) => {
      const check = () => {
        const hit = find();
        if (!hit && !signal.aborted) return;
        stop();
        signal.removeEventListener('abort', check);
        resolve(hit?.query);
      };
      const stop = this.arrived.subscribe(check);
      signal.addEventListener('abort', check, { once: true });
      check();
      void this.client.refresh();
    });
  }

  close(): void {
    this.client.close();
  }
}

export function browserRunPorts(
  context: SigningContext,
  runtime: SigningRuntime,
): RunPorts & { close(): void } {
  const callbacks = new SessionCallbacks();
  // Where this console runs, read now (as the app's own place): callbacks come to this tab's inbox.
  const place: Place = { origin: location.origin, inboxUrl: callbackUrl(), login: context.credentials.login };
  return {
    env: signingEnvFor(context, place, runtime),
    transport: browserTransport(context.target),
    sleep,
    environment: environmentOf(context, new Date(runtime.clock()).getUTCFullYear()),
    callbacks,
    close: () => callbacks.close(),
  };
}
