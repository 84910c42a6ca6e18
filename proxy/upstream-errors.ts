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

function causeCode(err: unknown): { code: string | undefined; message: string } {
  let cause: unknown = err instanceof Error && err.cause !== undefined ? err.cause : err;
  // Happy-eyeballs connects report an AggregateError of per-address failures.
  if (cause instanceof AggregateError && cause.errors.length > 0) cause = cause.errors[0];
  const c = cause as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof c?.code === 'string' ? c.code : undefined,
    message: typeof c?.message === 'string' ? c.message : String(cause),
  };
}

/**
 * Turns a failed upstream `fetch` into a proxy answer that names the cause and says what to do:
 * 504 for the timeout, 502 for DNS, refused or reset connections and TLS failures.
 */
export function classifyUpstreamError(err: unknown, host: string, timeoutMs: number): ProxyError {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new ProxyError(
      504,
      'UPSTREAM_TIMEOUT',
      `${host} did not answer within ${timeoutMs} ms. Check that the gateway is reachable, or raise PROXY_TIMEOUT_MS.`,
    );
  }
  const { code, message } = causeCode(err);
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
      `${host} closed the connection before answering (${code}). Retry; if it persists, check the base URL's scheme (http/https) and any firewall in between.`,
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
      `${host} stopped answering (${code}). Retry later, or check the gateway.`,
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
