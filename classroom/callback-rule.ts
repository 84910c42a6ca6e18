import { INBOX_NAME } from '../proxy/callback-inbox.ts';
import { isLoopbackHostname } from '../sandbox/http-input.ts';

/** The setting of the hosts a trainer lets trainees' callbacks reach besides their own inbox. */
export const CLASSROOM_CALLBACK_HOSTS_ENV = 'CLASSROOM_CALLBACK_HOSTS';

/** One allowed host: any port of it, or only `port`. */
export interface AllowedCallbackHost {
  host: string;
  port?: number;
}

/**
 * Reads `CLASSROOM_CALLBACK_HOSTS`: host names or `host:port`, separated by commas
 * (`handler.lab.example, 127.0.0.1:9000`). Throws an Error naming the setting on a bad entry.
 */
export function parseCallbackHosts(raw: string | undefined): AllowedCallbackHost[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const entry = part.trim().toLowerCase();
    const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(entry);
    const port = m?.[2] === undefined ? undefined : Number(m[2]);
    if (!m || (port !== undefined && (port < 1 || port > 65_535)))
      throw new Error(
        `${CLASSROOM_CALLBACK_HOSTS_ENV}: "${entry.slice(0, 80)}" is not a host or host:port (e.g. handler.lab.example,127.0.0.1:9000).`,
      );
    return port === undefined ? { host: m[1]! } : { host: m[1]!, port };
  });
}

export interface CallbackRuleOptions {
  /** The trainee merchant's login → their trainee id (undefined: not a trainee's merchant). */
  traineeOfLogin: (login: string) => string | undefined;
  /** Inbox name → the trainee who owns it (shared with the inbox readers' access rule). */
  inboxOwners: Map<string, string>;
  /** This server's port, once it listens. */
  port: () => number;
  /** `host:port` names of this server (its Host allow-list: loopback names, the trainer's addresses). */
  serverHosts: () => ReadonlySet<string>;
  allowed: readonly AllowedCallbackHost[];
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Classroom mode's rule for trainees' callbacks (`SandboxHooks.callbackRule`): the sandbox calls a
 * trainee's `server_callback_url` only when it is their own callback inbox on this server
 * (`/callbacks/<name>`, claimed for them if nobody reads it yet) or a host the trainer listed in
 * CLASSROOM_CALLBACK_HOSTS. Anything else (another port of this machine, another trainee's inbox,
 * a path of this server other than an inbox) is refused: the sentence says why.
 */
export function traineeCallbackRule(opts: CallbackRuleOptions) {
  return (login: string, url: URL): string | undefined => {
    const trainee = opts.traineeOfLogin(login);
    if (trainee === undefined) return undefined;
    const host = url.hostname.toLowerCase();
    const port = portOf(url);
    if (opts.allowed.some((a) => a.host === host && (a.port === undefined || a.port === port)))
      return undefined;
    const here = `http://127.0.0.1:${opts.port()}/callbacks/<name>`;
    const advice = `In the classroom your callbacks go to your own inbox (${here}, the console's callbacks panel fills it in) or to hosts the trainer allows in ${CLASSROOM_CALLBACK_HOSTS_ENV}`;
    const thisServer =
      url.protocol === 'http:' &&
      port === opts.port() &&
      (isLoopbackHostname(host) || opts.serverHosts().has(`${host}:${port}`));
    if (!thisServer) return `server_callback_url "${host}:${port}" is refused. ${advice}.`;
    const m = /^\/callbacks\/([^/]+)$/.exec(url.pathname);
    const inbox = m?.[1];
    if (inbox === undefined || !INBOX_NAME.test(inbox))
      return `server_callback_url "${url.pathname.slice(0, 80)}" is not a callback inbox of this server. ${advice}.`;
    const owner = opts.inboxOwners.get(inbox);
    if (owner === undefined) opts.inboxOwners.set(inbox, trainee);
    else if (owner !== trainee)
      return `server_callback_url: the inbox "${inbox}" belongs to another trainee. ${advice}.`;
    return undefined;
  };
}
