/**
 * The workbench session's send, loaded with its first Send (not on the first page): the
 * SendSession over the model's exchange, and the job of one Send.
 */
import type { BuiltRequest } from '../../../core/index.ts';
import type { Operation } from '../../../catalog/index.ts';
import { schemeOf, type RequestDraft } from '../../../model/index.ts';
import { signingEnvFor } from '../../../model/signing-context.ts';
import { endpointRefusal } from '../panes/build.ts';
import { SendSession, type SendJob } from '../send/send-session.ts';
import type { LiveBuild } from './live-build.ts';
import type { WorkbenchPorts, WorkbenchWhere } from './workbench-ports.ts';

/** What the send tells the session: a request built for it (on screen now), and the answer's key. */
export interface SendNews {
  built: (key: string, built: BuiltRequest) => void;
  answered: (sentKey: string) => void;
}

export function workbenchSender(ports: WorkbenchPorts, where: () => WorkbenchWhere, news: SendNews) {
  return new SendSession({
    prepare: (draft, env, options) =>
      ports.prepare(draft, env, options).catch((e: unknown) => {
        // The profile bar names what is wrong with the endpoint id, beside the field: say it once.
        const code = (e as { code?: unknown }).code;
        const context = where().context;
        if (context && typeof code === 'string' && (code === 'SEND_ENDPOINT' || code.startsWith('ENDPOINT_')))
          throw new Error(endpointRefusal(context.endpoint));
        throw e;
      }),
    lifecycle: ports.lifecycle,
    onExchange: ports.recorded,
    onBuilt: news.built,
    onAnswer: (outcome) => news.answered(outcome.sentKey),
  });
}

/** One Send: the form's resolved draft, signed as the panes show it, to the profile's target. */
export function sendJob(
  op: Operation,
  ports: WorkbenchPorts,
  { context, place }: WorkbenchWhere,
  draft: RequestDraft,
  key: string,
  live: LiveBuild,
  timeoutSeconds: number,
): SendJob {
  if (!context) throw new Error('No profile is active: fill in the profile bar first.');
  // Send what is on screen, byte for byte. Only an unpinned OAuth request is due a fresh
  // nonce and timestamp: the exchange builds it again, and the panes show what is sent.
  const fresh = schemeOf(op, draft) !== 'control' && draft.pinned === undefined;
  const shown = fresh ? undefined : live.shownFor(key, context);
  return {
    draft,
    key,
    env: signingEnvFor(context, place, ports.runtime),
    ...(shown ? { built: shown } : {}),
    party: { profileName: context.profileName, targetName: context.target.name },
    transport: ports.transport(context),
    timeoutSeconds,
  };
}
