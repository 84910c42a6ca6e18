import { shownProxy, type TlsObservation } from './upstream-network.ts';

/** The proxy's own failures: every one answers `{ error: { code, message } }` with an HTTP status. */
export class ProxyError extends Error {
  override readonly name = 'ProxyError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|EPROTO$|HOSTNAME_MISMATCH)/;

/** The server's certificate chain does not lead to a trusted CA. */
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
]);

const PROXY_UNREACHABLE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** TLS alerts a server sends when it does not accept (or did not get) the client's certificate. */
const CLIENT_CERT_ALERTS =
  /^ERR_SSL_(TLSV13_ALERT_CERTIFICATE_REQUIRED|SSLV3_ALERT_BAD_CERTIFICATE|SSLV3_ALERT_CERTIFICATE_UNKNOWN|SSLV3_ALERT_CERTIFICATE_EXPIRED|SSLV3_ALERT_CERTIFICATE_REVOKED|SSLV3_ALERT_UNSUPPORTED_CERTIFICATE|TLSV1_ALERT_UNKNOWN_CA|TLSV1_ALERT_ACCESS_DENIED|PEER_DID_NOT_RETURN_A_CERTIFICATE)$/;

/** What the proxy knows about the failed request, to name the cause and the fix. */
export interface UpstreamContext {
  /** host[:port] of the upstream URL. */
  host: string;
  timeoutMs: number;
  /** The target's name (the fix names it in the targets file). */
  target: string;
  /** The corporate proxy the request went through, if any (credentials are never shown). */
  proxy?: string;
  /** The variable it came from. */
  proxyVariable?: 'HTTPS_PROXY' | 'HTTP_PROXY';
  clientCertificate?: boolean;
  customCa?: boolean;
  /** What the latest TLS connection to the upstream showed (https only). */
  tls?: TlsObservation;
}

interface ChainLink {
  code?: string;
  message: string;
  name?: string;
  /** The names a server certificate lists (hostname mismatch errors carry the certificate). */
  altnames?: string;
}

function errorChain(err: unknown): ChainLink[] {
  const out: ChainLink[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e !== undefined && e !== null; depth++) {
    if (e instanceof AggregateError && e.errors.length > 0) e = e.errors[0];
    const c = e as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown; cert?: unknown };
    const altnames = (c.cert as { subjectaltname?: unknown } | undefined)?.subjectaltname;
    out.push({
      ...(typeof altnames === 'string' ? { altnames } : {}),
      ...(typeof c.code === 'string' ? { code: c.code } : {}),
      message: typeof c.message === 'string' ? c.message : String(e),
      ...(typeof c.name === 'string' ? { name: c.name } : {}),
    });
    e = c.cause;
  }
  return out;
}

/**
 * Turns a failed upstream `fetch` into a proxy answer that names the cause and says what to do:
 * 504 for the timeout, 502 for DNS, refused or reset connections and TLS failures.
 */
