import { subscribe } from 'node:diagnostics_channel';
import { rootCertificates } from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';

/**
 * The corporate proxy settings, from HTTPS_PROXY / HTTP_PROXY / NO_PROXY (lowercase names win, as
 * curl and undici read them). A proxy URL may carry `user:password@` for Proxy-Authorization (Basic).
 */
export interface NetworkSettings {
  httpProxy?: string;
  httpsProxy?: string;
  /** Comma- or space-separated host names (a leading `.` or `*.` matches subdomains), optional `:port`; `*` for all. */
  noProxy: string;
}

/** A target's own TLS material, read from the files its entry names (PEM text). */
export interface TargetTls {
  /** Extra CAs trusted for this target, besides Node's built-in roots. */
  ca?: string;
  caFile?: string;
  /** Client certificate and key for mutual TLS. */
  cert?: string;
  certFile?: string;
  key?: string;
  keyFile?: string;
}

/** A proxy URL as shown to people: without user name or password. */
export function shownProxy(uri: string): string {
  try {
    const u = new URL(uri);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(the proxy)';
  }
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** Whether NO_PROXY exempts this URL's host (same rules as undici's EnvHttpProxyAgent and curl). */
export function bypassesProxy(url: URL, noProxy: string): boolean {
  const entries = noProxy.split(/[,\s]+/).filter((e) => e !== '');
  if (entries.includes('*')) return true;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of entries) {
    const m = /^(.+):(\d+)$/.exec(entry);
    if (m && !entry.startsWith('[') && Number(m[2]) !== port) continue;
    const name = (m && !entry.startsWith('[') ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy a request to `url` goes through, if any. */
export function proxyFor(url: URL, network: NetworkSettings): string | undefined {
  const proxy = url.protocol === 'https:' ? network.httpsProxy : network.httpProxy;
  if (!proxy || bypassesProxy(url, network.noProxy)) return undefined;
  return proxy;
}

/** How the proxy reaches one target: the dispatcher fetch uses, and the proxy in between (if any). */
export interface Route {
  dispatcher: Dispatcher;
  proxy?: string;
  tls?: TargetTls;
}

/**
 * One dispatcher per target (and per proxy decision), made on first use and kept: it holds the
 * target's keep-alive connections, its CA bundle and client certificate, and the CONNECT tunnel.
 */
export class UpstreamRoutes {
  private readonly routes = new Map<string, Route>();

  constructor(private readonly network: NetworkSettings) {
    watchTlsConnections();
  }

  /** Takes only what routing needs of a target (its name keys the cache), so config.ts imports this file and not the reverse. */
  route(target: { name: string; tls?: TargetTls }, url: URL): Route {
    const proxy = proxyFor(url, this.network);
    const key = `${target.name}\n${proxy ?? ''}`;
    let route = this.routes.get(key);
    if (!route) {
      const tls = target.tls
        ? {
            ...(target.tls.ca ? { ca: [...rootCertificates, target.tls.ca] } : {}),
            ...(target.tls.cert ? { cert: target.tls.cert, key: target.tls.key } : {}),
          }
        : undefined;
      // Plain http through a proxy is sent to it in absolute form (what proxies allow most widely);
      // https always goes through a CONNECT tunnel.
      const dispatcher = proxy
        ? new ProxyAgent({ uri: proxy, proxyTunnel: false, ...(tls ? { requestTls: tls } : {}) })
        : new Agent(tls ? { connect: tls } : {});
      route = { dispatcher, ...(proxy ? { proxy } : {}), ...(target.tls ? { tls: target.tls } : {}) };
      this.routes.set(key, route);
    }
    return route;
  }

  async close(): Promise<void> {
    const all = [...this.routes.values()];
    this.routes.clear();
    await Promise.all(all.map((r) => r.dispatcher.close().catch(() => undefined)));
  }
}

/** What was seen on the latest TLS connection to an origin: whether it answered, and any TLS alert. */
export interface TlsObservation {
  /** A TLS alert or error code seen on the socket (like ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED). */
  alert?: string;
  /** Bytes of HTTP answer received on it. */
  answered: number;
}

const observations = new Map<string, TlsObservation>();
let watching = false;

/**
 * Watches the TLS connections undici opens (its `undici:client:connected` diagnostics channel):
 * with TLS 1.3 a server checks the client certificate after the handshake, and its alert reaches
 * the socket but not the fetch error ("other side closed"), so the proxy keeps it to name the cause.
 */
export function watchTlsConnections(): void {
  if (watching) return;
  watching = true;
  subscribe('undici:client:connected', (message) => {
    const { socket, connectParams } = message as {
      socket: NodeJS.EventEmitter;
      connectParams: { protocol?: string; host?: string };
    };
    if (connectParams.protocol !== 'https:' || !connectParams.host) return;
    const seen: TlsObservation = { answered: 0 };
    observations.set(`https://${connectParams.host}`, seen);
    socket.on('data', (chunk: Buffer) => {
      seen.answered += chunk.length;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code?.startsWith('ERR_SSL_')) seen.alert = err.code;
    });
  });
}

/** The latest TLS observation for an https origin (consumed). */
export function takeTlsObservation(origin: string): TlsObservation | undefined {
  const seen = observations.get(origin);
  observations.delete(origin);
  return seen;
}
