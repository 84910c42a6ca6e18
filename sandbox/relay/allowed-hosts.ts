import { isLoopbackHostname } from '../http-input.ts';

export interface HostPolicy {
  callbackAllowAnyHost: boolean;
  /** Host names the user allowed explicitly (lower case). */
  callbackHosts: readonly string[];
}

/**
 * Where callbacks and the relay may go: this machine, the hosts the user allowed explicitly
 * (`SANDBOX_CALLBACK_HOSTS`), or anywhere with `SANDBOX_CALLBACKS_ANY_HOST=1`. http(s) only.
 */
export function callbackHostAllowed(url: URL, policy: HostPolicy): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (policy.callbackAllowAnyHost || isLoopbackHostname(url.hostname)) return true;
  return policy.callbackHosts.includes(url.hostname.toLowerCase());
}

/** The sentence of a refusal: which host, and how to allow it. */
export function hostRefusal(url: URL): string {
  return `Host "${url.hostname.slice(0, 80)}" is not allowed: the sandbox sends callbacks only to this machine (127.0.0.1, localhost, [::1]) and to the hosts listed in SANDBOX_CALLBACK_HOSTS.`;
}