export function classifyUpstreamError(err: unknown, ctx: UpstreamContext): ProxyError {
  const { host, timeoutMs } = ctx;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new ProxyError(
      504,
      'UPSTREAM_TIMEOUT',
      `${host} did not answer within ${timeoutMs} ms. The request may have reached the gateway: check with status before sending it again; raise PROXY_TIMEOUT_MS if the gateway is slow.`,
    );
  }
  const chain = errorChain(err);
  // The innermost error with a code says what happened (fetch wraps it in "fetch failed").
  const coded = chain.filter((c) => c.code !== undefined && c.code !== 'UND_ERR_ABORTED');
  const innermost = coded[coded.length - 1] ?? chain[chain.length - 1] ?? { message: String(err) };
  const code = innermost.code;
  const message = innermost.message;
  const proxyFailure = proxyError(chain, ctx);
  if (proxyFailure) return proxyFailure;
  const altnames = chain.find((c) => c.altnames !== undefined)?.altnames;
  const tlsFailure =
    tlsError(ctx.tls?.alert ?? code, altnames ? `the certificate lists ${altnames}` : message, ctx) ??
    closedAfterHandshake(code, ctx);
  if (tlsFailure) return tlsFailure;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') {
    return new ProxyError(
      502,
      'UPSTREAM_DNS',
      `The host name ${host} could not be resolved (DNS ${code}). Check the target's base URL for typos and your network or VPN.`,
    );
  }
  if (code === 'ECONNREFUSED') {
    return new ProxyError(
      502,
      'UPSTREAM_REFUSED',
      `${host} refused the connection (nothing listens on that port). Check the target's base URL and port, and that the server is running.`,
    );
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return new ProxyError(
      502,
      'UPSTREAM_RESET',
      `${host} closed the connection before answering (${code}). The request may have reached the gateway: check with status before sending it again (never with a new client_orderid); if it happens on every request, check the base URL's scheme (http/https) and any firewall in between.`,
    );
  }
  if (code && TLS_CODES.test(code)) {
    return new ProxyError(
      502,
      'UPSTREAM_TLS',
      `The TLS connection to ${host} failed (${code}: ${message.split('\n')[0]?.slice(0, 160)}). Check that the base URL's scheme matches the server (https vs http) and that its certificate is valid.`,
    );
  }
  if (
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new ProxyError(
      502,
      'UPSTREAM_UNREACHABLE',
      `${host} cannot be reached (${code}). Check your network, VPN or proxy settings.`,
    );
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ProxyError(
      504,
      'UPSTREAM_TIMEOUT',
      `${host} stopped answering (${code}). The request may have reached the gateway: check with status before sending it again.`,
    );
  }
  if (message === 'bad port') {
    return new ProxyError(
      502,
      'UPSTREAM_BAD_PORT',
      `The port of ${host} is one that HTTP clients refuse to use (a blocked port). Use the gateway's real port.`,
    );
  }
  if (code?.startsWith('HPE_')) {
    return new ProxyError(
      502,
      'UPSTREAM_PROTOCOL',
      `${host} answered something that is not HTTP (${code}). Check the base URL's scheme and port.`,
    );
  }
  return new ProxyError(
    502,
    'UPSTREAM_FAILED',
    `The request to ${host} failed (${code ?? message.slice(0, 160)}). Check the target's base URL and your network.`,
  );
}

/** Failures of the corporate proxy itself: refused, unreachable, asking for credentials, refusing the tunnel. */
function proxyError(
  chain: ReadonlyArray<{ code?: string; message: string }>,
  ctx: UpstreamContext,
): ProxyError | undefined {
  if (!ctx.proxy) return undefined;
  const shown = shownProxy(ctx.proxy);
  const variable = ctx.proxyVariable ?? 'HTTPS_PROXY';
  const hasCredentials = /^[a-z]+:\/\/[^/@]+@/i.test(ctx.proxy);
  for (const c of chain) {
    // undici: "Proxy response (403) !== 200 when HTTP Tunneling", "Proxy Authentication Required (407)".
    const status = /Proxy response \((\d{3})\)|Proxy Authentication Required \((407)\)/.exec(c.message);
    const statusCode = status?.[1] ?? status?.[2];
    if (statusCode === '407') {
      return new ProxyError(
        502,
        'PROXY_AUTH_REQUIRED',
        hasCredentials
          ? `The proxy ${shown} refused the user name and password in ${variable} (407 Proxy Authentication Required). Check them (percent-encode "@", ":" and "%" in them).`
          : `The proxy ${shown} asks for credentials (407 Proxy Authentication Required). Put them in ${variable}, like http://user:password@${new URL(ctx.proxy).host}.`,
      );
    }
    if (statusCode) {
      return new ProxyError(
        502,
        'PROXY_TUNNEL_FAILED',
        `The proxy ${shown} would not open a tunnel to ${ctx.host} (it answered ${statusCode} to CONNECT). The proxy may block that host or port; ask your network team, or add the host to NO_PROXY if it is reachable directly.`,
      );
    }
  }
  // Through a proxy, the only connection this server opens is to the proxy: a refused or
  // unreachable connection is the proxy's (the upstream's own failures come back as CONNECT statuses).
  const first = chain.find((c) => c.code !== undefined && c.code !== 'UND_ERR_ABORTED');
  if (first?.code === 'ECONNREFUSED') {
    return new ProxyError(
      502,
      'PROXY_REFUSED',
      `The proxy ${shown} (from ${variable}) refused the connection: nothing listens there. Check the proxy's host and port, or unset ${variable} (or add ${ctx.host} to NO_PROXY) to connect directly.`,
    );
  }
  if (first?.code && PROXY_UNREACHABLE_CODES.has(first.code)) {
    return new ProxyError(
      502,
      'PROXY_UNREACHABLE',
      `The proxy ${shown} (from ${variable}) cannot be reached (${first.code}). Check its host name and your network or VPN.`,
    );
  }
  return undefined;
}

