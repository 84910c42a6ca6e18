import type { FastifyInstance } from 'fastify';
import { isSandboxAccess } from '../sandbox/route-access.ts';

/** The console's Content-Security-Policy: no inline script, no foreign connection. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  // Monaco injects <style> elements.
  "style-src 'self' 'unsafe-inline'",
  "worker-src 'self' blob:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The development CSP: Vite's React refresh preamble is an inline module script and its hot
 * reload talks over a WebSocket on the same host, so `npm run dev` relaxes exactly those two.
 */
export const DEV_CSP = CONSOLE_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
  "connect-src 'self'",
  "connect-src 'self' ws: wss:",
);

export const PROTECTIVE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/** What the sandbox's answers get: its pages keep their own policy and framing rules. */
export const SANDBOX_PROTECTIVE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** All security headers for a console page, for responses written outside fastify's reply (hijacked). */
export function consoleHeaders(csp: string = CONSOLE_CSP): Record<string, string> {
  return { 'content-security-policy': csp, ...PROTECTIVE_HEADERS };
}

/**
 * Adds the protective headers to every answer that does not set them itself. The sandbox's routes
 * (their declared access says so) keep their own Content-Security-Policy and framing rules; they get only
 * `nosniff` and `no-referrer`.
 */
export function installSecurityHeaders(app: FastifyInstance, csp: string = CONSOLE_CSP): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const sandbox = isSandboxAccess(request.routeOptions.config.access);
    const headers = sandbox ? SANDBOX_PROTECTIVE_HEADERS : consoleHeaders(csp);
    for (const [name, value] of Object.entries(headers)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });
}
