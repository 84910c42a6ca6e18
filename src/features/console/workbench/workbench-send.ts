import type { RefObject } from 'react';
import {
  draftKey,
  schemeOf,
  type Place,
  type RequestDraft,
  type SigningRuntime,
} from '../../../model/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import { signingEnvFor, type SigningContext } from '../../../model/signing-context.ts';
import type { ExchangeRecord } from '../../../model/exchange.ts';
import { browserTransport } from '../../../browser/proxy-client.ts';
import { endpointRefusal } from '../panes/build.ts';
import type { PanesHandle } from '../panes/live-panes.tsx';
import { SendSession, type SendJob, type SendOutcome } from '../send/send-session.ts';

const loadLifecycle = () => import('../send/send-lifecycle.ts');
// The model's exchange (prepare → send → read → record) loads with the first Send.
const loadExchange = () => import('../../../model/exchange.ts');

/** The workbench's SendSession with the browser's ports: the model's exchange, the send lifecycle. */
export function browserSendSession(
  contextRef: RefObject<SigningContext | null>,
  panesRef: RefObject<PanesHandle | null>,
  onExchange: (record: ExchangeRecord) => void,
  onAnswer: (outcome: SendOutcome) => void,
): SendSession {
  return new SendSession({
    prepare: (d, env, options) =>
      loadExchange().then((m) =>
        m.prepareExchange(d, env, options).catch((e: unknown) => {
          // The profile bar names what is wrong with the endpoint id, beside the field: say it once.
          const code = (e as { code?: unknown }).code;
          const ctx = contextRef.current;
          if (ctx && typeof code === 'string' && (code === 'SEND_ENDPOINT' || code.startsWith('ENDPOINT_')))
            throw new Error(endpointRefusal(ctx.endpoint));
          throw e;
        }),
      ),
    lifecycle: (seconds) => loadLifecycle().then((m) => new m.SendLifecycle(seconds)),
    onExchange,
    onBuilt: (key, built) => {
      const ctx = contextRef.current;
      if (ctx) panesRef.current?.show(key, ctx, built);
    },
    onAnswer,
  });
}

/** The job of one Send: the form's draft, signed as the panes show it, to the profile's target. */
export function workbenchSendJob(
  op: Operation,
  ctx: SigningContext | null,
  draft: RequestDraft,
  shown: ReturnType<PanesHandle['shown']> | undefined,
  place: Place,
  runtime: SigningRuntime,
  timeoutSeconds: number,
): SendJob {
  if (!ctx) throw new Error('No profile is active: fill in the profile bar first.');
  const key = draftKey(draft);
  // Send what is on screen, byte for byte. Only an unpinned OAuth request is due a fresh
  // nonce and timestamp: the exchange builds it again, and the panes show what is sent.
  const fresh = schemeOf(op, draft) !== 'control' && draft.pinned === undefined;
  const reuse = !fresh && shown && shown.key === key && shown.context === ctx;
  return {
    draft,
    key,
    env: signingEnvFor(ctx, place, runtime),
    ...(reuse ? { built: shown.built } : {}),
    party: { profileName: ctx.profileName, targetName: ctx.target.name },
    transport: browserTransport(ctx.target),
    timeoutSeconds,
  };
}