/** Certificate failures, each named with its fix. */
function tlsError(code: string | undefined, message: string, ctx: UpstreamContext): ProxyError | undefined {
  if (!code) return undefined;
  const { host, target } = ctx;
  const detail = message.split('\n')[0]?.slice(0, 200) ?? '';
  if (UNTRUSTED_CODES.has(code)) {
    return new ProxyError(
      502,
      'UPSTREAM_CERT_UNTRUSTED',
      ctx.customCa
        ? `The certificate of ${host} is not trusted (${code}): it is not signed by a CA in target "${target}"'s caFile nor by a public CA. Check that caFile holds the CA (and any intermediate) that signed it.`
        : `The certificate of ${host} is not trusted (${code}): it is not signed by a public CA. If your company inspects TLS or the gateway uses a private CA, add that CA's PEM bundle as "caFile" of target "${target}" in PROXY_TARGETS_FILE.`,
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return new ProxyError(
      502,
      'UPSTREAM_CERT_HOSTNAME',
      `The certificate of ${host} is for other names (${detail}). Check the host in target "${target}"'s baseUrl: use a name the certificate lists.`,
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new ProxyError(
      502,
      'UPSTREAM_CERT_EXPIRED',
      `The certificate of ${host} is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'}. Check this machine's clock, or tell the gateway's operator.`,
    );
  }
  if (CLIENT_CERT_ALERTS.test(code)) {
    return new ProxyError(
      502,
      'UPSTREAM_CLIENT_CERT_REJECTED',
      ctx.clientCertificate
        ? `${host} rejected the client certificate of target "${target}" (${code}). Check that certFile is the certificate the gateway registered for you, with its chain, and not expired.`
        : `${host} asks for a client certificate (mutual TLS) and got none (${code}). Add "certFile" and "keyFile" to target "${target}" in PROXY_TARGETS_FILE.`,
    );
  }
  return undefined;
}

/**
 * An https server that closes the connection after the handshake without a byte of answer: with
 * TLS 1.3 that is how many servers refuse a client certificate (they check it after the handshake).
 */
function closedAfterHandshake(code: string | undefined, ctx: UpstreamContext): ProxyError | undefined {
  if (!ctx.tls || ctx.tls.answered > 0) return undefined;
  if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET' && code !== 'EPIPE') return undefined;
  if (!ctx.clientCertificate) return undefined;
  return new ProxyError(
    502,
    'UPSTREAM_CLIENT_CERT_REJECTED',
    `${ctx.host} closed the connection right after the TLS handshake without answering (${code}): it rejected the client certificate of target "${ctx.target}", as servers checking it after a TLS 1.3 handshake do. Check that certFile is the certificate the gateway registered for you, with its chain, and not expired.`,
  );
}
